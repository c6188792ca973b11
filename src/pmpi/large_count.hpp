// MPI-4's large-count bindings (MPI_<Op>_c; large_ops.def): their argument
// lists, and call(), which runs a call whose counts all fit an int as the
// int binding's shape and any other through MPI's own _c binding.
#pragma once

#include <mpi.h>

#include <climits>

#include "ops.hpp"
#include "runtime.hpp"
#include "shapes.hpp"

#if MPI_VERSION >= 4

// clang-format off
#define OPTCOLL_PMPI_PARAMS_C_bcast (void* buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
#define OPTCOLL_PMPI_PARAMS_C_reduce \
  (const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
#define OPTCOLL_PMPI_PARAMS_C_allreduce \
  (const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
#define OPTCOLL_PMPI_PARAMS_C_reduce_scatter_block \
  (const void* sendbuf, void* recvbuf, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
#define OPTCOLL_PMPI_PARAMS_C_allgather \
  (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, \
   MPI_Datatype recvtype, MPI_Comm comm)
#define OPTCOLL_PMPI_PARAMS_C_alltoall OPTCOLL_PMPI_PARAMS_C_allgather
#define OPTCOLL_PMPI_PARAMS_C_gather \
  (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, \
   MPI_Datatype recvtype, int root, MPI_Comm comm)
#define OPTCOLL_PMPI_PARAMS_C_scatter OPTCOLL_PMPI_PARAMS_C_gather
// clang-format on

namespace optcoll::pmpi::large {

// Whether an argument fits the int binding, and the argument there: only
// the MPI_Count ones change (the non-v collectives have no MPI_Aint).
template <class T>
constexpr bool fits(const T&) noexcept {
  return true;
}
inline bool fits(MPI_Count c) noexcept {
  return c >= INT_MIN && c <= INT_MAX;
}
template <class T>
constexpr T narrow(T x) noexcept {
  return x;
}
inline int narrow(MPI_Count c) noexcept {
  return static_cast<int>(c);
}

// Shape: the int binding's adapter (a callable of its arguments); Large:
// MPI's _c binding. A count beyond an int is counted as a fallback (the
// shapes' byte counts are ints; optcoll's own C++ API takes 64-bit counts).
template <Op kOp, auto Shape, auto Large, class... A>
int call(A... a) {
  if ((fits(a) && ...)) return Shape(narrow(a)...);
  if (active()) fallback(kOp, shapes::comm_of(a...), "a count beyond INT_MAX");
  return Large(a...);
}

}  // namespace optcoll::pmpi::large

#endif
