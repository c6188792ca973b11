// Allreduce of short vectors in ceil(log2 p) rounds for any p, commutative
// operators: the circulant dissemination of Lang 2025, Algorithm 2.
//
// Each rank keeps its own contribution V (the data group, which becomes the
// result), an exclusive partial W and, when needed, the inclusive I = W (+) V
// (the two scratch copies of allreduce_layout). With the circulant skips
// s_k = skip[k] and eps = skip[k+1] mod 2, round k sends to P - s_k + eps and
// receives from P + s_k - eps:
//   eps = 1: send W;   eps = 0: send I (V itself in round 0);
// and combines what arrives into W.
// Invariant (asserted by the simulator's exact contributor sets): after
// round k, W at rank P holds exactly ranks P+1 .. P+skip[k+1]-1 (mod p).
// Round k adds skip[k+1] - skip[k] ranks: the sender is skip[k] - eps ahead
// and contributes W or I covering exactly the missing ones, so no rank is
// ever counted twice, for any p (the skips halve p with rounding up). At the
// end W holds all other ranks, and V (+)= W gives the result.
#include "optcoll/error.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::plan {
namespace {

class AllreduceDissemination final : public RankPlan {
 public:
  AllreduceDissemination(const PlanContext& ctx, rank_t rank)
      : lay_(*ctx.layout), g_(*ctx.graph), p_(ctx.spec.p), r_(rank) {
    const std::int64_t n = lay_.blocks_per_group();
    if (p_ > 1 && lay_.data_extent() > 0) rounds_ = g_.q();
    const std::int64_t all = p_ * n;  // blocks of the whole vector
    v_ = {0, all};
    w_ = {all, all};
    i_ = {2 * all, all};
  }

  std::int64_t rounds() const noexcept override { return rounds_; }
  const BlockLayout& layout() const noexcept override { return lay_; }

  void step(std::int64_t i, Step& out) const override {
    const int k = static_cast<int>(i);
    const rank_t s = g_.skip(k);
    const rank_t eps = g_.skip(k + 1) % 2;
    out.send_to = wrap(r_ - s + eps);
    out.send.push_back(eps == 1 ? w_ : (k == 0 ? v_ : i_));
    out.recv_from = wrap(r_ + s - eps);
    out.recv.push_back(w_);
    out.on_recv = k == 0 ? Action::copy : Action::combine_before;
    if (k + 1 < rounds_ && g_.skip(k + 2) % 2 == 0) {  // next round sends I = W (+) V
      out.local.push_back({v_, i_, Action::copy});
      out.local.push_back({w_, i_, Action::combine_before});
    }
    if (k + 1 == rounds_) out.local.push_back({w_, v_, Action::combine_before});
  }

 private:
  rank_t wrap(rank_t v) const noexcept { return v < 0 ? v + p_ : (v >= p_ ? v - p_ : v); }

  const BlockLayout& lay_;
  const schedule::Circulant& g_;
  rank_t p_;
  rank_t r_;
  std::int64_t rounds_ = 0;
  BlockRun v_, w_, i_;
};

}  // namespace

std::unique_ptr<RankPlan> make_allreduce_dissemination(const PlanContext& ctx, rank_t rank) {
  if (ctx.layout == nullptr || ctx.layout->groups() != 4 * ctx.spec.p)
    throw Error(Errc::internal, "allreduce needs allreduce_layout()");
  return std::make_unique<AllreduceDissemination>(ctx, rank);
}

}  // namespace optcoll::plan
