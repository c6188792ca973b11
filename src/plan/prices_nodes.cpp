// The node-aware plans' prices on the two-level machine
// (model/two_level.hpp; prices.hpp): each phase priced by the flat price of
// its sub-plan, with the level it runs on. A lane phase runs L lanes at
// once, so each node's port carries L of their messages per round: it is
// priced as one plan of L times the lane's bytes on the port (the same
// rounds, the port's beta per byte). The node phases move whole pieces
// (one block), the lane phases are pipelined in n blocks. Exact where the
// simulator's two-level clock charges a round its slowest message and
// busiest port, and the pieces divide evenly; tests/select compares them.
#include <algorithm>

#include "optcoll/model/log2.hpp"
#include "prices.hpp"

namespace optcoll::plan::prices {

using model::ceil_log2;
namespace {

// A phase's shape: p ranks, m bytes in g groups of the largest and
// smallest size, at most max_blocks blocks.
Shape sub(rank_t p, std::int64_t m, std::int64_t groups, std::int64_t max_blocks) {
  Shape s;
  s.p = p;
  s.q = ceil_log2(p);
  s.m = m;
  s.largest = groups <= 0 ? m : (m + groups - 1) / groups;
  s.smallest = groups <= 0 ? m : m / groups;
  s.max_blocks = std::max<std::int64_t>(max_blocks, 1);
  return s;
}

Price plus(Price a, const Price& b) {
  a.time += b.time;
  a.rounds += b.rounds;
  return a;
}

// Node phases of the full-lane plans: the L pieces of m bytes scattered
// (or gathered, reduce-scattered, allgathered) on a node.
Price pieces_on_node(const Shape& s, const TwoLevel& m) {
  return all_broadcast(sub(s.node_size, s.m, s.lanes, 1), 1, m.in);
}

}  // namespace

Price bcast_lanes(const Shape& s, std::int64_t blocks, const TwoLevel& m) {
  if (s.p <= 1) return {};
  Price lane = circulant(sub(s.nodes, s.m, 1, s.max_blocks / std::max<rank_t>(s.lanes, 1)), blocks, m.out);
  const Price node = pieces_on_node(s, m);
  lane.time += 2 * node.time;
  lane.rounds += 2 * node.rounds;
  return lane;
}

Price reduce_lanes(const Shape& s, std::int64_t blocks, const TwoLevel& m) {
  if (!s.ordered) return bcast_lanes(s, blocks, m);
  if (s.p <= 1) return {};
  // The ordered reduce-scatter on every node, the rank-ordered binomial
  // reduce of whole pieces on the lanes.
  const Price node = reduce_scatter_ordered(sub(s.node_size, s.m, s.lanes, 1), 1, m.in);
  return plus(plus(binomial_ordered(sub(s.nodes, s.m, 1, 1), 1, m.out), node), pieces_on_node(s, m));
}

Price allreduce_lanes(const Shape& s, std::int64_t blocks, const TwoLevel& m) {
  if (s.p <= 1) return {};
  const Shape lane_shape = sub(s.nodes, s.m, s.nodes, s.max_blocks / std::max<rank_t>(s.lanes * s.nodes, 1));
  Price lane = s.ordered ? allreduce_ordered(lane_shape, 1, m.out) : allreduce_circulant(lane_shape, blocks, m.out);
  const Price node =
      s.ordered ? reduce_scatter_ordered(sub(s.node_size, s.m, s.lanes, 1), 1, m.in) : pieces_on_node(s, m);
  return plus(plus(lane, node), pieces_on_node(s, m));
}

Price allgather_lanes(const Shape& s, std::int64_t blocks, const TwoLevel& m) {
  if (s.p <= 1) return {};
  // Lane l: a group from each node; L lanes at once are one allgather of
  // groups L times as large through the port.
  Shape lane_shape = sub(s.nodes, s.m, s.nodes, s.max_blocks);
  lane_shape.largest = std::min(s.m, s.largest * s.lanes);
  lane_shape.smallest = s.smallest * s.lanes;
  Price lane = s.ordered ? reduce_scatter_ordered(lane_shape, 1, m.out) : all_broadcast(lane_shape, blocks, m.out);
  return plus(lane,
              s.ordered ? reduce_scatter_ordered(sub(s.node_size, s.m, s.lanes, 1), 1, m.in) : pieces_on_node(s, m));
}

Price bcast_leaders(const Shape& s, std::int64_t, const TwoLevel& m) {
  if (s.p <= 1) return {};
  return plus(binomial(sub(s.nodes, s.m, 1, 1), 1, m.out), binomial(sub(s.node_size, s.m, 1, 1), 1, m.in));
}

Price allreduce_leaders(const Shape& s, std::int64_t, const TwoLevel& m) {
  if (s.p <= 1) return {};
  const Price node = binomial(sub(s.node_size, s.m, 1, 1), 1, m.in);
  return plus(plus(allreduce_doubling(sub(s.nodes, s.m, 1, 1), 1, m.out), node), node);
}

Price scan_leaders(const Shape& s, std::int64_t, const TwoLevel& m) {
  if (s.p <= 1) return {};
  const Shape node = sub(s.node_size, s.m, 1, 1);
  const Price across = whole_vector_rounds(sub(s.nodes, s.m, 1, 1), 1, m.out);
  return plus(plus(whole_vector_rounds(node, 1, m.in), across), binomial(node, 1, m.in));
}

Price gather_leaders(const Shape& s, std::int64_t, const TwoLevel& m) {
  if (s.p <= 1) return {};
  // A node's ppn blocks, then the N nodes' blocks, ppn each.
  const Price node = gather_tree(sub(s.node_size, s.node_size * s.smallest, s.node_size, 1), 1, m.in);
  return plus(node, gather_tree(sub(s.nodes, s.m, s.nodes, 1), 1, m.out));
}

}  // namespace optcoll::plan::prices
