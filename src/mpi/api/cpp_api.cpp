// The C++ API (optcoll/optcoll.hpp): the same calls, errors as exceptions.
#include "mpi/collectives/collectives.hpp"

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

void allgather(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Comm comm,
               const Options& options) {
  mpi::allgather_impl(sendbuf, count, type, recvbuf, count, type, comm, options);
}

void allgatherv(const void* sendbuf, std::int64_t sendcount, void* recvbuf, std::span<const std::int64_t> recvcounts,
                std::span<const std::int64_t> displs, MPI_Datatype type, MPI_Comm comm, const Options& options) {
  mpi::allgatherv_impl(sendbuf, sendcount, type, recvbuf, recvcounts, displs, type, comm, options);
}

void reduce_scatter_block(const void* sendbuf, void* recvbuf, std::int64_t recvcount, MPI_Datatype type, MPI_Op op,
                          MPI_Comm comm, const Options& options) {
  mpi::reduce_scatter_block_impl(sendbuf, recvbuf, recvcount, type, op, comm, options);
}

void reduce_scatter(const void* sendbuf, void* recvbuf, std::span<const std::int64_t> recvcounts, MPI_Datatype type,
                    MPI_Op op, MPI_Comm comm, const Options& options) {
  mpi::reduce_scatter_impl(sendbuf, recvbuf, recvcounts, type, op, comm, options);
}

void allreduce(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
               const Options& options) {
  mpi::allreduce_impl(sendbuf, recvbuf, count, type, op, comm, options);
}
void alltoall(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf, std::int64_t recvcount,
              MPI_Datatype recvtype, MPI_Comm comm, const Options& options) {
  mpi::alltoall_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, options);
}

void alltoallv(const void* sendbuf, std::span<const std::int64_t> sendcounts, std::span<const std::int64_t> sdispls,
               MPI_Datatype sendtype, void* recvbuf, std::span<const std::int64_t> recvcounts,
               std::span<const std::int64_t> rdispls, MPI_Datatype recvtype, MPI_Comm comm, const Options& options) {
  mpi::alltoallv_impl(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, options);
}

void many_to_many(const void* sendbuf, std::span<const std::int64_t> sendcounts, std::span<const std::int64_t> sdispls,
                  void* recvbuf, std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> rdispls,
                  MPI_Datatype type, MPI_Comm comm, const Options& options) {
  mpi::many_to_many_impl(sendbuf, sendcounts, sdispls, recvbuf, recvcounts, rdispls, type, comm, options);
}

void scan(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
          const Options& options) {
  mpi::scan_impl(plan::Collective::scan, sendbuf, recvbuf, count, type, op, comm, options);
}

void exscan(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
            const Options& options) {
  mpi::scan_impl(plan::Collective::exscan, sendbuf, recvbuf, count, type, op, comm, options);
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

const void* span_send(const void* send, std::size_t send_size, const void* recv, std::size_t recv_size,
                      std::size_t elem_bytes, bool by_comm_size, MPI_Comm comm, const char* what) {
  const mpi::CallInfo c = mpi::check_call(comm, static_cast<std::int64_t>(send_size), MPI_BYTE, 0);
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
  const mpi::CallInfo c = mpi::check_call(comm, static_cast<std::int64_t>(send_size), type, root);
  const bool is_root = c.rank == root;
  if (is_root && recv_size < send_size)
    throw MpiError(MPI_ERR_BUFFER, "optcoll::reduce: the root's receive span is shorter than the send span");
  const void* sendbuf = is_root && send == recv && send_size > 0 ? MPI_IN_PLACE : send;
  mpi::reduce_impl(sendbuf, recv, static_cast<std::int64_t>(send_size), type, op, root, comm, options);
}

}  // namespace detail
}  // namespace optcoll
