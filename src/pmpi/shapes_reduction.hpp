// Shapes of the reductions without a root (shapes.hpp): MPI_Allreduce,
// MPI_Scan and MPI_Exscan (one argument list), MPI_Reduce_scatter_block and
// MPI_Reduce_scatter. MPI requires the same datatype (and counts) at every
// rank, which is optcoll's contract too: the arguments go through unchanged.
// A datatype or operator optcoll does not take (Gate::reduction) goes
// to PMPI_* at every rank alike.
#pragma once

#include <cstdint>
#include <vector>

#include "counts.hpp"
#include "shapes.hpp"

namespace optcoll::pmpi::shapes {

// MPI_Allreduce, MPI_Scan, MPI_Exscan.
template <Op kOp, class K, class Count>
int allreduce(const K& k, const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm) {
  Gate g(comm);
  if (!g.active) return k.native OPTCOLL_ARGS(allreduce);
  const mpi::CallKey key{sendbuf, recvbuf, count, datatype, op};
  if (const int rc = g.again(k, kOp, comm, key); rc >= 0) return rc;
  if (!g.optcoll(kOp, comm, g.reduction(count, datatype, op))) return k.native OPTCOLL_ARGS(allreduce);
  return guarded(comm, [&] {
    g.before(k);
    const int rc = k.optcoll OPTCOLL_ARGS_AFTER(g.c, allreduce);
    if (rc == MPI_SUCCESS) g.keep(k, kOp, comm, key, g.c.named_type && mpi::predefined_op(op));
    return rc;
  });
}

template <Op kOp, class K, class Count>
int reduce_scatter_block(const K& k, const void* sendbuf, void* recvbuf, Count recvcount, MPI_Datatype datatype,
                         MPI_Op op, MPI_Comm comm) {
  Gate g(comm);
  if (!g.active) return k.native OPTCOLL_ARGS(reduce_scatter_block);
  const select::Call call = g.reduction(recvcount, datatype, op);
  g.reduction_supported(std::int64_t{recvcount} * g.c.size, datatype);  // the send buffer's elements
  if (!g.optcoll(kOp, comm, call)) return k.native OPTCOLL_ARGS(reduce_scatter_block);
  return guarded(comm, [&] { return k.optcoll OPTCOLL_ARGS_AFTER(g.c, reduce_scatter_block); });
}

// recvcounts are equal at every rank (MPI), so is their sum.
template <Op kOp, class K, class Count>
int reduce_scatter(const K& k, const void* sendbuf, void* recvbuf, const Count recvcounts[], MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm) {
  Gate g(comm);
  if (!g.active) return k.native OPTCOLL_ARGS(reduce_scatter);
  // The groups: largest, smallest, total.
  std::int64_t largest = 0, smallest = INT64_MAX, total = 0;
  if (recvcounts == nullptr && g.bad == nullptr) g.bad = "NULL recvcounts";
  for (int i = 0; g.bad == nullptr && i < g.c.size; ++i) {
    if (recvcounts[i] < 0) g.bad = "negative count";
    largest = std::max<std::int64_t>(largest, recvcounts[i]);
    smallest = std::min<std::int64_t>(smallest, recvcounts[i]);
    total += recvcounts[i];
  }
  select::Call call = g.reduction(largest, datatype, op);
  g.reduction_supported(total, datatype);
  call.smallest = smallest;
  call.total = total;
  if (!g.optcoll(kOp, comm, call, {recvcounts, call.elem_size})) return k.native OPTCOLL_ARGS(reduce_scatter);
  return guarded(comm, [&] {
    const std::vector<std::int64_t> counts = widen(recvcounts, static_cast<std::size_t>(g.c.size));
    return k.optcoll(g.c, sendbuf, recvbuf, mpi::wide::Counts(counts), datatype, op, comm);
  });
}

}  // namespace optcoll::pmpi::shapes
