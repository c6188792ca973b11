/* What the two files of the drop-in test program share: plain_collectives.c
 * (main, the calls without count arrays, the counters and the digest) and
 * plain_v_cases.c (the v collectives). */
#ifndef OPTCOLL_TEST_PLAIN_COLLECTIVES_H
#define OPTCOLL_TEST_PLAIN_COLLECTIVES_H

#include <mpi.h>
#include <stddef.h>

enum {
  BCAST,
  REDUCE,
  ALLGATHER,
  ALLGATHERV,
  RS_BLOCK,
  RS,
  ALLREDUCE,
  GATHER,
  GATHERV,
  SCATTER,
  SCATTERV,
  ALLTOALL,
  ALLTOALLV,
  SCAN,
  EXSCAN,
  NOPS
};

/* Adds bytes to this rank's digest of every result. */
void hash(const void* data, size_t bytes);
/* Counts a call of op on comm that moves bytes (-1: unknown, more than 0)
 * at world rank 0, which prints the counts. */
void note(int op, MPI_Comm comm, long bytes);
/* Allgatherv, Gatherv, Scatterv and Alltoallv on comm (plain_v_cases.c). */
void v_cases(MPI_Comm comm);

#endif
