/* Datatypes the OPTCOLL_* calls do not take, through liboptcoll_pmpi.so: an
 * ordinary MPI program (run by run_pmpi_test.sh like plain_collectives.c,
 * with the same output format) whose output must not change with the
 * library. Reductions on such datatypes go to PMPI_* (counted as
 * "unsupported", fallbacks in the library's summary); the copy collectives
 * and exchanges move them as bytes (counted as "moving").
 *
 *   - extent 0 (MPI_INT resized to extent 0) with count > 1: every element
 *     is the same int. Sums of equal elements are equal, so the result is
 *     the same whichever element MPI writes last;
 *   - extent -4 (MPI_INT resized, elements descending in memory);
 *   - a predefined operator on a derived datatype (MPI_SUM on
 *     contiguous(2, MPI_INT)), which MPICH accepts and Open MPI rejects:
 *     the error class is hashed, so both runs must agree either way.
 * Every call runs under MPI_ERRORS_RETURN; each rank hashes its results and
 * error classes, rank 0 prints every rank's hash and its call counts. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { BCAST, REDUCE, ALLGATHER, RS_BLOCK, RS, ALLREDUCE, GATHER, SCATTER, ALLTOALL, ALLTOALLV, SCAN, EXSCAN, NOPS };
static const char* op_names[NOPS] = {"MPI_Bcast", "MPI_Reduce", "MPI_Allgather", "MPI_Reduce_scatter_block",
                                     "MPI_Reduce_scatter", "MPI_Allreduce", "MPI_Gather", "MPI_Scatter",
                                     "MPI_Alltoall", "MPI_Alltoallv", "MPI_Scan", "MPI_Exscan"};
enum { MOVING, TRIVIAL, UNSUPPORTED, NKINDS };
static const char* kind_names[NKINDS] = {"moving", "trivial", "unsupported"};
static long counts[NOPS][NKINDS];
static uint64_t digest = 1469598103934665603ULL;
static int world_rank, p, rank;

static void hash(const void* data, size_t bytes) {
  const unsigned char* b = (const unsigned char*)data;
  for (size_t i = 0; i < bytes; ++i) digest = (digest ^ b[i]) * 1099511628211ULL;
}

/* The error class of rc, hashed; the call counted at world rank 0. */
static void done(int op, int kind, int rc) {
  int cls = MPI_SUCCESS;
  MPI_Error_class(rc, &cls);
  hash(&cls, sizeof cls);
  if (world_rank == 0) counts[op][kind == MOVING && p == 1 ? TRIVIAL : kind]++;
}

/* n ints around the middle of a fresh buffer, so that elements of extent
 * -4 (descending) and 0 (one int) stay inside it. */
#define SLOTS 256
static int* buffer(int salt) {
  int* b = malloc(sizeof(int) * SLOTS * (size_t)p);
  for (int i = 0; i < SLOTS * p; ++i) b[i] = (i * 7 + rank * 13 + salt) % 1000;
  return b;
}
static int* middle(int* b) {
  return b + SLOTS * p / 2;
}

static void reductions(MPI_Datatype t, MPI_Comm comm) {
  int *s = buffer(1), *r = buffer(2);
  int rcounts[1024];
  for (int i = 0; i < p; ++i) rcounts[i] = 2;
  done(ALLREDUCE, UNSUPPORTED, MPI_Allreduce(middle(s), middle(r), 3, t, MPI_SUM, comm));
  hash(r, sizeof(int) * SLOTS * (size_t)p);
  done(REDUCE, UNSUPPORTED, MPI_Reduce(middle(s), middle(r), 3, t, MPI_SUM, p - 1, comm));
  if (rank == p - 1) hash(r, sizeof(int) * SLOTS * (size_t)p);
  done(SCAN, UNSUPPORTED, MPI_Scan(middle(s), middle(r), 3, t, MPI_SUM, comm));
  hash(r, sizeof(int) * SLOTS * (size_t)p);
  done(EXSCAN, UNSUPPORTED, MPI_Exscan(middle(s), middle(r), 3, t, MPI_MAX, comm));
  if (rank > 0) hash(r, sizeof(int) * SLOTS * (size_t)p);
  done(RS_BLOCK, UNSUPPORTED, MPI_Reduce_scatter_block(middle(s), middle(r), 2, t, MPI_SUM, comm));
  hash(r, sizeof(int) * SLOTS * (size_t)p);
  done(RS, UNSUPPORTED, MPI_Reduce_scatter(middle(s), middle(r), rcounts, t, MPI_SUM, comm));
  hash(r, sizeof(int) * SLOTS * (size_t)p);
  free(s);
  free(r);
}

/* The copy collectives and exchanges with t on one side, MPI_INT on the
 * other (the same signature), receive_as where a receive may use t. */
static void copies(MPI_Datatype t, MPI_Datatype receive_as, MPI_Comm comm) {
  int *s = buffer(3), *r = buffer(4);
  const int root = p / 2;
  if (rank == root)
    done(BCAST, MOVING, MPI_Bcast(middle(s), 3, t, root, comm));
  else
    done(BCAST, MOVING, MPI_Bcast(middle(s), 3, MPI_INT, root, comm));
  hash(s, sizeof(int) * SLOTS * (size_t)p);
  done(ALLGATHER, MOVING, MPI_Allgather(middle(s), 2, t, r, 2, MPI_INT, comm));
  hash(r, sizeof(int) * SLOTS * (size_t)p);
  /* (Open MPI 4.1's own MPI_Gather crashes or hangs with the descending
   * type at 3 and 4 ranks: only extent 0 here.) */
  if (receive_as == MPI_INT) {
    done(GATHER, MOVING, MPI_Gather(middle(s), 2, t, r, 2, MPI_INT, 0, comm));
    if (rank == 0) hash(r, sizeof(int) * SLOTS * (size_t)p);
  }
  if (rank == root)
    done(SCATTER, MOVING, MPI_Scatter(middle(s), 2, t, r, 2, MPI_INT, root, comm));
  else
    done(SCATTER, MOVING, MPI_Scatter(NULL, 0, MPI_INT, r, 2, MPI_INT, root, comm));
  hash(r, sizeof(int) * 2);
  /* Alltoall: t sent at even ranks, received at odd ones where its
   * elements are distinct (not extent 0: which write lands last would
   * depend on the algorithm). */
  if (rank % 2 == 0)
    done(ALLTOALL, MOVING, MPI_Alltoall(middle(s), 2, t, r, 2, MPI_INT, comm));
  else
    done(ALLTOALL, MOVING, MPI_Alltoall(s, 2, MPI_INT, middle(r), 2, receive_as, comm));
  hash(r, sizeof(int) * SLOTS * (size_t)p);
  int sc[1024], sd[1024], rc[1024], rd[1024];
  for (int j = 0; j < p; ++j) {
    sc[j] = rc[j] = 1 + (j + rank) % 2; /* symmetric: i sends j as many as j sends i */
    sd[j] = -j;                         /* displacements in extents: t's elements are the same or descend */
    rd[j] = 2 * j;
  }
  done(ALLTOALLV, MOVING, MPI_Alltoallv(middle(s), sc, sd, t, r, rc, rd, MPI_INT, comm));
  hash(r, sizeof(int) * SLOTS * (size_t)p);
  free(s);
  free(r);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &rank);
  if (p > 1024) MPI_Abort(MPI_COMM_WORLD, 2);
  MPI_Datatype zero, descending, pair;
  MPI_Type_create_resized(MPI_INT, 0, 0, &zero);
  MPI_Type_commit(&zero);
  MPI_Type_create_resized(MPI_INT, 0, -(MPI_Aint)sizeof(int), &descending);
  MPI_Type_commit(&descending);
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);

  reductions(zero, comm);
  reductions(descending, comm);
  copies(zero, MPI_INT, comm);
  copies(descending, descending, comm);
  /* A predefined operator on a derived datatype. */
  int *s = buffer(5), *r = buffer(6);
  done(ALLREDUCE, UNSUPPORTED, MPI_Allreduce(s, r, 4, pair, MPI_SUM, comm));
  hash(r, sizeof(int) * 8);
  free(s);
  free(r);

  uint64_t* all = malloc(sizeof(uint64_t) * (size_t)p);
  PMPI_Gather(&digest, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  if (world_rank == 0) {
    for (int i = 0; i < p; ++i) printf("rank %d digest %016llx\n", i, (unsigned long long)all[i]);
    for (int op = 0; op < NOPS; ++op) {
      printf("calls %s", op_names[op]);
      for (int k = 0; k < NKINDS; ++k) printf(" %s=%ld", kind_names[k], counts[op][k]);
      printf("\n");
    }
  }
  free(all);
  MPI_Type_free(&zero);
  MPI_Type_free(&descending);
  MPI_Type_free(&pair);
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return 0;
}
