// Allreduce over all lanes at once (Träff and Hunold, CLUSTER 2020): every
// node reduce-scatters the vector into L pieces, one per lane (L = the
// smallest node's size, nodes.hpp); lane l allreduces piece l across the N
// nodes, all lanes at once (the circulant allreduce of Träff 2024: its
// reduce-scatter and allgather phases, n blocks per group); every node then
// gathers the L reduced pieces on all its ranks. Each node's port carries
// 2 (N-1)/N of the vector, where a flat allreduce sends ppn times as much.
//
// Layout: the vector split into L pieces, piece l into N groups of n blocks
// (the lane allreduce's groups), then the three scratch copies of the lane
// allreduces (plan::allreduce_layout), mirroring each group.
//
// Order: the node phase combines a node's ranks in rank order, the lane
// phase the nodes in node order, so a non-commutative operator combines in
// rank order (block placement); with one, the ordered reduce-scatter and
// allreduce run instead of the circulant ones. Each reduced element is
// computed at one rank and copied from there: every rank gets the same bits.
#include "lanes.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::plan {

std::unique_ptr<RankPlan> make_allreduce_lanes(const PlanContext& ctx, rank_t rank) {
  const NodeLayout nodes = lanes::nodes_of(ctx);
  const PlanSpec& spec = ctx.spec;
  const rank_t L = nodes.lanes();
  const rank_t N = nodes.nodes();
  const std::int64_t groups = L * N;
  // Every group gets n blocks of its own (the lane allreduces' layouts).
  const std::int64_t n = std::max<std::int64_t>(1, std::min(checked_blocks(spec), spec.count / groups));
  std::vector<Segment> segments;
  std::vector<std::int64_t> piece(static_cast<std::size_t>(L));
  {
    const BlockLayout pieces = BlockLayout::split(spec.count, L, 1);
    for (rank_t l = 0; l < L; ++l) {
      const Segment s = pieces.group(l);
      piece[static_cast<std::size_t>(l)] = s.count;
      const BlockLayout in = BlockLayout::split(s.count, N, 1);
      for (rank_t k = 0; k < N; ++k) segments.push_back({s.offset + in.group(k).offset, in.group(k).count});
    }
  }
  BlockLayout layout(std::move(segments), n);
  for (int copy = 0; copy < 3; ++copy)
    for (std::int64_t g = 0; g < groups; ++g) layout.add_scratch(g);

  const lanes::Pieces pieces{piece, N * n};
  const bool ordered = !spec.commutative;

  std::vector<Phase> phases;
  phases.push_back(pieces.reduce_scatter(nodes, rank, spec));
  phases.push_back(lanes::phase(
      nodes, rank, {.kind = lanes::Subsets::Kind::lanes, .count = L},
      [&](rank_t l) {
        const std::int64_t c = piece[static_cast<std::size_t>(l)];
        return lanes::SubPlan{{Collective::allreduce, N, 0, c, n, spec.commutative, spec.exact},
                              allreduce_layout(c, N, n),
                              ordered ? &make_allreduce_ordered : &make_allreduce_circulant};
      },
      [n, N, groups](rank_t l, std::int64_t g, std::vector<BlockRun>& out) {
        // Data group k of lane l, or its scratch copy s (groups s N + k).
        const std::int64_t s = g / N;
        const std::int64_t k = g % N;
        out.push_back({(s * groups + l * N + k) * n, n});
      }));
  phases.push_back(pieces.phase(nodes, rank, {.kind = lanes::Subsets::Kind::every_node},
                                {Collective::allgather, 1, 0, spec.count}, &make_allgather_circulant));
  return std::make_unique<ComposedPlan>(std::move(layout), std::move(phases));
}

}  // namespace optcoll::plan
