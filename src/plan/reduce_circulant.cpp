// Reduction of n blocks in n-1+q rounds for commutative operators
// (Träff 2024, Observation 1.3): the broadcast run backwards. Round i of the
// reduction is broadcast round R-1-i with every edge reversed: where the
// broadcast delivers block j from f to r, r now sends its partial block j to
// f, which combines it into its own.
//
// Why nothing is counted twice: with n-1 = (K-1)q - x (Theorem 1), a non-root
// rank's raw receive indices over the K phases are 0..n-2 once each plus its
// final-phase baseblock b+n-1 (all other entries are negative). Capping maps
// only that last one to n-1, so each rank receives every block exactly once
// in the broadcast, and in the reversal sends every partial block exactly
// once, after all partials of its broadcast subtree have arrived. The
// simulator checks this for every p <= 512.
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/schedule/broadcast_rounds.hpp"

namespace optcoll::plan {
namespace {

class ReduceCirculant final : public RankPlan {
 public:
  ReduceCirculant(const PlanContext& ctx, rank_t rank)
      : layout_(ctx.spec.count, checked_blocks(ctx.spec)),
        bcast_(*ctx.graph, ctx.spec.root, rank, ctx.spec.count == 0 ? 0 : layout_.blocks()) {}

  std::int64_t rounds() const noexcept override { return bcast_.rounds(); }
  const BlockLayout& layout() const noexcept override { return layout_; }

  Step step(std::int64_t i) const noexcept override {
    const schedule::RoundStep b = bcast_.step(bcast_.rounds() - 1 - i);
    return {b.from, b.recv_block, b.to, b.send_block, Action::combine_before};
  }

 private:
  BlockLayout layout_;
  schedule::BroadcastRounds bcast_;
};

}  // namespace

std::unique_ptr<RankPlan> make_reduce_circulant(const PlanContext& ctx, rank_t rank) {
  return std::make_unique<ReduceCirculant>(ctx, rank);
}

}  // namespace optcoll::plan
