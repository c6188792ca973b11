/* The C API from a C program: OPTCOLL_Bcast, OPTCOLL_Reduce, Gatherv,
 * Scatterv and Gatherv_init against the native collectives, and one error
 * code through MPI_ERRORS_RETURN. Exits non-zero on any mismatch. */
#include <stdio.h>
#include <stdlib.h>

#include "optcoll/optcoll.h"

/* Gatherv, Scatterv and the persistent Gatherv_init against the native
 * calls; rank i holds 3i+1 ints, placed in reverse rank order at the root.
 * Returns the number of mismatches. */
static int check_gatherv(MPI_Comm comm, int rank, int size) {
  enum { P = 64, M = 3 * P * P };
  static int counts[P], displs[P], mine[3 * P + 1], x[M], y[M];
  int failures = 0, i = 0, root = 0, at = 0, n = 3 * rank + 1;
  OPTCOLL_Request req = OPTCOLL_REQUEST_NULL;
  if (size > P) return 0;
  for (i = size - 1; i >= 0; --i) {
    counts[i] = 3 * i + 1;
    displs[i] = at;
    at += counts[i];
  }
  for (root = 0; root < size; root += (size + 1) / 2) {
    for (i = 0; i < n; ++i) mine[i] = 1000 * rank + i + root;
    for (i = 0; i < at; ++i) x[i] = y[i] = -1;
    MPI_Gatherv(mine, n, MPI_INT, x, counts, displs, MPI_INT, root, comm);
    if (OPTCOLL_Gatherv(mine, n, MPI_INT, y, counts, displs, MPI_INT, root, comm) != MPI_SUCCESS) ++failures;
    if (rank == root)
      for (i = 0; i < at; ++i) failures += x[i] != y[i];
    for (i = 0; i < at; ++i) y[i] = -1;
    if (OPTCOLL_Gatherv_init(mine, n, MPI_INT, y, counts, displs, MPI_INT, root, comm, MPI_INFO_NULL, &req) !=
            MPI_SUCCESS ||
        OPTCOLL_Start(&req) != MPI_SUCCESS || OPTCOLL_Wait(&req, MPI_STATUS_IGNORE) != MPI_SUCCESS ||
        OPTCOLL_Request_free(&req) != MPI_SUCCESS)
      ++failures;
    if (rank == root)
      for (i = 0; i < at; ++i) failures += x[i] != y[i];
    for (i = 0; i < n; ++i) mine[i] = -1;
    if (OPTCOLL_Scatterv(x, counts, displs, MPI_INT, mine, n, MPI_INT, root, comm) != MPI_SUCCESS) ++failures;
    for (i = 0; i < n; ++i) failures += mine[i] != 1000 * rank + i + root;
  }
  return failures;
}

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
  failures += check_gatherv(comm, rank, size);
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
