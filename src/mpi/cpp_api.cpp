// The C++ API (optcoll/optcoll.hpp): the same calls, errors as exceptions.
#include "collectives.hpp"

namespace optcoll {

int MpiError::mpi_class() const noexcept {
  int cls = mpi_code_;
  if (PMPI_Error_class(mpi_code_, &cls) != MPI_SUCCESS) return MPI_ERR_UNKNOWN;
  return cls;
}

void bcast(void* buffer, std::int64_t count, MPI_Datatype type, int root, MPI_Comm comm, const Options& options) {
  mpi::bcast_impl(buffer, count, type, root, comm, options);
}

void reduce(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, int root,
            MPI_Comm comm, const Options& options) {
  mpi::reduce_impl(sendbuf, recvbuf, count, type, op, root, comm, options);
}

void gather(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf, std::int64_t recvcount,
            MPI_Datatype recvtype, int root, MPI_Comm comm, const Options& options) {
  mpi::gather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, options);
}

void scatter(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf, std::int64_t recvcount,
             MPI_Datatype recvtype, int root, MPI_Comm comm, const Options& options) {
  mpi::scatter_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, options);
}

void gatherv(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
             std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> displs, MPI_Datatype recvtype,
             int root, MPI_Comm comm, const Options& options) {
  mpi::gatherv_impl(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, options);
}

void scatterv(const void* sendbuf, std::span<const std::int64_t> sendcounts, std::span<const std::int64_t> displs,
              MPI_Datatype sendtype, void* recvbuf, std::int64_t recvcount, MPI_Datatype recvtype, int root,
              MPI_Comm comm, const Options& options) {
  mpi::scatterv_impl(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, options);
}

namespace detail {

void reduce_span(const void* send, std::size_t send_size, void* recv, std::size_t recv_size, MPI_Datatype type,
                 MPI_Op op, int root, MPI_Comm comm, const Options& options) {
  const mpi::CallInfo c = mpi::check_call(comm, static_cast<std::int64_t>(send_size), type, root);
  const bool is_root = c.rank == root;
  if (is_root && recv_size < send_size)
    throw MpiError(MPI_ERR_BUFFER, "optcoll::reduce: the root's receive span is shorter than the send span");
  const void* sendbuf = is_root && send == recv && send_size > 0 ? MPI_IN_PLACE : send;
  mpi::reduce_impl(sendbuf, recv, static_cast<std::int64_t>(send_size), type, op, root, comm, options);
}

}  // namespace detail
}  // namespace optcoll
