// Inclusive and exclusive prefix reductions (MPI_Scan, MPI_Exscan) in
// ceil(log2 p) rounds for any p and any associative operator, commutative
// or not: recursive doubling on the rank line (Hillis-Steele).
//
// Round k: rank r sends its inclusive partial to r + 2^k and receives the
// partial of r - 2^k. Invariant (the simulator's interval tracker asserts
// it): after round k the inclusive partial I_r covers ranks
// [max(0, r - 2^(k+1) + 1), r], so what arrives covers the ranks just below
// I_r's and is combined in front of it, keeping rank order.
//
// Scan keeps I in the data group (the result). Exscan keeps the exclusive
// result E in the data group and I in a scratch copy: what arrives is
// combined in front of both (E starts as the first arrival), so E covers
// [max(0, r - 2^(k+1) + 1), r-1]. Rank 0's exclusive result stays its own
// input; MPI leaves it undefined.
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::plan {
namespace {

class ScanDoubling final : public RankPlan {
 public:
  ScanDoubling(const PlanContext& ctx, rank_t rank, bool exclusive)
      : layout_(ctx.spec.count, 1), p_(ctx.spec.p), r_(rank), exclusive_(exclusive) {
    checked_blocks(ctx.spec);
    if (exclusive_) {
      inclusive_ = {layout_.add_scratch(0), 1};  // I
      arrived_ = {layout_.add_scratch(0), 1};    // what arrives
    }
    if (ctx.spec.count > 0) rounds_ = ctx.graph->q();
  }

  std::int64_t rounds() const noexcept override { return rounds_; }
  const BlockLayout& layout() const noexcept override { return layout_; }

  void step(std::int64_t i, Step& out) const override {
    const rank_t s = rank_t{1} << i;
    const BlockRun data{0, 1};
    const bool receives = r_ - s >= 0;
    // Exclusive: I starts as the own input, copied before it is first needed.
    if (exclusive_ && i == 0) {
      if (r_ + s < p_) out.send_block(r_ + s, 0);  // I = own input in round 0
      if (receives) out.recv_block(r_ - s, arrived_.first, Action::copy);
      out.local.push_back({data, inclusive_, Action::copy});
      if (receives) {
        out.local.push_back({arrived_, inclusive_, Action::combine_before});
        out.local.push_back({arrived_, data, Action::copy});
      }
      return;
    }
    const BlockRun mine = exclusive_ ? inclusive_ : data;
    if (r_ + s < p_) {
      out.send_to = r_ + s;
      out.send.push_back(mine);
    }
    if (!receives) return;
    if (!exclusive_) {
      out.recv_block(r_ - s, 0, Action::combine_before);
      return;
    }
    out.recv_block(r_ - s, arrived_.first, Action::copy);
    out.local.push_back({arrived_, inclusive_, Action::combine_before});
    out.local.push_back({arrived_, data, Action::combine_before});
  }

 private:
  BlockLayout layout_;
  rank_t p_;
  rank_t r_;
  bool exclusive_;
  BlockRun inclusive_, arrived_;
  std::int64_t rounds_ = 0;
};

}  // namespace

std::unique_ptr<RankPlan> make_scan_doubling(const PlanContext& ctx, rank_t rank) {
  return std::make_unique<ScanDoubling>(ctx, rank, false);
}

std::unique_ptr<RankPlan> make_exscan_doubling(const PlanContext& ctx, rank_t rank) {
  return std::make_unique<ScanDoubling>(ctx, rank, true);
}

}  // namespace optcoll::plan
