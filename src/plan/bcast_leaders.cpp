// Broadcast through one rank per node, for short vectors: the root's lane
// (one rank per node, nodes.hpp) broadcasts the whole vector across the N
// nodes on the binomial tree, then every node broadcasts it from that lane's
// rank to its other ranks: ceil(log2 N) rounds between nodes and
// ceil(log2 ppn) within them, where a flat tree's rounds may all cross
// nodes. Where the root's local index is beyond the smallest node (uneven
// nodes), its node first broadcasts to its own ranks and lane 0 carries the
// vector across.
#include "lanes.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::plan {

std::unique_ptr<RankPlan> make_bcast_leaders(const PlanContext& ctx, rank_t rank) {
  const NodeLayout nodes = lanes::nodes_of(ctx);
  const PlanSpec& spec = ctx.spec;
  const rank_t root_node = nodes.node_of(spec.root);
  const rank_t root_local = spec.root - nodes.first(root_node);
  const bool in_lane = root_local < nodes.lanes();
  const rank_t lane = in_lane ? root_local : 0;
  const auto whole = [](rank_t, std::int64_t, std::vector<BlockRun>& out) { out.push_back({0, 1}); };
  const auto bcast_from = [&](rank_t root, rank_t p) {
    return lanes::SubPlan{{Collective::bcast, p, root, spec.count, 1}, {}, &make_bcast_binomial};
  };

  std::vector<Phase> phases;
  if (!in_lane)
    phases.push_back(lanes::phase(
        nodes, rank, {.kind = lanes::Subsets::Kind::one_node, .node = root_node},
        [&](rank_t k) { return bcast_from(root_local, nodes.size(k)); }, whole));
  phases.push_back(lanes::phase(
      nodes, rank, {.kind = lanes::Subsets::Kind::lanes, .first = lane, .count = 1},
      [&](rank_t) { return bcast_from(root_node, nodes.nodes()); }, whole));
  phases.push_back(lanes::phase(
      nodes, rank, {.kind = lanes::Subsets::Kind::every_node, .node = in_lane ? -1 : root_node},
      [&](rank_t k) { return bcast_from(lane, nodes.size(k)); }, whole));
  return std::make_unique<ComposedPlan>(BlockLayout(spec.count, 1), std::move(phases));
}

}  // namespace optcoll::plan
