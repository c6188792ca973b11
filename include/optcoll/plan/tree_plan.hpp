// Gather and scatter over a tree (Traff 2018, Definition 1) as a plan.
//
// A rank's part of a tree is a TreeRankView: the message to its parent and
// the messages from its children, each with its gather round and the groups
// it carries (a subtree is a rank interval [lo, hi] in every tree optcoll
// builds; Definition 3). make_tree_plan() turns a view into the rank's
// RankPlan; it knows nothing else of the tree, so the MPI layer only has to
// produce views: plan::schedule_view() from a tree computed at the root
// (persistent Gatherv/Scatterv), or the distributed adaptive binomial
// construction (docs/trees.md), or make_gather_binomial()'s O(log p)
// local computation.
//
// Gather: in round `down[k].round` receive groups [lo, hi] of child k, in
// round `up.round` send this rank's subtree to the parent. Scatter: the same
// messages reversed in time, round i -> rounds - 1 - i: first the subtree
// from the parent, then the children, last one first (Figure 2).
//
// Rounds invariant (checked): a rank's messages have distinct rounds, its
// receives in increasing rounds and its send after all of them. Then the
// simulator's alpha-beta clock (a message starts when both ends are done with
// their earlier rounds) is Definition 2's completion time: each child's
// message starts at max(parent's clock after the previous child, child's
// subtree time). Links of empty subtrees are left out of views (comm(0) = 0:
// nothing is sent and nobody waits).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "optcoll/plan/nodes.hpp"
#include "optcoll/plan/plan.hpp"

namespace optcoll::trees {
class TreeSchedule;
}

namespace optcoll::plan {

struct TreeLink {
  rank_t peer = -1;         // -1: no message
  std::int64_t round = -1;  // gather round of the message
  rank_t lo = 0, hi = -1;   // the groups it carries
};

struct TreeRankView {
  std::int64_t rounds = 0;     // the plan's rounds, the same at every rank
  TreeLink up;                 // to the parent: this rank's subtree; peer -1 at the root
  std::vector<TreeLink> down;  // from the children, in gather receive order
  // Trees whose subtrees are not rank intervals (TWO) number the groups by
  // position: links carry positions [lo, hi], and position i is group
  // (*order)[i]. Null: positions are groups.
  std::shared_ptr<const std::vector<rank_t>> order;
};

// The RankPlan of one rank for Collective::gather or Collective::scatter.
// Whole groups travel: groups [lo, hi] as one block run if the layout is
// dense, else one run per group. `layout` must outlive the plan. Throws
// optcoll::Error if the view breaks the rounds invariant. step(i) is
// O(log degree) plus O(1) per run named.
std::unique_ptr<RankPlan> make_tree_plan(Collective op, TreeRankView view, const BlockLayout& layout);

// The view of `rank` in the rank-ordered binomial tree rooted at `root`
// (trees::binomial_tree(); the group holding the root receives, else the
// right one), one round per level, without messages of empty subtrees:
// O(log p) plus the groups summed for emptiness.
TreeRankView binomial_view(rank_t p, rank_t root, rank_t rank, const BlockLayout& layout);

// The view of rank v in a tree whose rounds a trees::TreeSchedule computed
// (a tree built at the root: persistent Gatherv/Scatterv), without the
// links of empty subtrees. O(degree).
TreeRankView schedule_view(const trees::TreeSchedule& s, rank_t v);
// The same with every group non-empty (regular Gather/Scatter): O(log p),
// no layout needed.
TreeRankView binomial_view(rank_t p, rank_t root, rank_t rank);

// The view of `rank` in the star (the "linear" plans): the root takes rank
// i's group in round i - (i > root), in rank order, p - 1 rounds, without
// the messages of empty groups. count(i): group i's size; asked for every
// i at the root, for `rank` only elsewhere. O(p) at the root, O(1) else.
TreeRankView linear_view(rank_t p, rank_t root, rank_t rank, const std::function<std::int64_t(rank_t)>& count);

// The view of `rank` in the problem-adaptive binomial tree for block sizes m
// (trees::adaptive_binomial() with gamma = 0: the smaller side of a merge
// sends, ties to the right, the group holding the root receives), one round
// per level, without messages of empty subtrees. O(p): every rank computes
// the whole tree. This is what the plan "adaptive_binomial" runs, and what
// the MPI layer's distributed construction must reproduce at every rank.
TreeRankView adaptive_binomial_view(std::span<const std::int64_t> m, rank_t root, rank_t rank);

// TWO (Traff 2018, Lemma 2 and §5.2; gather_two.cpp): blocks of two sizes
// x < y. The ranks of each size class gather by a rank-ordered binomial
// tree of their own, concurrently; the class of the root at the root, the
// other class at its last member, which then sends the whole class to the
// root in one message, in round max(q_X, q_Y) (q_C = ceil(log2 |C|)).
// Positions: the root's class first, then the other, each in rank order;
// every subtree is an interval of positions.
struct TwoSizes {
  std::int64_t x = 0, y = 0;        // x < y
  rank_t single = -1;               // the only rank holding y, or -1: see `large`
  std::vector<std::uint8_t> large;  // bit r: rank r holds y (when single < 0)

  bool is_large(rank_t r) const noexcept {
    return single >= 0
               ? r == single
               : ((static_cast<unsigned>(large[static_cast<std::size_t>(r / 8)]) >> static_cast<unsigned>(r % 8)) &
                  1U) != 0;
  }
  // The split of m, if m has exactly two distinct values (single set when
  // one rank holds the larger).
  static std::optional<TwoSizes> of(std::span<const std::int64_t> m);
};
// `rank`'s view; keep_empty also keeps links without data (the whole tree,
// for its cost). O(log p) with `single`, O(p) with the bitmap.
TreeRankView two_view(const TwoSizes& two, rank_t p, rank_t root, rank_t rank, bool keep_empty = false);
// Position -> rank.
std::vector<rank_t> two_order(const TwoSizes& two, rank_t p, rank_t root);

// The node-aware gather tree ("leaders", gather_leaders.cpp): every node's
// ranks gather on the binomial tree to the node's leader (local index
// min(root's local index, size - 1): the root on its own node), then the
// leaders gather on the binomial tree over the nodes to the root, in rounds
// after every node's (ceil(log2 ppn) + ceil(log2 N) rounds, ppn the
// largest node). Only the leaders' messages cross nodes, one each way
// through a node's port per round. Positions: the nodes from the root's on,
// cyclically, each node's ranks from its leader on, cyclically; every
// subtree is an interval of positions. O(N) to build, view() O(log p).
class LeadersTree {
 public:
  LeadersTree(const NodeLayout& nodes, rank_t root);
  // `rank`'s links, every group non-empty (regular Gather/Scatter).
  TreeRankView view(rank_t rank) const;
  rank_t position(rank_t rank) const;
  // Position -> rank (O(p)).
  std::vector<rank_t> order() const;

 private:
  rank_t node_at(rank_t j) const { return (root_node_ + j) % nodes_.nodes(); }
  rank_t leader(rank_t node) const { return std::min(root_local_, nodes_.size(node) - 1); }

  NodeLayout nodes_;
  rank_t root_node_ = 0, root_local_ = 0;
  std::int64_t node_rounds_ = 0;  // ceil(log2 ppn)
  std::vector<rank_t> starts_;    // first position of the j-th node from the root's, and p
};

}  // namespace optcoll::plan
