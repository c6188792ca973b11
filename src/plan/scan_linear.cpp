// Inclusive and exclusive prefix reductions (MPI_Scan, MPI_Exscan) by the
// linear algorithm: every rank sends its own input to every higher rank and
// folds what it receives in rank order. p - 1 rounds, but no message is
// forwarded, so the executor has all of a rank's rounds in flight at once
// (AlgorithmInfo::final_messages, Compiled::independent): rank p-1 takes its
// p - 1 messages back to back, about L + (p-2) o under LogP, where doubling
// pays ceil(log2 p) latencies. For small vectors on tens of ranks, where o
// is a small part of L; what SMPI and MPI libraries with a linear scan run.
//
// Round k (0 <= k < p-1): rank r sends its input x_r to r + k + 1 and
// receives x_(r-k-1) from r - k - 1 into slot r - k - 1 (scratch group
// 1 + j holds x_j). The last round then folds, after every message (all
// rounds' receives have completed when a round's local steps run, and in
// flight the executor applies the last round's steps after all of them):
//   Scan:   y = x_0 (+) (x_1 (+) ... (x_(r-1) (+) x_r)), from j = r-1 down;
//   Exscan: y = x_0 (+) ... (+) x_(r-1), starting from a copy of slot r-1.
// The fold order is fixed by the ranks, not by arrival, so any operator,
// commutative or not, and the same bits on every call. Rank 0's exclusive
// result stays its own input; MPI leaves it undefined.
//
// Memory: p - 1 slots of the vector on every rank (the layout is the same
// on every rank), which is why selection takes it only for short vectors
// (the registry's max_bytes).
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::plan {
namespace {

class ScanLinear final : public RankPlan {
 public:
  ScanLinear(const PlanContext& ctx, rank_t rank, bool exclusive)
      : layout_(std::vector<Segment>{{0, ctx.spec.count}}, 1), p_(ctx.spec.p), r_(rank), exclusive_(exclusive) {
    checked_blocks(ctx.spec);
    if (ctx.spec.count == 0 || p_ < 2) return;
    for (rank_t j = 0; j + 1 < p_; ++j) layout_.add_scratch(0);
    rounds_ = p_ - 1;
  }

  std::int64_t rounds() const noexcept override { return rounds_; }
  const BlockLayout& layout() const noexcept override { return layout_; }

  void step(std::int64_t i, Step& out) const override {
    const rank_t d = static_cast<rank_t>(i) + 1;
    if (r_ + d < p_) out.send_block(r_ + d, 0);
    if (r_ - d >= 0) out.recv_block(r_ - d, slot(r_ - d), Action::copy);
    if (i + 1 < rounds_ || r_ == 0) return;
    const BlockRun y{0, 1};
    rank_t j = r_ - 1;
    if (exclusive_) out.local.push_back({{slot(j--), 1}, y, Action::copy});
    for (; j >= 0; --j) out.local.push_back({{slot(j), 1}, y, Action::combine_before});
  }

 private:
  static std::int64_t slot(rank_t j) noexcept { return 1 + static_cast<std::int64_t>(j); }

  BlockLayout layout_;
  rank_t p_;
  rank_t r_;
  bool exclusive_;
  std::int64_t rounds_ = 0;
};

}  // namespace

std::unique_ptr<RankPlan> make_scan_linear(const PlanContext& ctx, rank_t rank) {
  return std::make_unique<ScanLinear>(ctx, rank, false);
}

std::unique_ptr<RankPlan> make_exscan_linear(const PlanContext& ctx, rank_t rank) {
  return std::make_unique<ScanLinear>(ctx, rank, true);
}

}  // namespace optcoll::plan
