// MPI-4's large-count bindings (MPI_<Op>_c; large_ops.def): their argument
// lists, and call(), which runs a call whose counts all fit an int as the
// int binding's shape and any other through MPI's own _c binding.
#pragma once

#include <mpi.h>

#include <climits>
#include <string_view>
#include <tuple>
#include <type_traits>
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
#define OPTCOLL_PMPI_PARAMS_C_allgatherv \
  (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[], \
   const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm)
#define OPTCOLL_PMPI_PARAMS_C_reduce_scatter \
  (const void* sendbuf, void* recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
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

// The int binding's arguments for one call: scalars narrowed, the v
// collectives' MPI_Count and MPI_Aint arrays copied into ints. An array
// has the communicator's size; one MPI reads at the root only (Gatherv's
// receive side, Scatterv's send side) or not at all (Alltoallv's send side
// with MPI_IN_PLACE) is neither read nor passed on.
template <class T>
inline constexpr bool kArrayElement = std::is_same_v<T, MPI_Count> || std::is_same_v<T, MPI_Aint>;

class Narrowed {
 public:
  template <class... A>
  explicit Narrowed(Op op, A... a) {
    comm_ = shapes::comm_of(a...);
    const std::string_view name = info(op).name;
    rooted_ = name.starts_with("Gatherv") || name.starts_with("Igatherv") || name.starts_with("Scatterv") ||
              name.starts_with("Iscatterv");
    if (rooted_) root_ = std::get<sizeof...(A) - 2>(std::tuple<A...>(a...));
    alltoallv_ = name.starts_with("Alltoallv") || name.starts_with("Ialltoallv");
    in_place_ = std::get<0>(std::tuple<A...>(a...)) == MPI_IN_PLACE;
  }

  // Whether every argument fits the int binding (copying the arrays).
  template <class... A>
  bool fits(A... a) {
    position_ = 0;
    return (fit(a) && ...);
  }
  template <class T>
  T narrow(T x) const noexcept {
    return x;
  }
  int narrow(MPI_Count c) const noexcept { return static_cast<int>(c); }
  template <class T>
  requires kArrayElement<T>
  const int* narrow(const T* a) const noexcept { return copy_of(a); }

 private:
  template <class T>
  bool fit(const T&) noexcept {
    ++position_;
    return true;
  }
  bool fit(MPI_Count c) noexcept {
    ++position_;
    return c >= INT_MIN && c <= INT_MAX;
  }
  template <class T>
  requires kArrayElement<T>
  bool fit(const T* a) {
    const int at = position_++;
    if (a == nullptr || !significant(at)) return true;  // passed on as nullptr
    if (size_ < 0 &&
        (PMPI_Comm_size(comm_, &size_) != MPI_SUCCESS || (rooted_ && PMPI_Comm_rank(comm_, &rank_) != MPI_SUCCESS)))
      return false;  // an invalid communicator: MPI's own binding reports it
    if (rooted_ && rank_ != root_) return true;
    Copy& c = copies_.emplace_back();
    c.from = a;
    c.ints.resize(static_cast<std::size_t>(size_));
    for (int i = 0; i < size_; ++i) {
      if (a[i] < INT_MIN || a[i] > INT_MAX) return false;
      c.ints[static_cast<std::size_t>(i)] = static_cast<int>(a[i]);
    }
    return true;
  }
  // Whether the array at argument position `at` is read at all: Alltoallv's
  // send arrays (positions 1, 2) not with MPI_IN_PLACE.
  bool significant(int at) const noexcept { return !(alltoallv_ && in_place_ && at < 3); }
  const int* copy_of(const void* a) const noexcept {
    for (const Copy& c : copies_)
      if (c.from == a) return c.ints.data();
    return nullptr;  // null, or not read here
  }

  struct Copy {
    const void* from = nullptr;
    std::vector<int> ints;
  };
  MPI_Comm comm_ = MPI_COMM_NULL;
  int size_ = -1;
  int rank_ = -1;
  int root_ = 0;
  bool rooted_ = false;
  bool alltoallv_ = false;
  bool in_place_ = false;
  int position_ = 0;
  std::vector<Copy> copies_;
};

// Shape: the int binding's adapter (a callable of its arguments); Large:
// MPI's _c binding, which is also what the shape's native path calls
// (original()). A count or displacement beyond an int is counted as a
// fallback (the shapes' byte counts are ints; optcoll's own C++ API takes
// 64-bit counts).
template <Op kOp, auto Shape, auto Large, class... A>
int call(A... a) {
  Narrowed n(kOp, a...);
  if (n.fits(a...)) {
    const auto call_large = [&] { return Large(a...); };
    struct Scope {
      Original saved = t_original;
      ~Scope() { t_original = saved; }
    } scope;
    t_original = {[](const void* f) { return (*static_cast<const decltype(call_large)*>(f))(); }, &call_large};
    return Shape(n.narrow(a)...);
  }
  if (active()) fallback(kOp, shapes::comm_of(a...), "a count or displacement beyond INT_MAX");
  return Large(a...);
}

}  // namespace optcoll::pmpi::large

#endif
