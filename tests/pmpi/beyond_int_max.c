/* Calls beyond INT_MAX bytes through the drop-in, at np 2: an unmodified
 * MPI program (MPI-4) whose calls each move 2^31+7 bytes or more.
 *  - The v collectives' large-count bindings move one block of 2^31+7
 *    bytes (a count no int holds) and place another block at a
 *    displacement beyond INT_MAX: MPI_Allgatherv_c (MPI_IN_PLACE at both
 *    ranks), MPI_Igatherv_c and MPI_Scatterv_init_c (root 1, MPI_IN_PLACE
 *    at the root), MPI_Alltoallv_c.
 *  - The others' large-count bindings: MPI_Bcast_c of 2^31+7 bytes from
 *    root 1, MPI_Allreduce_c of 2^31+7 bytes (MPI_BXOR, MPI_IN_PLACE).
 *  - An int binding whose count fits an int but whose bytes do not:
 *    MPI_Bcast of 2^28+1 elements of an 8-byte contiguous type.
 * Every byte received is checked against values computed here, and the
 * one-byte gaps between blocks must stay as they were; rank 0 prints
 * "ok <call>" or "wrong <call>: <n> bytes", and the exit code says whether
 * all were right. run_beyond_int_test.sh runs it under liboptcoll_pmpi.so
 * with these collectives forced through optcoll and requires that optcoll
 * ran every call. About 2 GiB per rank at a time, plus the Allreduce's
 * working copy. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIG (((MPI_Count)1 << 31) + 7)
#define SMALL ((MPI_Count)8)
#define GAP 0xAB

/* Byte i of the block that rank `from` sends to rank `to`; bit 31 of i
 * enters, so that bytes 2^31 apart differ. */
static unsigned char value(MPI_Count i, int from, int to) {
  const uint32_t u = (uint32_t)i, hi = (uint32_t)(i >> 31);
  return (unsigned char)((u ^ (u >> 11) ^ (hi * 0x55u)) * 37u + (uint32_t)from * 101u + (uint32_t)to * 13u);
}
static void fill(unsigned char* b, MPI_Count n, int from, int to) {
  for (MPI_Count i = 0; i < n; ++i) b[i] = value(i, from, to);
}
static long long wrong(const unsigned char* b, MPI_Count n, int from, int to) {
  long long bad = 0;
  for (MPI_Count i = 0; i < n; ++i) bad += b[i] != value(i, from, to);
  return bad;
}
static unsigned char* alloc(MPI_Count n) {
  unsigned char* b = malloc((size_t)n);
  if (b == NULL) {
    fprintf(stderr, "beyond_int_max: cannot allocate %lld bytes\n", (long long)n);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return b;
}

static int failures;
/* Sums every rank's wrong bytes; rank 0 reports them. */
static void report(const char* call, long long bad) {
  long long all = 0;
  MPI_Reduce(&bad, &all, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) return;
  if (all == 0)
    printf("ok %s\n", call);
  else
    printf("wrong %s: %lld bytes\n", call, all);
  fflush(stdout);
  failures += all != 0;
}

/* Rank 1's block (BIG) at displacement 0, rank 0's (SMALL) at BIG + 1. */
static void allgatherv(int rank) {
  const MPI_Count counts[2] = {SMALL, BIG};
  const MPI_Aint displs[2] = {BIG + 1, 0};
  unsigned char* r = alloc(BIG + 1 + SMALL);
  if (rank == 0)
    fill(r + BIG + 1, SMALL, 0, 0);
  else
    fill(r, BIG, 1, 1);
  r[BIG] = GAP;
  MPI_Allgatherv_c(MPI_IN_PLACE, 0, MPI_BYTE, r, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
  report("MPI_Allgatherv_c", wrong(r, BIG, 1, 1) + wrong(r + BIG + 1, SMALL, 0, 0) + (r[BIG] != GAP));
  free(r);
}

/* Root 1: rank 0's BIG bytes at 0, its own SMALL in place at BIG + 1. */
static void igatherv(int rank) {
  const MPI_Count counts[2] = {BIG, SMALL};
  const MPI_Aint displs[2] = {0, BIG + 1};
  MPI_Request req;
  long long bad = 0;
  if (rank == 0) {
    unsigned char* s = alloc(BIG);
    fill(s, BIG, 0, 1);
    MPI_Igatherv_c(s, BIG, MPI_BYTE, NULL, NULL, NULL, MPI_BYTE, 1, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    free(s);
  } else {
    unsigned char* r = alloc(BIG + 1 + SMALL);
    fill(r + BIG + 1, SMALL, 1, 1);
    r[BIG] = GAP;
    MPI_Igatherv_c(MPI_IN_PLACE, 0, MPI_BYTE, r, counts, displs, MPI_BYTE, 1, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    bad = wrong(r, BIG, 0, 1) + wrong(r + BIG + 1, SMALL, 1, 1) + (r[BIG] != GAP);
    free(r);
  }
  report("MPI_Igatherv_c", bad);
}

/* Root 1 sends rank 0 BIG bytes from 0 and keeps its SMALL at BIG + 1. */
static void scatterv_init(int rank) {
  const MPI_Count counts[2] = {BIG, SMALL};
  const MPI_Aint displs[2] = {0, BIG + 1};
  MPI_Request req;
  long long bad = 0;
  unsigned char* b = alloc(rank == 1 ? BIG + 1 + SMALL : BIG);
  if (rank == 1) {
    fill(b, BIG, 1, 0);
    b[BIG] = GAP;
    fill(b + BIG + 1, SMALL, 1, 1);
    MPI_Scatterv_init_c(b, counts, displs, MPI_BYTE, MPI_IN_PLACE, 0, MPI_BYTE, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
  } else {
    memset(b, 0, (size_t)BIG);
    MPI_Scatterv_init_c(NULL, NULL, NULL, MPI_BYTE, b, BIG, MPI_BYTE, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
  }
  MPI_Start(&req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Request_free(&req);
  if (rank == 0) bad = wrong(b, BIG, 1, 0);
  free(b);
  report("MPI_Scatterv_init_c", bad);
}

/* Rank 0 sends rank 1 BIG bytes (its own SMALL from BIG); rank 1 receives
 * them at 0 and its own SMALL at BIG + 1. */
static void alltoallv(int rank) {
  long long bad = 0;
  if (rank == 0) {
    const MPI_Count sc[2] = {SMALL, BIG}, rc[2] = {SMALL, SMALL};
    const MPI_Aint sd[2] = {BIG, 0}, rd[2] = {0, SMALL};
    unsigned char* s = alloc(BIG + SMALL);
    unsigned char r[2 * SMALL];
    fill(s, BIG, 0, 1);
    fill(s + BIG, SMALL, 0, 0);
    MPI_Alltoallv_c(s, sc, sd, MPI_BYTE, r, rc, rd, MPI_BYTE, MPI_COMM_WORLD);
    bad = wrong(r, SMALL, 0, 0) + wrong(r + SMALL, SMALL, 1, 0);
    free(s);
  } else {
    const MPI_Count sc[2] = {SMALL, SMALL}, rc[2] = {BIG, SMALL};
    const MPI_Aint sd[2] = {0, SMALL}, rd[2] = {0, BIG + 1};
    unsigned char s[2 * SMALL];
    unsigned char* r = alloc(BIG + 1 + SMALL);
    fill(s, SMALL, 1, 0);
    fill(s + SMALL, SMALL, 1, 1);
    r[BIG] = GAP;
    MPI_Alltoallv_c(s, sc, sd, MPI_BYTE, r, rc, rd, MPI_BYTE, MPI_COMM_WORLD);
    bad = wrong(r, BIG, 0, 1) + wrong(r + BIG + 1, SMALL, 1, 1) + (r[BIG] != GAP);
    free(r);
  }
  report("MPI_Alltoallv_c", bad);
}

/* Root 1 broadcasts BIG bytes (MPI_Bcast_c). */
static void bcast_c(int rank) {
  unsigned char* b = alloc(BIG);
  if (rank == 1)
    fill(b, BIG, 1, 0);
  else
    memset(b, 0, (size_t)BIG);
  MPI_Bcast_c(b, BIG, MPI_BYTE, 1, MPI_COMM_WORLD);
  report("MPI_Bcast_c", rank == 0 ? wrong(b, BIG, 1, 0) : 0);
  free(b);
}

/* Root 0 broadcasts 2^28+1 elements of 8 bytes through the int binding:
 * a count an int holds, 2^31+8 bytes. */
static void bcast_int(int rank) {
  const int count = (1 << 28) + 1;
  const MPI_Count bytes = (MPI_Count)count * 8;
  MPI_Datatype eight;
  MPI_Type_contiguous(8, MPI_BYTE, &eight);
  MPI_Type_commit(&eight);
  unsigned char* b = alloc(bytes);
  if (rank == 0)
    fill(b, bytes, 0, 1);
  else
    memset(b, 0, (size_t)bytes);
  MPI_Bcast(b, count, eight, 0, MPI_COMM_WORLD);
  report("MPI_Bcast", rank == 1 ? wrong(b, bytes, 0, 1) : 0);
  free(b);
  MPI_Type_free(&eight);
}

/* Every rank's BIG bytes XORed, in place (MPI_Allreduce_c): byte i is
 * value(i, 0, 0) ^ value(i, 1, 0) at both ranks. */
static void allreduce_c(int rank) {
  unsigned char* b = alloc(BIG);
  fill(b, BIG, rank, 0);
  MPI_Allreduce_c(MPI_IN_PLACE, b, BIG, MPI_BYTE, MPI_BXOR, MPI_COMM_WORLD);
  long long bad = 0;
  for (MPI_Count i = 0; i < BIG; ++i) bad += b[i] != (unsigned char)(value(i, 0, 0) ^ value(i, 1, 0));
  report("MPI_Allreduce_c", bad);
  free(b);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (p != 2) {
    if (rank == 0) fprintf(stderr, "beyond_int_max: run it on 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  allgatherv(rank);
  igatherv(rank);
  scatterv_init(rank);
  alltoallv(rank);
  bcast_c(rank);
  bcast_int(rank);
  allreduce_c(rank);
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
