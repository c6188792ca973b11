// Reduce-scatter (MPI_Reduce_scatter_block and the irregular
// MPI_Reduce_scatter) by recursive halving in rank order, for commutative
// operators: the recursive-doubling all-broadcast (allgather_doubling.cpp)
// run backwards (Träff 2024, Observation 1.3). Where the allgather sends the
// groups of an aligned range of 2^k virtual ranks from v to v xor 2^k, v
// xor 2^k now sends v its partials of those groups, which v combines. Every
// rank sends and receives the partials of every other group exactly once
// (the allgather receives each group once; the simulator checks the
// reversal), so at p = 2^f the rounds and the volume are those of the
// circulant reduce-scatter at n = 1, with partners close in rank in the
// early rounds; listed first in the registry, it wins that tie.
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/reversed.hpp"

namespace optcoll::plan {

std::unique_ptr<RankPlan> make_reduce_scatter_halving(const PlanContext& ctx, rank_t rank) {
  return std::make_unique<ReversedPlan>(make_allgather_doubling(ctx, rank), Action::combine_before);
}

}  // namespace optcoll::plan
