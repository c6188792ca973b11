// The blocking collectives of the C API on 64-bit counts (c_api_int64.hpp): the
// MPI layer's implementations, errors raised through the communicator's
// error handler (guarded, c_api.hpp).
#include "mpi/api/c_api_int64.hpp"

#include "mpi/api/c_api.hpp"
#include "mpi/collectives/collectives.hpp"

namespace optcoll::mpi::wide {

int Bcast(void* buffer, Count count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  return guarded(comm, [&] { bcast_impl(buffer, count, datatype, root, comm, {}); });
}

int Reduce(const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm) {
  return guarded(comm, [&] { reduce_impl(sendbuf, recvbuf, count, datatype, op, root, comm, {}); });
}

int Allreduce(const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return guarded(comm, [&] { allreduce_impl(sendbuf, recvbuf, count, datatype, op, comm, {}); });
}

int Scan(const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return guarded(comm, [&] { scan_impl(plan::Collective::scan, sendbuf, recvbuf, count, datatype, op, comm, {}); });
}

int Exscan(const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return guarded(comm, [&] { scan_impl(plan::Collective::exscan, sendbuf, recvbuf, count, datatype, op, comm, {}); });
}

int Reduce_scatter_block(const void* sendbuf, void* recvbuf, Count recvcount, MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm) {
  return guarded(comm, [&] { reduce_scatter_block_impl(sendbuf, recvbuf, recvcount, datatype, op, comm, {}); });
}

int Reduce_scatter(const void* sendbuf, void* recvbuf, Counts recvcounts, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm) {
  return guarded(comm, [&] { reduce_scatter_impl(sendbuf, recvbuf, recvcounts, datatype, op, comm, {}); });
}

int Allgather(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
              MPI_Datatype recvtype, MPI_Comm comm) {
  return guarded(comm, [&] { allgather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, {}); });
}

int Allgatherv(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Counts recvcounts,
               Counts displs, MPI_Datatype recvtype, MPI_Comm comm) {
  return guarded(
      comm, [&] { allgatherv_impl(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, {}); });
}

int Gather(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return guarded(comm,
                 [&] { gather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, {}); });
}

int Scatter(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
            MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return guarded(comm,
                 [&] { scatter_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, {}); });
}

int Gatherv(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Counts recvcounts,
            Counts displs, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return guarded(
      comm, [&] { gatherv_impl(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, {}); });
}

int Scatterv(const void* sendbuf, Counts sendcounts, Counts displs, MPI_Datatype sendtype, void* recvbuf,
             Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return guarded(comm, [&] {
    scatterv_impl(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, {});
  });
}

int Alltoall(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
             MPI_Datatype recvtype, MPI_Comm comm) {
  return guarded(comm, [&] { alltoall_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, {}); });
}

int Alltoallv(const void* sendbuf, Counts sendcounts, Counts sdispls, MPI_Datatype sendtype, void* recvbuf,
              Counts recvcounts, Counts rdispls, MPI_Datatype recvtype, MPI_Comm comm) {
  return guarded(comm, [&] {
    alltoallv_impl(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, {});
  });
}

}  // namespace optcoll::mpi::wide
