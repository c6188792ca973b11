// Pipelined chain (linear) broadcast, a classic baseline: virtual rank v
// receives block j from v-1 in round v-1+j and forwards it to v+1 in round
// v+j. p+n-2 rounds of one block each: optimal in bandwidth, linear in p.
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::plan {
namespace {

class BcastChain final : public RankPlan {
 public:
  BcastChain(const PlanContext& ctx, rank_t rank)
      : layout_(ctx.spec.count, checked_blocks(ctx.spec)), p_(ctx.spec.p), root_(ctx.spec.root) {
    v_ = rank >= root_ ? rank - root_ : rank - root_ + p_;
    rounds_ = (ctx.spec.count == 0 || p_ == 1) ? 0 : p_ + layout_.blocks() - 2;
  }

  std::int64_t rounds() const noexcept override { return rounds_; }
  const BlockLayout& layout() const noexcept override { return layout_; }

  void step(std::int64_t i, Step& out) const override {
    const std::int64_t n = layout_.blocks();
    const std::int64_t jr = i - (v_ - 1);  // block arriving from v-1
    if (v_ > 0 && jr >= 0 && jr < n) out.recv_block(real(v_ - 1), jr, Action::copy);
    const std::int64_t js = i - v_;  // block leaving for v+1
    if (v_ + 1 < p_ && js >= 0 && js < n) out.send_block(real(v_ + 1), js);
  }

 private:
  rank_t real(rank_t v) const noexcept { return v + root_ >= p_ ? v + root_ - p_ : v + root_; }

  BlockLayout layout_;
  rank_t p_;
  rank_t root_;
  rank_t v_ = 0;
  std::int64_t rounds_ = 0;
};

}  // namespace

std::unique_ptr<RankPlan> make_bcast_chain(const PlanContext& ctx, rank_t rank) {
  return std::make_unique<BcastChain>(ctx, rank);
}

}  // namespace optcoll::plan
