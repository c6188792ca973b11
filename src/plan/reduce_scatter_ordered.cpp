// Reduce-scatter for any operator, commutative or not: the rank-ordered
// binomial reduction of the whole vector to rank 0, then a binomial scatter
// of the groups from rank 0 (the oblivious tree of Traff 2018), 2 ceil(log2 p)
// rounds. The circulant reduce-scatter combines in a rank-dependent order,
// so MPI's rank-ordered result for a non-commutative operator needs this
// one; the MPI layer picks it only then.
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/sequence.hpp"

namespace optcoll::plan {

std::unique_ptr<RankPlan> make_reduce_scatter_ordered(const PlanContext& ctx, rank_t rank) {
  // Both halves run on ctx.layout (one group per rank), rooted at 0.
  PlanContext at_zero = ctx;
  at_zero.spec.root = 0;
  std::unique_ptr<RankPlan> reduce = make_reduce_binomial_ordered(at_zero, rank);
  if (reduce->rounds() == 0) return reduce;  // no data, or p = 1: nothing to scatter
  return std::make_unique<SequencePlan>(std::move(reduce), make_scatter_binomial(at_zero, rank));
}

}  // namespace optcoll::plan
