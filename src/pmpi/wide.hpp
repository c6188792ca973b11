// The optcoll calls of the v shapes (shapes_gather.hpp, shapes_alltoall.hpp):
// the C API's OPTCOLL_Allgatherv, OPTCOLL_Gatherv, OPTCOLL_Scatterv,
// OPTCOLL_Alltoallv and their nonblocking (I<op>) and persistent (<Op>_init)
// forms, with the same arguments and contract (an MPI error code, raised
// through the communicator's error handler; a request made into *request)
// but 64-bit counts and displacements, as the MPI layer and the C++ API take
// them. Both bindings of each v collective, MPI's int one and MPI-4's
// large-count one (MPI_Gatherv_c, ...), run these: no count is narrowed.
// Displacements count extents of their datatype, as in MPI; the arrays
// need not outlive the call (a request keeps what it needs).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <span>

#include "optcoll/optcoll.h"

namespace optcoll::pmpi::wide {

using Counts = std::span<const std::int64_t>;  // a communicator's size of entries (empty where MPI ignores it)

int Allgatherv(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf, Counts recvcounts,
               Counts displs, MPI_Datatype recvtype, MPI_Comm comm);
int Iallgatherv(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf, Counts recvcounts,
                Counts displs, MPI_Datatype recvtype, MPI_Comm comm, OPTCOLL_Request* request);
int Allgatherv_init(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                    Counts recvcounts, Counts displs, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                    OPTCOLL_Request* request);

int Gatherv(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf, Counts recvcounts,
            Counts displs, MPI_Datatype recvtype, int root, MPI_Comm comm);
int Igatherv(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf, Counts recvcounts,
             Counts displs, MPI_Datatype recvtype, int root, MPI_Comm comm, OPTCOLL_Request* request);
int Gatherv_init(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf, Counts recvcounts,
                 Counts displs, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                 OPTCOLL_Request* request);

int Scatterv(const void* sendbuf, Counts sendcounts, Counts displs, MPI_Datatype sendtype, void* recvbuf,
             std::int64_t recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int Iscatterv(const void* sendbuf, Counts sendcounts, Counts displs, MPI_Datatype sendtype, void* recvbuf,
              std::int64_t recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, OPTCOLL_Request* request);
int Scatterv_init(const void* sendbuf, Counts sendcounts, Counts displs, MPI_Datatype sendtype, void* recvbuf,
                  std::int64_t recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                  OPTCOLL_Request* request);

int Alltoallv(const void* sendbuf, Counts sendcounts, Counts sdispls, MPI_Datatype sendtype, void* recvbuf,
              Counts recvcounts, Counts rdispls, MPI_Datatype recvtype, MPI_Comm comm);
int Ialltoallv(const void* sendbuf, Counts sendcounts, Counts sdispls, MPI_Datatype sendtype, void* recvbuf,
               Counts recvcounts, Counts rdispls, MPI_Datatype recvtype, MPI_Comm comm, OPTCOLL_Request* request);
int Alltoallv_init(const void* sendbuf, Counts sendcounts, Counts sdispls, MPI_Datatype sendtype, void* recvbuf,
                   Counts recvcounts, Counts rdispls, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                   OPTCOLL_Request* request);

}  // namespace optcoll::pmpi::wide
