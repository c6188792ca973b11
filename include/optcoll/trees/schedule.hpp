// The rounds of a tree's plan, computed once for the whole tree and shared
// by every rank's plan (plan::schedule_view() turns them into a rank's view
// for plan/tree_plan.hpp).
//
// Gather round of the message child -> parent, over the children with data
// (a subtree of size 0 sends nothing, comm(0) = 0):
//   round(c_1) = R(c_1),  round(c_k) = max(round(c_{k-1}) + 1, R(c_k)),
//   R(c) = round of c's last receive + 1, or 0 for a node that receives nothing.
// This is the least labelling with the invariant of tree_plan.hpp (receives
// in order, each in its own round, the send after them), so the simulator's
// alpha-beta clock equals Definition 2's completion time. O(p).
//
// The local copy (gamma) is not a message; copy_round() says where it falls
// among a rank's rounds so that a simulator can charge it (sim::SimOptions::
// local_work): before the rank's messages of that round.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "optcoll/trees/model.hpp"
#include "optcoll/trees/tree.hpp"

namespace optcoll::trees {

class TreeSchedule {
 public:
  // m: the block sizes (only zero or not matters). Throws optcoll::Error
  // unless every subtree of `tree` is a rank interval (interval_subtrees()).
  TreeSchedule(Tree tree, std::span<const std::int64_t> m);

  const Tree& tree() const noexcept { return tree_; }
  std::int64_t rounds() const noexcept { return rounds_; }
  // Gather round in which v sends its subtree; -1 at the root or if the
  // subtree is empty.
  std::int64_t send_round(rank_t v) const noexcept { return round_[static_cast<std::size_t>(v)]; }
  // The round before whose messages v copies its own block (rounds(): after
  // its last message); -1 for a leaf, which copies nothing (Definition 2).
  std::int64_t copy_round(rank_t v, Direction d) const;

 private:
  Tree tree_;
  std::vector<std::int64_t> size_;   // subtree sizes
  std::vector<std::int64_t> round_;  // send rounds
  std::int64_t rounds_ = 0;
};

}  // namespace optcoll::trees
