// The v collectives' optcoll calls on 64-bit counts (wide.hpp): the C
// API's bodies (src/mpi/c_api.cpp, c_api_requests.cpp) without its int
// arrays.
#include "wide.hpp"

#include "mpi/c_api.hpp"
#include "mpi/collectives.hpp"
#include "optcoll/optcoll.hpp"

namespace optcoll::pmpi::wide {

int Allgatherv(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf, Counts recvcounts,
               Counts displs, MPI_Datatype recvtype, MPI_Comm comm) {
  return mpi::guarded(comm, [&] {
    mpi::allgatherv_impl(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, {});
  });
}

int Iallgatherv(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf, Counts recvcounts,
                Counts displs, MPI_Datatype recvtype, MPI_Comm comm, OPTCOLL_Request* request) {
  return mpi::request_of(comm, false, request, [&] {
    mpi::allgatherv_impl(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, {});
  });
}

int Allgatherv_init(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                    Counts recvcounts, Counts displs, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info /*info*/,
                    OPTCOLL_Request* request) {
  return mpi::request_of(comm, true, request, [&] {
    mpi::allgatherv_impl(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, {});
  });
}

int Gatherv(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf, Counts recvcounts,
            Counts displs, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return mpi::guarded(comm, [&] {
    mpi::gatherv_impl(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, {});
  });
}

int Igatherv(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf, Counts recvcounts,
             Counts displs, MPI_Datatype recvtype, int root, MPI_Comm comm, OPTCOLL_Request* request) {
  return mpi::request_of(comm, false, request, [&] {
    mpi::gatherv_impl(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, {});
  });
}

// The persistent Gatherv / Scatterv: the optimal ordered tree (as
// OPTCOLL_Gatherv_init / OPTCOLL_Scatterv_init).
int Gatherv_init(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf, Counts recvcounts,
                 Counts displs, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info /*info*/,
                 OPTCOLL_Request* request) {
  return mpi::new_request(comm, request, [&] {
    return optcoll::gatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  });
}

int Scatterv(const void* sendbuf, Counts sendcounts, Counts displs, MPI_Datatype sendtype, void* recvbuf,
             std::int64_t recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return mpi::guarded(comm, [&] {
    mpi::scatterv_impl(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, {});
  });
}

int Iscatterv(const void* sendbuf, Counts sendcounts, Counts displs, MPI_Datatype sendtype, void* recvbuf,
              std::int64_t recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, OPTCOLL_Request* request) {
  return mpi::request_of(comm, false, request, [&] {
    mpi::scatterv_impl(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, {});
  });
}

int Scatterv_init(const void* sendbuf, Counts sendcounts, Counts displs, MPI_Datatype sendtype, void* recvbuf,
                  std::int64_t recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info /*info*/,
                  OPTCOLL_Request* request) {
  return mpi::new_request(comm, request, [&] {
    return optcoll::scatterv_init(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
  });
}

int Alltoallv(const void* sendbuf, Counts sendcounts, Counts sdispls, MPI_Datatype sendtype, void* recvbuf,
              Counts recvcounts, Counts rdispls, MPI_Datatype recvtype, MPI_Comm comm) {
  return mpi::guarded(comm, [&] {
    mpi::alltoallv_impl(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, {});
  });
}

int Ialltoallv(const void* sendbuf, Counts sendcounts, Counts sdispls, MPI_Datatype sendtype, void* recvbuf,
               Counts recvcounts, Counts rdispls, MPI_Datatype recvtype, MPI_Comm comm, OPTCOLL_Request* request) {
  return mpi::request_of(comm, false, request, [&] {
    mpi::alltoallv_impl(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, {});
  });
}

int Alltoallv_init(const void* sendbuf, Counts sendcounts, Counts sdispls, MPI_Datatype sendtype, void* recvbuf,
                   Counts recvcounts, Counts rdispls, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info /*info*/,
                   OPTCOLL_Request* request) {
  return mpi::request_of(comm, true, request, [&] {
    mpi::alltoallv_impl(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, {});
  });
}

}  // namespace optcoll::pmpi::wide
