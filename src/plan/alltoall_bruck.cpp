// Bruck's hypercubic all-to-all for small blocks (communication-primitives
// notes §8.3, "Hypercubic Permutations"): ceil(log2 p) rounds for any p, each
// rank sending about half of its p blocks per round, O(tau log p +
// mu m p log p): fewer rounds than the shift schedule at the price of moving
// every block up to log p times.
//
// Positions. Rank r's block for destination (r + k) mod p is its position
// k, 0 <= k < p (the notes' local rotation). In round t (dist = 2^t), every
// rank sends the blocks of all positions k with bit t set to r + dist and
// receives the same positions from r - dist. Invariant: after rounds
// 0..t-1, position k of rank r holds m_{s, s+k} with s = r - (k mod dist),
// the block that started at s and has been forwarded along k's low bits
// (the receiver keeps the position: (r + dist) - ((k mod dist) + dist) = s).
// After every bit of k, position k holds m_{r-k, r}: the block from r - k.
//
// The rotations cost no copies here. A position is read where it was last
// written: the send buffer (group p + (r + k) mod p) until its first
// receive, then one of two working buffers alternating with each receive
// (so that a round never receives into blocks it is sending), and its last
// receive (the round of k's highest bit) lands directly in the receive
// group (r - k) mod p: the inverse rotation. Position 0 (the own block) is a
// local copy. Worked example, p = 5, rank 0, positions 1..4: round 0 sends
// positions 1, 3 (send groups 1, 3) to 1, receives 1 into recv group 4, 3
// into working buffer 1; round 1 sends 2, 3 to 2 (send group 2, working 1),
// receives 2 into recv group 3, 3 into recv group 2; round 2 sends 4
// (send group 4) to 4, receives it into recv group 1.
//
// Needs equal counts (the working buffers mirror the send groups):
// MPI_Alltoall, or an alltoallv whose counts are all equal.
#include <bit>

#include "optcoll/error.hpp"
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/alltoall.hpp"

namespace optcoll::plan {
namespace {

class AlltoallBruck final : public RankPlan {
 public:
  AlltoallBruck(const PlanContext& ctx, rank_t rank) : p_(ctx.spec.p), r_(rank), q_(ctx.graph->q()) {
    const BlockLayout* lay = ctx.rank_layouts != nullptr ? ctx.rank_layouts + rank : ctx.layout;
    if (!is_exchange(ctx.spec.op) || exchange_pieces(ctx.spec.op, p_) != 1 || lay == nullptr ||
        lay->blocks_per_group() != 1 || lay->data_groups() < 2 * p_)
      throw Error(Errc::internal, "alltoall bruck: needs an alltoall layout (alltoall.hpp)");
    for (rank_t g = 1; g < 2 * p_; ++g)
      if (lay->group(g).count != lay->group(0).count)
        throw Error(Errc::invalid_count, "alltoall bruck: needs equal counts");
    lay_ = *lay;
    work_ = lay_.groups();
    for (int copy = 0; copy < 2; ++copy)
      for (rank_t k = 0; k < p_; ++k) lay_.add_scratch(p_);
  }
  std::int64_t rounds() const noexcept override { return p_ > 1 ? q_ : 1; }
  const BlockLayout& layout() const noexcept override { return lay_; }

  void step(std::int64_t i, Step& out) const override {
    if (i == 0 && lay_.group(r_).count > 0) out.local.push_back({{p_ + r_, 1}, {r_, 1}, Action::copy});
    if (p_ == 1 || lay_.group(0).count == 0) return;
    const rank_t dist = rank_t{1} << i;
    out.send_to = (r_ + dist) % p_;
    out.recv_from = (r_ - dist % p_ + p_) % p_;
    out.on_recv = Action::copy;
    for (rank_t k = dist; k < p_; ++k) {
      if ((k & dist) == 0) {
        k += dist - 1;  // skip the positions without bit i
        continue;
      }
      const rank_t low = k & (dist - 1);
      const int seen = std::popcount(static_cast<std::uint64_t>(low));
      const std::int64_t from = seen == 0 ? p_ + (r_ + k) % p_ : work(seen % 2, k);
      const std::int64_t to = (k >> (i + 1)) == 0 ? (r_ - k % p_ + p_) % p_ : work((seen + 1) % 2, k);
      out.send.push_back({from, 1});
      out.recv.push_back({to, 1});
    }
  }

 private:
  std::int64_t work(int which, rank_t k) const noexcept { return work_ + which * p_ + k; }

  rank_t p_, r_;
  int q_;
  BlockLayout lay_;
  std::int64_t work_ = 0;  // first working group
};

}  // namespace

std::unique_ptr<RankPlan> make_alltoall_bruck(const PlanContext& ctx, rank_t rank) {
  checked_blocks(ctx.spec);
  if (ctx.graph == nullptr || ctx.graph->p() != ctx.spec.p) throw Error(Errc::internal, "alltoall bruck: no graph");
  return std::make_unique<AlltoallBruck>(ctx, rank);
}

}  // namespace optcoll::plan
