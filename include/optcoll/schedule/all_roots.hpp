// Receive schedules of every virtual rank 0..p-1 of one circulant graph:
// what allgather(v) and reduce-scatter need, since rank r takes part in p
// broadcasts and is virtual rank (r - j) mod p in the broadcast rooted at j
// (Träff 2024, Appendix A). O(p log p) time, p*q bytes.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "optcoll/schedule/circulant.hpp"

namespace optcoll::schedule {

// Baseblocks of all ranks in O(p) (proof of Lemma 3): the list for the first
// skip[k+1] ranks is the list for skip[k] ranks followed by its own first
// skip[k+1] - skip[k] entries, with rank 0's entry raised to k+1.
std::vector<std::int8_t> list_baseblocks(const Circulant& g);

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
  // The send schedule follows from neighbours: send(v)[k] = recv(to(v,k))[k].
  int send(rank_t v, int k) const noexcept { return recv(g_.to(v, k))[static_cast<std::size_t>(k)]; }

 private:
  Circulant g_;
  std::vector<std::int8_t> base_;
  std::vector<std::int8_t> recv_;
};

}  // namespace optcoll::schedule
