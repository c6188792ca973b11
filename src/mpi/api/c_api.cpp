// The C API (optcoll/optcoll.h): MPI error codes, raised through the
// communicator's error handler.
#include <algorithm>
#include <climits>
#include <cstdio>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <vector>

#include "mpi/api/c_api.hpp"
#include "mpi/api/c_api_int64.hpp"
#include "optcoll/optcoll.h"

namespace optcoll::mpi {

int error_class_of(Errc e) {
  switch (e) {
    case Errc::invalid_root:
      return MPI_ERR_ROOT;
    case Errc::invalid_count:
      return MPI_ERR_COUNT;
    case Errc::invalid_argument:
      return MPI_ERR_ARG;
    case Errc::invalid_p:
    case Errc::invalid_rank:
      return MPI_ERR_COMM;
    default:
      return MPI_ERR_INTERN;
  }
}

// MPI's int count arrays as the layer's 64-bit ones (NULL: MPI_ERR_ARG).
std::vector<std::int64_t> widen(const int* v, MPI_Comm comm, const char* what) {
  if (v == nullptr) throw MpiError(MPI_ERR_ARG, std::string("optcoll: ") + what + " is NULL");
  int p = 0;
  if (comm == MPI_COMM_NULL || PMPI_Comm_size(comm, &p) != MPI_SUCCESS)
    throw MpiError(MPI_ERR_COMM, "optcoll: invalid communicator");
  return std::vector<std::int64_t>(v, v + p);
}
ExchangeCounts exchange_counts(const void* sendbuf, const int* sendcounts, const int* sdispls, const int* recvcounts,
                               const int* rdispls, MPI_Comm comm) {
  ExchangeCounts c;
  if (sendbuf != MPI_IN_PLACE) {
    c.sc = widen(sendcounts, comm, "sendcounts");
    c.sd = widen(sdispls, comm, "sdispls");
  }
  c.rc = widen(recvcounts, comm, "recvcounts");
  c.rd = widen(rdispls, comm, "rdispls");
  return c;
}

Counts all_counts(const int* counts, const int* displs, MPI_Comm comm) {
  return {widen(counts, comm, "recvcounts"), widen(displs, comm, "displs")};
}

Counts root_counts(const int* counts, const int* displs, int root, MPI_Comm comm) {
  const CallInfo c = check_call(comm, 0, MPI_BYTE, root);
  Counts out;
  if (c.rank != root) return out;
  if (counts == nullptr || displs == nullptr)
    throw MpiError(MPI_ERR_ARG, "optcoll: the root needs counts and displacements");
  out.counts.assign(counts, counts + c.size);
  out.displs.assign(displs, displs + c.size);
  return out;
}

}  // namespace optcoll::mpi

// The collectives: c_api_int64.hpp's 64-bit calls, MPI's int arrays widened first.
namespace wide = optcoll::mpi::wide;
using optcoll::mpi::widened;

extern "C" int OPTCOLL_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  return wide::Bcast(buffer, count, datatype, root, comm);
}

extern "C" int OPTCOLL_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                              MPI_Comm comm) {
  return wide::Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
}

extern "C" int OPTCOLL_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return wide::Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

extern "C" int OPTCOLL_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  return widened(
      comm, [&] { return optcoll::mpi::all_counts(recvcounts, displs, comm); },
      [&](const auto& c) {
        return wide::Allgatherv(sendbuf, sendcount, sendtype, recvbuf, c.counts, c.displs, recvtype, comm);
      });
}

extern "C" int OPTCOLL_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                MPI_Datatype recvtype, MPI_Comm comm) {
  return wide::Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

extern "C" int OPTCOLL_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                 MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                                 MPI_Datatype recvtype, MPI_Comm comm) {
  return widened(
      comm, [&] { return optcoll::mpi::exchange_counts(sendbuf, sendcounts, sdispls, recvcounts, rdispls, comm); },
      [&](const auto& c) {
        return wide::Alltoallv(sendbuf, c.sc, c.sd, sendtype, recvbuf, c.rc, c.rd, recvtype, comm);
      });
}

extern "C" int OPTCOLL_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype,
                                            MPI_Op op, MPI_Comm comm) {
  return wide::Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
}

extern "C" int OPTCOLL_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
                                      MPI_Op op, MPI_Comm comm) {
  return widened(
      comm, [&] { return optcoll::mpi::widen(recvcounts, comm, "recvcounts"); },
      [&](const auto& c) { return wide::Reduce_scatter(sendbuf, recvbuf, c, datatype, op, comm); });
}

extern "C" int OPTCOLL_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                                 MPI_Comm comm) {
  return wide::Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
}

extern "C" int OPTCOLL_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                            MPI_Comm comm) {
  return wide::Scan(sendbuf, recvbuf, count, datatype, op, comm);
}

extern "C" int OPTCOLL_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm) {
  return wide::Exscan(sendbuf, recvbuf, count, datatype, op, comm);
}

// OPTCOLL_Allmerge_<type>: the sorted union into a caller buffer of
// `capacity` keys; *recvcount is the union's length (MPI_ERR_TRUNCATE when
// it does not fit).
namespace {

template <class T>
int allmerge_c(const T* sendbuf, int sendcount, T* recvbuf, int capacity, int* recvcount, MPI_Comm comm) {
  return optcoll::mpi::guarded(comm, [&] {
    if (sendcount < 0 || capacity < 0) throw optcoll::MpiError(MPI_ERR_COUNT, "optcoll: negative count");
    if ((sendbuf == nullptr && sendcount > 0) || recvcount == nullptr)
      throw optcoll::MpiError(MPI_ERR_BUFFER, "optcoll: NULL buffer");
    const std::vector<T> all =
        optcoll::allmerge(std::span<const T>(sendbuf, static_cast<std::size_t>(sendcount)), comm);
    *recvcount = static_cast<int>(std::min<std::size_t>(all.size(), INT_MAX));
    if (all.size() > static_cast<std::size_t>(capacity) || (recvbuf == nullptr && !all.empty()))
      throw optcoll::MpiError(MPI_ERR_TRUNCATE, "optcoll: allmerge result (" + std::to_string(all.size()) +
                                                    " keys) exceeds recvbuf's capacity");
    std::copy(all.begin(), all.end(), recvbuf);
  });
}

}  // namespace

extern "C" int OPTCOLL_Allmerge_int(const int* sendbuf, int sendcount, int* recvbuf, int capacity, int* recvcount,
                                    MPI_Comm comm) {
  return allmerge_c(sendbuf, sendcount, recvbuf, capacity, recvcount, comm);
}
extern "C" int OPTCOLL_Allmerge_long_long(const long long* sendbuf, int sendcount, long long* recvbuf, int capacity,
                                          int* recvcount, MPI_Comm comm) {
  return allmerge_c(sendbuf, sendcount, recvbuf, capacity, recvcount, comm);
}
extern "C" int OPTCOLL_Allmerge_double(const double* sendbuf, int sendcount, double* recvbuf, int capacity,
                                       int* recvcount, MPI_Comm comm) {
  return allmerge_c(sendbuf, sendcount, recvbuf, capacity, recvcount, comm);
}
extern "C" int OPTCOLL_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                              MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return wide::Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

extern "C" int OPTCOLL_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                               MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return wide::Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

extern "C" int OPTCOLL_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                               const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                               MPI_Comm comm) {
  return widened(
      comm, [&] { return optcoll::mpi::root_counts(recvcounts, displs, root, comm); },
      [&](const auto& c) {
        return wide::Gatherv(sendbuf, sendcount, sendtype, recvbuf, c.counts, c.displs, recvtype, root, comm);
      });
}

extern "C" int OPTCOLL_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                                void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return widened(
      comm, [&] { return optcoll::mpi::root_counts(sendcounts, displs, root, comm); },
      [&](const auto& c) {
        return wide::Scatterv(sendbuf, c.counts, c.displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
      });
}
