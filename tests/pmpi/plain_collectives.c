/* An ordinary MPI program, compiled against plain MPI only: the test of
 * liboptcoll_pmpi.so runs it with and without the library (LD_PRELOAD, and
 * linked) and requires identical output.
 *
 * It calls MPI_Bcast, MPI_Reduce, MPI_Allgather(v), MPI_Reduce_scatter(_block),
 * MPI_Allreduce, MPI_Gather(v), MPI_Scatter(v), MPI_Alltoall(v), MPI_Scan and
 * MPI_Exscan in many forms: counts 0 .. 10^5, roots 0, p-1, p/2, ranks
 * passing different datatypes with the same signature (a strided vector at
 * the root, MPI_INT elsewhere, and the reverse), MPI_DOUBLE_INT with
 * MPI_MINLOC, a non-commutative user operator, MPI_IN_PLACE, a
 * sub-communicator, an intercommunicator, and an invalid root under
 * MPI_ERRORS_RETURN; MPI_Init, or MPI_Init_thread with PLAIN_MPI_INIT_THREAD
 * set. The v collectives are in plain_v_cases.c. Each rank hashes every
 * result (and error class); rank 0
 * prints all ranks' hashes, then how many calls of each kind it made, which
 * the test compares with the library's OPTCOLL_VERBOSE=1 summary:
 *   calls MPI_Bcast moving=<n> trivial=<n> inter=<n> invalid=<n>
 * moving: an intracommunicator of p > 1 and a payload > 0; trivial: p = 1
 * or no payload; inter: on an intercommunicator; invalid: erroneous
 * arguments (both counted only where rank 0 takes part).
 * Compiled with PLAIN_REQUEST_FORM or PLAIN_LARGE_COUNT (request_forms.h),
 * it makes the same calls in their nonblocking or persistent forms, or
 * their large-count bindings. */
#include <mpi.h>
#if defined(PLAIN_REQUEST_FORM) || defined(PLAIN_LARGE_COUNT)
#include "request_forms.h"
#else
#define op_label(name) (name)
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plain_collectives.h"

static const char* op_names[NOPS] = {"MPI_Bcast",      "MPI_Reduce",    "MPI_Allgather",  "MPI_Allgatherv",
                                     "MPI_Reduce_scatter_block", "MPI_Reduce_scatter", "MPI_Allreduce",
                                     "MPI_Gather",     "MPI_Gatherv",   "MPI_Scatter",    "MPI_Scatterv",
                                     "MPI_Alltoall",   "MPI_Alltoallv", "MPI_Scan",       "MPI_Exscan"};
enum { MOVING, TRIVIAL, INTER, INVALID, NKINDS };
static const char* kind_names[NKINDS] = {"moving", "trivial", "inter", "invalid"};
static long counts[NOPS][NKINDS];
static uint64_t digest = 1469598103934665603ULL;
static int world_rank;

void hash(const void* data, size_t bytes) {
  const unsigned char* b = (const unsigned char*)data;
  for (size_t i = 0; i < bytes; ++i) digest = (digest ^ b[i]) * 1099511628211ULL;
}

/* Counted at world rank 0 only, which is where the summary comes from. */
void note(int op, MPI_Comm comm, long bytes) {
  int inter = 0, size = 1;
  if (world_rank != 0) return;
  MPI_Comm_test_inter(comm, &inter);
  MPI_Comm_size(comm, &size);
  counts[op][inter ? INTER : (size == 1 || bytes == 0) ? TRIVIAL : MOVING]++;
}

static void bcast_ints(int count, int root, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int* v = malloc(sizeof(int) * (size_t)(count + 1));
  for (int i = 0; i < count; ++i) v[i] = rank == root ? i * 7 + root : -1;
  MPI_Bcast(v, count, MPI_INT, root, comm);
  note(BCAST, comm, (long)count * 4);
  hash(v, sizeof(int) * (size_t)count);
  free(v);
}

/* The root sends n ints spread over 2n with a vector type; the others
 * receive n contiguous ints (and, with swap, the other way round). */
static void bcast_mixed(int n, int root, int swap, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  MPI_Datatype strided;
  MPI_Type_vector(n, 1, 2, MPI_INT, &strided);
  MPI_Type_commit(&strided);
  int* v = malloc(sizeof(int) * 2 * (size_t)n);
  for (int i = 0; i < 2 * n; ++i) v[i] = rank == root ? 3 * i + 1 : -5;
  const int use_strided = (rank == root) != swap;
  if (use_strided)
    MPI_Bcast(v, 1, strided, root, comm);
  else
    MPI_Bcast(v, n, MPI_INT, root, comm);
  note(BCAST, comm, (long)n * 4);
  hash(v, sizeof(int) * 2 * (size_t)n);
  free(v);
  MPI_Type_free(&strided);
}

/* 2x2 integer matrices mod 1000003, multiplied in rank order. */
static void matmul(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  long* a = (long*)in;
  long* b = (long*)inout;
  for (int i = 0; i < *len; ++i, a += 4, b += 4) {
    long c[4] = {(a[0] * b[0] + a[1] * b[2]) % 1000003, (a[0] * b[1] + a[1] * b[3]) % 1000003,
                 (a[2] * b[0] + a[3] * b[2]) % 1000003, (a[2] * b[1] + a[3] * b[3]) % 1000003};
    memcpy(b, c, sizeof c);
  }
}

static void reduce_case(int count, int root, int kind, MPI_Op matop, MPI_Datatype mat, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (kind == 0) { /* MPI_INT, MPI_SUM; MPI_IN_PLACE at the root for odd counts */
    int* s = malloc(sizeof(int) * (size_t)(count + 1));
    int* r = malloc(sizeof(int) * (size_t)(count + 1));
    for (int i = 0; i < count; ++i) s[i] = r[i] = (i * 31 + rank * 17) % 1000;
    const int in_place = rank == root && count % 2 == 1;
    MPI_Reduce(in_place ? MPI_IN_PLACE : s, r, count, MPI_INT, MPI_SUM, root, comm);
    if (rank == root) hash(r, sizeof(int) * (size_t)count);
    free(s);
    free(r);
    note(REDUCE, comm, (long)count * 4);
  } else if (kind == 1) { /* MPI_DOUBLE_INT, MPI_MINLOC */
    struct {
      double v;
      int i;
    }* s = malloc(sizeof(*s) * (size_t)(count + 1)), *r = malloc(sizeof(*s) * (size_t)(count + 1));
    for (int i = 0; i < count; ++i) {
      s[i].v = (double)((i * 13 + rank * 7) % 11);
      s[i].i = rank;
    }
    MPI_Reduce(s, r, count, MPI_DOUBLE_INT, MPI_MINLOC, root, comm);
    if (rank == root)
      for (int i = 0; i < count; ++i) {
        hash(&r[i].v, sizeof(double));
        hash(&r[i].i, sizeof(int));
      }
    free(s);
    free(r);
    int size;
    MPI_Type_size(MPI_DOUBLE_INT, &size);
    note(REDUCE, comm, (long)count * size);
  } else { /* non-commutative matrices */
    long* s = malloc(sizeof(long) * 4 * (size_t)(count + 1));
    long* r = malloc(sizeof(long) * 4 * (size_t)(count + 1));
    for (int i = 0; i < 4 * count; ++i) s[i] = (i * 5 + rank * 3 + 1) % 1000003;
    MPI_Reduce(s, r, count, mat, matop, root, comm);
    if (rank == root) hash(r, sizeof(long) * 4 * (size_t)count);
    free(s);
    free(r);
    note(REDUCE, comm, (long)count * 32);
  }
}

/* Allgather of n ints per rank; with mixed, the contribution is sent as one
 * contiguous(n) element and received into a strided (resized) int type. */
static void allgather_case(int n, int mixed, int in_place, MPI_Comm comm) {
  int rank, p;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &p);
  int* s = malloc(sizeof(int) * (size_t)(n + 1));
  int* r = malloc(sizeof(int) * 2 * (size_t)(n * p + 1));
  for (int i = 0; i < n; ++i) s[i] = rank * 1000 + i;
  for (int i = 0; i < 2 * (n * p + 1); ++i) r[i] = in_place && i / n == rank ? rank * 1000 + i % n : -7;
  if (mixed) {
    MPI_Datatype c, strided;
    MPI_Type_contiguous(n, MPI_INT, &c);
    MPI_Type_commit(&c);
    MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &strided);
    MPI_Type_commit(&strided);
    MPI_Allgather(s, 1, c, r, n, strided, comm);
    MPI_Type_free(&c);
    MPI_Type_free(&strided);
  } else {
    MPI_Allgather(in_place ? MPI_IN_PLACE : s, n, MPI_INT, r, n, MPI_INT, comm);
  }
  note(ALLGATHER, comm, (long)n * 4 * p);
  hash(r, sizeof(int) * 2 * (size_t)(n * p + 1));
  free(s);
  free(r);
}

/* Alltoall of n ints per block: plain, MPI_IN_PLACE, or mixed (each block
 * sent as one element of a contiguous n-int type, received as n MPI_INT). */
static void alltoall_case(int n, int mixed, int in_place, MPI_Comm comm) {
  int rank, p;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &p);
  int* s = malloc(sizeof(int) * (size_t)(n * p + 1));
  int* r = malloc(sizeof(int) * (size_t)(n * p + 1));
  for (int i = 0; i < n * p; ++i) s[i] = rank * 100000 + i;
  for (int i = 0; i <= n * p; ++i) r[i] = in_place && i < n * p ? s[i] : -5;
  if (mixed) {
    MPI_Datatype c;
    MPI_Type_contiguous(n, MPI_INT, &c);
    MPI_Type_commit(&c);
    MPI_Alltoall(s, 1, c, r, n, MPI_INT, comm);
    MPI_Type_free(&c);
  } else {
    MPI_Alltoall(in_place ? MPI_IN_PLACE : s, n, MPI_INT, r, n, MPI_INT, comm);
  }
  note(ALLTOALL, comm, (long)n * 4 * p);
  hash(r, sizeof(int) * (size_t)(n * p + 1));
  free(s);
  free(r);
}

/* Reduce_scatter_block and Reduce_scatter (MPI_SUM on ints; the
 * non-commutative matrices for the block variant), and Allreduce (MPI_SUM,
 * MPI_MAX on integer-valued doubles, the matrices, MPI_IN_PLACE). */
static void reduce_scatter_cases(int n, MPI_Op matop, MPI_Datatype mat, MPI_Comm comm) {
  int rank, p;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &p);
  long* s = malloc(sizeof(long) * 4 * (size_t)(n * p + 1));
  long* r = malloc(sizeof(long) * 4 * (size_t)(n + 1));
  for (int i = 0; i < 4 * n * p; ++i) s[i] = (i * 11 + rank * 5 + 2) % 1000003;
  for (int i = 0; i < 4 * n; ++i) r[i] = -1;
  MPI_Reduce_scatter_block(s, r, n, mat, matop, comm);
  note(RS_BLOCK, comm, (long)n * p * 32);
  hash(r, sizeof(long) * 4 * (size_t)n);
  int* si = malloc(sizeof(int) * (size_t)(n * p + p + 1));
  int* ri = malloc(sizeof(int) * (size_t)(2 * n + 2));
  int* counts = malloc(sizeof(int) * (size_t)p);
  long total = 0;
  for (int i = 0; i < p; ++i) total += counts[i] = (n + i) % 3 == 0 ? 0 : n + i % 2;
  for (int i = 0; i < n * p + p; ++i) si[i] = i % 1000 + rank;
  for (int i = 0; i < 2 * n + 2; ++i) ri[i] = -1;
  MPI_Reduce_scatter_block(si, ri, n, MPI_INT, MPI_SUM, comm);
  note(RS_BLOCK, comm, (long)n * p * 4);
  hash(ri, sizeof(int) * (size_t)n);
  MPI_Reduce_scatter(si, ri, counts, MPI_INT, MPI_SUM, comm);
  note(RS, comm, total * 4);
  hash(ri, sizeof(int) * (size_t)counts[rank]);
  free(s);
  free(r);
  free(si);
  free(ri);
  free(counts);
}

static void allreduce_cases(int n, MPI_Op matop, MPI_Datatype mat, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int* s = malloc(sizeof(int) * (size_t)(n + 1));
  int* r = malloc(sizeof(int) * (size_t)(n + 1));
  for (int i = 0; i < n; ++i) s[i] = r[i] = (i * 13 + rank) % 1000;
  MPI_Allreduce(n % 2 == 1 ? MPI_IN_PLACE : s, r, n, MPI_INT, MPI_SUM, comm);
  note(ALLREDUCE, comm, (long)n * 4);
  hash(r, sizeof(int) * (size_t)n);
  double* d = malloc(sizeof(double) * (size_t)(n + 1));
  double* e = malloc(sizeof(double) * (size_t)(n + 1));
  for (int i = 0; i < n; ++i) d[i] = (double)((i * 7 + rank * 3) % 101);
  MPI_Allreduce(d, e, n, MPI_DOUBLE, MPI_MAX, comm);
  note(ALLREDUCE, comm, (long)n * 8);
  hash(e, sizeof(double) * (size_t)n);
  if (n <= 1000) {
    long* a = malloc(sizeof(long) * 4 * (size_t)(n + 1));
    long* b = malloc(sizeof(long) * 4 * (size_t)(n + 1));
    for (int i = 0; i < 4 * n; ++i) a[i] = (i * 3 + rank * 7 + 1) % 1000003;
    MPI_Allreduce(a, b, n, mat, matop, comm);
    note(ALLREDUCE, comm, (long)n * 32);
    hash(b, sizeof(long) * 4 * (size_t)n);
    free(a);
    free(b);
  }
  free(s);
  free(r);
  free(d);
  free(e);
}

/* Gather and Scatter of n ints per rank to / from root; MPI_IN_PLACE at the
 * root when in_place; the root's side as n-int contiguous blocks of a
 * strided vector type when strided (the other ranks pass MPI_INT). */
static void gather_scatter_case(int n, int root, int in_place, int strided, MPI_Comm comm) {
  int rank, p;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &p);
  MPI_Datatype vec, block;
  MPI_Type_vector(n > 0 ? n : 1, 1, 2, MPI_INT, &vec);
  MPI_Type_create_resized(vec, 0, (MPI_Aint)(2 * (n > 0 ? n : 1) * (int)sizeof(int)), &block);
  MPI_Type_commit(&block);
  const int is_root = rank == root;
  const size_t all = 2 * (size_t)n * (size_t)p + 1;
  int* mine = malloc(sizeof(int) * (size_t)(n + 1));
  int* whole = malloc(sizeof(int) * all);
  for (int i = 0; i < n; ++i) mine[i] = rank * 1000 + i;
  for (size_t i = 0; i < all; ++i) whole[i] = is_root ? (int)(i * 3 + 7) : -2;
  const int use_block = is_root && strided && n > 0;
  if (is_root && in_place)
    for (int i = 0; i < n; ++i) whole[(use_block ? 2 : 1) * ((size_t)root * (size_t)n + (size_t)i)] = mine[i];
  MPI_Gather(is_root && in_place ? MPI_IN_PLACE : mine, n, MPI_INT, whole, use_block ? 1 : n,
             use_block ? block : MPI_INT, root, comm);
  note(GATHER, comm, (long)n * p * 4);
  if (is_root) hash(whole, sizeof(int) * all);
  for (size_t i = 0; i < all; ++i) whole[i] = is_root ? (int)(i * 5 + 1) : -2;
  for (int i = 0; i < n; ++i) mine[i] = -1;
  MPI_Scatter(whole, use_block ? 1 : n, use_block ? block : MPI_INT, is_root && in_place ? MPI_IN_PLACE : mine, n,
              MPI_INT, root, comm);
  note(SCATTER, comm, (long)n * p * 4);
  if (!(is_root && in_place)) hash(mine, sizeof(int) * (size_t)n);
  free(mine);
  free(whole);
  MPI_Type_free(&vec);
  MPI_Type_free(&block);
}

/* Scan and Exscan: MPI_SUM on ints (MPI_IN_PLACE for odd n), MPI_MAX on
 * doubles, the non-commutative matrices (rank order). Exscan's result at
 * rank 0 is undefined: not hashed. */
static void scan_cases(int n, MPI_Op matop, MPI_Datatype mat, MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  int* s = malloc(sizeof(int) * (size_t)(n + 1));
  int* r = malloc(sizeof(int) * (size_t)(n + 1));
  for (int ex = 0; ex < 2; ++ex) {
    for (int i = 0; i < n; ++i) s[i] = r[i] = (i * 17 + rank * 3) % 1000;
    const void* in = n % 2 == 1 ? MPI_IN_PLACE : s;
    if (ex)
      MPI_Exscan(in, r, n, MPI_INT, MPI_SUM, comm);
    else
      MPI_Scan(in, r, n, MPI_INT, MPI_SUM, comm);
    note(ex ? EXSCAN : SCAN, comm, (long)n * 4);
    if (!ex || rank > 0) hash(r, sizeof(int) * (size_t)n);
  }
  double* d = malloc(sizeof(double) * (size_t)(n + 1));
  double* e = malloc(sizeof(double) * (size_t)(n + 1));
  for (int i = 0; i < n; ++i) d[i] = (double)((i * 7 + rank * 5) % 101);
  MPI_Scan(d, e, n, MPI_DOUBLE, MPI_MAX, comm);
  note(SCAN, comm, (long)n * 8);
  hash(e, sizeof(double) * (size_t)n);
  if (n <= 1000) {
    long* a = malloc(sizeof(long) * 4 * (size_t)(n + 1));
    long* b = malloc(sizeof(long) * 4 * (size_t)(n + 1));
    for (int i = 0; i < 4 * n; ++i) a[i] = (i * 5 + rank * 11 + 3) % 1000003;
    MPI_Exscan(a, b, n, mat, matop, comm);
    note(EXSCAN, comm, (long)n * 32);
    if (rank > 0) hash(b, sizeof(long) * 4 * (size_t)n);
    MPI_Scan(a, b, n, mat, matop, comm);
    note(SCAN, comm, (long)n * 32);
    hash(b, sizeof(long) * 4 * (size_t)n);
    free(a);
    free(b);
  }
  free(s);
  free(r);
  free(d);
  free(e);
}

static void run_all(MPI_Comm comm, MPI_Op matop, MPI_Datatype mat) {
  int p;
  MPI_Comm_size(comm, &p);
  const int roots[3] = {0, p - 1, p / 2};
  const int counts_[5] = {0, 1, 7, 1000, 100000};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 5; ++c) {
      bcast_ints(counts_[c], roots[r], comm);
      for (int kind = 0; kind < 3; ++kind)
        if (c < 4 || kind == 0) reduce_case(counts_[c], roots[r], kind, matop, mat, comm);
    }
  bcast_mixed(1000, p - 1, 0, comm);
  bcast_mixed(333, 0, 1, comm);
  for (int c = 0; c < 5; ++c) {
    allreduce_cases(counts_[c], matop, mat, comm);
    scan_cases(counts_[c], matop, mat, comm);
    if (c < 4) {
      allgather_case(counts_[c], 0, c % 2, comm);
      if (counts_[c] > 0) allgather_case(counts_[c], 1, 0, comm);
      alltoall_case(counts_[c], 0, c % 2, comm);
      if (counts_[c] > 0) alltoall_case(counts_[c], 1, 0, comm);
      reduce_scatter_cases(counts_[c], matop, mat, comm);
    }
  }
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) gather_scatter_case(counts_[c], roots[r], c == 2, c == 3 || r == 1, comm);
  v_cases(comm);
}

int main(int argc, char** argv) {
  /* Both ways into MPI (the library hooks both). */
  if (getenv("PLAIN_MPI_INIT_THREAD") != NULL) {
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  } else {
    MPI_Init(&argc, &argv);
  }
  int p;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Op matop;
  MPI_Op_create(matmul, 0, &matop);
  MPI_Datatype mat;
  MPI_Type_contiguous(4, MPI_LONG, &mat);
  MPI_Type_commit(&mat);

  run_all(MPI_COMM_WORLD, matop, mat);

  /* A sub-communicator: even and odd ranks. */
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_rank, &half);
  run_all(half, matop, mat);

  /* An intercommunicator between the halves (p >= 2): bcast from the even
   * group's rank 0 to the odd group, and reduce of the odd group's data to it. */
  if (p >= 2) {
    MPI_Comm inter;
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, world_rank % 2 == 0 ? 1 : 0, 99, &inter);
    int lrank;
    MPI_Comm_rank(half, &lrank);
    const int even = world_rank % 2 == 0;
    int v[64];
    for (int i = 0; i < 64; ++i) v[i] = even ? i * i : -1;
    const int root = even ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    MPI_Bcast(v, 64, MPI_INT, root, inter);
    note(BCAST, inter, 256);
    hash(v, sizeof v);
    int s[64], r[64];
    for (int i = 0; i < 64; ++i) s[i] = r[i] = world_rank + i;
    MPI_Reduce(s, r, 64, MPI_INT, MPI_SUM, root, inter);
    note(REDUCE, inter, 256);
    if (root == MPI_ROOT) hash(r, sizeof r);
    MPI_Allreduce(s, r, 64, MPI_INT, MPI_SUM, inter);
    note(ALLREDUCE, inter, 256);
    hash(r, sizeof r);
    MPI_Comm_free(&inter);
  }
  MPI_Comm_free(&half);

  /* An invalid root under MPI_ERRORS_RETURN: the same error class. */
  MPI_Comm ret;
  MPI_Comm_dup(MPI_COMM_WORLD, &ret);
  MPI_Comm_set_errhandler(ret, MPI_ERRORS_RETURN);
  int x = 1, cls = -1;
  int rc = MPI_Bcast(&x, 1, MPI_INT, p + 3, ret);
  MPI_Error_class(rc, &cls);
  hash(&cls, sizeof cls);
  if (world_rank == 0) counts[BCAST][INVALID]++;
  MPI_Comm_free(&ret);

  uint64_t* all = malloc(sizeof(uint64_t) * (size_t)p);
  MPI_Gather(&digest, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  note(GATHER, MPI_COMM_WORLD, 8L * p); /* (the digests themselves travel by MPI_Gather) */
  if (world_rank == 0) {
    for (int r = 0; r < p; ++r) printf("rank %d digest %016llx\n", r, (unsigned long long)all[r]);
    for (int op = 0; op < NOPS; ++op) {
      printf("calls %s", op_label(op_names[op]));
      for (int k = 0; k < NKINDS; ++k) printf(" %s=%ld", kind_names[k], counts[op][k]);
      printf("\n");
    }
  }
  free(all);
  MPI_Type_free(&mat);
  MPI_Op_free(&matop);
  MPI_Finalize();
  return 0;
}
