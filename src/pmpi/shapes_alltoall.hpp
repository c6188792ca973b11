// Shapes of the personalized exchanges (shapes.hpp): MPI_Alltoall and
// MPI_Alltoallv. OPTCOLL_Alltoall(v) take any datatypes with matching
// signatures themselves (they move bytes, src/mpi/exchange.hpp), so the
// arguments go through unchanged, except a block of more than one element
// of a datatype OPTCOLL_Alltoall does not take (extent <= 0): that rank
// packs its buffers (SegmentedBytes) and passes bytes, without changing the
// route (the other ranks may pass other datatypes). Such a rank's buffers
// must hold at most INT_MAX bytes (MPI_ERR_COUNT otherwise).
//
// The route's payload is what every rank knows: for Alltoall the block's
// bytes (sendcount x size, or recvcount x size with MPI_IN_PLACE: equal at
// every rank); for Alltoallv a rank's own send volume only, which route_v()
// agrees on under `auto`.
#pragma once

#include <algorithm>
#include <vector>

#include "shapes.hpp"

// clang-format off
#define OPTCOLL_PMPI_PARAMS_alltoall \
  (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, \
   MPI_Comm comm)
#define OPTCOLL_PMPI_ARGS_alltoall (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm)
#define OPTCOLL_PMPI_PARAMS_alltoallv \
  (const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void* recvbuf, \
   const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
#define OPTCOLL_PMPI_ARGS_alltoallv \
  (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm)
// clang-format on

namespace optcoll::pmpi::shapes {

template <Op kOp, auto Optcoll, auto Native>
int alltoall OPTCOLL_PMPI_PARAMS_alltoall {
  Gate g(comm);
  if (!g.active) return Native OPTCOLL_PMPI_ARGS_alltoall;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const std::int64_t block = in_place ? g.payload(recvcount, recvtype) : g.payload(sendcount, sendtype);
  if (!in_place) g.payload(recvcount, recvtype);
  if (!g.optcoll(kOp, comm, {.elem_size = 1, .count = block})) return Native OPTCOLL_PMPI_ARGS_alltoall;
  const bool as_bytes = mpi::unsupported_datatype(recvcount, recvtype) != nullptr ||
                        (!in_place && mpi::unsupported_datatype(sendcount, sendtype) != nullptr);
  return guarded(comm, [&] {
    Staging local;
    Staging& st = staging(local);
    if (!as_bytes) return Optcoll OPTCOLL_PMPI_ARGS_alltoall;
    const auto p = static_cast<std::size_t>(g.size);
    std::vector<int> rc(p, recvcount), rd(p), sc(p, sendcount), sd(p);
    own_bytes(std::int64_t{g.size} * std::max(recvcount, in_place ? 0 : sendcount));  // the displacements fit
    for (std::size_t j = 0; j < p; ++j) {
      rd[j] = static_cast<int>(j) * recvcount;
      sd[j] = static_cast<int>(j) * sendcount;
    }
    SegmentedBytes& recv = st.segmented(recvbuf, rc, rd, recvtype);
    own_bytes(recv.total());
    const int bytes = recv.byte_counts()[0];
    int rc_code = MPI_SUCCESS;
    if (in_place) {
      for (std::size_t j = 0; j < p; ++j) st.load(recv, j, comm);
      rc_code = Optcoll(MPI_IN_PLACE, 0, MPI_BYTE, recv.data(), bytes, MPI_BYTE, comm);
    } else {
      SegmentedBytes& send = st.segmented(sendbuf, sc, sd, sendtype);
      own_bytes(send.total());
      for (std::size_t j = 0; j < p; ++j) st.load(send, j, comm);
      rc_code = Optcoll(send.data(), send.byte_counts()[0], MPI_BYTE, recv.data(), bytes, MPI_BYTE, comm);
    }
    if (rc_code == MPI_SUCCESS) st.store(recv, comm);
    return rc_code;
  });
}

template <Op kOp, auto Optcoll, auto Native>
int alltoallv OPTCOLL_PMPI_PARAMS_alltoallv {
  Gate g(comm);
  if (!g.active) return Native OPTCOLL_PMPI_ARGS_alltoallv;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  g.payload(1, recvtype);
  if (!in_place) g.payload(1, sendtype);
  if (g.bad == nullptr &&
      (recvcounts == nullptr || rdispls == nullptr || (!in_place && (sendcounts == nullptr || sdispls == nullptr))))
    g.bad = "NULL counts or displacements";
  std::int64_t own = 0;  // what this rank sends
  const std::int64_t one = payload_bytes(1, in_place ? recvtype : sendtype);
  for (int i = 0; g.bad == nullptr && i < g.size; ++i) {
    if (recvcounts[i] < 0 || (!in_place && sendcounts[i] < 0)) g.bad = "negative count";
    own += std::int64_t{in_place ? recvcounts[i] : sendcounts[i]} * std::max<std::int64_t>(one, 0);
  }
  // (A `bad` seen at one rank only makes it alone take PMPI_*, but under
  // `auto` at an agreeing call: an erroneous call, which the native call
  // reports.)
  if (!g.optcoll_v(kOp, comm, own)) return Native OPTCOLL_PMPI_ARGS_alltoallv;
  return guarded(comm, [&] { return Optcoll OPTCOLL_PMPI_ARGS_alltoallv; });
}

}  // namespace optcoll::pmpi::shapes
