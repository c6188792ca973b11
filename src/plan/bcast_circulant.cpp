// Broadcast of n blocks in the optimal n-1+q rounds on the circulant graph:
// Algorithm 1 of Träff 2024, through the per-round view BroadcastRounds.
// Every rank sends and receives at most one block per round; blocks are
// copied. Set-up O(log p), then O(1) per round.
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/schedule/broadcast_rounds.hpp"

namespace optcoll::plan {
namespace {

class BcastCirculant final : public RankPlan {
 public:
  BcastCirculant(const PlanContext& ctx, rank_t rank)
      : layout_(ctx.spec.count, checked_blocks(ctx.spec)),
        rounds_(*ctx.graph, ctx.spec.root, rank, ctx.spec.count == 0 ? 0 : layout_.blocks()) {}

  std::int64_t rounds() const noexcept override { return rounds_.rounds(); }
  const BlockLayout& layout() const noexcept override { return layout_; }

  void step(std::int64_t i, Step& out) const override {
    const schedule::RoundStep s = rounds_.step(i);
    if (s.from >= 0) out.recv_block(s.from, s.recv_block, Action::copy);
    if (s.to >= 0) out.send_block(s.to, s.send_block);
  }

 private:
  BlockLayout layout_;
  schedule::BroadcastRounds rounds_;
};

}  // namespace

std::unique_ptr<RankPlan> make_bcast_circulant(const PlanContext& ctx, rank_t rank) {
  return std::make_unique<BcastCirculant>(ctx, rank);
}

}  // namespace optcoll::plan
