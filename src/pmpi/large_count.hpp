// MPI-4's large-count bindings (MPI_<Op>_c; large_ops.def): their argument
// lists, and for the `narrowed` ones call(), which runs a call whose counts
// all fit an int as the int binding's shape and any other through MPI's own
// _c binding. (The `wide` ones, the v collectives, call their shape with
// their own arguments: shapes_gather.hpp, shapes_alltoall.hpp.)
#pragma once

#include <mpi.h>

#include <climits>
#include <vector>

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
#define OPTCOLL_PMPI_PARAMS_C_reduce_scatter \
  (const void* sendbuf, void* recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
#define OPTCOLL_PMPI_PARAMS_C_allgatherv \
  (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[], \
   const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm)
#define OPTCOLL_PMPI_PARAMS_C_gatherv \
  (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[], \
   const MPI_Aint displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
#define OPTCOLL_PMPI_PARAMS_C_scatterv \
  (const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype, void* recvbuf, \
   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
#define OPTCOLL_PMPI_PARAMS_C_alltoallv \
  (const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void* recvbuf, \
   const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
// clang-format on

namespace optcoll::pmpi::large {

// The MPI call itself, with the caller's own arguments, while a large-count
// call runs the int binding's shape: the shape's native path calls it
// (original()), so that MPI never sees the int copies below, which live
// only as long as the call (a nonblocking or persistent request keeps its
// arrays until it completes; optcoll's own path copies what it keeps).
struct Original {
  int (*run)(const void*) = nullptr;
  const void* call = nullptr;
};
inline thread_local Original t_original;
inline int original() {
  return t_original.run(t_original.call);
}

// The int binding's arguments for one call: scalars narrowed, an
// MPI_Count array (Reduce_scatter's recvcounts, the communicator's size of
// entries) copied into ints.
class Narrowed {
 public:
  // Whether every argument fits the int binding (copying the array).
  template <class... A>
  bool fits(A... a) {
    comm_ = shapes::comm_of(a...);
    return (fit(a) && ...);
  }
  template <class T>
  T narrow(T x) const noexcept {
    return x;
  }
  int narrow(MPI_Count c) const noexcept { return static_cast<int>(c); }
  const int* narrow(const MPI_Count* a) const noexcept {
    return a == nullptr || ints_.empty() ? nullptr : ints_.data();
  }

 private:
  template <class T>
  static bool fit(const T&) noexcept {
    return true;
  }
  static bool fit(MPI_Count c) noexcept { return c >= INT_MIN && c <= INT_MAX; }
  bool fit(const MPI_Count* a) {
    // What the shape's own Gate will see: a call it does not route, an
    // invalid communicator or an intercommunicator goes to MPI's own
    // binding (original()), so nothing is copied.
    const shapes::Gate g(comm_);
    if (a == nullptr || !g.active || g.bad != nullptr) return true;
    ints_.resize(static_cast<std::size_t>(g.size));
    for (int i = 0; i < g.size; ++i) {
      if (!fit(a[i])) return false;
      ints_[static_cast<std::size_t>(i)] = static_cast<int>(a[i]);
    }
    return true;
  }

  MPI_Comm comm_ = MPI_COMM_NULL;
  std::vector<int> ints_;
};

// Shape: the int binding's adapter (a callable of its arguments); Large:
// MPI's _c binding, which is also what the shape's native path calls
// (original()). A count beyond an int is counted as a fallback (the
// shapes' byte counts are ints; optcoll's own C++ API takes 64-bit counts).
template <Op kOp, auto Shape, auto Large, class... A>
int call(A... a) {
  Narrowed n;
  if (n.fits(a...)) {
    const auto call_large = [&] { return Large(a...); };
    struct Scope {
      Original saved = t_original;
      ~Scope() { t_original = saved; }
    } scope;
    t_original = {[](const void* f) { return (*static_cast<const decltype(call_large)*>(f))(); }, &call_large};
    return Shape(n.narrow(a)...);
  }
  if (active()) fallback(kOp, shapes::comm_of(a...), "a count beyond INT_MAX");
  return Large(a...);
}

}  // namespace optcoll::pmpi::large

#endif
