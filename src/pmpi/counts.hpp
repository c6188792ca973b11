// A count or displacement array of an MPI call, read as 64-bit values: the
// int arrays of MPI's bindings and the MPI_Count / MPI_Aint arrays of
// MPI-4's large-count bindings (MPI_Gatherv_c, ...) alike. The v shapes
// (shapes_gather.hpp, shapes_alltoall.hpp) take either binding's arrays
// and widen them here, in one place, so that both bindings run one code
// path on 64-bit counts.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace optcoll::pmpi {

class CountArray {
 public:
  constexpr CountArray() noexcept = default;
  constexpr CountArray(std::nullptr_t) noexcept {}
  constexpr CountArray(const int* a) noexcept : ints_(a) {}
  // MPI_Count, MPI_Aint: 64-bit integers, whichever of long and long long.
  template <std::integral T>
  requires(sizeof(T) == sizeof(std::int64_t)) CountArray(const T* a)
  noexcept : wide_(a) {}

  bool null() const noexcept { return ints_ == nullptr && wide_ == nullptr; }
  std::int64_t operator[](std::size_t i) const noexcept {
    if (ints_ != nullptr) return ints_[i];
    std::int64_t v = 0;  // (memcpy: MPI_Count may be long long, not std::int64_t)
    std::memcpy(&v, static_cast<const std::byte*>(wide_) + i * sizeof v, sizeof v);
    return v;
  }

 private:
  const int* ints_ = nullptr;
  const void* wide_ = nullptr;
};

// The first n entries as 64-bit values (empty for a NULL array).
inline std::vector<std::int64_t> widen(CountArray a, std::size_t n) {
  std::vector<std::int64_t> out;
  if (a.null()) return out;
  out.resize(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = a[i];
  return out;
}

}  // namespace optcoll::pmpi
