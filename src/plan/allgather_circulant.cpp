// All-broadcast (allgather, allgatherv) in n-1+q rounds: p circulant
// broadcasts at once, one per root (Träff 2024, Appendix A, Algorithm 7, and
// Observation 1.2). The circulant graph is the same for every root, so in
// round i every broadcast uses the same edge r -> t = r + skip[k]: the blocks
// of all roots travel in ONE packed message per round.
//
// Rank r is virtual rank v = (r - j) mod p of the broadcast rooted at j, and
// takes that virtual rank's receive schedule from the all-roots schedule; its
// send entry is the to-neighbour's receive entry (Condition 2). Block b of
// root j is block id j*n + b of the caller's layout (group j = rank j's
// contribution, split into the same n blocks at every rank; groups may
// differ in size, Appendix A). As in Algorithm 1, the x virtual rounds are
// folded into the block offsets, negative blocks are skipped, blocks above
// n-1 are capped, and nothing is sent to a broadcast's own root.
//
// Both ends agree on every block of a message: the receiver's entry for root
// j is the sender's by Conditions 1-2, and both skip root t (the receiver is
// that broadcast's root) and root r (the sender's own group is never
// received). Only groups with data are visited, so ranks that contribute
// nothing cost nothing; per round the work is O(groups with data).
#include "optcoll/error.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::plan {
namespace {

class AllgatherCirculant final : public RankPlan {
 public:
  AllgatherCirculant(const PlanContext& ctx, rank_t rank)
      : lay_(*ctx.layout),
        all_(*ctx.all_roots),
        p_(ctx.spec.p),
        r_(rank),
        q_(ctx.graph->q()),
        n_(lay_.blocks_per_group()) {
    if (p_ > 1 && !lay_.nonempty_groups().empty()) {
      rounds_ = n_ - 1 + q_;
      x_ = static_cast<int>((q_ - (n_ - 1) % q_) % q_);
    }
  }

  std::int64_t rounds() const noexcept override { return rounds_; }
  const BlockLayout& layout() const noexcept override { return lay_; }

  void step(std::int64_t i, Step& out) const override {
    const std::int64_t j0 = i + x_;
    const std::int64_t phase = j0 / q_;
    const int k = static_cast<int>(j0 - phase * q_);
    const auto ku = static_cast<std::size_t>(k);
    const schedule::Circulant& g = all_.graph();
    const rank_t t = g.to(r_, k);
    const std::int64_t shift = q_ * phase - x_;
    auto block = [&](int entry) { return entry + shift < n_ ? entry + shift : n_ - 1; };
    for (const std::int64_t j : lay_.nonempty_groups()) {
      const rank_t v = r_ >= j ? r_ - j : r_ - j + p_;  // virtual rank in j's broadcast
      if (t != j) {
        const int e = all_.recv(g.to(v, k))[ku];
        if (e + shift >= 0) out.send.push_back({j * n_ + block(e), 1});
      }
      if (v != 0) {
        const int e = all_.recv(v)[ku];
        if (e + shift >= 0) out.recv.push_back({j * n_ + block(e), 1});
      }
    }
    if (!out.send.empty()) out.send_to = t;
    if (!out.recv.empty()) {
      out.recv_from = g.from(r_, k);
      out.on_recv = Action::copy;
    }
  }

 private:
  const BlockLayout& lay_;
  const schedule::AllRootsSchedule& all_;
  rank_t p_;
  rank_t r_;
  int q_;
  std::int64_t n_;
  std::int64_t rounds_ = 0;
  int x_ = 0;
};

}  // namespace

std::unique_ptr<RankPlan> make_allgather_circulant(const PlanContext& ctx, rank_t rank) {
  if (ctx.layout == nullptr || ctx.all_roots == nullptr || ctx.layout->data_groups() != ctx.spec.p)
    throw Error(Errc::internal, "allgather needs a layout with one group per rank and the all-roots schedule");
  return std::make_unique<AllgatherCirculant>(ctx, rank);
}

}  // namespace optcoll::plan
