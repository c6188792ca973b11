// Reduce_scatter(_block) over all lanes at once, the mirror of
// allgather/lanes (Träff and Hunold, CLUSTER 2020): every node
// reduce-scatters the vector by lane (local rank l gets the node's partial
// of lane l's groups, nodes.hpp), then each lane reduce-scatters its part
// across the N nodes, all lanes at once (the circulant reduce-scatter, the
// caller's n blocks per group). Uneven nodes: a lane holder carries the
// groups of the ranks folded onto it (lanes::GroupLanes) and scatters them
// to those ranks at the end. Each node's port carries (N-1)/N of the
// vector, where a flat reduce-scatter sends ppn times as much.
//
// Order: a node's ranks, then the nodes in node order (block placement):
// with a non-commutative operator both phases run the ordered
// reduce-scatter (whole groups). Each group is reduced at its rank's holder
// only.
#include "lanes.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::plan {

std::unique_ptr<RankPlan> make_reduce_scatter_lanes(const PlanContext& ctx, rank_t rank) {
  const PlanSpec& spec = ctx.spec;
  BlockLayout layout = lanes::rank_layout(ctx);
  const lanes::GroupLanes gl(lanes::nodes_of(ctx), layout);
  const PlanFactory reduce_scatter = spec.commutative ? &make_reduce_scatter_circulant : &make_reduce_scatter_ordered;
  const PlanSpec rs{Collective::reduce_scatter, 1, 0, spec.count, 1, spec.commutative, spec.exact};
  std::vector<Phase> phases;
  phases.push_back(gl.nodes(rank, rs, reduce_scatter));
  phases.push_back(gl.lanes(rank, rs, spec.commutative, reduce_scatter));
  phases.push_back(gl.folds(rank, {Collective::scatter, 1, 0, spec.count}, &make_scatter_binomial));
  return std::make_unique<ComposedPlan>(std::move(layout), std::move(phases));
}

}  // namespace optcoll::plan
