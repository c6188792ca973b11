// The shift schedule for personalized all-to-all (communication-primitives
// notes §8.2, "Arbitrary Permutation Implementation 2"): in step j,
// 1 <= j <= p-1, rank i sends m_{i,(i+j) mod p} to (i+j) mod p and receives
// m_{(i-j) mod p, i} from (i-j) mod p. Every rank sends and receives exactly
// one message per step, so the p-1 steps are a one-ported schedule of
// O(tau p + mu m p): optimal under the linear model when each rank's p-1
// messages must cross its single port anyway (large blocks).
//
// Worked example, p = 4, rank 1: step 1 sends to 2, receives from 0; step 2
// sends to 3, receives from 3; step 3 sends to 0, receives from 2. Own block
// m_{1,1}: a local copy in the first round.
//
// Invariants (the simulator checks them): in step j the send of rank i and
// the receive of rank (i+j) mod p name the same message, so the pieces agree
// piece by piece (both sides' layouts hold its size); no send buffer piece
// is ever written; after p-1 steps receive piece s*c + x holds piece x of
// m_{s,r}. Empty messages are skipped at both ends (both know the size), so
// sparse exchanges cost only their non-empty messages.
//
// The same plan serves alltoall, alltoallv and many_to_many's "direct"
// (c = p pieces per message, all sent together: the baseline two-phase
// routing is compared against).
#include "optcoll/error.hpp"
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/alltoall.hpp"

namespace optcoll::plan {
namespace {

class AlltoallShift final : public RankPlan {
 public:
  AlltoallShift(const PlanContext& ctx, rank_t rank)
      : p_(ctx.spec.p), r_(rank), c_(exchange_pieces(ctx.spec.op, ctx.spec.p)) {
    const BlockLayout* lay = ctx.rank_layouts != nullptr ? ctx.rank_layouts + rank : ctx.layout;
    if (!is_exchange(ctx.spec.op) || lay == nullptr || lay->blocks_per_group() != 1 || lay->data_groups() < 2 * p_ * c_)
      throw Error(Errc::internal, "alltoall shift: needs an exchange layout (alltoall.hpp)");
    lay_ = lay;
  }
  std::int64_t rounds() const noexcept override { return p_ > 1 ? p_ - 1 : 1; }
  const BlockLayout& layout() const noexcept override { return *lay_; }

  void step(std::int64_t i, Step& out) const override {
    if (i == 0) {
      for (std::int64_t x = 0; x < c_; ++x) {  // own message: a local copy
        const std::int64_t from = send_piece(r_, x), to = recv_piece(r_, x);
        if (lay_->group(to).count > 0) out.local.push_back({{from, 1}, {to, 1}, Action::copy});
      }
    }
    if (p_ == 1) return;
    const rank_t j = i + 1;
    const rank_t to = (r_ + j) % p_;
    const rank_t from = (r_ - j + p_) % p_;
    for (std::int64_t x = 0; x < c_; ++x)
      if (const std::int64_t b = send_piece(to, x); lay_->group(b).count > 0) {
        out.send_to = to;
        out.send.push_back({b, 1});
      }
    for (std::int64_t x = 0; x < c_; ++x)
      if (const std::int64_t b = recv_piece(from, x); lay_->group(b).count > 0) {
        out.recv_from = from;
        out.recv.push_back({b, 1});
      }
  }

 private:
  std::int64_t recv_piece(rank_t s, std::int64_t x) const noexcept { return s * c_ + x; }
  std::int64_t send_piece(rank_t d, std::int64_t x) const noexcept { return p_ * c_ + d * c_ + x; }

  rank_t p_, r_;
  std::int64_t c_;
  const BlockLayout* lay_ = nullptr;
};

}  // namespace

std::unique_ptr<RankPlan> make_alltoall_shift(const PlanContext& ctx, rank_t rank) {
  checked_blocks(ctx.spec);
  return std::make_unique<AlltoallShift>(ctx, rank);
}

}  // namespace optcoll::plan
