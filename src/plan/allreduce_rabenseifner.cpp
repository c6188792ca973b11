// Allreduce by Rabenseifner's algorithm for commutative operators: a
// reduce-scatter by recursive vector halving with distance doubling, then
// an allgather by recursive vector doubling with distance halving, so that
// the rounds that move the most data pair the closest ranks.
//
// Why this order of distances: on a hierarchical network (ranks numbered
// node by node, leaf switch by leaf switch) a round ends when its slowest
// message arrives. The rank-order halving (reduce_scatter_halving.cpp)
// moves half the vector between r and r xor p/2, across the top of the
// network; here half the vector moves between r and r xor 1. Under
// SimGrid/SMPI on a 4:1 oversubscribed fat tree, p = 256, 1 MiB, the
// rank-order pair took 657 us against 230 us for SMPI's rab_rdb, which
// orders its distances as this plan does (docs/smpi.md).
//
// With f = floor(log2 p), P = 2^f and l = p - P: virtual rank v runs on
// rank 2v when v < l, else on rank v + l; the odd ranks 2i+1 (i < l) fold
// into 2i. The vector's p groups (BlockLayout::split) form P positions,
// position j holding the groups [g(j), g(j+1)) with g(j) = j + min(j, l):
// two groups for the first l positions, one after.
//
// The allgather, run backwards for the reduce-scatter (ReversedPlan):
// virtual rank v starts with position rev(v), its f bits reversed. Round i
// (0 <= i < f) pairs v with v xor 2^(f-1-i): each holds the aligned range
// of 2^i positions containing its rev, the two ranges are siblings, and
// each sends its own. Then (l > 0) rank 2i sends every group to 2i+1.
// Invariant (the simulator's exact data flow, every p): after round i
// virtual rank v holds exactly its aligned range of 2^(i+1) positions;
// every rank receives every group it does not start with exactly once, so
// the plan run backwards is a reduce-scatter onto the positions and every
// group is reduced once, at one rank: every rank receives the same bits.
//
// Cost: 2 ceil(log2 p) rounds. The reduce-scatter's round k sends half of
// an aligned range of P / 2^k positions; the fold moves the whole vector.
#include <algorithm>
#include <memory>
#include <vector>

#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/reversed.hpp"
#include "optcoll/plan/sequence.hpp"

namespace optcoll::plan {
namespace {

class ButterflyAllgather final : public RankPlan {
 public:
  ButterflyAllgather(const PlanContext& ctx, rank_t rank)
      : lay_(*ctx.layout), p_(ctx.spec.p), r_(rank), n_(lay_.blocks_per_group()) {
    while ((rank_t{2} << f_) <= p_) ++f_;
    l_ = p_ - (rank_t{1} << f_);
    if (p_ > 1 && !lay_.nonempty_groups().empty()) rounds_ = f_ + (l_ > 0 ? 1 : 0);
  }

  std::int64_t rounds() const noexcept override { return rounds_; }
  const BlockLayout& layout() const noexcept override { return lay_; }

  void step(std::int64_t i, Step& out) const override {
    const bool paired = r_ < 2 * l_;
    const bool odd = paired && r_ % 2 == 1;
    if (i == f_) {  // unfold: every group from 2i to 2i+1
      if (odd)
        move(out.recv, out.recv_from, r_ - 1, 0, p_);
      else if (paired)
        move(out.send, out.send_to, r_ + 1, 0, p_);
      out.on_recv = Action::copy;
      return;
    }
    if (odd) return;  // represented by r - 1
    const rank_t v = paired ? r_ / 2 : r_ - l_;
    const rank_t partner = v ^ (rank_t{1} << (f_ - 1 - i));
    const rank_t width = rank_t{1} << i;
    const rank_t mine = reversed(v) & ~(width - 1);
    const rank_t theirs = mine ^ width;
    const rank_t peer = partner < l_ ? 2 * partner : partner + l_;
    move(out.send, out.send_to, peer, group(mine), group(mine + width));
    move(out.recv, out.recv_from, peer, group(theirs), group(theirs + width));
    out.on_recv = Action::copy;
  }

 private:
  rank_t reversed(rank_t v) const noexcept {
    rank_t out = 0;
    for (int b = 0; b < f_; ++b) out |= ((v >> b) & 1) << (f_ - 1 - b);
    return out;
  }
  // The first group of position j (j = P: p).
  rank_t group(rank_t j) const noexcept { return j + std::min(j, l_); }
  // The non-empty groups of [lo, hi) as runs of blocks (one run when the
  // layout is dense), and the peer when there is any.
  void move(std::vector<BlockRun>& runs, rank_t& who, rank_t peer, rank_t lo, rank_t hi) const {
    const std::vector<std::int64_t>& g = lay_.nonempty_groups();
    const auto a = std::lower_bound(g.begin(), g.end(), lo);
    const auto b = std::lower_bound(a, g.end(), hi);
    if (a == b) return;
    who = peer;
    if (lay_.dense()) {
      runs.push_back({*a * n_, (*(b - 1) - *a + 1) * n_});
    } else {
      for (auto j = a; j != b; ++j) runs.push_back({*j * n_, n_});
    }
  }

  const BlockLayout& lay_;
  rank_t p_;
  rank_t r_;
  std::int64_t n_;
  int f_ = 0;
  rank_t l_ = 0;
  std::int64_t rounds_ = 0;
};

}  // namespace

std::int64_t rabenseifner_elements(std::int64_t count, rank_t p) {
  if (p <= 1) return 0;
  int f = 0;
  while ((rank_t{2} << f) <= p) ++f;
  const rank_t l = p - (rank_t{1} << f);
  const std::int64_t base = count / p;
  const std::int64_t rem = count % p;
  // Each reduce-scatter round's largest message is the first aligned range
  // of its width: split puts the larger groups first, and the first l
  // positions hold two groups.
  std::int64_t sum = l > 0 ? count : 0;
  for (rank_t w = 1; w < (rank_t{1} << f); w *= 2) {
    const std::int64_t groups = w + std::min(w, l);
    sum += groups * base + std::min(groups, rem);
  }
  return sum;
}

std::unique_ptr<RankPlan> make_allreduce_rabenseifner(const PlanContext& ctx, rank_t rank) {
  return std::make_unique<SequencePlan>(
      std::make_unique<ReversedPlan>(std::make_unique<ButterflyAllgather>(ctx, rank), Action::combine_before),
      std::make_unique<ButterflyAllgather>(ctx, rank));
}

}  // namespace optcoll::plan
