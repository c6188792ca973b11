/* Nonblocking and persistent collectives through liboptcoll_pmpi.so: an
 * ordinary MPI program (run by run_pmpi_test.sh like plain_collectives.c,
 * with the same output format) whose output must not change with the
 * library. It calls MPI_Ibcast, MPI_Ireduce, MPI_Iallreduce and the
 * persistent MPI_Bcast_init, MPI_Reduce_init, MPI_Allreduce_init (MPI-4's
 * names; Open MPI 4.1: MPIX_*_init of its pcollreq extension), and
 * completes them with every completion function: MPI_Wait, MPI_Test,
 * MPI_Waitall and MPI_Testall with native point-to-point requests in the
 * same array, MPI_Waitany, MPI_Waitsome, MPI_Testany, MPI_Testsome,
 * MPI_Request_get_status, MPI_Start, MPI_Startall, MPI_Request_free of an
 * inactive persistent request and of one never started; ranks that
 * complete collectives in different orders, or wait for a native message
 * first (orders()); persistent Bcast and Allgather with buffers the
 * drop-in packs. Each rank hashes
 * its results; rank 0 prints every rank's hash and its call counts. */
#include <mpi.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#if MPI_VERSION >= 4
#define PERSISTENT(name) MPI_##name
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define PERSISTENT(name) MPIX_##name
#endif

enum { IBCAST, IREDUCE, IALLREDUCE, BCAST_INIT, REDUCE_INIT, ALLREDUCE_INIT, ALLGATHER_INIT, NOPS };
static const char* op_names[NOPS] = {"MPI_Ibcast",     "MPI_Ireduce",     "MPI_Iallreduce",    "MPI_Bcast_init",
                                     "MPI_Reduce_init", "MPI_Allreduce_init", "MPI_Allgather_init"};
enum { MOVING, TRIVIAL, NKINDS };
static const char* kind_names[NKINDS] = {"moving", "trivial"};
static long counts[NOPS][NKINDS];
static uint64_t digest = 1469598103934665603ULL;
static int rank, p;

static void hash(const void* data, size_t bytes) {
  const unsigned char* b = (const unsigned char*)data;
  for (size_t i = 0; i < bytes; ++i) digest = (digest ^ b[i]) * 1099511628211ULL;
}
static void counted(int op, int count) {
  if (rank == 0) counts[op][count == 0 || p == 1 ? TRIVIAL : MOVING]++;
}
static void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) {
    fprintf(stderr, "rank %d: %s failed (%d)\n", rank, what, rc);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}
static void fill(int* b, int n, int salt) {
  for (int i = 0; i < n; ++i) b[i] = (i * 7 + rank * 13 + salt * 31) % 1000;
}

/* A native ring exchange beside the collectives: requests r[0] (receive
 * from the left) and r[1] (send to the right). */
static int ring_in, ring_out;
static void ring(MPI_Request* r, int salt) {
  ring_out = rank * 100 + salt;
  check(MPI_Irecv(&ring_in, 1, MPI_INT, (rank + p - 1) % p, 7, MPI_COMM_WORLD, &r[0]), "MPI_Irecv");
  check(MPI_Isend(&ring_out, 1, MPI_INT, (rank + 1) % p, 7, MPI_COMM_WORLD, &r[1]), "MPI_Isend");
}

static void nonblocking(int n, int salt) {
  int* a = malloc(sizeof(int) * (size_t)(n + 1));
  int* b = malloc(sizeof(int) * (size_t)(n + 1));
  int* c = malloc(sizeof(int) * (size_t)(n + 1));
  MPI_Request r[5];
  MPI_Status st[5]; /* (MPI_STATUSES_IGNORE: GCC 12 warns under MPICH's header) */
  int flag = 0, index = 0, outcount = 0, indices[5];

  /* MPI_Wait, MPI_Test. */
  fill(a, n, salt);
  check(MPI_Ibcast(a, n, MPI_INT, salt % p, MPI_COMM_WORLD, &r[0]), "MPI_Ibcast");
  counted(IBCAST, n);
  check(MPI_Wait(&r[0], MPI_STATUS_IGNORE), "MPI_Wait");
  hash(a, sizeof(int) * (size_t)n);
  fill(a, n, salt + 1);
  check(MPI_Iallreduce(a, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]), "MPI_Iallreduce");
  counted(IALLREDUCE, n);
  do check(MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE), "MPI_Test");
  while (!flag);
  if (r[0] != MPI_REQUEST_NULL) check(1, "MPI_Test left the request");
  hash(b, sizeof(int) * (size_t)n);

  /* MPI_Waitall and MPI_Testall with native requests in the array. */
  ring(r, salt);
  check(MPI_Ireduce(a, c, n, MPI_INT, MPI_MAX, p - 1, MPI_COMM_WORLD, &r[2]), "MPI_Ireduce");
  counted(IREDUCE, n);
  check(MPI_Iallreduce(a, b, n, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &r[3]), "MPI_Iallreduce");
  counted(IALLREDUCE, n);
  if (salt % 2 == 0) {
    check(MPI_Waitall(4, r, st), "MPI_Waitall");
  } else {
    do check(MPI_Testall(4, r, &flag, st), "MPI_Testall");
    while (!flag);
  }
  hash(&ring_in, sizeof ring_in);
  hash(b, sizeof(int) * (size_t)n);
  if (rank == p - 1) hash(c, sizeof(int) * (size_t)n);

  /* MPI_Waitany / MPI_Testany: one of five at a time. */
  ring(r, salt + 2);
  fill(c, n, salt + 3);
  check(MPI_Ibcast(c, n, MPI_INT, (salt + 1) % p, MPI_COMM_WORLD, &r[2]), "MPI_Ibcast");
  counted(IBCAST, n);
  check(MPI_Iallreduce(a, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[3]), "MPI_Iallreduce");
  counted(IALLREDUCE, n);
  r[4] = MPI_REQUEST_NULL;
  for (int left = 4; left > 0;) {
    if (salt % 2 == 0) {
      check(MPI_Waitany(5, r, &index, MPI_STATUS_IGNORE), "MPI_Waitany");
      flag = 1;
    } else {
      check(MPI_Testany(5, r, &index, &flag, MPI_STATUS_IGNORE), "MPI_Testany");
    }
    if (flag && index != MPI_UNDEFINED) {
      if (r[index] != MPI_REQUEST_NULL) check(1, "completed request not freed");
      --left;
    }
  }
  check(MPI_Waitany(5, r, &index, MPI_STATUS_IGNORE), "MPI_Waitany");
  if (index != MPI_UNDEFINED) check(1, "MPI_Waitany on inactive requests");
  hash(&ring_in, sizeof ring_in);
  hash(b, sizeof(int) * (size_t)n);
  hash(c, sizeof(int) * (size_t)n);

  /* MPI_Waitsome / MPI_Testsome. */
  ring(r, salt + 4);
  check(MPI_Ireduce(a, c, n, MPI_INT, MPI_SUM, salt % p, MPI_COMM_WORLD, &r[2]), "MPI_Ireduce");
  counted(IREDUCE, n);
  check(MPI_Ibcast(b, n, MPI_INT, 0, MPI_COMM_WORLD, &r[3]), "MPI_Ibcast");
  counted(IBCAST, n);
  for (int left = 4; left > 0;) {
    if (salt % 2 == 0)
      check(MPI_Waitsome(4, r, &outcount, indices, st), "MPI_Waitsome");
    else
      check(MPI_Testsome(4, r, &outcount, indices, st), "MPI_Testsome");
    if (outcount == MPI_UNDEFINED) check(1, "MPI_Waitsome: none active");
    left -= outcount;
  }
  hash(&ring_in, sizeof ring_in);
  hash(b, sizeof(int) * (size_t)n);
  if (rank == salt % p) hash(c, sizeof(int) * (size_t)n);
  free(a);
  free(b);
  free(c);
}

/* MPI lets ranks complete collectives in different orders, and wait for a
 * native message (with MPI_Wait or a blocking call) while a collective is
 * outstanding: every such wait must
 * advance the collectives (a wait that drove only its own request would
 * hang here from p = 3, where the plans have several rounds). Rank 1 sends
 * rank 0 its token only once its Iallreduce is complete; rank 0 waits for
 * the token before it waits for its Iallreduce. */
static void orders(int n, int salt) {
  int* a = malloc(sizeof(int) * (size_t)(n + 1));
  int* b = malloc(sizeof(int) * (size_t)(n + 1));
  int* c = malloc(sizeof(int) * (size_t)(n + 1));
  MPI_Request r[2];
  int token = salt;
  fill(a, n, salt);
  fill(c, n, salt + 1);
  check(MPI_Ibcast(a, n, MPI_INT, 0, MPI_COMM_WORLD, &r[0]), "MPI_Ibcast");
  counted(IBCAST, n);
  check(MPI_Iallreduce(c, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[1]), "MPI_Iallreduce");
  counted(IALLREDUCE, n);
  for (int k = 0; k < 2; ++k) check(MPI_Wait(&r[rank % 2 == 0 ? k : 1 - k], MPI_STATUS_IGNORE), "MPI_Wait (order)");
  hash(a, sizeof(int) * (size_t)n);
  hash(b, sizeof(int) * (size_t)n);
  check(MPI_Iallreduce(c, b, n, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &r[0]), "MPI_Iallreduce");
  counted(IALLREDUCE, n);
  if (p > 1 && rank == 0) {
    check(MPI_Irecv(&token, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, &r[1]), "MPI_Irecv");
    check(MPI_Wait(&r[1], MPI_STATUS_IGNORE), "MPI_Wait (token)");
  }
  check(MPI_Wait(&r[0], MPI_STATUS_IGNORE), "MPI_Wait");
  if (p > 1 && rank == 1) check(MPI_Send(&token, 1, MPI_INT, 0, 9, MPI_COMM_WORLD), "MPI_Send");
  hash(&token, sizeof token);
  hash(b, sizeof(int) * (size_t)n);
  /* The same with MPI's blocking calls, which must advance the outstanding
   * collective too: rank 0 probes for and receives the token (rank 1 sends
   * it synchronously, once its Iallreduce is complete) before it waits; then
   * ranks 0 and 1 swap tokens with MPI_Sendrecv, rank 1 after its wait. */
  check(MPI_Iallreduce(c, b, n, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &r[0]), "MPI_Iallreduce");
  counted(IALLREDUCE, n);
  if (p > 1 && rank == 0) {
    MPI_Status st;
    check(MPI_Probe(1, 10, MPI_COMM_WORLD, &st), "MPI_Probe");
    check(MPI_Recv(&token, 1, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st), "MPI_Recv");
  }
  check(MPI_Wait(&r[0], MPI_STATUS_IGNORE), "MPI_Wait");
  if (p > 1 && rank == 1) check(MPI_Ssend(&token, 1, MPI_INT, 0, 10, MPI_COMM_WORLD), "MPI_Ssend");
  hash(&token, sizeof token);
  hash(b, sizeof(int) * (size_t)n);
  check(MPI_Iallreduce(c, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]), "MPI_Iallreduce");
  counted(IALLREDUCE, n);
  if (p > 1 && rank < 2) {
    int mine = token + rank, theirs = -1;
    if (rank == 1) check(MPI_Wait(&r[0], MPI_STATUS_IGNORE), "MPI_Wait");
    check(MPI_Sendrecv(&mine, 1, MPI_INT, 1 - rank, 11, &theirs, 1, MPI_INT, 1 - rank, 11, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE),
          "MPI_Sendrecv");
    hash(&theirs, sizeof theirs);
  }
  if (!(p > 1 && rank == 1)) check(MPI_Wait(&r[0], MPI_STATUS_IGNORE), "MPI_Wait");
  hash(b, sizeof(int) * (size_t)n);
  /* MPI_Barrier while a collective is outstanding: the odd ranks enter it
   * only once their Iallreduce is complete, the even ones before they wait.
   * Then rank 0 matches with MPI_Mprobe a token that rank 1 sends after its
   * wait, and ranks 0 and 1 swap tokens in place with MPI_Sendrecv_replace,
   * rank 1 after its wait. */
  check(MPI_Iallreduce(c, b, n, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &r[0]), "MPI_Iallreduce");
  counted(IALLREDUCE, n);
  if (rank % 2 == 1) check(MPI_Wait(&r[0], MPI_STATUS_IGNORE), "MPI_Wait");
  check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
  if (rank % 2 == 0) check(MPI_Wait(&r[0], MPI_STATUS_IGNORE), "MPI_Wait");
  hash(b, sizeof(int) * (size_t)n);
  check(MPI_Iallreduce(c, b, n, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &r[0]), "MPI_Iallreduce");
  counted(IALLREDUCE, n);
  if (p > 1 && rank == 0) {
    MPI_Message m;
    MPI_Status st;
    check(MPI_Mprobe(1, 12, MPI_COMM_WORLD, &m, &st), "MPI_Mprobe");
    check(MPI_Mrecv(&token, 1, MPI_INT, &m, &st), "MPI_Mrecv");
  }
  if (p > 1 && rank == 1) {
    check(MPI_Wait(&r[0], MPI_STATUS_IGNORE), "MPI_Wait");
    check(MPI_Send(&token, 1, MPI_INT, 0, 12, MPI_COMM_WORLD), "MPI_Send");
  }
  hash(&token, sizeof token);
  check(MPI_Iallreduce(c, a, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[1]), "MPI_Iallreduce");
  counted(IALLREDUCE, n);
  if (p > 1 && rank < 2) {
    int swap[2] = {token + rank, rank};
    if (rank == 1) check(MPI_Wait(&r[1], MPI_STATUS_IGNORE), "MPI_Wait");
    check(MPI_Sendrecv_replace(swap, 2, MPI_INT, 1 - rank, 13, 1 - rank, 13, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
          "MPI_Sendrecv_replace");
    hash(swap, sizeof swap);
  }
  if (!(p > 1 && rank == 1)) check(MPI_Wait(&r[1], MPI_STATUS_IGNORE), "MPI_Wait");
  if (!(p > 1 && rank == 1)) check(MPI_Wait(&r[0], MPI_STATUS_IGNORE), "MPI_Wait");
  hash(a, sizeof(int) * (size_t)n);
  hash(b, sizeof(int) * (size_t)n);
  /* A blocking collective while a collective is outstanding: the odd ranks
   * enter it after their wait, the even ones before it. In the run with
   * the tuning file (run_pmpi_test.sh: optcoll wins every Bcast, loses
   * every Reduce) the Ibcast is optcoll's and the Reduce MPI's own. */
  {
    int in[2] = {rank, 2 * rank + 1}, out[2] = {0, 0};
    fill(a, n, salt + 7);
    check(MPI_Ibcast(a, n, MPI_INT, p - 1, MPI_COMM_WORLD, &r[0]), "MPI_Ibcast");
    counted(IBCAST, n);
    if (rank % 2 == 1) check(MPI_Wait(&r[0], MPI_STATUS_IGNORE), "MPI_Wait");
    check(MPI_Reduce(in, out, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD), "MPI_Reduce");
    if (rank % 2 == 0) check(MPI_Wait(&r[0], MPI_STATUS_IGNORE), "MPI_Wait");
    hash(out, sizeof out);
    hash(a, sizeof(int) * (size_t)n);
  }
  free(a);
  free(b);
  free(c);
}

#ifdef PERSISTENT
static void persistent(int n) {
  int* a = malloc(sizeof(int) * (size_t)(n + 1));
  int* b = malloc(sizeof(int) * (size_t)(n + 1));
  int* c = malloc(sizeof(int) * (size_t)(n + 1));
  int* d = malloc(sizeof(int) * (size_t)(n + 1));
  MPI_Request r[5], unused;
  MPI_Status st[5];
  int flag = 0;
  check(PERSISTENT(Bcast_init)(d, n, MPI_INT, p - 1, MPI_COMM_WORLD, MPI_INFO_NULL, &r[2]), "Bcast_init");
  counted(BCAST_INIT, n);
  check(PERSISTENT(Allreduce_init)(a, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r[3]), "Allreduce_init");
  counted(ALLREDUCE_INIT, n);
  check(PERSISTENT(Reduce_init)(a, c, n, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r[4]), "Reduce_init");
  counted(REDUCE_INIT, n);
  check(PERSISTENT(Allreduce_init)(a, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &unused), "Allreduce_init");
  counted(ALLREDUCE_INIT, n);
  check(MPI_Request_free(&unused), "MPI_Request_free (never started)");
  for (int it = 0; it < 3; ++it) {
    fill(a, n, it);
    fill(d, n, it + 5);
    ring(r, it);
    check(MPI_Startall(3, &r[2]), "MPI_Startall");
    if (it == 1) {
      do check(MPI_Request_get_status(r[3], &flag, MPI_STATUS_IGNORE), "MPI_Request_get_status");
      while (!flag);
    }
    check(MPI_Waitall(5, r, st), "MPI_Waitall");
    if (r[3] == MPI_REQUEST_NULL) check(1, "a persistent request was freed by MPI_Waitall");
    hash(&ring_in, sizeof ring_in);
    hash(b, sizeof(int) * (size_t)n);
    hash(d, sizeof(int) * (size_t)n);
    if (rank == 0) hash(c, sizeof(int) * (size_t)n);
  }
  fill(a, n, 9);
  check(MPI_Start(&r[3]), "MPI_Start");
  do check(MPI_Test(&r[3], &flag, MPI_STATUS_IGNORE), "MPI_Test");
  while (!flag);
  hash(b, sizeof(int) * (size_t)n);
  for (int k = 2; k < 5; ++k) check(MPI_Request_free(&r[k]), "MPI_Request_free");
  free(a);
  free(b);
  free(c);
  free(d);
}
#endif

#ifdef PERSISTENT
/* Persistent copy collectives whose buffers the drop-in packs (a strided
 * vector type at some ranks, MPI_INT at the others: one signature), started
 * three times on new data: the packing happens at every start, the
 * unpacking after every completion. */
static void persistent_packed(int n) {
  MPI_Datatype strided;
  MPI_Type_vector(n, 1, 2, MPI_INT, &strided);
  MPI_Type_commit(&strided);
  int* v = malloc(sizeof(int) * (size_t)(2 * n + 1));
  int* mine = malloc(sizeof(int) * (size_t)(2 * n + 1));
  int* all = malloc(sizeof(int) * (size_t)(2 * n * p + 1));
  const int root = 0;
  const int packed = rank % 2 == 0; /* the even ranks use the vector type (the root too) */
  MPI_Request r[2];
  MPI_Status st[2]; /* (MPI_STATUSES_IGNORE: GCC 12 warns under MPICH's header) */
  check(PERSISTENT(Bcast_init)(v, packed ? 1 : n, packed ? strided : MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL,
                               &r[0]),
        "Bcast_init (packed)");
  counted(BCAST_INIT, n);
  /* Allgather: the odd ranks send one strided element (every other int),
   * the even ones n contiguous ints; every rank's n ints land as one strided
   * element at the even ranks, contiguous at the odd ones. Not under MPICH
   * at p = 1, 2, 4, ...: MPICH 4.0.2's own persistent Allgather with a
   * derived receive type, started twice, fails an assertion on the type's
   * reference count there (a plain MPI program shows it: docs/drop-in.md). */
  int nreq = 1;
#ifdef MPICH_VERSION
  const int native_bug = (p & (p - 1)) == 0;
#else
  const int native_bug = 0;
#endif
  if (!native_bug) {
    check(PERSISTENT(Allgather_init)(mine, packed ? n : 1, packed ? MPI_INT : strided, all, packed ? 1 : n,
                                     packed ? strided : MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]),
          "Allgather_init (packed)");
    counted(ALLGATHER_INIT, n);
    nreq = 2;
  }
  for (int it = 0; it < 3; ++it) {
    for (int i = 0; i < 2 * n; ++i) v[i] = rank == root ? it * 1000 + i : -7;
    for (int i = 0; i < 2 * n; ++i) mine[i] = rank * 100 + it * 10 + i;
    for (int i = 0; i < 2 * n * p; ++i) all[i] = -3;
    check(MPI_Startall(nreq, r), "MPI_Startall (packed)");
    check(MPI_Waitall(nreq, r, st), "MPI_Waitall (packed)");
    hash(v, sizeof(int) * (size_t)(2 * n));
    hash(all, sizeof(int) * (size_t)(2 * n * p));
  }
  for (int k = 0; k < nreq; ++k) check(MPI_Request_free(&r[k]), "MPI_Request_free");
  MPI_Type_free(&strided);
  free(v);
  free(mine);
  free(all);
}
#endif

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  const int sizes[] = {0, 1, 7, 1000, 60000};
  for (int s = 0; s < 5; ++s) {
    nonblocking(sizes[s], s);
    orders(sizes[s], s);
#ifdef PERSISTENT
    persistent(sizes[s]);
    if (sizes[s] > 0) persistent_packed(sizes[s]);
#endif
  }
  uint64_t all[1024];
  MPI_Gather(&digest, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    for (int r = 0; r < p; ++r) printf("rank %d digest %016llx\n", r, (unsigned long long)all[r]);
    for (int op = 0; op < NOPS; ++op) {
      if (counts[op][MOVING] + counts[op][TRIVIAL] == 0) continue;
      printf("calls %s", op_names[op]);
      for (int k = 0; k < NKINDS; ++k) printf(" %s=%ld", kind_names[k], counts[op][k]);
      printf("\n");
    }
  }
  MPI_Finalize();
  return 0;
}
