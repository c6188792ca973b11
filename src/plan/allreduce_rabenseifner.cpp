// Allreduce by Rabenseifner's algorithm for commutative operators: a
// reduce-scatter by recursive vector halving with distance doubling, then
// an allgather by recursive vector doubling with distance halving, so that
// the rounds that move the most data pair the closest ranks.
//
// Why this order of distances: on a hierarchical network (ranks numbered
// node by node, leaf switch by leaf switch) a round ends when its slowest
// message arrives. The rank-order halving (reduce_scatter_halving.cpp)
// moves half the vector between r and r xor p/2, across the top of the
// network; here half the vector moves between r and r xor 1, which is
// what keeps it level with SMPI's rab_rdb on an oversubscribed fat tree
// (docs/decisions/all-broadcast-doubling-wins-ties.md).
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

#include "fold.hpp"
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/reversed.hpp"
#include "optcoll/plan/sequence.hpp"

namespace optcoll::plan {
namespace {

class ButterflyAllgather final : public FoldedPlan {
 public:
  ButterflyAllgather(const PlanContext& ctx, rank_t rank) : FoldedPlan(ctx, rank, 1) {}

  void step(std::int64_t i, Step& out) const override {
    out.on_recv = Action::copy;
    if (i == fold_.f) {  // unfold: every group from 2i to 2i+1
      if (fold_.odd(r_)) {
        if (add_group_runs(lay_, 0, p_, out.recv)) out.recv_from = r_ - 1;
      } else if (fold_.paired(r_)) {
        if (add_group_runs(lay_, 0, p_, out.send)) out.send_to = r_ + 1;
      }
      return;
    }
    if (fold_.odd(r_)) return;  // represented by r - 1
    const rank_t v = fold_.virtual_of(r_);
    const rank_t peer = fold_.first(v ^ (rank_t{1} << (fold_.f - 1 - i)));
    const rank_t width = rank_t{1} << i;
    const rank_t mine = reversed(v) & ~(width - 1);
    const rank_t theirs = mine ^ width;
    if (add_group_runs(lay_, group(mine), group(mine + width), out.send)) out.send_to = peer;
    if (add_group_runs(lay_, group(theirs), group(theirs + width), out.recv)) out.recv_from = peer;
  }

 private:
  rank_t reversed(rank_t v) const noexcept {
    rank_t out = 0;
    for (int b = 0; b < fold_.f; ++b) out |= ((v >> b) & 1) << (fold_.f - 1 - b);
    return out;
  }
  // The first group of position j (j = P: p).
  rank_t group(rank_t j) const noexcept { return j + std::min(j, fold_.l); }
};

}  // namespace

std::int64_t rabenseifner_elements(std::int64_t count, rank_t p) {
  if (p <= 1) return 0;
  const Fold fold(p);
  const rank_t l = fold.l;
  const std::int64_t base = count / p;
  const std::int64_t rem = count % p;
  // Each reduce-scatter round's largest message is the first aligned range
  // of its width: split puts the larger groups first, and the first l
  // positions hold two groups.
  std::int64_t sum = l > 0 ? count : 0;
  for (rank_t w = 1; w < (rank_t{1} << fold.f); w *= 2) {
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
