// Renumbering ranks for locality: p = K * G ranks in K groups of G
// consecutive ranks (the ranks of a node, or of a leaf switch), and a
// circulant plan (Traff 2024: in each round rank r exchanges with r +- skip)
// run on virtual ranks placed so that its longer skips stay inside groups.
//
// Virtual rank v runs at rank physical(v) = (v mod K) * G + v / K: v and
// v + s (mod p) are in one group exactly when s is a multiple of K. For
// p = K * 2^j the circulant skips p/2, p/4, ..., p/2^j are the multiples of
// K among them, so j = log2 G of the ceil(log2 p) rounds stay inside groups
// and ceil(log2 K) cross; no schedule can cross fewer times (each round at
// most doubles the groups a block has reached). In rank order every round
// crosses: a round's slowest message is one that wraps past a group's end.
// For other p the skips that are multiples of K stay inside groups.
//
// The renaming keeps what a plan proves: the plan runs unchanged on virtual
// ranks, with the root and the ranks' own groups (allgather,
// reduce-scatter) renamed. Combination order follows virtual ranks, so only
// commutative reductions are renumbered.
#pragma once

#include <memory>

#include "optcoll/plan/plan.hpp"

namespace optcoll::plan {

struct RankOrder {
  rank_t p = 1;
  rank_t k = 1;  // groups
  rank_t g = 1;  // ranks per group
  bool identity() const noexcept { return k == 1 || g == 1; }
  rank_t physical(rank_t v) const noexcept { return identity() ? v : (v % k) * g + v / k; }
  rank_t virtual_of(rank_t r) const noexcept { return identity() ? r : (r % g) * k + r / g; }
};

// The renumbering for p ranks in groups of `group` consecutive ranks: the
// identity unless 1 < group < p and group divides p.
RankOrder locality_order(rank_t p, rank_t group) noexcept;

// plan (virtual rank's) with its peers renamed to ranks: O(1) per step.
std::unique_ptr<RankPlan> renumbered(std::unique_ptr<RankPlan> plan, const RankOrder& order);

// A layout of one group per rank (no scratch groups) in virtual order:
// group u is group physical(u) of `ranks`. Throws optcoll::Error for a
// layout of another shape.
BlockLayout renumbered_layout(const BlockLayout& ranks, const RankOrder& order);

}  // namespace optcoll::plan
