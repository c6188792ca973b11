// Shapes of the personalized exchanges (shapes.hpp): MPI_Alltoall and
// MPI_Alltoallv. OPTCOLL_Alltoall(v) take any datatypes with matching
// signatures themselves (they move bytes, src/mpi/collectives/exchange.hpp), so the
// arguments go through unchanged, except a block of more than one element
// of a datatype OPTCOLL_Alltoall does not take (extent <= 0): that rank
// packs its buffers (SegmentedBytes) and passes bytes, without changing the
// route (the other ranks may pass other datatypes).
//
// The route's payload is what every rank knows: for Alltoall the block's
// bytes (sendcount x size, or recvcount x size with MPI_IN_PLACE: equal at
// every rank); for Alltoallv a rank's own send volume only, which route_v()
// agrees on under `auto`. Both take MPI's int counts and arrays and the
// MPI_Count / MPI_Aint ones of MPI_Alltoall(v)_c alike, on one code path
// that hands optcoll 64-bit counts (src/mpi/api/c_api_int64.hpp): no limit but memory,
// so nothing about a call's size sends one rank to MPI's own binding alone.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "counts.hpp"
#include "mpi/api/c_api_int64.hpp"
#include "shapes.hpp"

namespace optcoll::pmpi::shapes {

template <Op kOp, class K, class Count>
int alltoall(const K& k, const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
             MPI_Datatype recvtype, MPI_Comm comm) {
  Gate g(comm);
  if (!g.active) return k.native OPTCOLL_ARGS(alltoall);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const std::int64_t block = in_place ? g.payload(recvcount, recvtype) : g.payload(sendcount, sendtype);
  if (!in_place) g.payload(recvcount, recvtype);
  if (!g.optcoll(kOp, comm, {.elem_size = 1, .count = block})) return k.native OPTCOLL_ARGS(alltoall);
  // (g.c then describes recvtype, which the call's own checks take as checked.)
  mpi::CallInfo send_side = g.c;
  const bool as_bytes = mpi::describe_type(g.c, recvcount, recvtype) != nullptr ||
                        (!in_place && mpi::describe_type(send_side, sendcount, sendtype) != nullptr);
  return guarded(comm, [&] {
    Staging local;
    Staging& st = k.staging_or(local);
    if (!as_bytes) return k.optcoll OPTCOLL_ARGS_AFTER(g.c, alltoall);
    const auto p = static_cast<std::size_t>(g.c.size);
    std::vector<std::int64_t> rc(p, recvcount), rd(p), sc(p, sendcount), sd(p);
    for (std::size_t j = 0; j < p; ++j) {
      rd[j] = static_cast<std::int64_t>(j) * recvcount;
      sd[j] = static_cast<std::int64_t>(j) * sendcount;
    }
    SegmentedBytes& recv = st.segmented(recvbuf, rc.data(), rd.data(), p, recvtype);
    const std::int64_t bytes = recv.total() / g.c.size;
    int rc_code = MPI_SUCCESS;
    if (in_place) {
      for (std::size_t j = 0; j < p; ++j) st.load(recv, j);
      rc_code = k.optcoll(g.c, MPI_IN_PLACE, std::int64_t{0}, MPI_BYTE, recv.data(), bytes, MPI_BYTE, comm);
    } else {
      SegmentedBytes& send = st.segmented(sendbuf, sc.data(), sd.data(), p, sendtype);
      const std::int64_t send_bytes = send.total() / g.c.size;
      for (std::size_t j = 0; j < p; ++j) st.load(send, j);
      rc_code = k.optcoll(g.c, send.data(), send_bytes, MPI_BYTE, recv.data(), bytes, MPI_BYTE, comm);
    }
    if (rc_code == MPI_SUCCESS) st.store(recv);
    return rc_code;
  });
}

// Count: int, or MPI_Count in the large-count binding; Displ: int or
// MPI_Aint. optcoll gets the arrays as 64-bit ones (counts.hpp, src/mpi/api/c_api_int64.hpp).
template <Op kOp, class K, class Count, class Displ>
int alltoallv(const K& k, const void* sendbuf, const Count sendcounts[], const Displ sdispls[], MPI_Datatype sendtype,
              void* recvbuf, const Count recvcounts[], const Displ rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  Gate g(comm);
  if (!g.active) return k.native OPTCOLL_ARGS(alltoallv);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  g.payload(1, recvtype);
  if (!in_place) g.payload(1, sendtype);
  if (g.bad == nullptr &&
      (recvcounts == nullptr || rdispls == nullptr || (!in_place && (sendcounts == nullptr || sdispls == nullptr))))
    g.bad = "NULL counts or displacements";
  std::int64_t own = 0;  // what this rank sends
  const std::int64_t one = payload_bytes(1, in_place ? recvtype : sendtype);
  for (int i = 0; g.bad == nullptr && i < g.c.size; ++i) {
    if (recvcounts[i] < 0 || (!in_place && sendcounts[i] < 0)) g.bad = "negative count";
    own += static_cast<std::int64_t>(in_place ? recvcounts[i] : sendcounts[i]) * std::max<std::int64_t>(one, 0);
  }
  // (A `bad` seen at one rank only makes it alone take PMPI_*, but under
  // `auto` at an agreeing call: an erroneous call, which the native call
  // reports.)
  if (!g.optcoll_v(kOp, comm, own)) return k.native OPTCOLL_ARGS(alltoallv);
  return guarded(comm, [&] {
    const auto p = static_cast<std::size_t>(g.c.size);
    // (MPI_IN_PLACE: the send arrays are ignored, and may be NULL.)
    const std::vector<std::int64_t> sc = widen(in_place ? nullptr : CountArray(sendcounts), p);
    const std::vector<std::int64_t> sd = widen(in_place ? nullptr : CountArray(sdispls), p);
    const std::vector<std::int64_t> rc = widen(recvcounts, p), rd = widen(rdispls, p);
    return k.optcoll(g.c, sendbuf, mpi::wide::Counts(sc), mpi::wide::Counts(sd), sendtype, recvbuf,
                     mpi::wide::Counts(rc), mpi::wide::Counts(rd), recvtype, comm);
  });
}

}  // namespace optcoll::pmpi::shapes
