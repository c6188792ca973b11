/* A plain MPI program (built against MPI only, no optcoll header) that makes
 * the collective calls named on its command line, in order, on
 * MPI_COMM_WORLD, and checks every result. The drop-in's `auto` tests
 * (test_auto.cpp) run it under LD_PRELOAD=liboptcoll_pmpi.so with
 * OPTCOLL_VERBOSE=2 and read which path each call took.
 *
 *   auto_points CALL:ARGS ...
 *
 *   Bcast:B  Allgather:B  Gather:B  Scatter:B   B bytes (per rank), MPI_BYTE, root 0
 *   Alltoall:B  Alltoallv:B                      B bytes per message, MPI_BYTE
 *   Allgatherv:B0,B1,..  Gatherv:..  Scatterv:.. bytes of rank 0, 1, ... (p numbers)
 *   Reduce:N:K  Allreduce:N:K  Scan:N:K  Exscan:N:K
 *                      N elements, K = int (MPI_INT, MPI_SUM), float (MPI_FLOAT,
 *                      MPI_SUM) or noncomm (MPI_INT, a non-commutative operator)
 *   Reduce_scatter_block:N                       N MPI_INTs per rank, MPI_SUM
 *   Reduce_scatter:N0,N1,..                      MPI_INTs of rank 0, 1, ..., MPI_SUM
 *
 * Exit code 0 when every result at this rank is right; a wrong one is
 * printed. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, failures;

static void fail(const char* what, const char* spec) {
  ++failures;
  printf("rank %d: %s: wrong result (%s)\n", rank, spec, what);
}

static void* xmalloc(size_t n) {
  void* p = malloc(n > 0 ? n : 1);
  if (p == NULL) MPI_Abort(MPI_COMM_WORLD, 2);
  return p;
}

/* The byte of rank r at position i. */
static unsigned char byte_of(int r, long i) {
  return (unsigned char)((r * 31 + i * 7 + 1) & 0xff);
}

/* Whether got[0..n) holds rank r's bytes from position at. */
static int same_bytes(const unsigned char* got, int r, long at, long n) {
  for (long i = 0; i < n; ++i)
    if (got[i] != byte_of(r, at + i)) return 0;
  return 1;
}

/* p comma-separated numbers; exits on anything else. */
static long* list(const char* s, const char* spec) {
  long* v = xmalloc(sizeof(long) * (size_t)size);
  for (int i = 0; i < size; ++i) {
    char* end = NULL;
    v[i] = strtol(s, &end, 10);
    if (end == s || v[i] < 0 || (i + 1 < size && *end != ',') || (i + 1 == size && *end != '\0')) {
      if (rank == 0) fprintf(stderr, "auto_points: %s: expected %d counts\n", spec, size);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    s = end + 1;
  }
  return v;
}

/* x op y = x: the lower rank's operand wins. Associative, not commutative. */
static void first(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  memcpy(inout, in, sizeof(int) * (size_t)*len);
}

static void bytes_call(const char* call, const char* arg, const char* spec) {
  const long b = strtol(arg, NULL, 10);
  const int p = size;
  if (strcmp(call, "Bcast") == 0) {
    unsigned char* x = xmalloc((size_t)b);
    for (long i = 0; i < b; ++i) x[i] = rank == 0 ? byte_of(0, i) : 0;
    MPI_Bcast(x, (int)b, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (!same_bytes(x, 0, 0, b)) fail("data", spec);
    free(x);
  } else if (strcmp(call, "Allgather") == 0 || strcmp(call, "Gather") == 0) {
    unsigned char* s = xmalloc((size_t)b);
    unsigned char* r = xmalloc((size_t)(b * p));
    for (long i = 0; i < b; ++i) s[i] = byte_of(rank, i);
    if (call[0] == 'A')
      MPI_Allgather(s, (int)b, MPI_BYTE, r, (int)b, MPI_BYTE, MPI_COMM_WORLD);
    else
      MPI_Gather(s, (int)b, MPI_BYTE, r, (int)b, MPI_BYTE, 0, MPI_COMM_WORLD);
    for (int k = 0; (call[0] == 'A' || rank == 0) && k < p; ++k)
      if (!same_bytes(r + k * b, k, 0, b)) fail("data", spec);
    free(s);
    free(r);
  } else if (strcmp(call, "Scatter") == 0) {
    unsigned char* s = xmalloc((size_t)(b * p));
    unsigned char* r = xmalloc((size_t)b);
    for (int k = 0; k < p; ++k)
      for (long i = 0; i < b; ++i) s[k * b + i] = byte_of(k, i);
    MPI_Scatter(s, (int)b, MPI_BYTE, r, (int)b, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (!same_bytes(r, rank, 0, b)) fail("data", spec);
    free(s);
    free(r);
  } else { /* Alltoall, Alltoallv: the message from k to j is byte_of(k, j * b + i), i < b */
    unsigned char* s = xmalloc((size_t)(b * p));
    unsigned char* r = xmalloc((size_t)(b * p));
    int* counts = xmalloc(sizeof(int) * (size_t)p);
    int* displs = xmalloc(sizeof(int) * (size_t)p);
    for (int j = 0; j < p; ++j) {
      counts[j] = (int)b;
      displs[j] = (int)(j * b);
      for (long i = 0; i < b; ++i) s[j * b + i] = byte_of(rank, j * b + i);
    }
    if (strcmp(call, "Alltoall") == 0)
      MPI_Alltoall(s, (int)b, MPI_BYTE, r, (int)b, MPI_BYTE, MPI_COMM_WORLD);
    else
      MPI_Alltoallv(s, counts, displs, MPI_BYTE, r, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
    for (int k = 0; k < p; ++k)
      if (!same_bytes(r + k * b, k, rank * b, b)) fail("data", spec);
    free(s);
    free(r);
    free(counts);
    free(displs);
  }
}

static void vector_call(const char* call, const char* arg, const char* spec) {
  long* c = list(arg, spec);
  const int p = size;
  int* counts = xmalloc(sizeof(int) * (size_t)p);
  int* displs = xmalloc(sizeof(int) * (size_t)p);
  long total = 0;
  for (int k = 0; k < p; ++k) {
    counts[k] = (int)c[k];
    displs[k] = (int)total;
    total += c[k];
  }
  if (strcmp(call, "Reduce_scatter") == 0) {
    int* s = xmalloc(sizeof(int) * (size_t)total);
    int* r = xmalloc(sizeof(int) * (size_t)c[rank]);
    for (long i = 0; i < total; ++i) s[i] = (int)(rank + i);
    MPI_Reduce_scatter(s, r, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (long i = 0; i < c[rank]; ++i)
      if (r[i] != p * (p - 1) / 2 + p * (int)(displs[rank] + i)) {
        fail("sum", spec);
        break;
      }
    free(s);
    free(r);
  } else {
    unsigned char* all = xmalloc((size_t)total);
    unsigned char* mine = xmalloc((size_t)c[rank]);
    for (long i = 0; i < c[rank]; ++i) mine[i] = byte_of(rank, i);
    if (strcmp(call, "Allgatherv") == 0) {
      MPI_Allgatherv(mine, counts[rank], MPI_BYTE, all, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
    } else if (strcmp(call, "Gatherv") == 0) {
      MPI_Gatherv(mine, counts[rank], MPI_BYTE, all, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
    } else { /* Scatterv: rank 0 holds every rank's bytes */
      for (int k = 0; k < p; ++k)
        for (long i = 0; i < c[k]; ++i) all[displs[k] + i] = byte_of(k, i);
      memset(mine, 0, (size_t)c[rank]);
      MPI_Scatterv(all, counts, displs, MPI_BYTE, mine, counts[rank], MPI_BYTE, 0, MPI_COMM_WORLD);
      if (!same_bytes(mine, rank, 0, c[rank])) fail("data", spec);
    }
    for (int k = 0; (strcmp(call, "Allgatherv") == 0 || (strcmp(call, "Gatherv") == 0 && rank == 0)) && k < p; ++k)
      if (!same_bytes(all + displs[k], k, 0, c[k])) fail("data", spec);
    free(all);
    free(mine);
  }
  free(c);
  free(counts);
  free(displs);
}

/* Reductions of x_r[i] = r + i: the sum over ranks lo..hi, or (noncomm) the
 * value of rank lo. */
static long expect(int lo, int hi, long i, int noncomm) {
  if (noncomm) return lo + i;
  long s = 0;
  for (int r = lo; r <= hi; ++r) s += r + i;
  return s;
}

static void reduction_call(const char* call, const char* arg, const char* spec) {
  char* end = NULL;
  const long n = strtol(arg, &end, 10);
  const char* kind = *end == ':' ? end + 1 : "int";
  const int is_float = strcmp(kind, "float") == 0, noncomm = strcmp(kind, "noncomm") == 0;
  if (!is_float && !noncomm && strcmp(kind, "int") != 0) {
    if (rank == 0) fprintf(stderr, "auto_points: %s: unknown kind\n", spec);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Datatype type = is_float ? MPI_FLOAT : MPI_INT;
  MPI_Op op = MPI_SUM;
  if (noncomm) MPI_Op_create(first, 0, &op);
  const int p = size, block = strcmp(call, "Reduce_scatter_block") == 0;
  const long in_n = block ? n * p : n;
  int* si = xmalloc(sizeof(int) * (size_t)in_n);
  int* ri = xmalloc(sizeof(int) * (size_t)in_n);
  float* sf = xmalloc(sizeof(float) * (size_t)in_n);
  float* rf = xmalloc(sizeof(float) * (size_t)in_n);
  for (long i = 0; i < in_n; ++i) {
    si[i] = (int)(rank + i % 1000);
    sf[i] = (float)(rank + i % 1000);
    ri[i] = -1;
    rf[i] = -1;
  }
  void* s = is_float ? (void*)sf : (void*)si;
  void* r = is_float ? (void*)rf : (void*)ri;
  int lo = 0, hi = p - 1, check = 1;
  long off = 0;
  if (strcmp(call, "Reduce") == 0) {
    MPI_Reduce(s, r, (int)n, type, op, 0, MPI_COMM_WORLD);
    check = rank == 0;
  } else if (strcmp(call, "Allreduce") == 0) {
    MPI_Allreduce(s, r, (int)n, type, op, MPI_COMM_WORLD);
  } else if (strcmp(call, "Scan") == 0) {
    MPI_Scan(s, r, (int)n, type, op, MPI_COMM_WORLD);
    hi = rank;
  } else if (strcmp(call, "Exscan") == 0) {
    MPI_Exscan(s, r, (int)n, type, op, MPI_COMM_WORLD);
    hi = rank - 1;
    check = rank > 0;
  } else { /* Reduce_scatter_block */
    MPI_Reduce_scatter_block(s, r, (int)n, type, op, MPI_COMM_WORLD);
    off = rank * n;
  }
  for (long i = 0; check && i < n; ++i) {
    const long want = expect(lo, hi, (off + i) % 1000, noncomm);
    const long got = is_float ? (long)rf[i] : ri[i];
    if (got != want) {
      fail("reduction", spec);
      break;
    }
  }
  if (noncomm) MPI_Op_free(&op);
  free(si);
  free(ri);
  free(sf);
  free(rf);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int a = 1; a < argc; ++a) {
    char call[64];
    const char* colon = strchr(argv[a], ':');
    const size_t len = colon == NULL ? 0 : (size_t)(colon - argv[a]);
    if (len == 0 || len >= sizeof call) {
      if (rank == 0) fprintf(stderr, "auto_points: expected CALL:ARGS, got '%s'\n", argv[a]);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    memcpy(call, argv[a], len);
    call[len] = '\0';
    const char* arg = colon + 1;
    if (strcmp(call, "Bcast") == 0 || strcmp(call, "Allgather") == 0 || strcmp(call, "Gather") == 0 ||
        strcmp(call, "Scatter") == 0 || strcmp(call, "Alltoall") == 0 || strcmp(call, "Alltoallv") == 0) {
      bytes_call(call, arg, argv[a]);
    } else if (strcmp(call, "Allgatherv") == 0 || strcmp(call, "Gatherv") == 0 || strcmp(call, "Scatterv") == 0 ||
               strcmp(call, "Reduce_scatter") == 0) {
      vector_call(call, arg, argv[a]);
    } else if (strcmp(call, "Reduce") == 0 || strcmp(call, "Allreduce") == 0 || strcmp(call, "Scan") == 0 ||
               strcmp(call, "Exscan") == 0 || strcmp(call, "Reduce_scatter_block") == 0) {
      reduction_call(call, arg, argv[a]);
    } else {
      if (rank == 0) fprintf(stderr, "auto_points: unknown call '%s'\n", call);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  /* (No collective to agree on the result: every call here is one the tests
   * count. mpiexec fails when any rank does.) */
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
