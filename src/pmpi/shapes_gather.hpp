// Shapes of the copy collectives with one group per rank (shapes.hpp):
// MPI_Allgather, MPI_Allgatherv, MPI_Gather, MPI_Gatherv, MPI_Scatter,
// MPI_Scatterv. As for MPI_Bcast, optcoll gets bytes (ByteStream,
// SegmentedBytes): send and receive types need only matching signatures.
//
// Every shape takes MPI's int counts and arrays and, as they are, the
// MPI_Count counts and MPI_Aint displacements of MPI-4's large-count
// bindings (MPI_Allgather_c, MPI_Allgatherv_c, ...; Count and Displ
// below): one code path, 64-bit throughout, that hands optcoll 64-bit byte
// counts (src/mpi/api/c_api_int64.hpp) and has no limit but memory. So nothing about a
// call's size sends one rank to MPI's own binding while another runs
// optcoll.
//
// The route's payload is what every rank knows: the per-rank bytes for the
// regular ones (each rank's send or receive side gives it); for allgatherv
// the largest, smallest and total of recvcounts (the same array at every
// rank); for gatherv and scatterv a rank's own block only (only the root
// sees all counts), which route_v() agrees on under `auto`; a forced
// optcoll takes them whatever their size.
#pragma once

#include <cstdint>
#include <vector>

#include "mpi/api/c_api_int64.hpp"
#include "shapes.hpp"

namespace optcoll::pmpi::shapes {

// p x per-rank bytes (-1 for an invalid call).
inline std::int64_t regular_total(const Gate& g, std::int64_t per_rank) {
  return g.bad != nullptr ? -1 : per_rank * g.c.size;
}

template <Op kOp, class K, class Count>
int allgather(const K& k, const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
              MPI_Datatype recvtype, MPI_Comm comm) {
  Gate g(comm);
  if (!g.active) return k.native OPTCOLL_ARGS(allgather);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  if (!in_place) g.payload(sendcount, sendtype);
  const std::int64_t total = regular_total(g, g.payload(recvcount, recvtype));
  if (!g.optcoll(kOp, comm, {.elem_size = 1, .count = total / g.c.size})) return k.native OPTCOLL_ARGS(allgather);
  return guarded(comm, [&] {
    Staging local;
    Staging& st = k.staging_or(local);
    const std::int64_t per = total / g.c.size;
    ByteStream& recv = st.stream(recvbuf, std::int64_t{recvcount} * g.c.size, recvtype, total);
    int rc = MPI_SUCCESS;
    if (in_place) {
      st.load(recv);  // this rank's group is in recvbuf
      rc = k.optcoll(g.c, MPI_IN_PLACE, std::int64_t{0}, MPI_BYTE, recv.data(), per, MPI_BYTE, comm);
    } else {
      ByteStream& send = st.stream(sendbuf, sendcount, sendtype, per);
      st.load(send);
      rc = k.optcoll(g.c, send.data(), per, MPI_BYTE, recv.data(), per, MPI_BYTE, comm);
    }
    if (rc == MPI_SUCCESS) st.store(recv);
    return rc;
  });
}

// Count: int, or MPI_Count in the large-count bindings; Displ: int or
// MPI_Aint (the v shapes below alike).
template <Op kOp, class K, class Count, class Displ>
int allgatherv(const K& k, const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf,
               const Count recvcounts[], const Displ displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  Gate g(comm);
  if (!g.active) return k.native OPTCOLL_ARGS(allgatherv);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  if (!in_place) g.payload(sendcount, sendtype);
  const std::int64_t one = g.payload(1, recvtype);
  std::int64_t total = 0, largest = 0, smallest = INT64_MAX;
  if (g.bad == nullptr && (recvcounts == nullptr || displs == nullptr)) g.bad = "NULL counts or displacements";
  for (int i = 0; g.bad == nullptr && i < g.c.size; ++i) {
    if (recvcounts[i] < 0) g.bad = "negative count";
    const std::int64_t b = static_cast<std::int64_t>(recvcounts[i]) * one;
    total += b;
    largest = std::max(largest, b);
    smallest = std::min(smallest, b);
  }
  if (!g.optcoll(kOp, comm, {.elem_size = 1, .count = largest, .smallest = smallest, .total = total},
                 {recvcounts, one}))
    return k.native OPTCOLL_ARGS(allgatherv);
  return guarded(comm, [&] {
    Staging local;
    Staging& st = k.staging_or(local);
    SegmentedBytes& recv = st.segmented(recvbuf, recvcounts, displs, static_cast<std::size_t>(g.c.size), recvtype);
    const auto me = static_cast<std::size_t>(g.c.rank);
    int rc = MPI_SUCCESS;
    if (in_place) {
      st.load(recv, me);
      rc = k.optcoll(g.c, MPI_IN_PLACE, std::int64_t{0}, MPI_BYTE, recv.data(), recv.byte_counts(), recv.byte_displs(),
                     MPI_BYTE, comm);
    } else {
      ByteStream& send = st.stream(sendbuf, sendcount, sendtype, recv.byte_counts()[me]);
      st.load(send);
      rc = k.optcoll(g.c, send.data(), send.size(), MPI_BYTE, recv.data(), recv.byte_counts(), recv.byte_displs(),
                     MPI_BYTE, comm);
    }
    if (rc == MPI_SUCCESS) st.store(recv);
    return rc;
  });
}

// MPI_Gather: recvbuf, recvcount and recvtype count at the root only; with
// MPI_IN_PLACE (root) the root's group is already in place.
template <Op kOp, class K, class Count>
int gather(const K& k, const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm) {
  Gate g(comm);
  if (!g.active) return k.native OPTCOLL_ARGS(gather);
  g.check_root(root);
  const bool is_root = g.bad == nullptr && g.c.rank == root;
  const bool in_place = is_root && sendbuf == MPI_IN_PLACE;
  std::int64_t per = -1;
  if (!in_place) per = g.payload(sendcount, sendtype);
  if (is_root) per = g.payload(recvcount, recvtype);
  const std::int64_t total = regular_total(g, per);
  if (!g.optcoll(kOp, comm, {.elem_size = 1, .count = total / g.c.size})) return k.native OPTCOLL_ARGS(gather);
  return guarded(comm, [&] {
    Staging local;
    Staging& st = k.staging_or(local);
    const std::int64_t n = total / g.c.size;
    if (!is_root) {
      ByteStream& send = st.stream(sendbuf, sendcount, sendtype, n);
      st.load(send);
      return k.optcoll(g.c, send.data(), n, MPI_BYTE, nullptr, std::int64_t{0}, MPI_BYTE, root, comm);
    }
    ByteStream& recv = st.stream(recvbuf, std::int64_t{recvcount} * g.c.size, recvtype, total);
    int rc = MPI_SUCCESS;
    if (in_place) {
      st.load(recv);
      rc = k.optcoll(g.c, MPI_IN_PLACE, std::int64_t{0}, MPI_BYTE, recv.data(), n, MPI_BYTE, root, comm);
    } else {
      ByteStream& send = st.stream(sendbuf, sendcount, sendtype, n);
      st.load(send);
      rc = k.optcoll(g.c, send.data(), n, MPI_BYTE, recv.data(), n, MPI_BYTE, root, comm);
    }
    if (rc == MPI_SUCCESS) st.store(recv);
    return rc;
  });
}

template <Op kOp, class K, class Count, class Displ>
int gatherv(const K& k, const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf,
            const Count recvcounts[], const Displ displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
  Gate g(comm);
  if (!g.active) return k.native OPTCOLL_ARGS(gatherv);
  g.check_root(root);
  const bool is_root = g.bad == nullptr && g.c.rank == root;
  const bool in_place = is_root && sendbuf == MPI_IN_PLACE;
  if (!in_place) g.payload(sendcount, sendtype);
  if (is_root) {
    g.payload(1, recvtype);
    if (g.bad == nullptr && (recvcounts == nullptr || displs == nullptr)) g.bad = "NULL counts or displacements";
    for (int i = 0; g.bad == nullptr && i < g.c.size; ++i)
      if (recvcounts[i] < 0) g.bad = "negative count";
  }
  // (A `bad` seen at the root only makes it alone take PMPI_*, but under
  // `auto` at an agreeing call: an erroneous call, which the native call
  // reports.)
  const std::int64_t own = in_place ? (g.bad == nullptr ? payload_bytes(recvcounts[root], recvtype) : 0)
                                    : payload_bytes(sendcount, sendtype);
  if (!g.optcoll_v(kOp, comm, std::max<std::int64_t>(own, 0))) return k.native OPTCOLL_ARGS(gatherv);
  return guarded(comm, [&] {
    Staging local;
    Staging& st = k.staging_or(local);
    if (!is_root) {
      ByteStream& send = st.stream(sendbuf, sendcount, sendtype, own);
      st.load(send);
      return k.optcoll(g.c, send.data(), send.size(), MPI_BYTE, nullptr, mpi::wide::Counts{}, mpi::wide::Counts{},
                       MPI_BYTE, root, comm);
    }
    SegmentedBytes& recv = st.segmented(recvbuf, recvcounts, displs, static_cast<std::size_t>(g.c.size), recvtype);
    int rc = MPI_SUCCESS;
    if (in_place) {
      st.load(recv, static_cast<std::size_t>(root));
      rc = k.optcoll(g.c, MPI_IN_PLACE, std::int64_t{0}, MPI_BYTE, recv.data(), recv.byte_counts(), recv.byte_displs(),
                     MPI_BYTE, root, comm);
    } else {
      ByteStream& send = st.stream(sendbuf, sendcount, sendtype, own);
      st.load(send);
      rc = k.optcoll(g.c, send.data(), send.size(), MPI_BYTE, recv.data(), recv.byte_counts(), recv.byte_displs(),
                     MPI_BYTE, root, comm);
    }
    if (rc == MPI_SUCCESS) st.store(recv);
    return rc;
  });
}

// MPI_Scatter: sendbuf, sendcount and sendtype count at the root only; with
// recvbuf = MPI_IN_PLACE (root) the root keeps its group where it is.
template <Op kOp, class K, class Count>
int scatter(const K& k, const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
            MPI_Datatype recvtype, int root, MPI_Comm comm) {
  Gate g(comm);
  if (!g.active) return k.native OPTCOLL_ARGS(scatter);
  g.check_root(root);
  const bool is_root = g.bad == nullptr && g.c.rank == root;
  const bool in_place = is_root && recvbuf == MPI_IN_PLACE;
  std::int64_t per = -1;
  if (!in_place) per = g.payload(recvcount, recvtype);
  if (is_root) per = g.payload(sendcount, sendtype);
  const std::int64_t total = regular_total(g, per);
  if (!g.optcoll(kOp, comm, {.elem_size = 1, .count = total / g.c.size})) return k.native OPTCOLL_ARGS(scatter);
  return guarded(comm, [&] {
    Staging local;
    Staging& st = k.staging_or(local);
    const std::int64_t n = total / g.c.size;
    if (!is_root) {
      ByteStream& recv = st.stream(recvbuf, recvcount, recvtype, n);
      const int rc = k.optcoll(g.c, nullptr, std::int64_t{0}, MPI_BYTE, recv.data(), n, MPI_BYTE, root, comm);
      if (rc == MPI_SUCCESS) st.store(recv);
      return rc;
    }
    ByteStream& send = st.stream(sendbuf, std::int64_t{sendcount} * g.c.size, sendtype, total);
    st.load(send);
    if (in_place) return k.optcoll(g.c, send.data(), n, MPI_BYTE, MPI_IN_PLACE, std::int64_t{0}, MPI_BYTE, root, comm);
    ByteStream& recv = st.stream(recvbuf, recvcount, recvtype, n);
    const int rc = k.optcoll(g.c, send.data(), n, MPI_BYTE, recv.data(), n, MPI_BYTE, root, comm);
    if (rc == MPI_SUCCESS) st.store(recv);
    return rc;
  });
}

template <Op kOp, class K, class Count, class Displ>
int scatterv(const K& k, const void* sendbuf, const Count sendcounts[], const Displ displs[], MPI_Datatype sendtype,
             void* recvbuf, Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  Gate g(comm);
  if (!g.active) return k.native OPTCOLL_ARGS(scatterv);
  g.check_root(root);
  const bool is_root = g.bad == nullptr && g.c.rank == root;
  const bool in_place = is_root && recvbuf == MPI_IN_PLACE;
  if (!in_place) g.payload(recvcount, recvtype);
  if (is_root) {
    g.payload(1, sendtype);
    if (g.bad == nullptr && (sendcounts == nullptr || displs == nullptr)) g.bad = "NULL counts or displacements";
    for (int i = 0; g.bad == nullptr && i < g.c.size; ++i)
      if (sendcounts[i] < 0) g.bad = "negative count";
  }
  const std::int64_t own = in_place ? (g.bad == nullptr ? payload_bytes(sendcounts[root], sendtype) : 0)
                                    : payload_bytes(recvcount, recvtype);
  if (!g.optcoll_v(kOp, comm, std::max<std::int64_t>(own, 0))) return k.native OPTCOLL_ARGS(scatterv);
  return guarded(comm, [&] {
    Staging local;
    Staging& st = k.staging_or(local);
    if (!is_root) {
      ByteStream& recv = st.stream(recvbuf, recvcount, recvtype, own);
      const int rc = k.optcoll(g.c, nullptr, mpi::wide::Counts{}, mpi::wide::Counts{}, MPI_BYTE, recv.data(),
                               recv.size(), MPI_BYTE, root, comm);
      if (rc == MPI_SUCCESS) st.store(recv);
      return rc;
    }
    const auto p = static_cast<std::size_t>(g.c.size);
    SegmentedBytes& send = st.segmented(sendbuf, sendcounts, displs, p, sendtype);
    for (std::size_t i = 0; i < p; ++i) st.load(send, i);
    if (in_place)
      return k.optcoll(g.c, send.data(), send.byte_counts(), send.byte_displs(), MPI_BYTE, MPI_IN_PLACE,
                       std::int64_t{0}, MPI_BYTE, root, comm);
    ByteStream& recv = st.stream(recvbuf, recvcount, recvtype, own);
    const int rc = k.optcoll(g.c, send.data(), send.byte_counts(), send.byte_displs(), MPI_BYTE, recv.data(),
                             recv.size(), MPI_BYTE, root, comm);
    if (rc == MPI_SUCCESS) st.store(recv);
    return rc;
  });
}

}  // namespace optcoll::pmpi::shapes
