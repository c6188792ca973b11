// Reduce-scatter (MPI_Reduce_scatter_block and the irregular
// MPI_Reduce_scatter) in n-1+q rounds for commutative operators: p
// simultaneous circulant reductions, the all-broadcast run backwards
// (Träff 2024, Observation 1.4). Where the allgather delivers block b of
// root j from f to r, r now sends its partial of block b of group j to f,
// which combines it; one packed message per round. Every rank sends and
// receives each partial block of every other group exactly once (the
// allgather receives each block of each root once; the simulator checks the
// reversal for every p <= 1024), so the volume is that of p-1 groups.
//
// allreduce_circulant: reduce-scatter, then allgather of the reduced groups,
// 2(n-1+q) rounds; for long vectors (the small-vector algorithm is
// allreduce_dissemination).
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/reversed.hpp"
#include "optcoll/plan/sequence.hpp"

namespace optcoll::plan {

std::unique_ptr<RankPlan> make_reduce_scatter_circulant(const PlanContext& ctx, rank_t rank) {
  return std::make_unique<ReversedPlan>(make_allgather_circulant(ctx, rank), Action::combine_before);
}

std::unique_ptr<RankPlan> make_allreduce_circulant(const PlanContext& ctx, rank_t rank) {
  return std::make_unique<SequencePlan>(make_reduce_scatter_circulant(ctx, rank), make_allgather_circulant(ctx, rank));
}

}  // namespace optcoll::plan
