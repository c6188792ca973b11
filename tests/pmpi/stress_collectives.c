/* The drop-in library under stress: an ordinary MPI program that, for
 * `iterations` rounds, creates a communicator (dup, split, split with
 * reversed keys), calls every collective liboptcoll_pmpi.so intercepts on it
 * (Bcast, Reduce, Allreduce, Allgather(v), Gather(v), Scatter(v),
 * Reduce_scatter(_block), Alltoall(v), Scan, Exscan) with varying counts and
 * roots, checks each result against its closed form, and frees the
 * communicator. Run forced through optcoll (OPTCOLL_<OP>=optcoll; the
 * wrapper run_stress_test.sh checks in the OPTCOLL_VERBOSE=1 summary that
 * optcoll ran every one of them) it must stay correct, and its memory must
 * not grow: the resident size after the last round may exceed the size
 * after the first quarter by at most STRESS_RSS_SLACK_KB (default 16384). Under ASan (scripts/test-sanitizers.sh)
 * LeakSanitizer checks that nothing the library allocated outlives MPI_Finalize.
 *   stress_collectives [iterations=250]
 * Exit code 0 when every check passed, 1 otherwise. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long errors;

static void expect(long got, long want, const char* what, int iter, long at) {
  if (got == want) return;
  if (errors++ < 10) fprintf(stderr, "stress: %s iteration %d element %ld: got %ld, want %ld\n", what, iter, at, got, want);
}

static long rss_kb(void) {
  FILE* f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = -1;
  if (f == NULL) return -1;
  while (fgets(line, sizeof line, f) != NULL)
    if (strncmp(line, "VmRSS:", 6) == 0) kb = atol(line + 6);
  fclose(f);
  return kb;
}

/* Elements rank i sends rank j in MPI_Alltoallv: up to n + 1, a quarter none. */
static int pair_count(int i, int j, int n, int iter) {
  if ((i + 2 * j + iter) % 4 == 0) return 0;
  return (i * 3 + j * 5 + iter) % (n + 2);
}

/* One round of every collective on comm, n elements per rank (some zero). */
static void round_on(MPI_Comm comm, int n, int iter) {
  int rank, p;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &p);
  const int root = (iter * 5 + 1) % p;
  const size_t np = (size_t)n * (size_t)p;
  long* a = malloc(sizeof(long) * (np + 1));
  long* b = malloc(sizeof(long) * (np + 1));
  int* counts = malloc(sizeof(int) * (size_t)p);
  int* displs = malloc(sizeof(int) * (size_t)p);
  int total = 0;
  for (int g = 0; g < p; ++g) {
    counts[g] = (g + iter) % 3 == 0 ? 0 : n / (1 + g % 2);
    displs[g] = total;
    total += counts[g];
  }
  const long tri = (long)p * (p - 1) / 2; /* sum of the ranks */

  for (int i = 0; i < n; ++i) a[i] = rank == root ? root * 1000L + i : -1;
  MPI_Bcast(a, n, MPI_LONG, root, comm);
  for (int i = 0; i < n; ++i) expect(a[i], root * 1000L + i, "MPI_Bcast", iter, i);

  for (int i = 0; i < n; ++i) a[i] = rank + i;
  MPI_Reduce(a, b, n, MPI_LONG, MPI_SUM, root, comm);
  if (rank == root)
    for (int i = 0; i < n; ++i) expect(b[i], (long)p * i + tri, "MPI_Reduce", iter, i);
  MPI_Allreduce(a, b, n, MPI_LONG, MPI_SUM, comm);
  for (int i = 0; i < n; ++i) expect(b[i], (long)p * i + tri, "MPI_Allreduce", iter, i);

  for (int i = 0; i < n; ++i) a[i] = rank * 100L + i;
  MPI_Allgather(a, n, MPI_LONG, b, n, MPI_LONG, comm);
  for (size_t k = 0; k < np; ++k) expect(b[k], (long)(k / (size_t)n) * 100 + (long)(k % (size_t)n), "MPI_Allgather", iter, (long)k);
  MPI_Gather(a, n, MPI_LONG, b, n, MPI_LONG, root, comm);
  if (rank == root)
    for (size_t k = 0; k < np; ++k) expect(b[k], (long)(k / (size_t)n) * 100 + (long)(k % (size_t)n), "MPI_Gather", iter, (long)k);

  MPI_Allgatherv(a, counts[rank], MPI_LONG, b, counts, displs, MPI_LONG, comm);
  for (int g = 0; g < p; ++g)
    for (int i = 0; i < counts[g]; ++i) expect(b[displs[g] + i], g * 100L + i, "MPI_Allgatherv", iter, displs[g] + i);
  MPI_Gatherv(a, counts[rank], MPI_LONG, b, counts, displs, MPI_LONG, root, comm);
  if (rank == root)
    for (int g = 0; g < p; ++g)
      for (int i = 0; i < counts[g]; ++i) expect(b[displs[g] + i], g * 100L + i, "MPI_Gatherv", iter, displs[g] + i);

  for (size_t k = 0; k < np; ++k) a[k] = rank == root ? 7 * (long)k + 3 : -1;
  MPI_Scatter(a, n, MPI_LONG, b, n, MPI_LONG, root, comm);
  for (int i = 0; i < n; ++i) expect(b[i], 7L * ((long)rank * n + i) + 3, "MPI_Scatter", iter, i);
  MPI_Scatterv(a, counts, displs, MPI_LONG, b, counts[rank], MPI_LONG, root, comm);
  for (int i = 0; i < counts[rank]; ++i) expect(b[i], 7L * (displs[rank] + i) + 3, "MPI_Scatterv", iter, i);

  for (size_t k = 0; k < np; ++k) a[k] = rank + (long)k;
  MPI_Reduce_scatter_block(a, b, n, MPI_LONG, MPI_SUM, comm);
  for (int i = 0; i < n; ++i) expect(b[i], (long)p * ((long)rank * n + i) + tri, "MPI_Reduce_scatter_block", iter, i);
  MPI_Reduce_scatter(a, b, counts, MPI_LONG, MPI_SUM, comm);
  for (int i = 0; i < counts[rank]; ++i)
    expect(b[i], (long)p * (displs[rank] + i) + tri, "MPI_Reduce_scatter", iter, i);

  /* Alltoall: rank r's block j is r * 1000 + j * n + i. */
  for (size_t k = 0; k < np; ++k) a[k] = rank * 1000L + (long)k;
  MPI_Alltoall(a, n, MPI_LONG, b, n, MPI_LONG, comm);
  for (size_t k = 0; k < np; ++k)
    expect(b[k], (long)(k / (size_t)n) * 1000 + (long)rank * n + (long)(k % (size_t)n), "MPI_Alltoall", iter, (long)k);

  /* Alltoallv: from rank i to rank j go pair_count(i, j) elements, element k
   * being i * 1000000 + j * 1000 + k; some pairs send nothing. */
  int* sc = malloc(sizeof(int) * (size_t)p);
  int* sd = malloc(sizeof(int) * (size_t)p);
  int* rc = malloc(sizeof(int) * (size_t)p);
  int* rd = malloc(sizeof(int) * (size_t)p);
  int st = 0, rt = 0;
  for (int j = 0; j < p; ++j) {
    sc[j] = pair_count(rank, j, n, iter);
    rc[j] = pair_count(j, rank, n, iter);
    sd[j] = st;
    rd[j] = rt;
    st += sc[j];
    rt += rc[j];
  }
  long* sv = malloc(sizeof(long) * ((size_t)st + 1));
  long* rv = malloc(sizeof(long) * ((size_t)rt + 1));
  for (int j = 0; j < p; ++j)
    for (int k = 0; k < sc[j]; ++k) sv[sd[j] + k] = rank * 1000000L + j * 1000L + k;
  MPI_Alltoallv(sv, sc, sd, MPI_LONG, rv, rc, rd, MPI_LONG, comm);
  for (int i = 0; i < p; ++i)
    for (int k = 0; k < rc[i]; ++k) expect(rv[rd[i] + k], i * 1000000L + rank * 1000L + k, "MPI_Alltoallv", iter, k);
  free(sv);
  free(rv);
  free(sc);
  free(sd);
  free(rc);
  free(rd);

  /* Scan and Exscan of rank + i: prefix sums of the ranks. */
  for (int i = 0; i < n; ++i) a[i] = rank + i;
  MPI_Scan(a, b, n, MPI_LONG, MPI_SUM, comm);
  for (int i = 0; i < n; ++i) expect(b[i], (long)(rank + 1) * i + (long)rank * (rank + 1) / 2, "MPI_Scan", iter, i);
  MPI_Exscan(a, b, n, MPI_LONG, MPI_SUM, comm);
  if (rank > 0)
    for (int i = 0; i < n; ++i) expect(b[i], (long)rank * i + (long)(rank - 1) * rank / 2, "MPI_Exscan", iter, i);

  free(a);
  free(b);
  free(counts);
  free(displs);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int iterations = argc > 1 ? atoi(argv[1]) : 250;
  const char* slack_env = getenv("STRESS_RSS_SLACK_KB");
  const long slack = slack_env != NULL ? atol(slack_env) : 16384;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long rss_quarter = -1;
  for (int iter = 0; iter < iterations; ++iter) {
    MPI_Comm comm;
    if (iter % 3 == 0)
      MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    else
      MPI_Comm_split(MPI_COMM_WORLD, iter % 3 == 1 ? rank % 2 : 0, iter % 3 == 1 ? rank : -rank, &comm);
    const int n = iter % 17 == 0 ? 0 : iter % 23 == 0 ? 3000 : 1 + (iter * 7) % 40;
    round_on(comm, n, iter);
    /* The world communicator too, whose state lives until MPI_Finalize. */
    if (iter % 10 == 0) round_on(MPI_COMM_WORLD, n, iter);
    MPI_Comm_free(&comm);
    if (iter == iterations / 4) rss_quarter = rss_kb();
  }
  const long rss_end = rss_kb();
#if defined(__SANITIZE_ADDRESS__)
  /* ASan keeps freed memory in quarantine (up to 256 MiB): the resident size
   * says nothing; LeakSanitizer checks at exit instead. */
  const int check_rss = 0;
#else
  const int check_rss = 1;
#endif
  if (check_rss && rss_quarter > 0 && rss_end - rss_quarter > slack) {
    ++errors;
    fprintf(stderr, "stress: rank %d resident size grew by %ld KiB after the first quarter (allowed %ld)\n", rank,
            rss_end - rss_quarter, slack);
  }
  long all = 0;
  PMPI_Allreduce(&errors, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("stress: %d iterations, %ld failed checks, rank 0 resident %ld KiB after a quarter, %ld KiB at the end\n",
           iterations, all, rss_quarter, rss_end);
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
