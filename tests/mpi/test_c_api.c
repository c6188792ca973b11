/* The C API from a C program: OPTCOLL_Bcast and OPTCOLL_Reduce against the
 * native collectives, and one error code through MPI_ERRORS_RETURN. Exits
 * non-zero on any mismatch. */
#include <stdio.h>
#include <stdlib.h>

#include "optcoll/optcoll.h"

int main(int argc, char** argv) {
  int rank = 0, size = 0, failures = 0, i = 0, root = 0, rc = 0, cls = 0;
  enum { N = 4099 };
  static int a[N], b[N], c[N];
  MPI_Comm comm;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  for (root = 0; root < size; root += (size + 2) / 3) {
    for (i = 0; i < N; ++i) a[i] = b[i] = (rank == root) ? i * 7 - root : -1;
    MPI_Bcast(a, N, MPI_INT, root, comm);
    if (OPTCOLL_Bcast(b, N, MPI_INT, root, comm) != MPI_SUCCESS) ++failures;
    for (i = 0; i < N; ++i) failures += a[i] != b[i];
    for (i = 0; i < N; ++i) a[i] = (i % 13) * (rank + 1);
    MPI_Reduce(a, b, N, MPI_INT, MPI_SUM, root, comm);
    if (OPTCOLL_Reduce(a, c, N, MPI_INT, MPI_SUM, root, comm) != MPI_SUCCESS) ++failures;
    if (rank == root)
      for (i = 0; i < N; ++i) failures += b[i] != c[i];
  }
  rc = OPTCOLL_Bcast(a, N, MPI_INT, size, comm);
  MPI_Error_class(rc, &cls);
  failures += cls != MPI_ERR_ROOT;
  MPI_Comm_free(&comm);
  MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("optcoll C API test on %d ranks: %s (%d failures)\n", size, failures ? "FAILED" : "ok", failures);
  MPI_Finalize();
  return failures != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
