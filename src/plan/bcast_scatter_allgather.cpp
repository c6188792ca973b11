// Van de Geijn's broadcast, a classic baseline for long messages: a binomial
// scatter of p blocks (block v is virtual rank v's) followed by a ring
// allgather. Scatter round s (k = q-1-s): a rank v with v mod 2^(k+1) = 0
// sends blocks [v + 2^k, min(v + 2^(k+1), p)) to v + 2^k. Ring round t:
// v sends block v - t (mod p) to v + 1 and receives block v - 1 - t from
// v - 1; the root already holds everything, so nobody sends to it.
// q + p - 1 rounds; time about q*alpha + 2*beta*m for large m.
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::plan {
namespace {

class BcastScatterAllgather final : public RankPlan {
 public:
  BcastScatterAllgather(const PlanContext& ctx, rank_t rank)
      : layout_(ctx.spec.count, ctx.spec.p), p_(ctx.spec.p), root_(ctx.spec.root), q_(ctx.graph->q()) {
    checked_blocks(ctx.spec);
    v_ = rank >= root_ ? rank - root_ : rank - root_ + p_;
    rounds_ = (ctx.spec.count == 0 || p_ == 1) ? 0 : q_ + p_ - 1;
  }

  std::int64_t rounds() const noexcept override { return rounds_; }
  const BlockLayout& layout() const noexcept override { return layout_; }

  void step(std::int64_t i, Step& out) const override {
    if (i < q_) {
      const rank_t half = rank_t{1} << (q_ - 1 - i);
      if (v_ % (2 * half) == 0 && v_ + half < p_) {
        out.send_to = real(v_ + half);
        out.send.push_back({v_ + half, std::min(half, p_ - v_ - half)});
      } else if (v_ % (2 * half) == half) {
        out.recv_from = real(v_ - half);
        out.recv.push_back({v_, std::min(half, p_ - v_)});
      }
      return;
    }
    const rank_t t = i - q_;
    if (v_ + 1 != p_) out.send_block(real(v_ + 1), wrap(v_ - t));
    if (v_ != 0) out.recv_block(real(v_ - 1), wrap(v_ - 1 - t), Action::copy);
  }

 private:
  rank_t wrap(rank_t v) const noexcept { return v < 0 ? v + p_ : v; }
  rank_t real(rank_t v) const noexcept { return v + root_ >= p_ ? v + root_ - p_ : v + root_; }

  BlockLayout layout_;
  rank_t p_;
  rank_t root_;
  int q_;
  rank_t v_ = 0;
  std::int64_t rounds_ = 0;
};

}  // namespace

std::unique_ptr<RankPlan> make_bcast_scatter_allgather(const PlanContext& ctx, rank_t rank) {
  return std::make_unique<BcastScatterAllgather>(ctx, rank);
}

}  // namespace optcoll::plan
