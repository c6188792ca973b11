// Gather/scatter tree constructions of Traff 2018 (§3, §5.1), each with a
// fixed root or a root it chooses itself. Every construction returns the
// tree it built, not just a cost; `time` is the completion time of that tree
// by the independent evaluator (evaluate.hpp), which the DPs' tables agree
// with (tests check it). m[i] >= 0 are the block sizes.
//
// One construction per source file (src/trees/tree_<name>.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "optcoll/trees/model.hpp"
#include "optcoll/trees/tree.hpp"

namespace optcoll::trees {

struct TreeResult {
  Tree tree;
  double time = 0;       // completion_time(tree, m, model, direction)
  double predicted = 0;  // the construction's own value (DP table entry, merge times); equals time
};

// --- Linear (star): every rank sends its block to the root, in rank order;
// the root copies its own block in rank position. O(p).
Tree linear_tree(rank_t p, rank_t root);
// With `root` empty, the root with the least completion time (the lowest on
// ties): sum over i != r of comm(m_i) plus gamma m_r.
TreeResult linear(std::span<const std::int64_t> m, const CostModel& model, std::optional<rank_t> root,
                  Direction d = Direction::gather);

// --- Oblivious binomial (§5.1, after Traff 2018b [20]): rounds k = 0, 1, ...,
// ceil(log2 p) - 1 merge the aligned groups [a, a+2^k) and [a+2^k, a+2^(k+1));
// the group holding the root receives, otherwise the right group (rooted at
// its last rank) does. Rank ordered; every subtree is an interval. O(p).
Tree binomial_tree(rank_t p, rank_t root);
// With `root` empty, the best of the roots 0, 2^k - 1 (k >= 1) and p-1 (the
// roots at which the construction's prefix groups [0, 2^k) and the whole
// range are rooted), ties to the lowest. This is the rule that reproduces
// every "best root" Oblivious entry of the paper's Tables 1-3; the paper
// does not define it, and the best over all p roots can be lower
// (docs/trees.md). O(p log p).
TreeResult binomial(std::span<const std::int64_t> m, const CostModel& model, std::optional<rank_t> root,
                    Direction d = Direction::gather);
// The best over all p roots of binomial_tree(), ties to the lowest. O(p^2).
TreeResult binomial_exhaustive_root(std::span<const std::int64_t> m, const CostModel& model,
                                    Direction d = Direction::gather);

// --- Problem-adaptive binomial (Proposition 1, [20]): the groups of
// binomial_tree(), but each merge lets the root of the group that finishes
// the merged tree sooner receive (the smaller side sends), ties to the
// right group; with a fixed root the group holding it always receives.
// With `root` empty the construction's own root; then, for gamma = beta,
// Time = ceil(log2 p) alpha + beta sum m_i (Proposition 1). O(p).
TreeResult adaptive_binomial(std::span<const std::int64_t> m, const CostModel& model, std::optional<rank_t> root,
                             Direction d = Direction::gather);

// --- Optimal ordered variable-degree tree, homogeneous model (Figure 6,
// with the singleton roots of Eqs. 5-6 in every split; Theorem 2): least
// completion time over all ordered trees (is_ordered()). With `root` the
// ranges holding it are rooted at it (§3.2). Time O(p^3) with an exact
// vectorized inner loop, memory O(p^2) doubles (2 p^2 with a fixed root).
// Throws optcoll::Error for a pairwise model.
TreeResult optimal_tree(std::span<const std::int64_t> m, const CostModel& model, std::optional<rank_t> root);

// The same, with the O(p^3) table of all ranges kept: best() costs O(p^2)
// more, rooted(r) about (r+1)(p-r)p/2 split evaluations more.
class OptimalTrees {
 public:
  OptimalTrees(std::span<const std::int64_t> m, const CostModel& model);
  ~OptimalTrees();
  OptimalTrees(OptimalTrees&&) noexcept;
  OptimalTrees& operator=(OptimalTrees&&) noexcept;
  TreeResult best() const;
  TreeResult rooted(rank_t root) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// --- Optimal ordered variable-degree tree, non-homogeneous model (Figure 5,
// Theorem 1): C[i,j,r] for every range and root. For d = scatter the edge
// costs are parent -> child. Time O(p^5/60) simple steps, memory O(p^3).
TreeResult optimal_tree_pairwise(std::span<const std::int64_t> m, const CostModel& model, std::optional<rank_t> root,
                                 Direction d = Direction::gather);

// --- Optimal ordered binary tree, homogeneous model (Figure 7, Theorem 3):
// every node has at most two children, received in rank order, the copy in
// rank position. With `root` only the last extension step is rooted at it
// (§3.3). Time O(p^3), memory O(p^2).
TreeResult optimal_binary_tree(std::span<const std::int64_t> m, const CostModel& model, std::optional<rank_t> root);

// The same with the table kept: best() and rooted(r) each cost O(p^2) more.
class OptimalBinaryTrees {
 public:
  OptimalBinaryTrees(std::span<const std::int64_t> m, const CostModel& model);
  ~OptimalBinaryTrees();
  OptimalBinaryTrees(OptimalBinaryTrees&&) noexcept;
  OptimalBinaryTrees& operator=(OptimalBinaryTrees&&) noexcept;
  TreeResult best() const;
  TreeResult rooted(rank_t root) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// --- Optimal non-ordered tree by exhaustive search over subsets
// (Proposition 2, Eqs. 7-8: every node copies first), for the PARTITION
// example of §4. p <= 14. Time O(3^p p) (O(3^p p^2) pairwise).
TreeResult optimal_unordered_tree(std::span<const std::int64_t> m, const CostModel& model, std::optional<rank_t> root,
                                  Direction d = Direction::gather);

}  // namespace optcoll::trees
