/* Time per call of small MPI_Bcast, MPI_Allreduce and persistent
 * MPI_Bcast (MPIX_Bcast_init under Open MPI 4.1: one MPI_Start + MPI_Wait
 * per call) of an ordinary MPI program, for scripts/ab-component.sh (the
 * same program with and without the Open MPI component). Per size: `reps`
 * batches of `calls` calls, each batch timed between barriers; rank 0
 * prints the median batch's time per call.
 *   small_calls <calls> <reps> <bytes>...   prints: op,bytes,us */
#include <mpi.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif
#include <stdio.h>
#include <stdlib.h>

#if MPI_VERSION >= 4
#define BCAST_INIT MPI_Bcast_init
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define BCAST_INIT MPIX_Bcast_init
#endif

static int cmp(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc < 4) {
    fprintf(stderr, "usage: small_calls <calls> <reps> <bytes>...\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int calls = atoi(argv[1]), reps = atoi(argv[2]);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double* t = malloc(sizeof(double) * (size_t)reps);
  const char* ops[] = {"bcast", "allreduce", "bcast_persistent"};
  for (int a = 3; a < argc; ++a) {
    const int bytes = atoi(argv[a]);
    const int n = bytes / 8;
    double* in = calloc((size_t)n + 1, sizeof(double));
    double* out = calloc((size_t)n + 1, sizeof(double));
    for (int op = 0; op < 3; ++op) {
      MPI_Request r = MPI_REQUEST_NULL;
#ifdef BCAST_INIT
      if (op == 2) BCAST_INIT(in, n, MPI_DOUBLE, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
#else
      if (op == 2) continue;
#endif
      for (int k = -1; k < reps; ++k) { /* k = -1: warm-up */
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        for (int c = 0; c < calls; ++c) {
          if (op == 0) MPI_Bcast(in, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
          if (op == 1) MPI_Allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
          if (op == 2) {
            MPI_Start(&r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
          }
        }
        const double dt = (MPI_Wtime() - t0) / calls;
        double worst = 0;
        MPI_Reduce(&dt, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (k >= 0) t[k] = worst;
      }
      if (op == 2) MPI_Request_free(&r);
      if (rank == 0) {
        qsort(t, (size_t)reps, sizeof(double), cmp);
        printf("%s,%d,%.3f\n", ops[op], bytes, t[reps / 2] * 1e6);
      }
    }
    free(in);
    free(out);
  }
  free(t);
  MPI_Finalize();
  return 0;
}
