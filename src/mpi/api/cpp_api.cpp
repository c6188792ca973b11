// The C++ API (optcoll/optcoll.hpp): the same calls, errors as exceptions.
#include "mpi/api/api_entries.hpp"
#include "mpi/collectives/collectives.hpp"
#include "mpi/requests/request.hpp"

namespace optcoll {

int MpiError::mpi_class() const noexcept {
  int cls = mpi_code_;
  if (PMPI_Error_class(mpi_code_, &cls) != MPI_SUCCESS) return MPI_ERR_UNKNOWN;
  return cls;
}

// One blocking, nonblocking and persistent call for every line of
// collectives.def: the MPI layer's implementation, or a request of it
// (make_request) on the request's own datatypes and operators. Gatherv's
// and Scatterv's persistent forms are the optimal ordered tree's
// (gatherv_persistent.cpp).
#define OPTCOLL_CPP_INIT_tree(name, shape)
#define OPTCOLL_CPP_INIT_call(name, shape)                                  \
  Request name##_init(OPTCOLL_WIDE_PARAMS(shape), const Options& options) { \
    return OPTCOLL_MAKE_REQUEST(name, shape, true, nullptr);                \
  }
#define OPTCOLL_COLLECTIVE(Name, name, collective, shape, init)         \
  void name(OPTCOLL_WIDE_PARAMS(shape), const Options& options) {       \
    mpi::name##_impl(OPTCOLL_PLAIN_ARGS(shape), options, nullptr);      \
  }                                                                     \
  Request i##name(OPTCOLL_WIDE_PARAMS(shape), const Options& options) { \
    return OPTCOLL_MAKE_REQUEST(name, shape, false, nullptr);           \
  }                                                                     \
  OPTCOLL_CPP_INIT_##init(name, shape)
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE

void many_to_many(const void* sendbuf, std::span<const std::int64_t> sendcounts, std::span<const std::int64_t> sdispls,
                  void* recvbuf, std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> rdispls,
                  MPI_Datatype type, MPI_Comm comm, const Options& options) {
  mpi::many_to_many_impl(sendbuf, sendcounts, sdispls, recvbuf, recvcounts, rdispls, type, comm, options, nullptr);
}

namespace detail {

const void* span_send(const void* send, std::size_t send_size, const void* recv, std::size_t recv_size,
                      std::size_t elem_bytes, bool by_comm_size, MPI_Comm comm, const char* what) {
  // The spans' sizes and the in-place test need the communicator only: the
  // call itself checks its arguments (once, in its implementation).
  const mpi::CommLookup c = mpi::look_up(comm);
  if (c.bad != nullptr) throw MpiError(MPI_ERR_COMM, std::string("optcoll: ") + c.bad);
  const std::size_t factor = by_comm_size ? static_cast<std::size_t>(c.size) : 1;
  if (recv_size < send_size * factor)
    throw MpiError(MPI_ERR_BUFFER, std::string("optcoll::") + what + ": the receive span is too short");
  if (send_size == 0) return send;
  // In place: send is recv (allreduce) or this rank's part of recv (allgather).
  const std::size_t own = by_comm_size ? static_cast<std::size_t>(c.rank) * send_size * elem_bytes : 0;
  if (send == static_cast<const char*>(recv) + own) return MPI_IN_PLACE;
  return send;
}

void reduce_span(const void* send, std::size_t send_size, void* recv, std::size_t recv_size, MPI_Datatype type,
                 MPI_Op op, int root, MPI_Comm comm, const Options& options) {
  const mpi::CommLookup c = mpi::look_up(comm);
  if (c.bad != nullptr) throw MpiError(MPI_ERR_COMM, std::string("optcoll: ") + c.bad);
  const bool is_root = c.rank == root;  // (a root out of range: reduce_impl's MPI_ERR_ROOT)
  if (is_root && recv_size < send_size)
    throw MpiError(MPI_ERR_BUFFER, "optcoll::reduce: the root's receive span is shorter than the send span");
  const void* sendbuf = is_root && send == recv && send_size > 0 ? MPI_IN_PLACE : send;
  mpi::reduce_impl(sendbuf, recv, static_cast<std::int64_t>(send_size), type, op, root, comm, options, nullptr);
}

}  // namespace detail
}  // namespace optcoll
