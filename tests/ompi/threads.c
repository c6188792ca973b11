/* Collectives from several threads at once (MPI_THREAD_MULTIPLE) under the
 * component: each of T threads owns a duplicate of MPI_COMM_WORLD (made in
 * order by the main thread, as MPI requires of collective calls on one
 * communicator) and runs blocking MPI_Allreduce and MPI_Bcast (every rank
 * the root in turn) and nonblocking MPI_Iallreduce on it, all threads at
 * the same time; every result is checked against its closed form. Exit
 * code 77 (skipped) where the library does not provide
 * MPI_THREAD_MULTIPLE. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

enum { T = 3, ROUNDS = 40, N = 257 };

struct Work {
  MPI_Comm comm;
  int thread;
  long bad;
};

static void* run(void* arg) {
  struct Work* w = (struct Work*)arg;
  int rank = 0, p = 1;
  MPI_Comm_rank(w->comm, &rank);
  MPI_Comm_size(w->comm, &p);
  int s[N], sum[N], b[N], is[N], isum[N];
  for (int round = 0; round < ROUNDS; ++round) {
    const int root = round % p;
    for (int i = 0; i < N; ++i) {
      s[i] = rank + i + w->thread;
      b[i] = rank == root ? 5 * i + round + w->thread : -1;
      is[i] = 3 * rank - i;
    }
    MPI_Request r;
    MPI_Iallreduce(is, isum, N, MPI_INT, MPI_SUM, w->comm, &r);
    MPI_Allreduce(s, sum, N, MPI_INT, MPI_SUM, w->comm);
    MPI_Bcast(b, N, MPI_INT, root, w->comm);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    const int ranks = p * (p - 1) / 2;
    for (int i = 0; i < N; ++i) {
      if (sum[i] != ranks + p * (i + w->thread)) ++w->bad;
      if (b[i] != 5 * i + round + w->thread) ++w->bad;
      if (isum[i] != 3 * ranks - p * i) ++w->bad;
    }
  }
  return NULL;
}

int main(int argc, char** argv) {
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank = 0, p = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (provided < MPI_THREAD_MULTIPLE) {
    if (rank == 0) printf("SKIPPED: the MPI library does not provide MPI_THREAD_MULTIPLE\n");
    MPI_Finalize();
    return 77;
  }
  struct Work work[T];
  pthread_t threads[T];
  for (int t = 0; t < T; ++t) {
    work[t].thread = t;
    work[t].bad = 0;
    MPI_Comm_dup(MPI_COMM_WORLD, &work[t].comm);
  }
  for (int t = 0; t < T; ++t) pthread_create(&threads[t], NULL, run, &work[t]);
  long bad = 0;
  for (int t = 0; t < T; ++t) {
    pthread_join(threads[t], NULL);
    bad += work[t].bad;
    MPI_Comm_free(&work[t].comm);
  }
  long all = 0;
  MPI_Allreduce(&bad, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("threads: p=%d, %d threads x %d rounds: %s (%ld wrong elements)\n", p, T, ROUNDS,
                        all == 0 ? "ok" : "FAILED", all);
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
