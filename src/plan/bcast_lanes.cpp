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
  const NodeLayout nodes = lanes::nodes_of(ctx);
  const PlanSpec& spec = ctx.spec;
  const rank_t L = nodes.lanes();
  // n no larger than the smallest piece, so that every piece has n blocks
  // (the lane broadcasts' own layouts are the pieces').
  const std::int64_t n = std::max<std::int64_t>(1, std::min(checked_blocks(spec), spec.count / L));
  BlockLayout layout = BlockLayout::split(spec.count, L, n);
  const lanes::Pieces pieces = lanes::pieces_of(layout, L);
  const rank_t root_node = nodes.node_of(spec.root);
  std::vector<Phase> phases;
  phases.push_back(pieces.phase(nodes, rank, {.kind = lanes::Subsets::Kind::one_node, .node = root_node},
                                {Collective::scatter, 1, spec.root - nodes.first(root_node), spec.count},
                                &make_scatter_binomial));
  phases.push_back(lanes::phase(
      nodes, rank, {.kind = lanes::Subsets::Kind::lanes, .count = L},
      [&](rank_t l) {
        return lanes::SubPlan{
            {Collective::bcast, nodes.nodes(), root_node, layout.group(l).count, n}, {}, &make_bcast_circulant};
      },
      [n](rank_t l, std::int64_t, std::vector<BlockRun>& out) {
        out.push_back({l * n, n});
      }));
  phases.push_back(pieces.phase(nodes, rank, {.kind = lanes::Subsets::Kind::every_node},
                                {Collective::allgather, 1, 0, spec.count}, &make_allgather_circulant));
  return std::make_unique<ComposedPlan>(std::move(layout), std::move(phases));
}

}  // namespace optcoll::plan
