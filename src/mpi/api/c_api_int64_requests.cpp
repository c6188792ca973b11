// The nonblocking (I<name>) and persistent (<Name>_init) collectives of the
// C API on 64-bit counts (c_api_int64.hpp). Bcast, Reduce and Allreduce make the
// C++ API's requests on their compiled plans; Gatherv_init and
// Scatterv_init the optimal ordered tree's; the others run their blocking
// implementation as a request (request_of, c_api.hpp). The info argument
// is accepted and not read.
#include "mpi/api/c_api.hpp"
#include "mpi/api/c_api_int64.hpp"
#include "mpi/collectives/collectives.hpp"
#include "optcoll/optcoll.hpp"

namespace optcoll::mpi::wide {

int Ibcast(void* buffer, Count count, MPI_Datatype datatype, int root, MPI_Comm comm, Request* request) {
  return new_request(comm, request, [&] { return optcoll::ibcast(buffer, count, datatype, root, comm); });
}
int Bcast_init(void* buffer, Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info /*info*/,
               Request* request) {
  return new_request(comm, request, [&] { return optcoll::bcast_init(buffer, count, datatype, root, comm); });
}

int Ireduce(const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
            Request* request) {
  return new_request(comm, request,
                     [&] { return optcoll::ireduce(sendbuf, recvbuf, count, datatype, op, root, comm); });
}
int Reduce_init(const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op, int root,
                MPI_Comm comm, MPI_Info /*info*/, Request* request) {
  return new_request(comm, request,
                     [&] { return optcoll::reduce_init(sendbuf, recvbuf, count, datatype, op, root, comm); });
}

int Iallreduce(const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
               Request* request) {
  return new_request(comm, request, [&] { return optcoll::iallreduce(sendbuf, recvbuf, count, datatype, op, comm); });
}
int Allreduce_init(const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Info /*info*/, Request* request) {
  return new_request(comm, request,
                     [&] { return optcoll::allreduce_init(sendbuf, recvbuf, count, datatype, op, comm); });
}

namespace {
// Scan and Exscan, nonblocking or persistent.
int scan_request(plan::Collective kind, bool persistent, const void* sendbuf, void* recvbuf, Count count,
                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, Request* request) {
  return request_of(comm, persistent, request, [&](HeldHandles& h) {
    scan_impl(kind, sendbuf, recvbuf, count, h.type(datatype), h.op(op), comm, {});
  });
}
}  // namespace

int Iscan(const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
          Request* request) {
  return scan_request(plan::Collective::scan, false, sendbuf, recvbuf, count, datatype, op, comm, request);
}
int Scan_init(const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
              MPI_Info /*info*/, Request* request) {
  return scan_request(plan::Collective::scan, true, sendbuf, recvbuf, count, datatype, op, comm, request);
}
int Iexscan(const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
            Request* request) {
  return scan_request(plan::Collective::exscan, false, sendbuf, recvbuf, count, datatype, op, comm, request);
}
int Exscan_init(const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                MPI_Info /*info*/, Request* request) {
  return scan_request(plan::Collective::exscan, true, sendbuf, recvbuf, count, datatype, op, comm, request);
}

int Ireduce_scatter_block(const void* sendbuf, void* recvbuf, Count recvcount, MPI_Datatype datatype, MPI_Op op,
                          MPI_Comm comm, Request* request) {
  return request_of(comm, false, request, [&](HeldHandles& h) {
    reduce_scatter_block_impl(sendbuf, recvbuf, recvcount, h.type(datatype), h.op(op), comm, {});
  });
}
int Reduce_scatter_block_init(const void* sendbuf, void* recvbuf, Count recvcount, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm, MPI_Info /*info*/, Request* request) {
  return request_of(comm, true, request, [&](HeldHandles& h) {
    reduce_scatter_block_impl(sendbuf, recvbuf, recvcount, h.type(datatype), h.op(op), comm, {});
  });
}

int Ireduce_scatter(const void* sendbuf, void* recvbuf, Counts recvcounts, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm, Request* request) {
  return request_of(comm, false, request, [&](HeldHandles& h) {
    reduce_scatter_impl(sendbuf, recvbuf, recvcounts, h.type(datatype), h.op(op), comm, {});
  });
}
int Reduce_scatter_init(const void* sendbuf, void* recvbuf, Counts recvcounts, MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm, MPI_Info /*info*/, Request* request) {
  return request_of(comm, true, request, [&](HeldHandles& h) {
    reduce_scatter_impl(sendbuf, recvbuf, recvcounts, h.type(datatype), h.op(op), comm, {});
  });
}

int Iallgather(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
               MPI_Datatype recvtype, MPI_Comm comm, Request* request) {
  return request_of(comm, false, request, [&](HeldHandles& h) {
    allgather_impl(sendbuf, sendcount, h.type(sendtype), recvbuf, recvcount, h.type(recvtype), comm, {});
  });
}
int Allgather_init(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Info /*info*/, Request* request) {
  return request_of(comm, true, request, [&](HeldHandles& h) {
    allgather_impl(sendbuf, sendcount, h.type(sendtype), recvbuf, recvcount, h.type(recvtype), comm, {});
  });
}

int Iallgatherv(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Counts recvcounts,
                Counts displs, MPI_Datatype recvtype, MPI_Comm comm, Request* request) {
  return request_of(comm, false, request, [&](HeldHandles& h) {
    allgatherv_impl(sendbuf, sendcount, h.type(sendtype), recvbuf, recvcounts, displs, h.type(recvtype), comm, {});
  });
}
int Allgatherv_init(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Counts recvcounts,
                    Counts displs, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info /*info*/, Request* request) {
  return request_of(comm, true, request, [&](HeldHandles& h) {
    allgatherv_impl(sendbuf, sendcount, h.type(sendtype), recvbuf, recvcounts, displs, h.type(recvtype), comm, {});
  });
}

int Igather(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
            MPI_Datatype recvtype, int root, MPI_Comm comm, Request* request) {
  return request_of(comm, false, request, [&](HeldHandles& h) {
    gather_impl(sendbuf, sendcount, h.type(sendtype), recvbuf, recvcount, h.type(recvtype), root, comm, {});
  });
}
int Gather_init(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info /*info*/, Request* request) {
  return request_of(comm, true, request, [&](HeldHandles& h) {
    gather_impl(sendbuf, sendcount, h.type(sendtype), recvbuf, recvcount, h.type(recvtype), root, comm, {});
  });
}

int Iscatter(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
             MPI_Datatype recvtype, int root, MPI_Comm comm, Request* request) {
  return request_of(comm, false, request, [&](HeldHandles& h) {
    scatter_impl(sendbuf, sendcount, h.type(sendtype), recvbuf, recvcount, h.type(recvtype), root, comm, {});
  });
}
int Scatter_init(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info /*info*/, Request* request) {
  return request_of(comm, true, request, [&](HeldHandles& h) {
    scatter_impl(sendbuf, sendcount, h.type(sendtype), recvbuf, recvcount, h.type(recvtype), root, comm, {});
  });
}

int Igatherv(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Counts recvcounts,
             Counts displs, MPI_Datatype recvtype, int root, MPI_Comm comm, Request* request) {
  return request_of(comm, false, request, [&](HeldHandles& h) {
    gatherv_impl(sendbuf, sendcount, h.type(sendtype), recvbuf, recvcounts, displs, h.type(recvtype), root, comm, {});
  });
}
// The persistent Gatherv and Scatterv: the optimal ordered tree, computed
// once (gatherv_persistent.cpp).
int Gatherv_init(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Counts recvcounts,
                 Counts displs, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info /*info*/, Request* request) {
  return new_request(comm, request, [&] {
    return optcoll::gatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  });
}

int Iscatterv(const void* sendbuf, Counts sendcounts, Counts displs, MPI_Datatype sendtype, void* recvbuf,
              Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, Request* request) {
  return request_of(comm, false, request, [&](HeldHandles& h) {
    scatterv_impl(sendbuf, sendcounts, displs, h.type(sendtype), recvbuf, recvcount, h.type(recvtype), root, comm, {});
  });
}
int Scatterv_init(const void* sendbuf, Counts sendcounts, Counts displs, MPI_Datatype sendtype, void* recvbuf,
                  Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info /*info*/,
                  Request* request) {
  return new_request(comm, request, [&] {
    return optcoll::scatterv_init(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
  });
}

int Ialltoall(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
              MPI_Datatype recvtype, MPI_Comm comm, Request* request) {
  return request_of(comm, false, request, [&](HeldHandles& h) {
    alltoall_impl(sendbuf, sendcount, h.type(sendtype), recvbuf, recvcount, h.type(recvtype), comm, {});
  });
}
int Alltoall_init(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info /*info*/, Request* request) {
  return request_of(comm, true, request, [&](HeldHandles& h) {
    alltoall_impl(sendbuf, sendcount, h.type(sendtype), recvbuf, recvcount, h.type(recvtype), comm, {});
  });
}

int Ialltoallv(const void* sendbuf, Counts sendcounts, Counts sdispls, MPI_Datatype sendtype, void* recvbuf,
               Counts recvcounts, Counts rdispls, MPI_Datatype recvtype, MPI_Comm comm, Request* request) {
  return request_of(comm, false, request, [&](HeldHandles& h) {
    alltoallv_impl(sendbuf, sendcounts, sdispls, h.type(sendtype), recvbuf, recvcounts, rdispls, h.type(recvtype), comm,
                   {});
  });
}
int Alltoallv_init(const void* sendbuf, Counts sendcounts, Counts sdispls, MPI_Datatype sendtype, void* recvbuf,
                   Counts recvcounts, Counts rdispls, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info /*info*/,
                   Request* request) {
  return request_of(comm, true, request, [&](HeldHandles& h) {
    alltoallv_impl(sendbuf, sendcounts, sdispls, h.type(sendtype), recvbuf, recvcounts, rdispls, h.type(recvtype), comm,
                   {});
  });
}

}  // namespace optcoll::mpi::wide
