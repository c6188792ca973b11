/* An unmodified program's small collectives, for counting what the drop-in
 * adds per call (scripts/callgrind-dropin.sh): each operation's calls in a
 * function of its own, so that callgrind can collect that function alone.
 *
 *   loop CALLS   (8 B: two MPI_INT; root 0; MPI_SUM) */
#include <mpi.h>
#include <stdlib.h>

void loop_bcast(int n) {
  int v[2] = {1, 2};
  for (int i = 0; i < n; ++i) MPI_Bcast(v, 2, MPI_INT, 0, MPI_COMM_WORLD);
}

void loop_allreduce(int n) {
  int v[2] = {1, 2}, w[2];
  for (int i = 0; i < n; ++i) MPI_Allreduce(v, w, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int calls = argc > 1 ? atoi(argv[1]) : 2000;
  int v[2] = {1, 2}, w[2];
  for (int i = 0; i < 100; ++i) { /* warm-up (not collected): plans built, compiled, calibrated */
    MPI_Bcast(v, 2, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Allreduce(v, w, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  loop_bcast(calls);
  loop_allreduce(calls);
  MPI_Finalize();
  return 0;
}
