/* optcoll's C API: MPI collectives with exactly MPI's signatures, callable
 * from C and C++: round-optimal MPI_Bcast, MPI_Reduce, MPI_Allgather(v),
 * MPI_Reduce_scatter(_block) and MPI_Allreduce (Träff 2024, Lang 2025), a
 * merge all-reduction (Lang 2025), MPI_Scan and MPI_Exscan in ceil(log2 p)
 * rounds (or pipelined for long vectors), and tree-based MPI_Gather,
 * MPI_Gatherv, MPI_Scatter, MPI_Scatterv with persistent Gatherv / Scatterv
 * (Träff 2018).
 *
 * All are collective over comm and return an MPI error code; a failure is
 * also raised through comm's error handler (MPI_COMM_WORLD's for an invalid
 * comm or a null request), so MPI_ERRORS_RETURN programs see the code and
 * MPI_ERRORS_ARE_FATAL programs abort, as with the native calls. Error
 * classes: MPI_ERR_COMM (MPI_COMM_NULL, an intercommunicator), MPI_ERR_ROOT,
 * MPI_ERR_COUNT (a negative count, also in recvcounts), MPI_ERR_TYPE
 * (MPI_DATATYPE_NULL, not committed), MPI_ERR_OP (MPI_OP_NULL),
 * MPI_ERR_BUFFER (NULL buffer that would be used; MPI_IN_PLACE at a
 * non-root), MPI_ERR_ARG (an unknown OPTCOLL_<OP> algorithm name; missing
 * counts or displacements), MPI_ERR_TRUNCATE (a rank's own send and receive
 * signatures differ; an allmerge result larger than the buffer),
 * MPI_ERR_REQUEST (starting an active or null request, freeing an active
 * one). Errors only the root can see (its counts) are reported at the root
 * only, as with the native calls.
 *
 * Bcast, Reduce, Allreduce, Allgather(v) and Reduce_scatter(_block): every
 * rank must pass the same count and datatype on the side that is split into
 * blocks (the buffer of Bcast, Reduce and Allreduce; the receive side of
 * Allgather(v); recvcounts and datatype of Reduce_scatter(_block)): matching
 * type signatures alone are not enough, the data is split into blocks by
 * element. A rank's own send and receive datatypes may differ when their
 * signatures match. Gather(v) and Scatter(v) follow MPI exactly: the counts
 * are needed at the root only, displacements may come in any order
 * (homogeneous systems: packed data is taken to be the signature's bytes).
 *
 * The first call on a communicator that moves data duplicates it (all
 * optcoll traffic runs on the duplicate), measures the network's alpha and
 * beta there when a decision needs them, and caches both on comm; the cache
 * is freed with comm. Tuning by environment, read at rank 0 when the cache is
 * built: OPTCOLL_<OP> (OPTCOLL_BCAST, OPTCOLL_ALLREDUCE, ...), OPTCOLL_ALPHA,
 * OPTCOLL_BETA, OPTCOLL_BLOCK_BYTES, OPTCOLL_BLOCK_CAP, OPTCOLL_WAIT, ...
 * (every variable: docs/selection.md, or `optcoll settings`). */
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

/* MPI_Allgather: rank g's sendcount elements of sendtype end in recvbuf at
 * element g*recvcount (of recvtype) at every rank. sendbuf = MPI_IN_PLACE:
 * the own part is already in recvbuf. Circulant (Träff 2024, Alg. 7). */
int OPTCOLL_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                      MPI_Datatype recvtype, MPI_Comm comm);

/* MPI_Allgatherv: rank g's data ends at recvbuf + displs[g] elements, of
 * length recvcounts[g], at every rank. Displacements in any order. */
int OPTCOLL_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                       const int displs[], MPI_Datatype recvtype, MPI_Comm comm);

/* MPI_Alltoall: block j (sendcount elements of sendtype at element
 * j*sendcount) of rank i ends in block i (recvcount elements of recvtype at
 * element i*recvcount) of rank j. sendbuf = MPI_IN_PLACE: the data is
 * recvbuf's. The shift schedule (p-1 rounds) or, for small blocks by the
 * alpha-beta model, Bruck's algorithm (ceil(log2 p) rounds);
 * OPTCOLL_ALLTOALL=shift|bruck overrides. */
int OPTCOLL_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                     MPI_Datatype recvtype, MPI_Comm comm);

/* MPI_Alltoallv: sendcounts[j] elements at sdispls[j] of rank i end at
 * rdispls[i] of rank j (recvcounts[i] elements). sendbuf = MPI_IN_PLACE:
 * the data is recvbuf's (sendcounts, sdispls, sendtype ignored). The shift
 * schedule, empty messages skipped. */
int OPTCOLL_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                      void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm);

/* MPI_Reduce_scatter_block: rank g receives elements [g*recvcount,
 * (g+1)*recvcount) of the element-wise combination of all ranks' sendbuf.
 * sendbuf = MPI_IN_PLACE: the input is recvbuf (p*recvcount elements). */
int OPTCOLL_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                                 MPI_Comm comm);

/* MPI_Reduce_scatter: as Reduce_scatter_block, rank g's part recvcounts[g]
 * elements long, the parts adjacent in rank order. */
int OPTCOLL_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                           MPI_Comm comm);

/* MPI_Allreduce: every rank ends with the element-wise combination of all
 * ranks' sendbuf (in rank order for a non-commutative op). */
int OPTCOLL_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);

/* MPI_Scan / MPI_Exscan: rank r receives the element-wise combination of
 * ranks 0..r's (Exscan: 0..r-1's) sendbuf, in rank order. sendbuf =
 * MPI_IN_PLACE: the input is recvbuf. Exscan never writes rank 0's recvbuf.
 * Recursive doubling in ceil(log2 p) rounds, or a pipelined chain for long
 * vectors (alpha-beta model; OPTCOLL_SCAN / OPTCOLL_EXSCAN = doubling |
 * pipeline). */
int OPTCOLL_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int OPTCOLL_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);

/* Merge all-reduction (Lang 2025): sendbuf holds sendcount keys sorted in
 * ascending order; every rank receives the sorted union of all ranks' keys
 * (duplicates kept) in recvbuf, which has room for `capacity` keys, and its
 * length in *recvcount. MPI_ERR_TRUNCATE (after the collective completed)
 * when the union does not fit. */
int OPTCOLL_Allmerge_int(const int* sendbuf, int sendcount, int* recvbuf, int capacity, int* recvcount, MPI_Comm comm);
int OPTCOLL_Allmerge_long_long(const long long* sendbuf, int sendcount, long long* recvbuf, int capacity,
                               int* recvcount, MPI_Comm comm);
int OPTCOLL_Allmerge_double(const double* sendbuf, int sendcount, double* recvbuf, int capacity, int* recvcount,
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
/* Persistent Bcast, Reduce and Allreduce (MPI-4's MPI_Bcast_init, ...
 * signatures with an OPTCOLL_Request). Collective: the plan the blocking call would run for
 * these arguments is chosen and built once; each OPTCOLL_Start runs it on
 * the buffers' current content. Each request has its own duplicate of comm.
 * Nonblocking Ibcast, Ireduce, Iallreduce: the same plan, started at once;
 * OPTCOLL_Test or OPTCOLL_Wait completes it and sets the request to
 * OPTCOLL_REQUEST_NULL (OPTCOLL_Start of it: MPI_ERR_REQUEST). Their
 * messages carry a tag of their own, so several may be outstanding on one
 * communicator, started in the same order at every rank. */
int OPTCOLL_Bcast_init(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                       OPTCOLL_Request* request);
int OPTCOLL_Reduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                        MPI_Comm comm, MPI_Info info, OPTCOLL_Request* request);
int OPTCOLL_Allreduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                           MPI_Comm comm, MPI_Info info, OPTCOLL_Request* request);
int OPTCOLL_Ibcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, OPTCOLL_Request* request);
int OPTCOLL_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                    MPI_Comm comm, OPTCOLL_Request* request);
int OPTCOLL_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                       OPTCOLL_Request* request);

/* The same for the all-broadcasts, the reduce-scatters and the scans
 * (MPI-4's MPI_Allgather_init, MPI_Iallgather, ... signatures). */
int OPTCOLL_Allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, OPTCOLL_Request* request);
int OPTCOLL_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, OPTCOLL_Request* request);
int OPTCOLL_Allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                            const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Info info, OPTCOLL_Request* request);
int OPTCOLL_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                        OPTCOLL_Request* request);
int OPTCOLL_Reduce_scatter_block_init(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype,
                                      MPI_Op op, MPI_Comm comm, MPI_Info info, OPTCOLL_Request* request);
int OPTCOLL_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                                  MPI_Comm comm, OPTCOLL_Request* request);
int OPTCOLL_Reduce_scatter_init(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
                                MPI_Op op, MPI_Comm comm, MPI_Info info, OPTCOLL_Request* request);
int OPTCOLL_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
                            MPI_Op op, MPI_Comm comm, OPTCOLL_Request* request);
int OPTCOLL_Scan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                      MPI_Info info, OPTCOLL_Request* request);
int OPTCOLL_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                  OPTCOLL_Request* request);
int OPTCOLL_Exscan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                        MPI_Info info, OPTCOLL_Request* request);
int OPTCOLL_Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                    OPTCOLL_Request* request);

/* Gather, Scatter, Alltoall, Alltoallv; nonblocking Gatherv and Scatterv
 * (their persistent forms: OPTCOLL_Gatherv_init below). OPTCOLL_Igatherv
 * and OPTCOLL_Iscatterv build their tree at the call, which exchanges
 * messages among the ranks: the call returns once every rank has made it. */
int OPTCOLL_Gather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                        MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, OPTCOLL_Request* request);
int OPTCOLL_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm, OPTCOLL_Request* request);
int OPTCOLL_Scatter_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, OPTCOLL_Request* request);
int OPTCOLL_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, OPTCOLL_Request* request);
int OPTCOLL_Alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, OPTCOLL_Request* request);
int OPTCOLL_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                      MPI_Datatype recvtype, MPI_Comm comm, OPTCOLL_Request* request);
int OPTCOLL_Alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                           void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                           MPI_Comm comm, MPI_Info info, OPTCOLL_Request* request);
int OPTCOLL_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                       void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                       OPTCOLL_Request* request);
int OPTCOLL_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                     const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, OPTCOLL_Request* request);
int OPTCOLL_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                      void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                      OPTCOLL_Request* request);

/* OPTCOLL_Test advances a started request as far as it can without
 * blocking (its rounds progress only inside OPTCOLL_Test and OPTCOLL_Wait)
 * and sets *flag to 1 when it is complete (or null, or inactive). */
int OPTCOLL_Start(OPTCOLL_Request* request);
int OPTCOLL_Test(OPTCOLL_Request* request, int* flag, MPI_Status* status);
int OPTCOLL_Wait(OPTCOLL_Request* request, MPI_Status* status);
int OPTCOLL_Request_free(OPTCOLL_Request* request);

/* Requests and the program's MPI objects (MPI's rules): a request keeps
 * its communicator and datatypes usable until it is freed, whatever the
 * program frees meanwhile (MPI_Comm_free and MPI_Type_free right after the
 * call are fine). An operator made with MPI_Op_create cannot be kept so
 * (MPI has no way to duplicate one): free it with OPTCOLL_Op_free, which
 * is MPI_Op_free once no optcoll request uses the operator and otherwise
 * frees it when the last one is freed (*op becomes MPI_OP_NULL either
 * way). The drop-in library's MPI_Op_free does this by itself. */
int OPTCOLL_Op_free(MPI_Op* op);

#ifdef __cplusplus
}
#endif

#endif /* OPTCOLL_OPTCOLL_H */
