// Broadcast over all lanes at once (Träff and Hunold, CLUSTER 2020, the
// full-lane broadcast): the root's node scatters the vector into L pieces,
// one to each of its lanes (L = the smallest node's size, nodes.hpp); lane
// l broadcasts piece l across the N nodes, all lanes at once, each piece in
// n blocks on the circulant schedule (Träff 2024, n - 1 + ceil(log2 N)
// rounds); every node then gathers the L pieces on all its ranks (the
// circulant allgather). Every node's port carries the vector once, in
// pieces of m / (L n) bytes from each of its L lanes per round, where a flat
// broadcast sends ppn times as many bytes through it.
//
// Layout: the vector split into L groups (the pieces) of n blocks each.
// Invariant after each phase: lane rank (k, l) holds piece l after the lane
// phase; every rank holds every piece after the node phase. Ranks with a
// local index of L or more (uneven nodes) only receive, in the node phase.
#include "lanes.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::plan {

std::unique_ptr<RankPlan> make_bcast_lanes(const PlanContext& ctx, rank_t rank) {
  const PlanSpec& spec = ctx.spec;
  lanes::LanePieces v = lanes::split_pieces(ctx);
  const NodeLayout& nodes = v.nodes;
  const rank_t root_node = nodes.node_of(spec.root);
  std::vector<Phase> phases;
  phases.push_back(v.pieces.phase(nodes, rank, {.kind = lanes::Subsets::Kind::one_node, .node = root_node},
                                  {Collective::scatter, 1, spec.root - nodes.first(root_node), spec.count},
                                  &make_scatter_binomial));
  phases.push_back(v.lanes(rank, {Collective::bcast, 0, root_node}, &make_bcast_circulant));
  phases.push_back(v.pieces.phase(nodes, rank, {.kind = lanes::Subsets::Kind::every_node},
                                  {Collective::allgather, 1, 0, spec.count}, &make_allgather_circulant));
  return std::make_unique<ComposedPlan>(std::move(v.layout), std::move(phases));
}

}  // namespace optcoll::plan
