/* optcoll's C API: round-optimal MPI_Bcast and MPI_Reduce (Träff 2024) with
 * exactly MPI's signatures, callable from C and C++.
 *
 * Both are collective over comm and return an MPI error code; a failure is
 * also raised through comm's error handler (MPI_COMM_WORLD's for an invalid
 * comm), so MPI_ERRORS_RETURN programs see the code and MPI_ERRORS_ARE_FATAL
 * programs abort, as with the native calls. Error classes: MPI_ERR_COMM
 * (MPI_COMM_NULL, an intercommunicator), MPI_ERR_ROOT, MPI_ERR_COUNT,
 * MPI_ERR_TYPE (MPI_DATATYPE_NULL, not committed), MPI_ERR_OP (MPI_OP_NULL),
 * MPI_ERR_BUFFER (NULL buffer with count > 0; MPI_IN_PLACE at a non-root),
 * MPI_ERR_ARG (an unknown OPTCOLL_BCAST / OPTCOLL_REDUCE algorithm name).
 *
 * Unlike the native calls, every rank must pass the same count and datatype
 * (matching type signatures alone is not enough): the data is split into
 * blocks by element.
 *
 * The first call on a communicator that moves data duplicates it (all
 * optcoll traffic runs on the duplicate), measures the network's alpha and
 * beta there and caches both on comm; the cache is freed with comm. Tuning by
 * environment, read at rank 0 when the cache is built (see DEVELOPERS.md,
 * "mpi/"): OPTCOLL_BCAST, OPTCOLL_REDUCE, OPTCOLL_ALPHA, OPTCOLL_BETA,
 * OPTCOLL_BLOCK_BYTES, OPTCOLL_WAIT. */
#ifndef OPTCOLL_OPTCOLL_H
#define OPTCOLL_OPTCOLL_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* MPI_Bcast: count elements of datatype from root's buffer to every rank's. */
int OPTCOLL_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm);

/* MPI_Reduce: recvbuf at root = sendbuf of rank 0 op ... op sendbuf of rank
 * p-1, element by element; in rank order for a non-commutative op.
 * sendbuf = MPI_IN_PLACE at the root takes the root's input from recvbuf. */
int OPTCOLL_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                   MPI_Comm comm);

#ifdef __cplusplus
}
#endif

#endif /* OPTCOLL_OPTCOLL_H */
