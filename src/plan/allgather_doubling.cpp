// All-broadcast (allgather, allgatherv) by recursive doubling in rank order:
// log2 p rounds when p is a power of two, the rounds of the circulant
// all-broadcast at one block per group and the same volume, but with
// partners rank xor 2^k instead of rank + 2^k.
//
// Why a second plan with the circulant's price: on a hierarchical network
// (ranks numbered node by node, leaf switch by leaf switch) the aligned
// groups of 2^k ranks that the first rounds pair within stay on one node or
// switch, where rank + 2^k crosses a boundary in every round; a round ends
// when its slowest message arrives, so every circulant round pays the
// network's longest path (measured under SimGrid/SMPI:
// docs/decisions/all-broadcast-doubling-wins-ties.md). The registry lists
// this plan first, so that it wins the tie.
//
// With f = floor(log2 p) and l = p - 2^f (the fold of allreduce_doubling):
// when l > 0 the first 2l ranks pair up, rank 2i+1 sends its group to 2i
// (fold round), so that virtual rank v holds the groups of ranks
// {2v, 2v+1} when v < l and of rank v + l otherwise: consecutive rank
// intervals, first(v) = 2v or v + l. Doubling round k exchanges, between
// v and v xor 2^k, the groups of the aligned range of 2^k virtual ranks
// each holds: ranks [first(a), first(a + 2^k)) with a = v & ~(2^k - 1).
// The last round (l > 0) sends rank 2i+1 every group but its own, in two
// runs around it.
// Invariant (the simulator's exact data flow, every p): after doubling
// round k virtual rank v holds exactly the groups of its aligned range of
// 2^(k+1); every rank receives every other group exactly once, so the
// plan run backwards is a reduce-scatter (reduce_scatter_halving.cpp).
// Cost: f + 2 [l > 0] rounds; at p = 2^f round k moves 2^k groups, p - 1
// groups in all, as the circulant plan at n = 1.
#include <algorithm>
#include <utility>
#include <vector>

#include "fold.hpp"
#include "optcoll/error.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::plan {
namespace {

class AllgatherDoubling final : public FoldedPlan {
 public:
  AllgatherDoubling(const PlanContext& ctx, rank_t rank) : FoldedPlan(ctx, rank, 2) {}

  void step(std::int64_t i, Step& out) const override {
    const bool paired = fold_.paired(r_);
    const bool odd = fold_.odd(r_);
    if (fold_.l > 0 && i == 0) {  // fold: 2i+1's group to 2i
      if (odd)
        send(out, r_ - 1, r_, r_ + 1);
      else if (paired)
        recv(out, r_ + 1, r_ + 1, r_ + 2);
      return;
    }
    if (fold_.l > 0 && i == rounds_ - 1) {  // unfold: every group but 2i+1's to 2i+1
      if (!paired) return;
      const rank_t odd_rank = odd ? r_ : r_ + 1;
      for (const auto& [lo, hi] : {std::pair{rank_t{0}, odd_rank}, std::pair{odd_rank + 1, p_}}) {
        if (odd)
          recv(out, r_ - 1, lo, hi);
        else
          send(out, r_ + 1, lo, hi);
      }
      return;
    }
    if (odd) return;  // represented by r - 1 while doubling
    const std::int64_t k = fold_.l > 0 ? i - 1 : i;
    const rank_t v = fold_.virtual_of(r_);
    const rank_t partner = v ^ (rank_t{1} << k);
    const rank_t peer = fold_.first(partner);
    const rank_t mask = ~((rank_t{1} << k) - 1);
    const rank_t mine = v & mask;
    const rank_t theirs = partner & mask;
    send(out, peer, fold_.first(mine), fold_.first(mine + (rank_t{1} << k)));
    recv(out, peer, fold_.first(theirs), fold_.first(theirs + (rank_t{1} << k)));
  }

 private:
  // The groups of ranks [lo, hi) that hold data (add_group_runs).
  void send(Step& out, rank_t to, rank_t lo, rank_t hi) const {
    if (add_group_runs(lay_, lo, hi, out.send)) out.send_to = to;
  }
  void recv(Step& out, rank_t from, rank_t lo, rank_t hi) const {
    if (!add_group_runs(lay_, lo, hi, out.recv)) return;
    out.recv_from = from;
    out.on_recv = Action::copy;
  }
};

}  // namespace

std::int64_t doubling_elements(std::span<const Segment> groups) {
  const auto p = static_cast<rank_t>(groups.size());
  if (p <= 1) return 0;
  const Fold folded(p);
  const int f = folded.f;
  const rank_t l = folded.l;
  const auto g = [&](rank_t r) { return groups[static_cast<std::size_t>(r)].count; };
  std::int64_t total = 0;
  for (rank_t r = 0; r < p; ++r) total += g(r);
  // v[u]: the elements virtual rank u holds before the doubling rounds.
  std::vector<std::int64_t> v(std::size_t{1} << f);
  std::int64_t sum = 0;
  std::int64_t fold = 0;
  std::int64_t unfold = 0;
  for (rank_t i = 0; i < l; ++i) {
    fold = std::max(fold, g(2 * i + 1));
    unfold = std::max(unfold, total - g(2 * i + 1));
    v[static_cast<std::size_t>(i)] = g(2 * i) + g(2 * i + 1);
  }
  for (rank_t u = l; u < (rank_t{1} << f); ++u) v[static_cast<std::size_t>(u)] = g(u + l);
  // Round k sends the elements of an aligned range of 2^k virtual ranks:
  // v holds those sums after k pairwise additions.
  for (std::size_t width = v.size(); width > 1; width /= 2) {
    sum += *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(width));
    for (std::size_t j = 0; j < width / 2; ++j) v[j] = v[2 * j] + v[2 * j + 1];
  }
  return sum + fold + unfold;
}

std::unique_ptr<RankPlan> make_allgather_doubling(const PlanContext& ctx, rank_t rank) {
  if (ctx.layout == nullptr || ctx.layout->data_groups() != ctx.spec.p)
    throw Error(Errc::internal, "allgather needs a layout with one group per rank");
  return std::make_unique<AllgatherDoubling>(ctx, rank);
}

}  // namespace optcoll::plan
