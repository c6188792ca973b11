// What the recursive doubling / halving plans share (allgather_doubling.cpp,
// allreduce_rabenseifner.cpp): p ranks folded onto 2^f virtual ranks, and
// ranges of groups as runs of blocks.
#pragma once

#include <algorithm>
#include <vector>

#include "optcoll/plan/algorithms.hpp"

namespace optcoll::plan {

// f = floor(log2 p), l = p - 2^f: the ranks 2i+1 (i < l) fold into 2i, and
// virtual rank v (0 <= v < 2^f) runs on rank first(v), which also starts
// its consecutive interval of ranks: {2v, 2v+1} for v < l, {v + l} after.
struct Fold {
  explicit Fold(rank_t p) noexcept {
    while ((rank_t{2} << f) <= p) ++f;
    l = p - (rank_t{1} << f);
  }
  bool paired(rank_t r) const noexcept { return r < 2 * l; }
  bool odd(rank_t r) const noexcept { return paired(r) && r % 2 == 1; }
  // Precondition: !odd(r).
  rank_t virtual_of(rank_t r) const noexcept { return paired(r) ? r / 2 : r - l; }
  // v = 2^f: p.
  rank_t first(rank_t v) const noexcept { return v < l ? 2 * v : v + l; }

  int f = 0;
  rank_t l = 0;
};

// The state and accessors of a plan over one group per rank, folded: its
// rounds are f plus `extra` when p is not a power of two (none when p = 1
// or no group holds data).
class FoldedPlan : public RankPlan {
 public:
  FoldedPlan(const PlanContext& ctx, rank_t rank, int extra) : lay_(*ctx.layout), p_(ctx.spec.p), r_(rank), fold_(p_) {
    if (p_ > 1 && !lay_.nonempty_groups().empty()) rounds_ = fold_.f + (fold_.l > 0 ? extra : 0);
  }
  std::int64_t rounds() const noexcept override { return rounds_; }
  const BlockLayout& layout() const noexcept override { return lay_; }

 protected:
  const BlockLayout& lay_;
  rank_t p_;
  rank_t r_;
  Fold fold_;
  std::int64_t rounds_ = 0;
};

// Appends the groups of [lo, hi) that hold data as runs of blocks: one run
// from the first to the last when the layout is dense, else one per group
// (BlockLayout::valid). False when none holds data. O(log p + runs).
inline bool add_group_runs(const BlockLayout& lay, rank_t lo, rank_t hi, std::vector<BlockRun>& out) {
  const std::vector<std::int64_t>& g = lay.nonempty_groups();
  const auto a = std::lower_bound(g.begin(), g.end(), lo);
  const auto b = std::lower_bound(a, g.end(), hi);
  if (a == b) return false;
  const std::int64_t n = lay.blocks_per_group();
  if (lay.dense()) {
    out.push_back({*a * n, (*(b - 1) - *a + 1) * n});
  } else {
    for (auto j = a; j != b; ++j) out.push_back({*j * n, n});
  }
  return true;
}

}  // namespace optcoll::plan
