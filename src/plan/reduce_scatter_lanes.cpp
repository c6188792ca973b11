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
// reduce-scatter. Each group is reduced at its rank's holder only.
#include "lanes.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::plan {

std::unique_ptr<RankPlan> make_reduce_scatter_lanes(const PlanContext& ctx, rank_t rank) {
  const NodeLayout nodes = lanes::nodes_of(ctx);
  const PlanSpec& spec = ctx.spec;
  BlockLayout layout = lanes::rank_layout(ctx);
  const std::int64_t n = layout.blocks_per_group();
  const rank_t L = nodes.lanes();
  const lanes::GroupLanes gl(nodes, layout);
  const PlanFactory reduce_scatter = spec.commutative ? &make_reduce_scatter_circulant : &make_reduce_scatter_ordered;

  std::vector<Phase> phases;
  phases.push_back(lanes::phase(
      nodes, rank, {.kind = lanes::Subsets::Kind::every_node},
      [&](rank_t k) {
        std::vector<std::int64_t> counts(static_cast<std::size_t>(nodes.size(k)), 0);
        for (rank_t l = 0; l < std::min(L, nodes.size(k)); ++l) counts[static_cast<std::size_t>(l)] = gl.lane_count(l);
        return lanes::SubPlan{
            {Collective::reduce_scatter, nodes.size(k), 0, spec.count, 1, spec.commutative, spec.exact},
            lanes::whole_groups(counts),
            reduce_scatter};
      },
      [gl, L](rank_t, std::int64_t l, std::vector<BlockRun>& out) {
        if (l < L) gl.lane_runs(static_cast<rank_t>(l), out);
      }));
  phases.push_back(lanes::phase(
      nodes, rank, {.kind = lanes::Subsets::Kind::lanes, .count = L},
      [&](rank_t l) {
        std::vector<Segment> groups;
        std::vector<std::int64_t> counts;
        for (rank_t k = 0; k < nodes.nodes(); ++k) {
          groups.push_back(layout.group(nodes.first(k) + l));
          counts.push_back(gl.holder_count(k, l));
        }
        // The ordered reduce-scatter moves whole groups (one block each).
        const bool pipelined = gl.one_each() && spec.commutative;
        return lanes::SubPlan{
            {Collective::reduce_scatter, nodes.nodes(), 0, spec.count, pipelined ? n : 1, spec.commutative, spec.exact},
            pipelined ? BlockLayout(std::move(groups), n) : lanes::whole_groups(counts),
            reduce_scatter};
      },
      [gl](rank_t l, std::int64_t k, std::vector<BlockRun>& out) { gl.holder_runs(static_cast<rank_t>(k), l, out); }));
  phases.push_back(lanes::phase(
      nodes, rank, {.kind = lanes::Subsets::Kind::folds, .count = L},
      [&](rank_t s) {
        std::vector<std::int64_t> counts;
        for (rank_t j = 0; j < gl.fold_size(s); ++j) counts.push_back(layout.group(gl.fold_rank(s, j)).count);
        return lanes::SubPlan{{Collective::scatter, gl.fold_size(s), 0, spec.count, 1},
                              lanes::whole_groups(counts),
                              &make_scatter_binomial};
      },
      [gl, n](rank_t s, std::int64_t j, std::vector<BlockRun>& out) {
        out.push_back({gl.fold_rank(s, static_cast<rank_t>(j)) * n, n});
      }));
  return std::make_unique<ComposedPlan>(std::move(layout), std::move(phases));
}

}  // namespace optcoll::plan
