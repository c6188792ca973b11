// Binomial-tree broadcast (the classic baseline): the whole buffer as one
// block, ceil(log2 p) rounds. In round k every virtual rank v < 2^k that
// holds the data sends it to v + 2^k. Time q * (alpha + beta * m).
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::plan {
namespace {

class BcastBinomial final : public RankPlan {
 public:
  BcastBinomial(const PlanContext& ctx, rank_t rank) : buf_(ctx), p_(ctx.spec.p), root_(ctx.spec.root) {
    v_ = rank >= root_ ? rank - root_ : rank - root_ + p_;
    rounds_ = buf_.empty() ? 0 : ctx.graph->q();
  }

  std::int64_t rounds() const noexcept override { return rounds_; }
  const BlockLayout& layout() const noexcept override { return buf_.layout(); }

  void step(std::int64_t i, Step& out) const override {
    const rank_t half = rank_t{1} << i;
    if (v_ < half && v_ + half < p_) buf_.send(out, real(v_ + half));
    if (v_ >= half && v_ < 2 * half) buf_.recv(out, real(v_ - half), Action::copy);
  }

 private:
  rank_t real(rank_t v) const noexcept { return v + root_ >= p_ ? v + root_ - p_ : v + root_; }

  WholeBuffer buf_;
  rank_t p_;
  rank_t root_;
  rank_t v_ = 0;
  std::int64_t rounds_ = 0;
};

}  // namespace

std::unique_ptr<RankPlan> make_bcast_binomial(const PlanContext& ctx, rank_t rank) {
  return std::make_unique<BcastBinomial>(ctx, rank);
}

}  // namespace optcoll::plan
