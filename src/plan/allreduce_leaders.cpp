// Allreduce through one rank per node, for short vectors: every node reduces
// the vector to its first rank (the binomial tree; rank-ordered for a
// non-commutative operator), those ranks, one per node (lane 0, nodes.hpp),
// allreduce it by recursive doubling (whole vector, every rank the same
// bits, node order), and every node broadcasts the result from its first
// rank. Rounds: ceil(log2 N) (+2 for N not a power of two) between nodes,
// 2 ceil(log2 ppn) within them.
//
// Layout: the vector split into N groups of one block (the doubling
// allreduce's layout, with its scratch copies); the node phases move the
// whole vector as one message. Order: a node's ranks, then the nodes in
// node order (block placement): rank order.
#include "lanes.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::plan {

std::unique_ptr<RankPlan> make_allreduce_leaders(const PlanContext& ctx, rank_t rank) {
  const NodeLayout nodes = lanes::nodes_of(ctx);
  const PlanSpec& spec = ctx.spec;
  const rank_t N = nodes.nodes();
  const auto whole = [N](rank_t, std::int64_t, std::vector<BlockRun>& out) { out.push_back({0, N}); };

  std::vector<Phase> phases;
  phases.push_back(lanes::phase(
      nodes, rank, {.kind = lanes::Subsets::Kind::every_node},
      [&](rank_t k) {
        return lanes::SubPlan{{Collective::reduce, nodes.size(k), 0, spec.count, 1, spec.commutative, spec.exact},
                              {},
                              spec.commutative ? &make_reduce_binomial : &make_reduce_binomial_ordered};
      },
      whole));
  phases.push_back(lanes::phase(
      nodes, rank, {.kind = lanes::Subsets::Kind::lanes, .count = 1},
      [&](rank_t) {
        return lanes::SubPlan{{Collective::allreduce, N, 0, spec.count, 1, spec.commutative, spec.exact},
                              allreduce_layout(spec.count, N, 1),
                              &make_allreduce_doubling};
      },
      [](rank_t, std::int64_t g, std::vector<BlockRun>& out) {
        out.push_back({g, 1});
      }));
  phases.push_back(lanes::phase(
      nodes, rank, {.kind = lanes::Subsets::Kind::every_node},
      [&](rank_t k) {
        return lanes::SubPlan{{Collective::bcast, nodes.size(k), 0, spec.count, 1}, {}, &make_bcast_binomial};
      },
      whole));
  return std::make_unique<ComposedPlan>(allreduce_layout(spec.count, N, 1), std::move(phases));
}

}  // namespace optcoll::plan
