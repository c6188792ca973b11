// Reduce over all lanes at once, the full-lane broadcast's mirror (Träff and
// Hunold, CLUSTER 2020): every node reduce-scatters the vector into L
// pieces, one per lane (L = the smallest node's size, nodes.hpp); lane l
// reduces piece l across the N nodes to the root's node, all lanes at once
// (the circulant reduce, n blocks per piece, n - 1 + ceil(log2 N) rounds);
// the root gathers the L pieces from its node. Each node's port carries
// the vector once.
//
// Layout: the vector split into L pieces of n blocks each (as bcast/lanes).
// Order: a node's ranks, then the nodes in node order (block placement),
// so a non-commutative operator runs the ordered reduce-scatter and the
// rank-ordered binomial reduce (whole pieces) and combines in rank order.
#include "lanes.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::plan {

std::unique_ptr<RankPlan> make_reduce_lanes(const PlanContext& ctx, rank_t rank) {
  const PlanSpec& spec = ctx.spec;
  lanes::LanePieces v = lanes::split_pieces(ctx);
  const NodeLayout& nodes = v.nodes;
  const rank_t root_node = nodes.node_of(spec.root);
  std::vector<Phase> phases;
  phases.push_back(v.pieces.reduce_scatter(nodes, rank, spec));
  phases.push_back(v.lanes(rank, {Collective::reduce, 0, root_node, 0, 1, spec.commutative, spec.exact},
                           spec.commutative ? &make_reduce_circulant : &make_reduce_binomial_ordered));
  phases.push_back(v.pieces.phase(nodes, rank, {.kind = lanes::Subsets::Kind::one_node, .node = root_node},
                                  {Collective::gather, 1, spec.root - nodes.first(root_node), spec.count},
                                  &make_gather_binomial));
  return std::make_unique<ComposedPlan>(std::move(v.layout), std::move(phases));
}

}  // namespace optcoll::plan
