// Allgather(v) over all lanes at once (Träff and Hunold, CLUSTER 2020):
// each lane (one rank per node, nodes.hpp) allgathers its ranks' groups
// across the N nodes, all lanes at once (the circulant allgather, Träff
// 2024 Alg. 7, the caller's n blocks per group), then every node allgathers
// its lanes' data on all its ranks. Each node's port carries every other
// node's groups once, where a flat allgather sends each of them ppn times.
//
// Uneven nodes: the ranks beyond the full lanes (local index L or more)
// first fold their groups onto rank local mod L of their node (a gather per
// fold, lanes::GroupLanes), whose lane then carries them as whole groups;
// they receive everything in the node phase. Layout: the caller's.
#include "lanes.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::plan {

std::unique_ptr<RankPlan> make_allgather_lanes(const PlanContext& ctx, rank_t rank) {
  const PlanSpec& spec = ctx.spec;
  BlockLayout layout = lanes::rank_layout(ctx);
  const lanes::GroupLanes gl(lanes::nodes_of(ctx), layout);
  std::vector<Phase> phases;
  phases.push_back(gl.folds(rank, {Collective::gather, 1, 0, spec.count}, &make_gather_binomial));
  phases.push_back(gl.lanes(rank, {Collective::allgather, 1, 0, spec.count}, true, &make_allgather_circulant));
  phases.push_back(gl.nodes(rank, {Collective::allgather, 1, 0, spec.count}, &make_allgather_circulant));
  return std::make_unique<ComposedPlan>(std::move(layout), std::move(phases));
}

}  // namespace optcoll::plan
