#include "optcoll/schedule/all_roots.hpp"

#include <algorithm>

namespace optcoll::schedule {

std::vector<std::int8_t> list_baseblocks(const Circulant& g) {
  const auto p = static_cast<std::size_t>(g.p());
  std::vector<std::int8_t> b(p, 0);
  // Invariant before step k: b[0 .. skip[k]) lists the baseblocks of a
  // skip[k]-processor graph, with b[0] = k.
  for (int k = 0; k < g.q(); ++k) {
    const auto lo = static_cast<std::size_t>(g.skip(k));
    const auto hi = static_cast<std::size_t>(g.skip(k + 1));
    std::copy_n(b.begin(), hi - lo, b.begin() + static_cast<std::ptrdiff_t>(lo));
    b[0] = static_cast<std::int8_t>(k + 1);
  }
  return b;
}

AllRootsSchedule::AllRootsSchedule(const Circulant& g) : g_(g), base_(list_baseblocks(g)) {
  const auto q = static_cast<std::size_t>(g.q());
  recv_.resize(static_cast<std::size_t>(g.p()) * q);
  int tmp[kMaxQ];
  for (rank_t v = 0; v < g.p(); ++v) {
    g.recv_schedule(v, base_[static_cast<std::size_t>(v)], std::span<int>(tmp, q));
    std::copy_n(tmp, q, recv_.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(v) * q));
  }
}

}  // namespace optcoll::schedule
