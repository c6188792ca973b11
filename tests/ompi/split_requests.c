/* A communicator split and freed while nonblocking and persistent
 * collectives on it run: every rank splits MPI_COMM_WORLD by parity,
 * starts an MPI_Iallreduce, an MPI_Ibcast and a persistent MPI_Allreduce
 * on the half, frees the half, runs a blocking MPI_Allreduce on
 * MPI_COMM_WORLD meanwhile, then completes the requests; every result is
 * checked against its closed form. Prints one line per rank count. Run
 * through optcoll only: natively, Open MPI 4.1.4's libnbc crashes now and
 * then when the communicator is freed before the requests complete. */
#include <mpi.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif
#include <stdio.h>

#if MPI_VERSION >= 4
#define ALLREDUCE_INIT MPI_Allreduce_init
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define ALLREDUCE_INIT MPIX_Allreduce_init
#endif

enum { N = 300 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, p = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  long bad = 0;
  for (int round = 0; round < 3; ++round) {
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    int hrank = 0, hp = 1;
    MPI_Comm_rank(half, &hrank);
    MPI_Comm_size(half, &hp);
    int s[N], sum[N], b[N], ps[N], psum[N];
    for (int i = 0; i < N; ++i) {
      s[i] = hrank + i + round;
      b[i] = hrank == 0 ? 7 * i + round : -1;
      ps[i] = 2 * hrank + i;
    }
    MPI_Request r[3];
    MPI_Iallreduce(s, sum, N, MPI_INT, MPI_SUM, half, &r[0]);
    MPI_Ibcast(b, N, MPI_INT, 0, half, &r[1]);
#ifdef ALLREDUCE_INIT
    ALLREDUCE_INIT(ps, psum, N, MPI_INT, MPI_SUM, half, MPI_INFO_NULL, &r[2]);
    MPI_Start(&r[2]);
#else
    MPI_Iallreduce(ps, psum, N, MPI_INT, MPI_SUM, half, &r[2]);
#endif
    MPI_Comm_free(&half);
    int one = 1, all = 0;
    MPI_Allreduce(&one, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (all != p) ++bad;
    MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
#ifdef ALLREDUCE_INIT
    MPI_Request_free(&r[2]);
#endif
    const int hsum = hp * (hp - 1) / 2;
    for (int i = 0; i < N; ++i) {
      if (sum[i] != hsum + hp * (i + round)) ++bad;
      if (b[i] != 7 * i + round) ++bad;
      if (psum[i] != 2 * hsum + hp * i) ++bad;
    }
  }
  long total = 0;
  MPI_Allreduce(&bad, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("split_requests: %ld wrong values on %d ranks\n", total, p);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
