/* optcoll's C API: MPI collectives with exactly MPI's signatures, callable
 * from C and C++: round-optimal MPI_Bcast and MPI_Reduce (Träff 2024), and
 * tree-based MPI_Gather, MPI_Gatherv, MPI_Scatter, MPI_Scatterv with
 * persistent Gatherv / Scatterv (Träff 2018).
 *
 * All are collective over comm and return an MPI error code; a failure is
 * also raised through comm's error handler (MPI_COMM_WORLD's for an invalid
 * comm or a null request), so MPI_ERRORS_RETURN programs see the code and
 * MPI_ERRORS_ARE_FATAL programs abort, as with the native calls. Error
 * classes: MPI_ERR_COMM (MPI_COMM_NULL, an intercommunicator), MPI_ERR_ROOT,
 * MPI_ERR_COUNT (a negative count), MPI_ERR_TYPE (MPI_DATATYPE_NULL, not
 * committed), MPI_ERR_OP (MPI_OP_NULL), MPI_ERR_BUFFER (NULL buffer that
 * would be used; MPI_IN_PLACE at a non-root), MPI_ERR_ARG (an unknown
 * OPTCOLL_BCAST / OPTCOLL_REDUCE algorithm name; missing counts or
 * displacements at the root), MPI_ERR_TRUNCATE (the root's own send and
 * receive signatures differ), MPI_ERR_REQUEST (starting an active or null
 * request, freeing an active one). Errors only the root can see (its counts)
 * are reported at the root only, as with the native calls.
 *
 * Bcast and Reduce: every rank must pass the same count and datatype
 * (matching type signatures alone are not enough): the data is split into
 * blocks by element. Gather(v) and Scatter(v) follow MPI exactly: the
 * counts are needed at the root only, sendtype and recvtype may differ when
 * the signatures match, displacements may come in any order (homogeneous
 * systems: packed data is taken to be the signature's bytes).
 *
 * The first call on a communicator that moves data duplicates it (all
 * optcoll traffic runs on the duplicate), measures the network's alpha and
 * beta there when a decision needs them, and caches both on comm; the cache
 * is freed with comm. Tuning by environment, read at rank 0 when the cache is
 * built (see DEVELOPERS.md, "mpi/"): OPTCOLL_BCAST, OPTCOLL_REDUCE,
 * OPTCOLL_ALPHA, OPTCOLL_BETA, OPTCOLL_BLOCK_BYTES, OPTCOLL_WAIT. */
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

/* MPI_Gather: root's recvbuf receives recvcount elements of recvtype from
 * every rank, in rank order. sendbuf = MPI_IN_PLACE at the root: its block
 * is already in place. Rank-ordered binomial tree, ceil(log2 p) rounds. */
int OPTCOLL_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                   MPI_Datatype recvtype, int root, MPI_Comm comm);

/* MPI_Gatherv: rank i's block lands at recvbuf + displs[i] * extent(recvtype)
 * (recvcounts[i] elements; displacements in any order). recvcounts, displs,
 * recvbuf and recvtype are read at the root only. Problem-adaptive binomial
 * tree built by the ranks in ceil(log2 p) rounds, or TWO where Lemma 2 of
 * Träff 2018 applies (one large block that hides gathering the others). */
int OPTCOLL_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                    const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm);

/* MPI_Scatter: rank i receives block i (sendcount elements of sendtype) of
 * root's sendbuf. recvbuf = MPI_IN_PLACE at the root: its block stays. */
int OPTCOLL_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm);

/* MPI_Scatterv: rank i receives sendcounts[i] elements from sendbuf +
 * displs[i] * extent(sendtype) at the root. */
int OPTCOLL_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                     void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);

/* Persistent Gatherv / Scatterv (MPI-4 style, MPI_Gatherv_init's
 * signature with an OPTCOLL_Request). Collective: the root computes the
 * optimal ordered tree for these counts (Traff 2018, Figure 6, in the
 * alpha-beta model measured on comm; O(p^3), about a second for p = 2000)
 * and every rank receives its part of it. The buffers, counts and types are
 * bound to the request. OPTCOLL_Start starts one operation (posts its first
 * round; every rank must start its requests in the same order),
 * OPTCOLL_Wait completes it (status: MPI_STATUS_IGNORE or set empty);
 * waiting on an inactive request returns at once. OPTCOLL_Request_free
 * frees an inactive request and sets it to OPTCOLL_REQUEST_NULL (freeing an
 * active one: MPI_ERR_REQUEST). Each request has its own duplicate of comm:
 * several may be active at once. info is ignored (may be MPI_INFO_NULL). */
typedef struct OPTCOLL_Request_s* OPTCOLL_Request;
#define OPTCOLL_REQUEST_NULL ((OPTCOLL_Request)0)

int OPTCOLL_Gatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
                         MPI_Info info, OPTCOLL_Request* request);
int OPTCOLL_Scatterv_init(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                          void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                          OPTCOLL_Request* request);
int OPTCOLL_Start(OPTCOLL_Request* request);
int OPTCOLL_Wait(OPTCOLL_Request* request, MPI_Status* status);
int OPTCOLL_Request_free(OPTCOLL_Request* request);

#ifdef __cplusplus
}
#endif

#endif /* OPTCOLL_OPTCOLL_H */
