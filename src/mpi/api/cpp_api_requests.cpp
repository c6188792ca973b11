// The C++ API's persistent (<op>_init) and nonblocking (i<op>) calls: each
// the blocking call's implementation under a capture (request.hpp).
#include "mpi/collectives/collectives.hpp"
#include "mpi/requests/request.hpp"

namespace optcoll {

Request bcast_init(void* buffer, std::int64_t count, MPI_Datatype type, int root, MPI_Comm comm,
                   const Options& options) {
  return mpi::make_request(
      comm, true, [&](mpi::HeldHandles& h) { mpi::bcast_impl(buffer, count, h.type(type), root, comm, options); });
}
Request ibcast(void* buffer, std::int64_t count, MPI_Datatype type, int root, MPI_Comm comm, const Options& options) {
  return mpi::make_request(
      comm, false, [&](mpi::HeldHandles& h) { mpi::bcast_impl(buffer, count, h.type(type), root, comm, options); });
}
Request reduce_init(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, int root,
                    MPI_Comm comm, const Options& options) {
  return mpi::make_request(comm, true, [&](mpi::HeldHandles& h) {
    mpi::reduce_impl(sendbuf, recvbuf, count, h.type(type), h.op(op), root, comm, options);
  });
}
Request ireduce(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, int root,
                MPI_Comm comm, const Options& options) {
  return mpi::make_request(comm, false, [&](mpi::HeldHandles& h) {
    mpi::reduce_impl(sendbuf, recvbuf, count, h.type(type), h.op(op), root, comm, options);
  });
}
Request allreduce_init(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op,
                       MPI_Comm comm, const Options& options) {
  return mpi::make_request(comm, true, [&](mpi::HeldHandles& h) {
    mpi::allreduce_impl(sendbuf, recvbuf, count, h.type(type), h.op(op), comm, options);
  });
}
Request iallreduce(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                   const Options& options) {
  return mpi::make_request(comm, false, [&](mpi::HeldHandles& h) {
    mpi::allreduce_impl(sendbuf, recvbuf, count, h.type(type), h.op(op), comm, options);
  });
}

Request allgather_init(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Comm comm,
                       const Options& options) {
  return mpi::make_request(comm, true, [&](mpi::HeldHandles& h) {
    mpi::allgather_impl(sendbuf, count, h.type(type), recvbuf, count, h.type(type), comm, options);
  });
}
Request iallgather(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Comm comm,
                   const Options& options) {
  return mpi::make_request(comm, false, [&](mpi::HeldHandles& h) {
    mpi::allgather_impl(sendbuf, count, h.type(type), recvbuf, count, h.type(type), comm, options);
  });
}
Request allgatherv_init(const void* sendbuf, std::int64_t sendcount, void* recvbuf,
                        std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> displs,
                        MPI_Datatype type, MPI_Comm comm, const Options& options) {
  return mpi::make_request(comm, true, [&](mpi::HeldHandles& h) {
    mpi::allgatherv_impl(sendbuf, sendcount, h.type(type), recvbuf, recvcounts, displs, h.type(type), comm, options);
  });
}
Request iallgatherv(const void* sendbuf, std::int64_t sendcount, void* recvbuf,
                    std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> displs, MPI_Datatype type,
                    MPI_Comm comm, const Options& options) {
  return mpi::make_request(comm, false, [&](mpi::HeldHandles& h) {
    mpi::allgatherv_impl(sendbuf, sendcount, h.type(type), recvbuf, recvcounts, displs, h.type(type), comm, options);
  });
}
Request reduce_scatter_block_init(const void* sendbuf, void* recvbuf, std::int64_t recvcount, MPI_Datatype type,
                                  MPI_Op op, MPI_Comm comm, const Options& options) {
  return mpi::make_request(comm, true, [&](mpi::HeldHandles& h) {
    mpi::reduce_scatter_block_impl(sendbuf, recvbuf, recvcount, h.type(type), h.op(op), comm, options);
  });
}
Request ireduce_scatter_block(const void* sendbuf, void* recvbuf, std::int64_t recvcount, MPI_Datatype type, MPI_Op op,
                              MPI_Comm comm, const Options& options) {
  return mpi::make_request(comm, false, [&](mpi::HeldHandles& h) {
    mpi::reduce_scatter_block_impl(sendbuf, recvbuf, recvcount, h.type(type), h.op(op), comm, options);
  });
}
Request reduce_scatter_init(const void* sendbuf, void* recvbuf, std::span<const std::int64_t> recvcounts,
                            MPI_Datatype type, MPI_Op op, MPI_Comm comm, const Options& options) {
  return mpi::make_request(comm, true, [&](mpi::HeldHandles& h) {
    mpi::reduce_scatter_impl(sendbuf, recvbuf, recvcounts, h.type(type), h.op(op), comm, options);
  });
}
Request ireduce_scatter(const void* sendbuf, void* recvbuf, std::span<const std::int64_t> recvcounts, MPI_Datatype type,
                        MPI_Op op, MPI_Comm comm, const Options& options) {
  return mpi::make_request(comm, false, [&](mpi::HeldHandles& h) {
    mpi::reduce_scatter_impl(sendbuf, recvbuf, recvcounts, h.type(type), h.op(op), comm, options);
  });
}
Request scan_init(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                  const Options& options) {
  return mpi::make_request(comm, true, [&](mpi::HeldHandles& h) {
    mpi::scan_impl(plan::Collective::scan, sendbuf, recvbuf, count, h.type(type), h.op(op), comm, options);
  });
}
Request iscan(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
              const Options& options) {
  return mpi::make_request(comm, false, [&](mpi::HeldHandles& h) {
    mpi::scan_impl(plan::Collective::scan, sendbuf, recvbuf, count, h.type(type), h.op(op), comm, options);
  });
}
Request exscan_init(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                    const Options& options) {
  return mpi::make_request(comm, true, [&](mpi::HeldHandles& h) {
    mpi::scan_impl(plan::Collective::exscan, sendbuf, recvbuf, count, h.type(type), h.op(op), comm, options);
  });
}
Request iexscan(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                const Options& options) {
  return mpi::make_request(comm, false, [&](mpi::HeldHandles& h) {
    mpi::scan_impl(plan::Collective::exscan, sendbuf, recvbuf, count, h.type(type), h.op(op), comm, options);
  });
}

Request gather_init(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                    std::int64_t recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, const Options& options) {
  return mpi::make_request(comm, true, [&](mpi::HeldHandles& h) {
    mpi::gather_impl(sendbuf, sendcount, h.type(sendtype), recvbuf, recvcount, h.type(recvtype), root, comm, options);
  });
}
Request igather(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                std::int64_t recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, const Options& options) {
  return mpi::make_request(comm, false, [&](mpi::HeldHandles& h) {
    mpi::gather_impl(sendbuf, sendcount, h.type(sendtype), recvbuf, recvcount, h.type(recvtype), root, comm, options);
  });
}
Request scatter_init(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                     std::int64_t recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, const Options& options) {
  return mpi::make_request(comm, true, [&](mpi::HeldHandles& h) {
    mpi::scatter_impl(sendbuf, sendcount, h.type(sendtype), recvbuf, recvcount, h.type(recvtype), root, comm, options);
  });
}
Request iscatter(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                 std::int64_t recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, const Options& options) {
  return mpi::make_request(comm, false, [&](mpi::HeldHandles& h) {
    mpi::scatter_impl(sendbuf, sendcount, h.type(sendtype), recvbuf, recvcount, h.type(recvtype), root, comm, options);
  });
}
Request igatherv(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                 std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> displs, MPI_Datatype recvtype,
                 int root, MPI_Comm comm, const Options& options) {
  return mpi::make_request(comm, false, [&](mpi::HeldHandles& h) {
    mpi::gatherv_impl(sendbuf, sendcount, h.type(sendtype), recvbuf, recvcounts, displs, h.type(recvtype), root, comm,
                      options);
  });
}
Request iscatterv(const void* sendbuf, std::span<const std::int64_t> sendcounts, std::span<const std::int64_t> displs,
                  MPI_Datatype sendtype, void* recvbuf, std::int64_t recvcount, MPI_Datatype recvtype, int root,
                  MPI_Comm comm, const Options& options) {
  return mpi::make_request(comm, false, [&](mpi::HeldHandles& h) {
    mpi::scatterv_impl(sendbuf, sendcounts, displs, h.type(sendtype), recvbuf, recvcount, h.type(recvtype), root, comm,
                       options);
  });
}
Request alltoall_init(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                      std::int64_t recvcount, MPI_Datatype recvtype, MPI_Comm comm, const Options& options) {
  return mpi::make_request(comm, true, [&](mpi::HeldHandles& h) {
    mpi::alltoall_impl(sendbuf, sendcount, h.type(sendtype), recvbuf, recvcount, h.type(recvtype), comm, options);
  });
}
Request ialltoall(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                  std::int64_t recvcount, MPI_Datatype recvtype, MPI_Comm comm, const Options& options) {
  return mpi::make_request(comm, false, [&](mpi::HeldHandles& h) {
    mpi::alltoall_impl(sendbuf, sendcount, h.type(sendtype), recvbuf, recvcount, h.type(recvtype), comm, options);
  });
}
Request alltoallv_init(const void* sendbuf, std::span<const std::int64_t> sendcounts,
                       std::span<const std::int64_t> sdispls, MPI_Datatype sendtype, void* recvbuf,
                       std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> rdispls,
                       MPI_Datatype recvtype, MPI_Comm comm, const Options& options) {
  return mpi::make_request(comm, true, [&](mpi::HeldHandles& h) {
    mpi::alltoallv_impl(sendbuf, sendcounts, sdispls, h.type(sendtype), recvbuf, recvcounts, rdispls, h.type(recvtype),
                        comm, options);
  });
}
Request ialltoallv(const void* sendbuf, std::span<const std::int64_t> sendcounts, std::span<const std::int64_t> sdispls,
                   MPI_Datatype sendtype, void* recvbuf, std::span<const std::int64_t> recvcounts,
                   std::span<const std::int64_t> rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                   const Options& options) {
  return mpi::make_request(comm, false, [&](mpi::HeldHandles& h) {
    mpi::alltoallv_impl(sendbuf, sendcounts, sdispls, h.type(sendtype), recvbuf, recvcounts, rdispls, h.type(recvtype),
                        comm, options);
  });
}

}  // namespace optcoll
