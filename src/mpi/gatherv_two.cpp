// TWO_Gatherv / TWO_Scatterv over MPI (the tree: plan::two_view(), Traff
// 2018, Lemma 2 and §5.2): when to use it, and each rank's part with the
// byte size of every link.
//
// Only the root knows the sizes. It uses TWO when they take exactly two
// values and the tree's alpha-beta time (trees::completion_time(), gamma =
// 0) beats the adaptive binomial tree's, and broadcasts {x, y, r} for a
// single y-block, else also the bitmap of the y-ranks (p bits): a rank must
// know its class partners.
#include "optcoll/trees/constructions.hpp"
#include "optcoll/trees/evaluate.hpp"
#include "tree_build.hpp"

namespace optcoll::mpi {

namespace {

// Ranks of class `large` below `r` (all of them for r = p).
plan::rank_t below(const plan::TwoSizes& two, plan::rank_t r, bool large) {
  if (two.single >= 0) {
    const plan::rank_t y = two.single < r ? 1 : 0;
    return large ? y : r - y;
  }
  plan::rank_t y = 0;
  for (plan::rank_t i = 0; i < r; ++i) y += two.is_large(i) ? 1 : 0;
  return large ? y : r - y;
}

}  // namespace

RankTree two_rank_tree(const plan::TwoSizes& two, plan::rank_t p, plan::rank_t rank, plan::rank_t root,
                       std::vector<plan::rank_t>* order) {
  RankTree t;
  t.view = plan::two_view(two, p, root, rank);
  // Positions: the root's class first, each class in rank order; a link
  // stays inside one class.
  const bool root_large = two.is_large(root);
  const plan::rank_t first = below(two, p, root_large);  // positions of the root's class
  const auto bytes = [&](const plan::TreeLink& l) {
    const bool large = l.lo < first ? root_large : !root_large;
    return (large ? two.y : two.x) * (l.hi - l.lo + 1);
  };
  for (const plan::TreeLink& l : t.view.down) t.down_bytes.push_back(bytes(l));
  if (t.view.up.peer >= 0) t.up_bytes = bytes(t.view.up);
  const bool large = two.is_large(rank);
  t.self = below(two, rank, large) + (large == root_large ? 0 : first);
  if (order != nullptr) *order = plan::two_order(two, p, root);
  return t;
}

double two_time(std::span<const std::int64_t> m, plan::rank_t root, const model::AlphaBeta& ab) {
  const auto p = static_cast<plan::rank_t>(m.size());
  const std::optional<plan::TwoSizes> two = plan::TwoSizes::of(m);
  if (!two) throw Error(Errc::internal, "two_time: the sizes do not have two values");
  trees::TreeBuilder b(p);
  for (plan::rank_t v = 0; v < p; ++v)
    for (const plan::TreeLink& l : plan::two_view(*two, p, root, v, true).down) b.add_child(v, l.peer);
  const trees::Tree t = std::move(b).build(root, trees::CopyRule::first);
  return trees::completion_time(t, m, trees::CostModel::homogeneous(ab.alpha, ab.beta, 0));
}

std::array<std::int64_t, 4> decide_two(std::span<const std::int64_t> m, plan::rank_t root, const model::AlphaBeta& ab,
                                       bool force) {
  const std::optional<plan::TwoSizes> two = plan::TwoSizes::of(m);
  if (!two) return {0, 0, 0, 0};
  if (!force) {
    const trees::CostModel cm = trees::CostModel::homogeneous(ab.alpha, ab.beta, 0);
    if (two_time(m, root, ab) >= trees::adaptive_binomial(m, cm, root).time) return {0, 0, 0, 0};
  }
  return {1, two->x, two->y, two->single};
}

}  // namespace optcoll::mpi
