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
  const NodeLayout nodes = lanes::nodes_of(ctx);
  const PlanSpec& spec = ctx.spec;
  BlockLayout layout = lanes::rank_layout(ctx);
  const std::int64_t n = layout.blocks_per_group();
  const rank_t L = nodes.lanes();
  const lanes::GroupLanes gl(nodes, layout);

  std::vector<Phase> phases;
  // Uneven nodes: fold the groups beyond the full lanes onto them.
  phases.push_back(lanes::phase(
      nodes, rank, {.kind = lanes::Subsets::Kind::folds, .count = L},
      [&](rank_t s) {
        std::vector<std::int64_t> counts;
        for (rank_t j = 0; j < gl.fold_size(s); ++j) counts.push_back(layout.group(gl.fold_rank(s, j)).count);
        return lanes::SubPlan{{Collective::gather, gl.fold_size(s), 0, spec.count, 1},
                              lanes::whole_groups(counts),
                              &make_gather_binomial};
      },
      [gl, n](rank_t s, std::int64_t j, std::vector<BlockRun>& out) {
        out.push_back({gl.fold_rank(s, static_cast<rank_t>(j)) * n, n});
      }));
  // Every lane: its holders' groups across the nodes, pipelined where each
  // holder has one group.
  phases.push_back(lanes::phase(
      nodes, rank, {.kind = lanes::Subsets::Kind::lanes, .count = L},
      [&](rank_t l) {
        std::vector<Segment> groups;
        std::vector<std::int64_t> counts;
        for (rank_t k = 0; k < nodes.nodes(); ++k) {
          groups.push_back(layout.group(nodes.first(k) + l));
          counts.push_back(gl.holder_count(k, l));
        }
        return lanes::SubPlan{{Collective::allgather, nodes.nodes(), 0, spec.count, n},
                              gl.one_each() ? BlockLayout(std::move(groups), n) : lanes::whole_groups(counts),
                              &make_allgather_circulant};
      },
      [gl](rank_t l, std::int64_t k, std::vector<BlockRun>& out) { gl.holder_runs(static_cast<rank_t>(k), l, out); }));
  // Every node: each lane's data to all of the node's ranks.
  phases.push_back(lanes::phase(
      nodes, rank, {.kind = lanes::Subsets::Kind::every_node},
      [&](rank_t k) {
        std::vector<std::int64_t> counts(static_cast<std::size_t>(nodes.size(k)), 0);
        for (rank_t l = 0; l < std::min(L, nodes.size(k)); ++l) counts[static_cast<std::size_t>(l)] = gl.lane_count(l);
        return lanes::SubPlan{{Collective::allgather, nodes.size(k), 0, spec.count, 1},
                              lanes::whole_groups(counts),
                              &make_allgather_circulant};
      },
      [gl, L](rank_t, std::int64_t l, std::vector<BlockRun>& out) {
        if (l < L) gl.lane_runs(static_cast<rank_t>(l), out);
      }));
  return std::make_unique<ComposedPlan>(std::move(layout), std::move(phases));
}

}  // namespace optcoll::plan
