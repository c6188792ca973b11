// The C API's requests (optcoll/optcoll.h): persistent and nonblocking
// collectives (c_api_int64.hpp's 64-bit calls, MPI's int arrays widened first),
// OPTCOLL_Start / Test / Wait / Request_free.
#include <memory>
#include <vector>

#include "mpi/api/c_api.hpp"
#include "mpi/api/c_api_int64.hpp"
#include "mpi/requests/request.hpp"
#include "optcoll/optcoll.h"
#include "optcoll/optcoll.hpp"

namespace {

namespace wide = optcoll::mpi::wide;
using optcoll::mpi::widened;

MPI_Comm request_comm(const OPTCOLL_Request* request) {
  return request != nullptr && *request != nullptr ? (*request)->request.comm() : MPI_COMM_WORLD;
}
void check_request(const OPTCOLL_Request* request) {
  if (request == nullptr || *request == nullptr) throw optcoll::MpiError(MPI_ERR_REQUEST, "optcoll: null request");
}
void empty_status(MPI_Status* status) {
  if (status == MPI_STATUS_IGNORE) return;
  status->MPI_SOURCE = MPI_ANY_SOURCE;
  status->MPI_TAG = MPI_ANY_TAG;
  status->MPI_ERROR = MPI_SUCCESS;
}
// A completed nonblocking call's request is freed (MPI: set to null).
void release_if_done(OPTCOLL_Request* request) {
  if ((*request)->request.persistent() || (*request)->request.active()) return;
  std::unique_ptr<OPTCOLL_Request_s> gone(*request);
  *request = OPTCOLL_REQUEST_NULL;
}

}  // namespace

extern "C" int OPTCOLL_Bcast_init(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                                  MPI_Info info, OPTCOLL_Request* request) {
  return wide::Bcast_init(buffer, count, datatype, root, comm, info, request);
}

extern "C" int OPTCOLL_Reduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                                   int root, MPI_Comm comm, MPI_Info info, OPTCOLL_Request* request) {
  return wide::Reduce_init(sendbuf, recvbuf, count, datatype, op, root, comm, info, request);
}

extern "C" int OPTCOLL_Allreduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                                      MPI_Comm comm, MPI_Info info, OPTCOLL_Request* request) {
  return wide::Allreduce_init(sendbuf, recvbuf, count, datatype, op, comm, info, request);
}

extern "C" int OPTCOLL_Ibcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                              OPTCOLL_Request* request) {
  return wide::Ibcast(buffer, count, datatype, root, comm, request);
}

extern "C" int OPTCOLL_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                               int root, MPI_Comm comm, OPTCOLL_Request* request) {
  return wide::Ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, request);
}

extern "C" int OPTCOLL_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                                  MPI_Comm comm, OPTCOLL_Request* request) {
  return wide::Iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request);
}

extern "C" int OPTCOLL_Allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                      OPTCOLL_Request* request) {
  return wide::Allgather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request);
}

extern "C" int OPTCOLL_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, OPTCOLL_Request* request) {
  return wide::Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}

extern "C" int OPTCOLL_Allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                       const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                       MPI_Info info, OPTCOLL_Request* request) {
  return widened(
      comm, [&] { return optcoll::mpi::all_counts(recvcounts, displs, comm); },
      [&](const auto& c) {
        return wide::Allgatherv_init(sendbuf, sendcount, sendtype, recvbuf, c.counts, c.displs, recvtype, comm, info,
                                     request);
      });
}

extern "C" int OPTCOLL_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                   const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                   OPTCOLL_Request* request) {
  return widened(
      comm, [&] { return optcoll::mpi::all_counts(recvcounts, displs, comm); },
      [&](const auto& c) {
        return wide::Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, c.counts, c.displs, recvtype, comm, request);
      });
}

extern "C" int OPTCOLL_Reduce_scatter_block_init(const void* sendbuf, void* recvbuf, int recvcount,
                                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                                 OPTCOLL_Request* request) {
  return wide::Reduce_scatter_block_init(sendbuf, recvbuf, recvcount, datatype, op, comm, info, request);
}

extern "C" int OPTCOLL_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype,
                                             MPI_Op op, MPI_Comm comm, OPTCOLL_Request* request) {
  return wide::Ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, request);
}

extern "C" int OPTCOLL_Reduce_scatter_init(const void* sendbuf, void* recvbuf, const int recvcounts[],
                                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                           OPTCOLL_Request* request) {
  return widened(
      comm, [&] { return optcoll::mpi::widen(recvcounts, comm, "recvcounts"); },
      [&](const auto& c) { return wide::Reduce_scatter_init(sendbuf, recvbuf, c, datatype, op, comm, info, request); });
}

extern "C" int OPTCOLL_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, OPTCOLL_Request* request) {
  return widened(
      comm, [&] { return optcoll::mpi::widen(recvcounts, comm, "recvcounts"); },
      [&](const auto& c) { return wide::Ireduce_scatter(sendbuf, recvbuf, c, datatype, op, comm, request); });
}

extern "C" int OPTCOLL_Scan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                                 MPI_Comm comm, MPI_Info info, OPTCOLL_Request* request) {
  return wide::Scan_init(sendbuf, recvbuf, count, datatype, op, comm, info, request);
}

extern "C" int OPTCOLL_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                             MPI_Comm comm, OPTCOLL_Request* request) {
  return wide::Iscan(sendbuf, recvbuf, count, datatype, op, comm, request);
}

extern "C" int OPTCOLL_Exscan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                                   MPI_Comm comm, MPI_Info info, OPTCOLL_Request* request) {
  return wide::Exscan_init(sendbuf, recvbuf, count, datatype, op, comm, info, request);
}

extern "C" int OPTCOLL_Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                               MPI_Comm comm, OPTCOLL_Request* request) {
  return wide::Iexscan(sendbuf, recvbuf, count, datatype, op, comm, request);
}

extern "C" int OPTCOLL_Gather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                   int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                                   OPTCOLL_Request* request) {
  return wide::Gather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, info, request);
}

extern "C" int OPTCOLL_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                               MPI_Datatype recvtype, int root, MPI_Comm comm, OPTCOLL_Request* request) {
  return wide::Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
}

extern "C" int OPTCOLL_Scatter_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                                    OPTCOLL_Request* request) {
  return wide::Scatter_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, info, request);
}

extern "C" int OPTCOLL_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                MPI_Datatype recvtype, int root, MPI_Comm comm, OPTCOLL_Request* request) {
  return wide::Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
}

extern "C" int OPTCOLL_Alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                     int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                     OPTCOLL_Request* request) {
  return wide::Alltoall_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request);
}

extern "C" int OPTCOLL_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm, OPTCOLL_Request* request) {
  return wide::Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}

extern "C" int OPTCOLL_Alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                      MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, OPTCOLL_Request* request) {
  return widened(
      comm, [&] { return optcoll::mpi::exchange_counts(sendbuf, sendcounts, sdispls, recvcounts, rdispls, comm); },
      [&](const auto& c) {
        return wide::Alltoallv_init(sendbuf, c.sc, c.sd, sendtype, recvbuf, c.rc, c.rd, recvtype, comm, info, request);
      });
}

extern "C" int OPTCOLL_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                  MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                                  MPI_Datatype recvtype, MPI_Comm comm, OPTCOLL_Request* request) {
  return widened(
      comm, [&] { return optcoll::mpi::exchange_counts(sendbuf, sendcounts, sdispls, recvcounts, rdispls, comm); },
      [&](const auto& c) {
        return wide::Ialltoallv(sendbuf, c.sc, c.sd, sendtype, recvbuf, c.rc, c.rd, recvtype, comm, request);
      });
}

extern "C" int OPTCOLL_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                                MPI_Comm comm, OPTCOLL_Request* request) {
  return widened(
      comm, [&] { return optcoll::mpi::root_counts(recvcounts, displs, root, comm); },
      [&](const auto& c) {
        return wide::Igatherv(sendbuf, sendcount, sendtype, recvbuf, c.counts, c.displs, recvtype, root, comm, request);
      });
}

extern "C" int OPTCOLL_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                                 OPTCOLL_Request* request) {
  return widened(
      comm, [&] { return optcoll::mpi::root_counts(sendcounts, displs, root, comm); },
      [&](const auto& c) {
        return wide::Iscatterv(sendbuf, c.counts, c.displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
                               request);
      });
}

extern "C" int OPTCOLL_Gatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                    const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                                    MPI_Comm comm, MPI_Info info, OPTCOLL_Request* request) {
  return widened(
      comm, [&] { return optcoll::mpi::root_counts(recvcounts, displs, root, comm); },
      [&](const auto& c) {
        return wide::Gatherv_init(sendbuf, sendcount, sendtype, recvbuf, c.counts, c.displs, recvtype, root, comm, info,
                                  request);
      });
}

extern "C" int OPTCOLL_Scatterv_init(const void* sendbuf, const int sendcounts[], const int displs[],
                                     MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                                     int root, MPI_Comm comm, MPI_Info info, OPTCOLL_Request* request) {
  return widened(
      comm, [&] { return optcoll::mpi::root_counts(sendcounts, displs, root, comm); },
      [&](const auto& c) {
        return wide::Scatterv_init(sendbuf, c.counts, c.displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
                                   info, request);
      });
}

extern "C" int OPTCOLL_Start(OPTCOLL_Request* request) {
  return optcoll::mpi::guarded(request_comm(request), [&] {
    check_request(request);
    (*request)->request.start();
  });
}

extern "C" int OPTCOLL_Test(OPTCOLL_Request* request, int* flag, MPI_Status* status) {
  return optcoll::mpi::guarded(request_comm(request), [&] {
    if (flag == nullptr) throw optcoll::MpiError(MPI_ERR_ARG, "optcoll: NULL flag");
    *flag = 1;
    if (request != nullptr && *request != nullptr) {
      *flag = (*request)->request.test() ? 1 : 0;
      if (*flag != 0) release_if_done(request);
    }
    if (*flag != 0) empty_status(status);
  });
}

extern "C" int OPTCOLL_Wait(OPTCOLL_Request* request, MPI_Status* status) {
  return optcoll::mpi::guarded(request_comm(request), [&] {
    empty_status(status);
    if (request == nullptr || *request == nullptr) return;  // MPI: waiting on a null request returns at once
    (*request)->request.wait();
    release_if_done(request);
  });
}

extern "C" int OPTCOLL_Request_free(OPTCOLL_Request* request) {
  return optcoll::mpi::guarded(request_comm(request), [&] {
    check_request(request);
    if ((*request)->request.active())
      throw optcoll::MpiError(MPI_ERR_REQUEST, "optcoll: free of an active request (wait first)");
    std::unique_ptr<OPTCOLL_Request_s> gone(*request);
    *request = OPTCOLL_REQUEST_NULL;
  });
}

extern "C" int OPTCOLL_Op_free(MPI_Op* op) {
  if (op != nullptr && optcoll::mpi::defer_op_free(*op)) {
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
  }
  return PMPI_Op_free(op);
}
