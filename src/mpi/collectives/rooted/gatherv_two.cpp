// TWO_Gatherv / TWO_Scatterv over MPI (the tree: plan::two_view(), Traff
// 2018, Lemma 2 and §5.2): each rank's part with the byte size of every
// link. When it runs is select::choose_two's rule, applied at the root (the
// only rank that knows the sizes), which broadcasts {x, y, single}; for
// several y-blocks the bitmap of the y-ranks follows (p bits: a rank must
// know its class partners). Measured on the project machine (shared
// memory, 2 cores; docs/decisions/two-only-where-lemma2-applies.md) the
// general form is slower than the adaptive tree for Spikes and Skewed: the
// class root's extra hop with the whole class costs bandwidth that the
// one-ported model assumes free.
#include "mpi/collectives/rooted/rooted.hpp"

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

}  // namespace optcoll::mpi
