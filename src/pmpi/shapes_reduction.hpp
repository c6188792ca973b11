// Shapes of the reductions without a root (shapes.hpp): MPI_Allreduce,
// MPI_Scan and MPI_Exscan (one argument list), MPI_Reduce_scatter_block and
// MPI_Reduce_scatter. MPI requires the same datatype (and counts) at every
// rank, which is optcoll's contract too: the arguments go through unchanged.
// A datatype or operator optcoll does not take (reduction_supported) goes
// to PMPI_* at every rank alike.
#pragma once

#include "shapes.hpp"

// clang-format off
#define OPTCOLL_PMPI_PARAMS_allreduce \
  (const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
#define OPTCOLL_PMPI_ARGS_allreduce (sendbuf, recvbuf, count, datatype, op, comm)
#define OPTCOLL_PMPI_PARAMS_reduce_scatter_block \
  (const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
#define OPTCOLL_PMPI_ARGS_reduce_scatter_block (sendbuf, recvbuf, recvcount, datatype, op, comm)
#define OPTCOLL_PMPI_PARAMS_reduce_scatter \
  (const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
#define OPTCOLL_PMPI_ARGS_reduce_scatter (sendbuf, recvbuf, recvcounts, datatype, op, comm)
// clang-format on

namespace optcoll::pmpi::shapes {

// The route of a reduction of `elements` elements of datatype in total.
inline bool reduction_route(Gate& g, Op kOp, MPI_Comm comm, std::int64_t elements, MPI_Datatype datatype, MPI_Op op) {
  std::int64_t bytes = -1;
  if (g.bad == nullptr) {
    const std::int64_t one = g.payload(1, datatype);
    if (elements < 0 || elements > INT_MAX) g.bad = "invalid count";
    bytes = one * elements;
  }
  int commutative = 1;
  if (g.bad == nullptr && (op == MPI_OP_NULL || PMPI_Op_commutative(op, &commutative) != MPI_SUCCESS))
    g.bad = "invalid MPI_Op";
  g.reduction_supported(elements, datatype, op);
  return g.optcoll(kOp, comm, bytes, commutative != 0);
}

// MPI_Allreduce, MPI_Scan, MPI_Exscan.
template <Op kOp, auto Optcoll, auto Native>
int allreduce OPTCOLL_PMPI_PARAMS_allreduce {
  Gate g(comm);
  if (!g.active || !reduction_route(g, kOp, comm, count, datatype, op)) return Native OPTCOLL_PMPI_ARGS_allreduce;
  return guarded(comm, [&] { return Optcoll OPTCOLL_PMPI_ARGS_allreduce; });
}

template <Op kOp, auto Optcoll, auto Native>
int reduce_scatter_block OPTCOLL_PMPI_PARAMS_reduce_scatter_block {
  Gate g(comm);
  if (!g.active || !reduction_route(g, kOp, comm, recvcount < 0 ? -1 : std::int64_t{recvcount} * g.size, datatype, op))
    return Native OPTCOLL_PMPI_ARGS_reduce_scatter_block;
  return guarded(comm, [&] { return Optcoll OPTCOLL_PMPI_ARGS_reduce_scatter_block; });
}

// recvcounts are equal at every rank (MPI), so is their sum.
template <Op kOp, auto Optcoll, auto Native>
int reduce_scatter OPTCOLL_PMPI_PARAMS_reduce_scatter {
  Gate g(comm);
  if (!g.active) return Native OPTCOLL_PMPI_ARGS_reduce_scatter;
  std::int64_t total = recvcounts == nullptr ? -1 : 0;
  for (int i = 0; g.bad == nullptr && total >= 0 && i < g.size; ++i)
    total = recvcounts[i] < 0 ? -1 : total + recvcounts[i];
  if (!reduction_route(g, kOp, comm, total, datatype, op)) return Native OPTCOLL_PMPI_ARGS_reduce_scatter;
  return guarded(comm, [&] { return Optcoll OPTCOLL_PMPI_ARGS_reduce_scatter; });
}

}  // namespace optcoll::pmpi::shapes
