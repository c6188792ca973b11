// The C API (optcoll/optcoll.h) on 64-bit counts: OPTCOLL_<Name>,
// OPTCOLL_I<name> and OPTCOLL_<Name>_init of every collective, with the same
// arguments and contract (an MPI error code, raised through the
// communicator's error handler; a request made into *request) but
// std::int64_t counts and displacements, as the MPI layer and the C++ API
// take them. The C API's int functions forward here (their arrays widened
// first), and so do both bindings of every collective in the drop-in,
// MPI's int one and MPI-4's large-count one (MPI_Bcast_c, MPI_Gatherv_c,
// ...): no count is narrowed anywhere, and a call's size never changes
// which code runs it. Displacements count extents of their datatype, as in
// MPI; the arrays need not outlive the call (a request keeps what it
// needs). Bodies: c_api_int64.cpp (blocking), c_api_int64_requests.cpp (I<name>, _init).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <span>

#include "optcoll/optcoll.h"

namespace optcoll::mpi::wide {

using Count = std::int64_t;
using Counts = std::span<const std::int64_t>;  // a communicator's size of entries (empty where MPI ignores it)
using Request = OPTCOLL_Request;

// clang-format off
int Bcast(void* buffer, Count count, MPI_Datatype datatype, int root, MPI_Comm comm);
int Ibcast(void* buffer, Count count, MPI_Datatype datatype, int root, MPI_Comm comm, Request* request);
int Bcast_init(void* buffer, Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
               Request* request);

int Reduce(const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm);
int Ireduce(const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
            Request* request);
int Reduce_init(const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op, int root,
                MPI_Comm comm, MPI_Info info, Request* request);

int Allreduce(const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int Iallreduce(const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
               Request* request);
int Allreduce_init(const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Info info, Request* request);

int Scan(const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int Iscan(const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
          Request* request);
int Scan_init(const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
              MPI_Info info, Request* request);

int Exscan(const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int Iexscan(const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
            Request* request);
int Exscan_init(const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                MPI_Info info, Request* request);

int Reduce_scatter_block(const void* sendbuf, void* recvbuf, Count recvcount, MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm);
int Ireduce_scatter_block(const void* sendbuf, void* recvbuf, Count recvcount, MPI_Datatype datatype, MPI_Op op,
                          MPI_Comm comm, Request* request);
int Reduce_scatter_block_init(const void* sendbuf, void* recvbuf, Count recvcount, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm, MPI_Info info, Request* request);

int Reduce_scatter(const void* sendbuf, void* recvbuf, Counts recvcounts, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm);
int Ireduce_scatter(const void* sendbuf, void* recvbuf, Counts recvcounts, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm, Request* request);
int Reduce_scatter_init(const void* sendbuf, void* recvbuf, Counts recvcounts, MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm, MPI_Info info, Request* request);

int Allgather(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
              MPI_Datatype recvtype, MPI_Comm comm);
int Iallgather(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
               MPI_Datatype recvtype, MPI_Comm comm, Request* request);
int Allgather_init(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, Request* request);

int Allgatherv(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Counts recvcounts,
               Counts displs, MPI_Datatype recvtype, MPI_Comm comm);
int Iallgatherv(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Counts recvcounts,
                Counts displs, MPI_Datatype recvtype, MPI_Comm comm, Request* request);
int Allgatherv_init(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Counts recvcounts,
                    Counts displs, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, Request* request);

int Gather(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm);
int Igather(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
            MPI_Datatype recvtype, int root, MPI_Comm comm, Request* request);
int Gather_init(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, Request* request);

int Scatter(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
            MPI_Datatype recvtype, int root, MPI_Comm comm);
int Iscatter(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
             MPI_Datatype recvtype, int root, MPI_Comm comm, Request* request);
int Scatter_init(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, Request* request);

// Gatherv's arrays are read at the root only, Scatterv's too (empty elsewhere).
int Gatherv(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Counts recvcounts,
            Counts displs, MPI_Datatype recvtype, int root, MPI_Comm comm);
int Igatherv(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Counts recvcounts,
             Counts displs, MPI_Datatype recvtype, int root, MPI_Comm comm, Request* request);
int Gatherv_init(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Counts recvcounts,
                 Counts displs, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, Request* request);

int Scatterv(const void* sendbuf, Counts sendcounts, Counts displs, MPI_Datatype sendtype, void* recvbuf,
             Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int Iscatterv(const void* sendbuf, Counts sendcounts, Counts displs, MPI_Datatype sendtype, void* recvbuf,
              Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, Request* request);
int Scatterv_init(const void* sendbuf, Counts sendcounts, Counts displs, MPI_Datatype sendtype, void* recvbuf,
                  Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, Request* request);

int Alltoall(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
             MPI_Datatype recvtype, MPI_Comm comm);
int Ialltoall(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
              MPI_Datatype recvtype, MPI_Comm comm, Request* request);
int Alltoall_init(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, Request* request);

// With MPI_IN_PLACE the send arrays are ignored (and may be empty).
int Alltoallv(const void* sendbuf, Counts sendcounts, Counts sdispls, MPI_Datatype sendtype, void* recvbuf,
              Counts recvcounts, Counts rdispls, MPI_Datatype recvtype, MPI_Comm comm);
int Ialltoallv(const void* sendbuf, Counts sendcounts, Counts sdispls, MPI_Datatype sendtype, void* recvbuf,
               Counts recvcounts, Counts rdispls, MPI_Datatype recvtype, MPI_Comm comm, Request* request);
int Alltoallv_init(const void* sendbuf, Counts sendcounts, Counts sdispls, MPI_Datatype sendtype, void* recvbuf,
                   Counts recvcounts, Counts rdispls, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                   Request* request);
// clang-format on

}  // namespace optcoll::mpi::wide
