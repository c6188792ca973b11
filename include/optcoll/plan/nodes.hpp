// How a communicator's ranks sit on nodes, for the node-aware plans
// (Träff and Hunold, "Decomposing MPI collectives for exploiting multi-lane
// communication", CLUSTER 2020): the ranks of a node share its network
// port and talk to each other through shared memory.
//
// Only block placement is described: node k holds the consecutive ranks
// [first(k), first(k) + size(k)). Node sizes may differ (the last node of
// an imposed node size, or uneven nodes). A rank's local index on its node
// is its lane; lane l is the set of ranks with local index l, one per node
// that has more than l ranks. lanes() = the smallest node size is the
// number of lanes every node takes part in (the "full lanes"). Rank order
// is node-major, so combining per node in local order and then across
// nodes in node order combines in rank order (non-commutative operators).
//
// Every query is O(1) for equal nodes (the last one may be smaller) and
// O(log N) otherwise; memory O(1) or O(N).
#pragma once

#include <cstdint>
#include <vector>

#include "optcoll/schedule/circulant.hpp"

namespace optcoll::plan {

using schedule::rank_t;

class NodeLayout {
 public:
  NodeLayout() = default;
  // p ranks in nodes of `size` consecutive ranks; the last node holds the
  // remaining p mod size if that is not 0. size >= 1.
  static NodeLayout equal(rank_t p, rank_t size);
  // Nodes of the given sizes (each >= 1), in rank order.
  static NodeLayout of_sizes(std::vector<rank_t> sizes);

  rank_t p() const noexcept { return p_; }
  rank_t nodes() const noexcept { return nodes_; }
  rank_t size(rank_t node) const noexcept;
  rank_t first(rank_t node) const noexcept;
  rank_t node_of(rank_t rank) const noexcept;
  rank_t local(rank_t rank) const noexcept { return rank - first(node_of(rank)); }
  // The smallest and the largest node.
  rank_t lanes() const noexcept { return smallest_; }
  rank_t largest() const noexcept { return largest_; }
  // The first node of each size (O(N) for uneven nodes).
  std::vector<rank_t> node_per_size() const;
  // Every node the same size.
  bool regular() const noexcept { return smallest_ == largest_; }
  // Several nodes, and some node with several ranks: a node-aware plan has
  // something to gain (otherwise it is a flat plan).
  bool hierarchical() const noexcept { return nodes_ > 1 && largest_ > 1; }
  bool operator==(const NodeLayout&) const = default;

 private:
  rank_t p_ = 1;
  rank_t nodes_ = 1;
  rank_t each_ = 1;  // equal(): the size of every node but maybe the last
  rank_t smallest_ = 1;
  rank_t largest_ = 1;
  std::vector<rank_t> starts_;  // of_sizes(): first rank of each node, and p at the end
};

}  // namespace optcoll::plan
