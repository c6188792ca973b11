// Gather and scatter along the problem-adaptive binomial tree (Traff 2018,
// Proposition 1; the construction of [20]): the groups of the rank-ordered
// binomial tree, the smaller side of each merge sending to the larger (ties
// to the right), the group of the root always receiving. That is
// trees::adaptive_binomial() with gamma = 0, where comparing merged
// completion times reduces to comparing sizes. Here every rank computes the
// whole tree from the layout's counts, O(p), and takes one round per level,
// ceil(log2 p) rounds; the MPI layer computes the same view in ceil(log2 p)
// rounds of communication instead (docs/trees.md).
#include <bit>

#include "optcoll/error.hpp"
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/tree_plan.hpp"
#include "optcoll/trees/constructions.hpp"

namespace optcoll::plan {
namespace {

// Level of the merge in which child c (subtree [lo, hi]) joins parent v:
// the merged groups are L = [a, a+2^k), full, and R = [a+2^k, ...), which
// starts at an odd multiple of 2^k. One round per level, as in
// binomial_view(): the rounds invariant holds since a rank receives at
// increasing levels and sends at the level its group loses.
std::int64_t level(rank_t v, rank_t lo, rank_t hi) {
  if (lo > v) return std::countr_zero(static_cast<std::uint64_t>(lo));
  return static_cast<std::int64_t>(std::bit_width(static_cast<std::uint64_t>(hi - lo + 1))) - 1;
}

std::unique_ptr<RankPlan> make(Collective op, const PlanContext& ctx, rank_t rank) {
  checked_blocks(ctx.spec);
  if (ctx.layout == nullptr || ctx.layout->data_groups() != ctx.spec.p)
    throw Error(Errc::internal, "gather/scatter plans need the context's layout, one group per rank");
  const rank_t p = ctx.spec.p;
  std::vector<std::int64_t> m(static_cast<std::size_t>(p));
  for (rank_t g = 0; g < p; ++g) m[static_cast<std::size_t>(g)] = ctx.layout->group(g).count;
  return make_tree_plan(op, adaptive_binomial_view(m, ctx.spec.root, rank), *ctx.layout);
}

}  // namespace

TreeRankView adaptive_binomial_view(std::span<const std::int64_t> m, rank_t root, rank_t rank) {
  const auto p = static_cast<rank_t>(m.size());
  const trees::Tree t = trees::adaptive_binomial(m, trees::CostModel::homogeneous(1, 1, 0), root).tree;
  const std::vector<std::int64_t> size = trees::subtree_sizes(t, m);
  TreeRankView v;
  while ((rank_t{1} << v.rounds) < p) ++v.rounds;
  const auto nonempty = [&](rank_t x) { return size[static_cast<std::size_t>(x)] > 0; };
  if (rank != t.root() && nonempty(rank)) {
    const rank_t parent = t.parent(rank);
    v.up = {parent, level(parent, t.lo(rank), t.hi(rank)), t.lo(rank), t.hi(rank)};
  }
  for (rank_t c : t.children(rank))
    if (nonempty(c)) v.down.push_back({c, level(rank, t.lo(c), t.hi(c)), t.lo(c), t.hi(c)});
  return v;
}

std::unique_ptr<RankPlan> make_gather_adaptive_binomial(const PlanContext& ctx, rank_t rank) {
  return make(Collective::gather, ctx, rank);
}
std::unique_ptr<RankPlan> make_scatter_adaptive_binomial(const PlanContext& ctx, rank_t rank) {
  return make(Collective::scatter, ctx, rank);
}

}  // namespace optcoll::plan
