// Allreduce for any operator, commutative or not: the rank-ordered binomial
// reduction to rank 0 followed by a binomial broadcast from rank 0, the
// whole vector as one message, 2 ceil(log2 p) rounds, time
// 2 q (alpha + beta m). The circulant and dissemination allreduces combine
// contributions in an order that depends on the rank, so MPI's rank-ordered
// result for a non-commutative operator needs this one; the MPI layer picks
// it only then.
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/sequence.hpp"

namespace optcoll::plan {

std::unique_ptr<RankPlan> make_allreduce_ordered(const PlanContext& ctx, rank_t rank) {
  // Both halves run on ctx.layout's data groups (WholeBuffer), rooted at 0.
  PlanContext at_zero = ctx;
  at_zero.spec.root = 0;
  return std::make_unique<SequencePlan>(make_reduce_binomial_ordered(at_zero, rank),
                                        make_bcast_binomial(at_zero, rank));
}

}  // namespace optcoll::plan
