// Inclusive and exclusive prefix reductions (MPI_Scan, MPI_Exscan) through
// one rank per node (nodes.hpp), composed of the doubling scans and the
// binomial broadcast (composed.hpp), for vectors whose bytes through a
// node's port dominate: a flat doubling scan at p = N ppn sends up to ppn
// whole vectors through every port in each of its last ceil(log2 N)
// rounds, this plan one.
//
//   A. every node scans its own ranks (recursive doubling): rank r of node k
//      holds S_r = x_first(k) (+) ... (+) x_r, its last rank the node's
//      total T_k;
//   B. the last ranks, one per node, exscan the totals (recursive doubling
//      across the nodes): node k's last rank gets P_k = T_0 (+) ... (+)
//      T_(k-1), the combination of every rank before the node;
//   C. every node but the first broadcasts P_k from its last rank (binomial
//      tree), and each rank combines it on the left of its own partial:
//      P_k (+) S_r covers ranks [0, r].
// Rounds: 2 ceil(log2 ppn) within the nodes, ceil(log2 N) across them
// (ppn the largest node). Rank order is node-major (block placement), so
// every combination joins adjacent rank intervals, the lower on the left:
// any operator, commutative or not.
//
// Layout: the vector as one block, and scratch copies of it (the composed
// groups below). Scan: G0 the result; in B, G0 is the exscan's data (T_k
// in, P_k out), G1 its inclusive partial (P_k (+) T_k, the last rank's
// result), G2 its arrivals; B ends at node k > 0's last rank with P_k
// copied to G2 and its result to G0; C broadcasts G2, every other rank of
// the node then sets G0 = G2 (+) G0.
//
// Exscan: A runs the doubling exscan, so G0 holds the node-local exclusive
// e_r = x_first(k) (+) ... (+) x_(r-1) (the node's first rank: its own
// input) and G1 the inclusive S_r (G2 its arrivals); a node of one rank
// has no rounds there and copies its input to G1 at the end of A. B
// exscans G1 (G2, G3 its scratch), leaving P_k in G1; C broadcasts G1, and
// every rank of node k > 0 sets G0 = P_k (the node's first rank) or G0 =
// P_k (+) e_r. Rank 0's result stays its own input; MPI leaves it
// undefined.
//
// Without nodes that differ from the flat case (one node, or one rank per
// node) and for an empty vector, the flat doubling scan (the same rounds).
#include "lanes.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::plan {
namespace {

std::unique_ptr<RankPlan> scan_leaders(const PlanContext& ctx, rank_t rank, bool exclusive) {
  const NodeLayout nodes = lanes::nodes_of(ctx);
  const PlanSpec& spec = ctx.spec;
  checked_blocks(spec);
  const PlanFactory doubling = exclusive ? &make_exscan_doubling : &make_scan_doubling;
  if (!nodes.hierarchical() || spec.count == 0) return doubling(ctx, rank);

  BlockLayout layout(spec.count, 1);
  for (int s = 0; s < (exclusive ? 3 : 2); ++s) layout.add_scratch(0);
  const auto group = [](std::int64_t g) { return BlockRun{g, 1}; };
  const rank_t node = nodes.node_of(rank);
  const rank_t local = rank - nodes.first(node);
  const bool last = local + 1 == nodes.size(node);
  // A sub-plan's group g stands for composed group at + g.
  const auto from = [](std::int64_t at) {
    return [at](rank_t, std::int64_t g, std::vector<BlockRun>& out) { out.push_back({at + g, 1}); };
  };
  const auto scan_of = [&](Collective op, rank_t p) {
    return lanes::SubPlan{{op, p, 0, spec.count, 1, spec.commutative, spec.exact},
                          {},
                          op == Collective::scan ? &make_scan_doubling : &make_exscan_doubling};
  };

  std::vector<Phase> phases;
  // A: the node's ranks.
  phases.push_back(lanes::phase(
      nodes, rank, {.kind = lanes::Subsets::Kind::every_node},
      [&](rank_t k) { return scan_of(spec.op, nodes.size(k)); }, from(0)));
  if (exclusive && nodes.size(node) == 1) phases.back().finish.push_back({group(0), group(1), Action::copy});
  // B: the nodes' totals, at their last ranks.
  phases.push_back(lanes::phase(
      nodes, rank, {.kind = lanes::Subsets::Kind::last},
      [&](rank_t) { return scan_of(Collective::exscan, nodes.nodes()); }, from(exclusive ? 1 : 0)));
  if (!exclusive && last && node > 0) {
    phases.back().finish.push_back({group(0), group(2), Action::copy});
    phases.back().finish.push_back({group(1), group(0), Action::copy});
  }
  // C: P_k within node k > 0, from its last rank.
  const std::int64_t prefix = exclusive ? 1 : 2;
  phases.push_back(lanes::phase(
      nodes, rank, {.kind = lanes::Subsets::Kind::every_node, .node = 0},
      [&](rank_t k) {
        return lanes::SubPlan{
            {Collective::bcast, nodes.size(k), nodes.size(k) - 1, spec.count, 1}, {}, &make_bcast_binomial};
      },
      from(prefix)));
  if (node > 0 && (exclusive || !last))
    phases.back().finish.push_back(
        {group(prefix), group(0), exclusive && local == 0 ? Action::copy : Action::combine_before});
  return std::make_unique<ComposedPlan>(std::move(layout), std::move(phases));
}

}  // namespace

std::unique_ptr<RankPlan> make_scan_leaders(const PlanContext& ctx, rank_t rank) {
  return scan_leaders(ctx, rank, false);
}

std::unique_ptr<RankPlan> make_exscan_leaders(const PlanContext& ctx, rank_t rank) {
  return scan_leaders(ctx, rank, true);
}

}  // namespace optcoll::plan
