// Reductions that are broadcasts run backwards (plan/reversed.hpp), valid for
// commutative operators: the circulant reduction and the classic baselines.
//
// reduce_circulant: n blocks in n-1+q rounds (Träff 2024, Observation 1.3).
// Why nothing is counted twice: with n-1 = (K-1)q - x (Theorem 1), a non-root
// rank's raw receive indices over the K phases are 0..n-2 once each plus its
// final-phase baseblock b+n-1 (all other entries are negative). Capping maps
// only that last one to n-1, so each rank receives every block exactly once
// in the broadcast, and in the reversal sends every partial block exactly
// once, after all partials of its broadcast subtree have arrived. The
// simulator checks this for every p <= 512 (tests/sim).
//
// reduce_binomial, reduce_chain, reduce_binary_tree: the classic trees, each
// non-root receiving every block once in the broadcast, hence sending every
// partial block once here.
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/reversed.hpp"

namespace optcoll::plan {

std::unique_ptr<RankPlan> make_reduce_circulant(const PlanContext& ctx, rank_t rank) {
  return std::make_unique<ReversedPlan>(make_bcast_circulant(ctx, rank), Action::combine_before);
}

std::unique_ptr<RankPlan> make_reduce_binomial(const PlanContext& ctx, rank_t rank) {
  return std::make_unique<ReversedPlan>(make_bcast_binomial(ctx, rank), Action::combine_before);
}

std::unique_ptr<RankPlan> make_reduce_chain(const PlanContext& ctx, rank_t rank) {
  return std::make_unique<ReversedPlan>(make_bcast_chain(ctx, rank), Action::combine_before);
}

std::unique_ptr<RankPlan> make_reduce_binary_tree(const PlanContext& ctx, rank_t rank) {
  return std::make_unique<ReversedPlan>(make_bcast_binary_tree(ctx, rank), Action::combine_before);
}

}  // namespace optcoll::plan
