// Reduction for non-commutative operators: a binomial tree over the ranks in
// their natural order, so that every combination joins two adjacent rank
// intervals, lower ranks on the left, giving MPI's rank-ordered result.
//
// Round k (mask = 2^k): ranks with r mod 2^(k+1) == 2^k send their interval
// [r, r + 2^k) to r - 2^k, which appends it on the right. After q rounds
// rank 0 holds [0, p); if the root is not 0, one more round moves it there.
// One block (the whole buffer): q or q+1 rounds.
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::plan {
namespace {

class ReduceBinomialOrdered final : public RankPlan {
 public:
  ReduceBinomialOrdered(const PlanContext& ctx, rank_t rank)
      : buf_(ctx), rank_(rank), p_(ctx.spec.p), root_(ctx.spec.root), q_(ctx.graph->q()) {
    rounds_ = (buf_.empty() || p_ == 1) ? 0 : q_ + (root_ != 0 ? 1 : 0);
  }

  std::int64_t rounds() const noexcept override { return rounds_; }
  const BlockLayout& layout() const noexcept override { return buf_.layout(); }

  void step(std::int64_t i, Step& out) const override {
    if (i == q_) {  // final move from rank 0 to the root
      if (rank_ == 0) buf_.send(out, root_);
      if (rank_ == root_) buf_.recv(out, 0, Action::copy);
      return;
    }
    const rank_t mask = rank_t{1} << i;
    if (rank_ % mask != 0) return;  // already sent its interval
    if ((rank_ & mask) != 0) {
      buf_.send(out, rank_ - mask);
    } else if (rank_ + mask < p_) {
      buf_.recv(out, rank_ + mask, Action::combine_after);
    }
  }

 private:
  WholeBuffer buf_;
  rank_t rank_;
  rank_t p_;
  rank_t root_;
  int q_;
  std::int64_t rounds_ = 0;
};

}  // namespace

std::unique_ptr<RankPlan> make_reduce_binomial_ordered(const PlanContext& ctx, rank_t rank) {
  return std::make_unique<ReduceBinomialOrdered>(ctx, rank);
}

}  // namespace optcoll::plan
