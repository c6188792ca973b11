/* The argument lists of the MPI collectives, one per shape (MPI's order,
 * MPI's parameter names), and the views that spell them: MPI's int
 * binding, MPI-4's large-count binding, optcoll's 64-bit calls, the
 * argument list. Every entry point of optcoll is expanded from these lists:
 * the C API's int and 64-bit calls and the C++ API (api_entries.hpp), the
 * drop-in's MPI_* (src/pmpi/) and the Open MPI component (src/ompi/). C as
 * well as C++.
 *
 *   OPTCOLL_PARAMS(shape, view)  the parenthesised parameter list
 *   OPTCOLL_ARGS(shape)          the parenthesised argument list
 *   OPTCOLL_SIG_<shape>(X)       X(kind, name) for each parameter
 *
 * A parameter's kind says what it is, so that each view can spell its type
 * and each expansion can treat it (an argument array widened to 64 bits, a
 * datatype or operator held by a request):
 *   sbuf, rbuf, buf              send, receive, in-out buffer
 *   count                        one count
 *   counts, displs               an array of one entry per rank
 *   root_counts, root_displs     the same, read at the root only
 *   send_counts, send_displs     the same, ignored with MPI_IN_PLACE
 *   type, op, root, comm         MPI_Datatype, MPI_Op, int, MPI_Comm
 * Views: c_int (MPI's int binding), c_large (MPI_Count counts, MPI_Aint
 * displacements), wide (std::int64_t counts, std::span arrays; C++). */
#ifndef OPTCOLL_SIGNATURES_H
#define OPTCOLL_SIGNATURES_H

#include <mpi.h>

/* clang-format off */
#define OPTCOLL_SIG_bcast(X) X(buf, buffer) X(count, count) X(type, datatype) X(root, root) X(comm, comm)
#define OPTCOLL_SIG_reduce(X) \
  X(sbuf, sendbuf) X(rbuf, recvbuf) X(count, count) X(type, datatype) X(op, op) X(root, root) X(comm, comm)
#define OPTCOLL_SIG_allreduce(X) \
  X(sbuf, sendbuf) X(rbuf, recvbuf) X(count, count) X(type, datatype) X(op, op) X(comm, comm)
#define OPTCOLL_SIG_reduce_scatter_block(X) \
  X(sbuf, sendbuf) X(rbuf, recvbuf) X(count, recvcount) X(type, datatype) X(op, op) X(comm, comm)
#define OPTCOLL_SIG_reduce_scatter(X) \
  X(sbuf, sendbuf) X(rbuf, recvbuf) X(counts, recvcounts) X(type, datatype) X(op, op) X(comm, comm)
#define OPTCOLL_SIG_allgather(X) \
  X(sbuf, sendbuf) X(count, sendcount) X(type, sendtype) X(rbuf, recvbuf) X(count, recvcount) X(type, recvtype) \
  X(comm, comm)
#define OPTCOLL_SIG_alltoall(X) OPTCOLL_SIG_allgather(X)
#define OPTCOLL_SIG_allgatherv(X) \
  X(sbuf, sendbuf) X(count, sendcount) X(type, sendtype) X(rbuf, recvbuf) X(counts, recvcounts) X(displs, displs) \
  X(type, recvtype) X(comm, comm)
#define OPTCOLL_SIG_gather(X) \
  X(sbuf, sendbuf) X(count, sendcount) X(type, sendtype) X(rbuf, recvbuf) X(count, recvcount) X(type, recvtype) \
  X(root, root) X(comm, comm)
#define OPTCOLL_SIG_scatter(X) OPTCOLL_SIG_gather(X)
#define OPTCOLL_SIG_gatherv(X) \
  X(sbuf, sendbuf) X(count, sendcount) X(type, sendtype) X(rbuf, recvbuf) X(root_counts, recvcounts) \
  X(root_displs, displs) X(type, recvtype) X(root, root) X(comm, comm)
#define OPTCOLL_SIG_scatterv(X) \
  X(sbuf, sendbuf) X(root_counts, sendcounts) X(root_displs, displs) X(type, sendtype) X(rbuf, recvbuf) \
  X(count, recvcount) X(type, recvtype) X(root, root) X(comm, comm)
#define OPTCOLL_SIG_alltoallv(X) \
  X(sbuf, sendbuf) X(send_counts, sendcounts) X(send_displs, sdispls) X(type, sendtype) X(rbuf, recvbuf) \
  X(counts, recvcounts) X(displs, rdispls) X(type, recvtype) X(comm, comm)

/* Each kind's type in each view. */
#define OPTCOLL_SIG_TYPE_sbuf(view) const void*
#define OPTCOLL_SIG_TYPE_rbuf(view) void*
#define OPTCOLL_SIG_TYPE_buf(view) void*
#define OPTCOLL_SIG_TYPE_count(view) OPTCOLL_SIG_COUNT_##view
#define OPTCOLL_SIG_TYPE_counts(view) OPTCOLL_SIG_COUNTS_##view
#define OPTCOLL_SIG_TYPE_root_counts(view) OPTCOLL_SIG_COUNTS_##view
#define OPTCOLL_SIG_TYPE_send_counts(view) OPTCOLL_SIG_COUNTS_##view
#define OPTCOLL_SIG_TYPE_displs(view) OPTCOLL_SIG_DISPLS_##view
#define OPTCOLL_SIG_TYPE_root_displs(view) OPTCOLL_SIG_DISPLS_##view
#define OPTCOLL_SIG_TYPE_send_displs(view) OPTCOLL_SIG_DISPLS_##view
#define OPTCOLL_SIG_TYPE_type(view) MPI_Datatype
#define OPTCOLL_SIG_TYPE_op(view) MPI_Op
#define OPTCOLL_SIG_TYPE_root(view) int
#define OPTCOLL_SIG_TYPE_comm(view) MPI_Comm

#define OPTCOLL_SIG_COUNT_c_int int
#define OPTCOLL_SIG_COUNTS_c_int const int*
#define OPTCOLL_SIG_DISPLS_c_int const int*
#define OPTCOLL_SIG_COUNT_c_large MPI_Count
#define OPTCOLL_SIG_COUNTS_c_large const MPI_Count*
#define OPTCOLL_SIG_DISPLS_c_large const MPI_Aint*
#define OPTCOLL_SIG_COUNT_wide std::int64_t
#define OPTCOLL_SIG_COUNTS_wide std::span<const std::int64_t>
#define OPTCOLL_SIG_DISPLS_wide std::span<const std::int64_t>

/* A list's elements each start with a comma; OPTCOLL_SIG_TAIL drops the
 * first. */
#define OPTCOLL_SIG_TAIL(...) OPTCOLL_SIG_TAIL_(__VA_ARGS__)
#define OPTCOLL_SIG_TAIL_(first, ...) __VA_ARGS__
#define OPTCOLL_SIG_LIST(shape, X) OPTCOLL_SIG_TAIL(~ OPTCOLL_SIG_##shape(X))

#define OPTCOLL_SIG_PARAM_c_int(kind, name) , OPTCOLL_SIG_TYPE_##kind(c_int) name
#define OPTCOLL_SIG_PARAM_c_large(kind, name) , OPTCOLL_SIG_TYPE_##kind(c_large) name
#define OPTCOLL_SIG_PARAM_wide(kind, name) , OPTCOLL_SIG_TYPE_##kind(wide) name
#define OPTCOLL_SIG_ARG(kind, name) , name

#define OPTCOLL_PARAMS(shape, view) (OPTCOLL_SIG_LIST(shape, OPTCOLL_SIG_PARAM_##view))
#define OPTCOLL_ARGS(shape) (OPTCOLL_SIG_LIST(shape, OPTCOLL_SIG_ARG))
/* clang-format on */

#endif
