/* The v collectives of the drop-in test program (plain_collectives.c):
 * MPI_Allgatherv, MPI_Gatherv, MPI_Scatterv and MPI_Alltoallv with
 * irregular counts (zeros among them, one large), displacements in reverse
 * rank order with gaps, roots 0, p/2 and p-1, MPI_IN_PLACE wherever MPI
 * allows it, and a derived datatype (an int with a hole after it) at some
 * ranks while the others pass MPI_INT with the same signature. Each rank
 * hashes its whole receive buffer, holes included (they must stay as they
 * were). Compiled with PLAIN_REQUEST_FORM or PLAIN_LARGE_COUNT
 * (request_forms.h), the same calls in their nonblocking or persistent
 * forms, or their large-count bindings. */
#include <mpi.h>
#if defined(PLAIN_REQUEST_FORM) || defined(PLAIN_LARGE_COUNT)
#include "request_forms.h"
#endif
#include <stdlib.h>

#include "plain_collectives.h"

/* Ints per element of t: 2 for the strided int, 1 for MPI_INT. */
static int ints_of(MPI_Datatype t) {
  return t == MPI_INT ? 1 : 2;
}

/* Allgatherv: rank i contributes (i * scale) % 5 * scale ints (some none),
 * placed in reverse rank order with a gap of one element. mode 0: MPI_INT;
 * 1: MPI_IN_PLACE; 2: odd ranks send strided ints, even ranks receive
 * them. */
static void allgatherv_case(int scale, int mode, MPI_Datatype strided, MPI_Comm comm) {
  int rank, p;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &p);
  int* counts = malloc(sizeof(int) * (size_t)p);
  int* displs = malloc(sizeof(int) * (size_t)p);
  int at = 0;
  long total = 0;
  for (int i = p - 1; i >= 0; --i) {
    counts[i] = (i * scale) % 5 * scale;
    displs[i] = at;
    at += counts[i] + 1;
    total += counts[i];
  }
  const MPI_Datatype st = mode == 2 && rank % 2 == 1 ? strided : MPI_INT;
  const MPI_Datatype rt = mode == 2 && rank % 2 == 0 ? strided : MPI_INT;
  const int ss = ints_of(st), rs = ints_of(rt), n = counts[rank];
  int* s = malloc(sizeof(int) * (size_t)(ss * n + 1));
  int* r = malloc(sizeof(int) * (size_t)(rs * (at + 1)));
  for (int i = 0; i < ss * n; ++i) s[i] = i % ss == 0 ? rank * 77 + i / ss : -1;
  for (int i = 0; i < rs * (at + 1); ++i) r[i] = -3;
  if (mode == 1)
    for (int i = 0; i < n; ++i) r[displs[rank] + i] = rank * 77 + i;
  MPI_Allgatherv(mode == 1 ? MPI_IN_PLACE : s, n, st, r, counts, displs, rt, comm);
  note(ALLGATHERV, comm, total * 4);
  hash(r, sizeof(int) * (size_t)(rs * (at + 1)));
  free(s);
  free(r);
  free(counts);
  free(displs);
}

/* Gatherv and Scatterv with irregular counts (some zero, one large) and
 * displacements in reverse rank order with gaps; MPI_IN_PLACE at the root
 * when in_place; with derived, the root's whole buffer and the odd ranks'
 * own blocks of strided ints. */
static void gatherv_scatterv_case(int scale, int root, int in_place, int derived, MPI_Datatype strided,
                                  MPI_Comm comm) {
  int rank, p;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &p);
  int* counts = malloc(sizeof(int) * (size_t)p);
  int* displs = malloc(sizeof(int) * (size_t)p);
  int at = 0;
  for (int i = p - 1; i >= 0; --i) {
    counts[i] = i % 3 == 1 ? 0 : (i == p / 2 ? 50 * scale : scale + i);
    displs[i] = at;
    at += counts[i] + 2;
  }
  const int is_root = rank == root;
  const MPI_Datatype wt = derived && is_root ? strided : MPI_INT;      /* the root's whole buffer */
  const MPI_Datatype mt = derived && rank % 2 == 1 ? strided : MPI_INT; /* this rank's own block */
  const int ws = ints_of(wt), ms = ints_of(mt), n = counts[rank], all = ws * (at + 1);
  int* mine = malloc(sizeof(int) * (size_t)(ms * n + 1));
  int* whole = malloc(sizeof(int) * (size_t)all);
  for (int i = 0; i < ms * n; ++i) mine[i] = i % ms == 0 ? rank * 777 + i / ms : -6;
  for (int i = 0; i < all; ++i) whole[i] = is_root ? i * 11 : -4;
  if (is_root && in_place)
    for (int i = 0; i < n; ++i) whole[ws * (displs[root] + i)] = rank * 777 + i;
  MPI_Gatherv(is_root && in_place ? MPI_IN_PLACE : mine, n, mt, whole, counts, displs, wt, root, comm);
  note(GATHERV, comm, -1);
  if (is_root) hash(whole, sizeof(int) * (size_t)all);
  for (int i = 0; i < all; ++i) whole[i] = is_root ? i * 13 + 5 : -4;
  for (int i = 0; i < ms * n; ++i) mine[i] = -1;
  MPI_Scatterv(whole, counts, displs, wt, is_root && in_place ? MPI_IN_PLACE : mine, n, mt, root, comm);
  note(SCATTERV, comm, -1);
  if (!(is_root && in_place)) hash(mine, sizeof(int) * (size_t)(ms * n));
  free(mine);
  free(whole);
  free(counts);
  free(displs);
}

/* Alltoallv: (i + 2j) * scale % 5 * scale ints from i to j (some none),
 * received in reverse rank order with a gap of one element. mode 0:
 * MPI_INT; 1: MPI_IN_PLACE, with (i + j) * scale % 5 * scale ints between
 * i and j either way (the same counts both ways, as MPI_IN_PLACE needs);
 * 2: odd ranks send strided ints, even ranks receive them. Counted as
 * moving whenever p > 1 (no rank sees the whole payload). */
static void alltoallv_case(int scale, int mode, MPI_Datatype strided, MPI_Comm comm) {
  int rank, p;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &p);
  int* sc = malloc(sizeof(int) * (size_t)p);
  int* sd = malloc(sizeof(int) * (size_t)p);
  int* rc = malloc(sizeof(int) * (size_t)p);
  int* rd = malloc(sizeof(int) * (size_t)p);
  const int twice = mode == 1 ? 1 : 2;
  int sat = 0, rat = 0;
  for (int j = 0; j < p; ++j) {
    sc[j] = (rank + twice * j) * scale % 5 * scale;
    sd[j] = sat;
    sat += sc[j];
  }
  for (int i = p - 1; i >= 0; --i) {
    rc[i] = (i + twice * rank) * scale % 5 * scale;
    rd[i] = rat;
    rat += rc[i] + 1;
  }
  const MPI_Datatype st = mode == 2 && rank % 2 == 1 ? strided : MPI_INT;
  const MPI_Datatype rt = mode == 2 && rank % 2 == 0 ? strided : MPI_INT;
  const int ss = ints_of(st), rs = ints_of(rt);
  int* s = malloc(sizeof(int) * (size_t)(ss * sat + 1));
  int* r = malloc(sizeof(int) * (size_t)(rs * (rat + 1)));
  for (int i = 0; i < ss * sat; ++i) s[i] = i % ss == 0 ? rank * 1000 + i / ss : -1;
  for (int i = 0; i < rs * (rat + 1); ++i) r[i] = -9;
  if (mode == 1) /* what goes to rank i, where rank i's data will land */
    for (int i = 0; i < p; ++i)
      for (int k = 0; k < rc[i]; ++k) r[rd[i] + k] = rank * 1000 + i * 100 + k;
  MPI_Alltoallv(mode == 1 ? MPI_IN_PLACE : s, sc, sd, st, r, rc, rd, rt, comm);
  note(ALLTOALLV, comm, 1);
  hash(r, sizeof(int) * (size_t)(rs * (rat + 1)));
  free(s);
  free(r);
  free(sc);
  free(sd);
  free(rc);
  free(rd);
}

void v_cases(MPI_Comm comm) {
  int p;
  MPI_Comm_size(comm, &p);
  MPI_Datatype strided; /* an int and a hole of one int */
  MPI_Type_create_resized(MPI_INT, 0, 2 * (MPI_Aint)sizeof(int), &strided);
  MPI_Type_commit(&strided);
  /* (scales prime to 5, or every count is 0) */
  allgatherv_case(1, 0, strided, comm);
  allgatherv_case(301, 0, strided, comm);
  allgatherv_case(7, 1, strided, comm);
  allgatherv_case(41, 2, strided, comm);
  gatherv_scatterv_case(1, p / 2, 0, 0, strided, comm);
  gatherv_scatterv_case(40, p - 1, 1, 0, strided, comm);
  gatherv_scatterv_case(200, 0, 0, 0, strided, comm);
  gatherv_scatterv_case(30, p - 1, 0, 1, strided, comm);
  gatherv_scatterv_case(9, p / 2, 1, 1, strided, comm);
  alltoallv_case(1, 0, strided, comm);
  alltoallv_case(301, 0, strided, comm);
  alltoallv_case(7, 1, strided, comm);
  alltoallv_case(41, 2, strided, comm);
  MPI_Type_free(&strided);
}
