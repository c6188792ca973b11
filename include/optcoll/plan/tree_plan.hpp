// Gather and scatter over a tree (Traff 2018, Definition 1) as a plan.
//
// A rank's part of a tree is a TreeRankView: the message to its parent and
// the messages from its children, each with its gather round and the groups
// it carries (a subtree is a rank interval [lo, hi] in every tree optcoll
// builds; Definition 3). make_tree_plan() turns a view into the rank's
// RankPlan; it knows nothing else of the tree, so the MPI layer only has to
// produce views: trees::TreeSchedule::view() from a tree computed at the root
// (persistent Gatherv/Scatterv), or the distributed adaptive binomial
// construction (DEVELOPERS.md, trees/), or make_gather_binomial()'s O(log p)
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

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "optcoll/plan/plan.hpp"

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
// The same with every group non-empty (regular Gather/Scatter): O(log p),
// no layout needed.
TreeRankView binomial_view(rank_t p, rank_t root, rank_t rank);

// The view of `rank` in the problem-adaptive binomial tree for block sizes m
// (trees::adaptive_binomial() with gamma = 0: the smaller side of a merge
// sends, ties to the right, the group holding the root receives), one round
// per level, without messages of empty subtrees. O(p): every rank computes
// the whole tree. This is what the plan "adaptive_binomial" runs, and what
// the MPI layer's distributed construction must reproduce at every rank.
TreeRankView adaptive_binomial_view(std::span<const std::int64_t> m, rank_t root, rank_t rank);

}  // namespace optcoll::plan
