// Allreduce of short vectors for any operator whose every rank ends with the
// same bits: recursive doubling over a power-of-two number of virtual ranks,
// every combination taken in one canonical order.
//
// With f = floor(log2 p) and l = p - 2^f, the first 2l ranks pair up: rank
// 2i+1 sends its vector to 2i (one fold round, only when l > 0), after which
// virtual rank v stands for ranks {2v, 2v+1} when v < l and for rank v + l
// otherwise, so virtual ranks cover consecutive rank intervals in rank
// order. Round k of the f doubling rounds exchanges the whole vector
// between v and v xor 2^k; both ends compute lower (+) higher, the lower
// virtual rank's operand on the left. A last round (l > 0) copies the
// result from 2i to 2i+1.
// The higher end receives into a scratch copy W and then combines
// V = W (+) V locally: an executor may swap a commutative operator's
// operands when it combines an arriving block into untouched input
// (mpi/executor/executor.hpp), which would make the two ends differ in the operand
// order; a local combination is applied exactly as written.
// Invariant (asserted by the simulator's expression check for every p):
// after doubling round k all virtual ranks of an aligned group of 2^(k+1)
// hold the same expression, the combination of their rank interval in rank
// order with the same association; so every rank ends with the same bits,
// for any deterministic operator, commutative or not.
// Cost: f + 2 [l > 0] rounds of the whole vector, that is q rounds when p
// is a power of two and q + 1 otherwise (the dissemination allreduce needs
// q for any p but combines in an order that depends on the rank).
#include "optcoll/error.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::plan {
namespace {

class AllreduceDoubling final : public RankPlan {
 public:
  AllreduceDoubling(const PlanContext& ctx, rank_t rank) : buf_(ctx), p_(ctx.spec.p), r_(rank) {
    const std::int64_t all = buf_.run().count;
    w_ = {all, all};  // the first scratch copy of allreduce_layout
    while ((rank_t{2} << f_) <= p_) ++f_;
    l_ = p_ - (rank_t{1} << f_);
    if (p_ > 1 && !buf_.empty()) rounds_ = f_ + (l_ > 0 ? 2 : 0);
  }

  std::int64_t rounds() const noexcept override { return rounds_; }
  const BlockLayout& layout() const noexcept override { return buf_.layout(); }

  void step(std::int64_t i, Step& out) const override {
    const bool paired = r_ < 2 * l_;
    const bool odd = paired && r_ % 2 == 1;
    if (l_ > 0 && (i == 0 || i == rounds_ - 1)) {  // fold and unfold
      if (!paired) return;
      const bool fold = i == 0;
      if (odd == fold)
        buf_.send(out, fold ? r_ - 1 : r_ + 1);
      else
        buf_.recv(out, fold ? r_ + 1 : r_ - 1, fold ? Action::combine_after : Action::copy);
      return;
    }
    if (odd) return;  // represented by r - 1 while doubling
    const std::int64_t k = l_ > 0 ? i - 1 : i;
    const rank_t v = paired ? r_ / 2 : r_ - l_;
    const rank_t partner = v ^ (rank_t{1} << k);
    const rank_t peer = partner < l_ ? 2 * partner : partner + l_;
    buf_.send(out, peer);
    if (v < partner) {
      buf_.recv(out, peer, Action::combine_after);
    } else {
      out.recv_from = peer;
      out.recv.push_back(w_);
      out.local.push_back({w_, buf_.run(), Action::combine_before});
    }
  }

 private:
  WholeBuffer buf_;
  rank_t p_;
  rank_t r_;
  int f_ = 0;
  rank_t l_ = 0;
  std::int64_t rounds_ = 0;
  BlockRun w_;
};

}  // namespace

std::unique_ptr<RankPlan> make_allreduce_doubling(const PlanContext& ctx, rank_t rank) {
  if (ctx.layout == nullptr || ctx.layout->groups() != 4 * ctx.spec.p)
    throw Error(Errc::internal, "allreduce needs allreduce_layout()");
  return std::make_unique<AllreduceDoubling>(ctx, rank);
}

}  // namespace optcoll::plan
