// Receive schedules of every virtual rank 0..p-1 of one circulant graph:
// what allgather(v) and reduce-scatter need, since rank r takes part in p
// broadcasts and is virtual rank (r - j) mod p in the broadcast rooted at j
// (Träff 2024, Appendix A). O(p log p) time, p*q bytes.
#pragma once

#include <cstdint>
#include <memory>
#include <new>
#include <span>
#include <utility>
#include <vector>

#include "optcoll/schedule/circulant.hpp"

namespace optcoll::schedule {

// Baseblocks of all ranks in O(p) (proof of Lemma 3): the list for the first
// skip[k+1] ranks is the list for skip[k] ranks followed by its own first
// skip[k+1] - skip[k] entries, with rank 0's entry raised to k+1.
std::vector<std::int8_t> list_baseblocks(const Circulant& g);

namespace detail {
// Leaves new elements uninitialized (the schedule writes every byte anyway):
// saves a pass over p*q bytes.
template <class T>
struct UninitializedAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <class U>
  UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* ptr) noexcept {
    ::new (static_cast<void*>(ptr)) U;
  }
  template <class U, class... Args>
  void construct(U* ptr, Args&&... args) {
    ::new (static_cast<void*>(ptr)) U(std::forward<Args>(args)...);
  }
};
}  // namespace detail

class AllRootsSchedule {
 public:
  explicit AllRootsSchedule(const Circulant& g);

  const Circulant& graph() const noexcept { return g_; }
  int baseblock(rank_t v) const noexcept { return base_[static_cast<std::size_t>(v)]; }
  // recv(v)[k] is virtual rank v's receive schedule entry for round k.
  std::span<const std::int8_t> recv(rank_t v) const noexcept {
    const auto q = static_cast<std::size_t>(g_.q());
    return {recv_.data() + static_cast<std::size_t>(v) * q, q};
  }
  // Every receive schedule, rank-major (p*q entries), e.g. as all_recv for
  // Circulant::schedule.
  std::span<const std::int8_t> recv_all() const noexcept { return {recv_.data(), recv_.size()}; }
  // The send schedule follows from neighbours: send(v)[k] = recv(to(v,k))[k].
  int send(rank_t v, int k) const noexcept { return recv(g_.to(v, k))[static_cast<std::size_t>(k)]; }

 private:
  Circulant g_;
  std::vector<std::int8_t> base_;
  std::vector<std::int8_t, detail::UninitializedAllocator<std::int8_t>> recv_;
};

}  // namespace optcoll::schedule
