// Inclusive and exclusive prefix reductions for long vectors: a pipelined
// chain along the rank line, 0 -> 1 -> ... -> p-1, the vector in n blocks.
//
// The notes (§4.2) price a scan like a reduction, Theta(tau log p + mu m
// log p): recursive doubling (scan_doubling.cpp) moves the whole vector in
// each of its q = ceil(log2 p) rounds. The chain moves every block over
// every link once, so each rank sends and receives m bytes in all:
//     T(n) = (n + p - 2) (alpha + beta m / n),
// the pipelined broadcast's n-1+q with q replaced by the chain's depth p-1.
// It beats doubling's q (alpha + beta m) once m is large against p alpha /
// beta (for p = 8 with the default alpha = 2 us, beta = 0.1 ns/B: above
// about 200 KB); the selection picks by this model (select/select.hpp,
// prices::scan_pipeline). The block count minimising T is model::choose_blocks with
// depth p-1: n* = sqrt((p-2) beta m / alpha).
//
// Round t, rank r, block j (0 <= j < n):
//   scan:   r > 0 receives block j = t-r+1 of the prefix [0, r-1] from r-1
//           and combines it in front of its own block (rank order kept);
//           r < p-1 sends block j = t-r, finished the round before, to r+1.
//   exscan: the data group ends as the exclusive prefix E_r = [0, r-1], a
//           scratch group I holds the inclusive prefix that travels on.
//           Rank 0 sends its own input (I_0 = its contribution); a middle
//           rank receives E_r's block into a second scratch group A, sets
//           I = A (+) own, then E = A; rank p-1 receives E straight into its
//           data (it forwards nothing). Rank 0's result stays its input
//           (MPI leaves it undefined; the MPI layer never writes it back).
// Invariant (the simulator's interval tracker asserts it): a block sent by
// rank r covers exactly [0, r]; a finished data block of rank r covers
// [0, r] (scan) or [0, r-1] (exscan). Rounds: n + p - 2 for p >= 2.
//
// Worked example, p = 4, n = 2 (scan): round 0: 0->1 block 0; round 1:
// 0->1 block 1, 1->2 block 0; round 2: 1->2 block 1, 2->3 block 0;
// round 3: 2->3 block 1. Four rounds = n + p - 2.
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::plan {
namespace {

class ScanPipeline final : public RankPlan {
 public:
  ScanPipeline(const PlanContext& ctx, rank_t rank, bool exclusive)
      : n_(checked_blocks(ctx.spec)), layout_(ctx.spec.count, n_), p_(ctx.spec.p), r_(rank), exclusive_(exclusive) {
    if (exclusive_) {
      inclusive_ = layout_.add_scratch(0) * n_;  // I
      arrived_ = layout_.add_scratch(0) * n_;    // A
    }
    if (ctx.spec.count > 0 && p_ > 1) rounds_ = n_ + p_ - 2;
  }

  std::int64_t rounds() const noexcept override { return rounds_; }
  const BlockLayout& layout() const noexcept override { return layout_; }

  void step(std::int64_t t, Step& out) const override {
    const std::int64_t send_j = t - r_;
    const std::int64_t recv_j = t - r_ + 1;
    if (r_ + 1 < p_ && send_j >= 0 && send_j < n_) {
      // Rank 0 forwards its own input; exscan's middle ranks their I.
      const bool from_inclusive = exclusive_ && r_ > 0;
      out.send_block(r_ + 1, (from_inclusive ? inclusive_ : 0) + send_j);
    }
    if (r_ == 0 || recv_j < 0 || recv_j >= n_) return;
    if (!exclusive_) {
      out.recv_block(r_ - 1, recv_j, Action::combine_before);
      return;
    }
    if (r_ + 1 == p_) {  // the last rank forwards nothing: E straight in
      out.recv_block(r_ - 1, recv_j, Action::copy);
      return;
    }
    const BlockRun data{recv_j, 1}, inc{inclusive_ + recv_j, 1}, arr{arrived_ + recv_j, 1};
    out.recv_block(r_ - 1, arr.first, Action::copy);
    out.local.push_back({data, inc, Action::copy});           // I = own
    out.local.push_back({arr, inc, Action::combine_before});  // I = E (+) own
    out.local.push_back({arr, data, Action::copy});           // E
  }

 private:
  std::int64_t n_;
  BlockLayout layout_;
  rank_t p_;
  rank_t r_;
  bool exclusive_;
  std::int64_t inclusive_ = 0, arrived_ = 0;  // first block id of I and A
  std::int64_t rounds_ = 0;
};

}  // namespace

std::unique_ptr<RankPlan> make_scan_pipeline(const PlanContext& ctx, rank_t rank) {
  return std::make_unique<ScanPipeline>(ctx, rank, false);
}

std::unique_ptr<RankPlan> make_exscan_pipeline(const PlanContext& ctx, rank_t rank) {
  return std::make_unique<ScanPipeline>(ctx, rank, true);
}

}  // namespace optcoll::plan
