/* MPI's lifetime rules through liboptcoll_pmpi.so: an ordinary MPI program
 * that frees the datatype, the operator and the communicator of every
 * nonblocking and persistent collective right after making it, as MPI
 * allows, then completes it (a persistent one: five starts on new data,
 * then MPI_Request_free). Each call gets a fresh communicator (a duplicate
 * of MPI_COMM_WORLD), a fresh derived datatype (ints at 0 and 2 of every 4:
 * holes the call must not write; the reductions: 4 contiguous ints, a 2x2
 * matrix) and, for the reductions, a fresh non-commutative operator (the
 * matrix product mod a prime). Every receive buffer is checked word by
 * word against its closed form (holes and untouched words included).
 *
 * Run under the preload with every collective forced through optcoll
 * (run_freed_handles_test.sh). Not natively: Open MPI 4.1.4 itself
 * crashes when the communicator of a nonblocking reduction, or the
 * communicator or operator of a persistent collective, is freed before it
 * completes (a segmentation fault in its libnbc).
 *   freed_handles          exit code 0 when every check passed */
#include <mpi.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if MPI_VERSION >= 4
#define INIT(name) MPI_##name##_init
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define INIT(name) MPIX_##name##_init
#endif

enum { BCAST, REDUCE, ALLREDUCE, SCAN, EXSCAN, RSB, RS, ALLGATHER, ALLGATHERV, GATHER, GATHERV, SCATTER, SCATTERV,
       ALLTOALL, ALLTOALLV, NCOLLS };
static const char* names[NCOLLS] = {"Bcast",   "Reduce",     "Allreduce", "Scan",    "Exscan",
                                    "Reduce_scatter_block", "Reduce_scatter", "Allgather", "Allgatherv", "Gather",
                                    "Gatherv", "Scatter",    "Scatterv",  "Alltoall", "Alltoallv"};
static int rank, p;
static long errors;

#define COUNT 5
#define PRIME 1000003

static void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) {
    fprintf(stderr, "rank %d: %s failed (%d)\n", rank, what, rc);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

/* inout = in * inout, 2x2 matrices mod PRIME: associative, not commutative. */
static void matrix_fn(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  const int32_t* a = (const int32_t*)in;
  int32_t* b = (int32_t*)inout;
  for (int i = 0; i < *len; ++i, a += 4, b += 4) {
    const int64_t b0 = b[0], b1 = b[1], b2 = b[2], b3 = b[3];
    b[0] = (int32_t)((a[0] * b0 + a[1] * b2) % PRIME);
    b[1] = (int32_t)((a[0] * b1 + a[1] * b3) % PRIME);
    b[2] = (int32_t)((a[2] * b0 + a[3] * b2) % PRIME);
    b[3] = (int32_t)((a[2] * b1 + a[3] * b3) % PRIME);
  }
}

static MPI_Datatype fresh_type(int reduction) {
  MPI_Datatype t, v;
  if (reduction) {
    MPI_Type_contiguous(4, MPI_INT, &t);
  } else {
    MPI_Type_vector(2, 1, 2, MPI_INT, &v);
    MPI_Type_create_resized(v, 0, 4 * sizeof(int32_t), &t);
    MPI_Type_free(&v);
  }
  MPI_Type_commit(&t);
  return t;
}

/* Word w of element i of rank r's send buffer; holes (odd words of the
 * copy collectives' elements) hold -1. */
static int32_t value(int r, int i, int w, int salt, int reduction) {
  return reduction || w % 2 == 0 ? (i * 7 + w * 3 + r * 13 + salt * 31) % 1000 : -1;
}
static void fill(int32_t* b, int elems, int salt, int reduction) {
  for (int i = 0; i < elems; ++i)
    for (int w = 0; w < 4; ++w) b[4 * i + w] = value(rank, i, w, salt, reduction);
}

static int32_t sendbuf[4 * COUNT * 64], recvbuf[4 * COUNT * 64];
static int vcounts[64], vdispls[64], scounts[64], sdispls[64];

/* Makes collective c on comm with type t and operator op into *r. */
static int make(int c, int persistent, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request* r) {
  const int root = p - 1, mine = vcounts[rank];
#ifdef INIT
#define CALL(Name, name, ...) (persistent ? INIT(Name)(__VA_ARGS__, MPI_INFO_NULL, r) : MPI_I##name(__VA_ARGS__, r))
#else
#define CALL(Name, name, ...) MPI_I##name(__VA_ARGS__, r)
#endif
  switch (c) {
    case BCAST: return CALL(Bcast, bcast, sendbuf, COUNT, t, root, comm);
    case REDUCE: return CALL(Reduce, reduce, sendbuf, recvbuf, COUNT, t, op, root, comm);
    case ALLREDUCE: return CALL(Allreduce, allreduce, sendbuf, recvbuf, COUNT, t, op, comm);
    case SCAN: return CALL(Scan, scan, sendbuf, recvbuf, COUNT, t, op, comm);
    case EXSCAN: return CALL(Exscan, exscan, sendbuf, recvbuf, COUNT, t, op, comm);
    case RSB: return CALL(Reduce_scatter_block, reduce_scatter_block, sendbuf, recvbuf, COUNT, t, op, comm);
    case RS: return CALL(Reduce_scatter, reduce_scatter, sendbuf, recvbuf, vcounts, t, op, comm);
    case ALLGATHER: return CALL(Allgather, allgather, sendbuf, COUNT, t, recvbuf, COUNT, t, comm);
    case ALLGATHERV: return CALL(Allgatherv, allgatherv, sendbuf, mine, t, recvbuf, vcounts, vdispls, t, comm);
    case GATHER: return CALL(Gather, gather, sendbuf, COUNT, t, recvbuf, COUNT, t, root, comm);
    case GATHERV: return CALL(Gatherv, gatherv, sendbuf, mine, t, recvbuf, vcounts, vdispls, t, root, comm);
    case SCATTER: return CALL(Scatter, scatter, sendbuf, COUNT, t, recvbuf, COUNT, t, root, comm);
    case SCATTERV: return CALL(Scatterv, scatterv, sendbuf, vcounts, vdispls, t, recvbuf, mine, t, root, comm);
    case ALLTOALL: return CALL(Alltoall, alltoall, sendbuf, 2, t, recvbuf, 2, t, comm);
    default: return CALL(Alltoallv, alltoallv, sendbuf, scounts, sdispls, t, recvbuf, vcounts, vdispls, t, comm);
  }
#undef CALL
}

/* The product M_lo * ... * M_hi (2x2 mod PRIME) of the ranks' element i
 * (salt: the run), into out[4]; the identity for lo > hi. */
static void product(int lo, int hi, int i, int salt, int32_t* out) {
  int64_t m[4] = {1, 0, 0, 1};
  for (int r = lo; r <= hi; ++r) {
    const int64_t a0 = value(r, i, 0, salt, 1), a1 = value(r, i, 1, salt, 1), a2 = value(r, i, 2, salt, 1),
                  a3 = value(r, i, 3, salt, 1);
    const int64_t n0 = (m[0] * a0 + m[1] * a2) % PRIME, n1 = (m[0] * a1 + m[1] * a3) % PRIME;
    const int64_t n2 = (m[2] * a0 + m[3] * a2) % PRIME, n3 = (m[2] * a1 + m[3] * a3) % PRIME;
    m[0] = n0, m[1] = n1, m[2] = n2, m[3] = n3;
  }
  for (int w = 0; w < 4; ++w) out[w] = (int32_t)m[w];
}

/* What the call leaves in this rank's receive buffer (the send buffer for
 * Bcast): -1 where it writes nothing, and holes stay -1. */
static void expected(int c, int salt, int32_t* want) {
  const int root = p - 1, all = (int)(sizeof recvbuf / sizeof recvbuf[0]);
  for (int k = 0; k < all; ++k) want[k] = -1;
  int32_t* e = want;
  switch (c) {
    case BCAST:
      for (int i = 0; i < COUNT; ++i)
        for (int w = 0; w < 4; ++w) e[4 * i + w] = value(root, i, w, salt, 0);
      break;
    case REDUCE:
    case ALLREDUCE:
    case SCAN:
    case EXSCAN:
      if (c == REDUCE && rank != root) break;
      for (int i = 0; i < COUNT; ++i)
        product(0, c == SCAN ? rank : c == EXSCAN ? rank - 1 : p - 1, i, salt, e + 4 * i);
      break;
    case RSB:
      for (int i = 0; i < COUNT; ++i) product(0, p - 1, rank * COUNT + i, salt, e + 4 * i);
      break;
    case RS:
      for (int i = 0; i < vcounts[rank]; ++i) product(0, p - 1, vdispls[rank] + i, salt, e + 4 * i);
      break;
    case ALLGATHER:
    case GATHER:
      if (c == GATHER && rank != root) break;
      for (int j = 0; j < p; ++j)
        for (int i = 0; i < COUNT; ++i)
          for (int w = 0; w < 4; ++w) e[4 * (j * COUNT + i) + w] = value(j, i, w, salt, 0);
      break;
    case ALLGATHERV:
    case GATHERV:
      if (c == GATHERV && rank != root) break;
      for (int j = 0; j < p; ++j)
        for (int i = 0; i < vcounts[j]; ++i)
          for (int w = 0; w < 4; ++w) e[4 * (vdispls[j] + i) + w] = value(j, i, w, salt, 0);
      break;
    case SCATTER:
      for (int i = 0; i < COUNT; ++i)
        for (int w = 0; w < 4; ++w) e[4 * i + w] = value(root, rank * COUNT + i, w, salt, 0);
      break;
    case SCATTERV:
      for (int i = 0; i < vcounts[rank]; ++i)
        for (int w = 0; w < 4; ++w) e[4 * i + w] = value(root, vdispls[rank] + i, w, salt, 0);
      break;
    case ALLTOALL:
      for (int j = 0; j < p; ++j)
        for (int i = 0; i < 2; ++i)
          for (int w = 0; w < 4; ++w) e[4 * (j * 2 + i) + w] = value(j, rank * 2 + i, w, salt, 0);
      break;
    default: /* ALLTOALLV: j sends j % 3 + 1 elements to every rank, packed in rank order */
      for (int j = 0; j < p; ++j)
        for (int i = 0; i < vcounts[j]; ++i)
          for (int w = 0; w < 4; ++w) e[4 * (vdispls[j] + i) + w] = value(j, rank * vcounts[j] + i, w, salt, 0);
  }
}

static int32_t want[4 * COUNT * 64];

static void one(int c, int persistent) {
  const int reduction = c >= REDUCE && c <= RS;
  MPI_Comm comm;
  check(MPI_Comm_dup(MPI_COMM_WORLD, &comm), "MPI_Comm_dup");
  MPI_Datatype t = fresh_type(reduction);
  MPI_Op op = MPI_OP_NULL;
  if (reduction) check(MPI_Op_create(matrix_fn, 0, &op), "MPI_Op_create");
  memset(recvbuf, 0xff, sizeof recvbuf);
  fill(sendbuf, COUNT * p, 0, reduction);
  MPI_Request r = MPI_REQUEST_NULL;
  check(make(c, persistent, t, op, comm, &r), names[c]);
  check(MPI_Type_free(&t), "MPI_Type_free");
  if (reduction) check(MPI_Op_free(&op), "MPI_Op_free");
  check(MPI_Comm_free(&comm), "MPI_Comm_free");
  const int runs = persistent ? 5 : 1;
  for (int run = 0; run < runs; ++run) {
    const int salt = persistent ? run + 1 : 0;
    if (persistent) {
      fill(sendbuf, COUNT * p, salt, reduction);
      check(MPI_Start(&r), "MPI_Start");
    }
    check(MPI_Wait(&r, MPI_STATUS_IGNORE), "MPI_Wait");
    if (c == EXSCAN && rank == 0) continue; /* undefined there */
    expected(c, salt, want);
    const int32_t* got = c == BCAST ? sendbuf : recvbuf;
    const int words = c == BCAST ? 4 * COUNT : (int)(sizeof recvbuf / sizeof recvbuf[0]);
    for (int k = 0; k < words; ++k)
      if (got[k] != want[k] && errors++ < 10)
        fprintf(stderr, "freed_handles: rank %d %s%s run %d word %d: got %d, want %d\n", rank,
                persistent ? "persistent " : "", names[c], run, k, got[k], want[k]);
  }
  if (persistent) check(MPI_Request_free(&r), "MPI_Request_free");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (p > 64) {
    if (rank == 0) fprintf(stderr, "freed_handles: at most 64 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int at = 0;
  for (int i = 0; i < p; ++i) {
    vcounts[i] = i % 3 + 1;
    vdispls[i] = at;
    at += vcounts[i];
    scounts[i] = rank % 3 + 1;
    sdispls[i] = i * (rank % 3 + 1);
  }
  for (int persistent = 0; persistent < 2; ++persistent) {
#ifndef INIT
    if (persistent) break;
#endif
    for (int c = 0; c < NCOLLS; ++c) one(c, persistent);
  }
  long all = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("freed_handles: %ld wrong words on %d ranks\n", all, p);
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
