// The phases the node-aware plans are composed of (composed.hpp): a plan of
// the registry run on every node at once, on one node, or on every lane at
// once (nodes.hpp). Internal to src/plan/.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "optcoll/plan/composed.hpp"
#include "optcoll/plan/nodes.hpp"

namespace optcoll::plan::lanes {

// The sub-plan of one subset (a node or a lane): its spec, its layout (the
// rank-group collectives: one group per sub-rank) and its factory.
struct SubPlan {
  PlanSpec spec;
  std::optional<BlockLayout> layout;
  PlanFactory make = nullptr;
};

// Which subsets a phase runs on:
//  - every_node: node k's ranks (subset k, sub-rank = the local index);
//  - one_node: only that node's;
//  - lanes: lanes first .. first + count - 1, one rank per node (subset l,
//    sub-rank = node);
//  - folds: on every node, local index l < count with l + count, l + 2
//    count, ... (subset k count + l, sub-rank = local / count): where nodes
//    are uneven, the ranks beyond the full lanes fold onto them;
//  - last: the last rank of every node, one per node (subset 0, sub-rank =
//    node): where a node's ranks combined in rank order end (scans).
struct Subsets {
  enum class Kind : std::uint8_t { every_node, one_node, lanes, folds, last } kind = Kind::every_node;
  rank_t node = -1;  // one_node: which; every_node: one left out (-1: none)
  rank_t first = 0;  // lanes: first, ..., first + count - 1
  rank_t count = 0;  // lanes: how many; folds: the full lanes (L)
};

// The phase of `rank` running plan_of(subset) on each subset (subset: the
// node index, or the lane), its groups standing for runs_of(subset, g, out)
// of the composed layout. The phase's rounds: the most of any subset's plan
// (of the subsets that differ: every distinct node size, the first and the
// last lane), so the same at every rank.
using PlanOf = std::function<SubPlan(rank_t subset)>;
using RunsOf = std::function<void(rank_t subset, std::int64_t group, std::vector<BlockRun>& out)>;
Phase phase(const NodeLayout& nodes, rank_t rank, Subsets on, const PlanOf& plan_of, RunsOf runs_of);

// The vector in L pieces, one per full lane (bcast, reduce, allreduce
// over lanes): piece g stands for `blocks` composed blocks from g * blocks
// on. A node's phase on the pieces runs a plan of one group per node rank,
// the pieces whole (one block each), none for ranks beyond the L lanes.
struct Pieces {
  std::vector<std::int64_t> counts;  // elements of each piece
  std::int64_t blocks = 1;           // composed blocks per piece
  // on: every_node or one_node; spec: the sub-plan's (p and blocks set here).
  Phase phase(const NodeLayout& nodes, rank_t rank, Subsets on, PlanSpec spec, PlanFactory make) const;
  // Every node reduce-scatters the pieces (local rank g gets the node's
  // partial of piece g): the circulant plan, or the ordered one for a
  // non-commutative operator (rank order within the node).
  Phase reduce_scatter(const NodeLayout& nodes, rank_t rank, const PlanSpec& spec) const;
};
// The rooted full-lane plans' vector (bcast, reduce): L = nodes.lanes()
// pieces of n blocks each (n: the spec's block count, at most the smallest
// piece's elements, so that every piece has n blocks), piece l carried by
// lane l across the nodes.
struct LanePieces {
  NodeLayout nodes;
  BlockLayout layout;
  Pieces pieces;
  // The lane phase: lane l runs sub(l) (the spec's p, count and blocks set
  // here: the nodes, piece l's elements, n) on piece l's blocks.
  Phase lanes(rank_t rank, PlanSpec sub, PlanFactory make) const;
};
LanePieces split_pieces(const PlanContext& ctx);

// The rank-group collectives' lanes (allgather, reduce_scatter): rank r's
// group (r of the caller's layout) is carried by its holder, the rank of
// its node with local index local(r) mod L (itself unless nodes are uneven,
// Subsets::Kind::folds). Holder (k, l) carries the groups of node k's
// ranks l, l + L, ...; lane l all holders (k, l). The runs need only the
// layout's block count (a copy may outlive the layout); the element counts
// read the layout, which must then be alive.
class GroupLanes {
 public:
  GroupLanes(const NodeLayout& nodes, const BlockLayout& layout);
  // Holder (k, l)'s groups as runs of the layout (appended), and their elements.
  void holder_runs(rank_t k, rank_t l, std::vector<BlockRun>& out) const;
  std::int64_t holder_count(rank_t k, rank_t l) const;
  // Lane l's groups (every holder's), and their elements.
  void lane_runs(rank_t l, std::vector<BlockRun>& out) const;
  std::int64_t lane_count(rank_t l) const { return lane_counts_[static_cast<std::size_t>(l)]; }
  // The groups of fold subset s (Subsets::Kind::folds): sub-group j is
  // rank first(k) + l + j L's group.
  rank_t fold_rank(rank_t s, rank_t j) const { return nodes_.first(s / lanes_) + s % lanes_ + j * lanes_; }
  rank_t fold_size(rank_t s) const {
    const rank_t size = nodes_.size(s / lanes_);
    return (size - s % lanes_ + lanes_ - 1) / lanes_;
  }
  // Every holder carries one group (nodes of one size).
  bool one_each() const { return nodes_.regular(); }

  // The phases, spec the sub-plans' (p, layout and blocks set here): each
  // fold's groups between its ranks (gather onto the full lane, or scatter
  // from it; folds of one rank where nodes are even); every lane's groups
  // across the nodes (the caller's n blocks where each holder carries one
  // group and `pipelined`, else whole groups); every node's lanes among its
  // ranks (whole lanes).
  Phase folds(rank_t rank, PlanSpec spec, PlanFactory make) const;
  Phase lanes(rank_t rank, PlanSpec spec, bool pipelined, PlanFactory make) const;
  Phase nodes(rank_t rank, PlanSpec spec, PlanFactory make) const;

 private:
  NodeLayout nodes_;
  const BlockLayout* layout_;
  std::int64_t n_;
  rank_t lanes_;
  std::vector<std::int64_t> lane_counts_;
};

// A sub-layout of whole groups: groups[g] elements in group g, one block
// each, adjacent (the offsets are the sub-plan's view only; its blocks
// stand for the composed layout's runs).
BlockLayout whole_groups(const std::vector<std::int64_t>& counts);

// The caller's layout of a rank-group collective (one group per rank);
// throws optcoll::Error without one.
const BlockLayout& rank_layout(const PlanContext& ctx);

// The node layout a node-aware plan was given (PlanContext::nodes); without
// one every rank is its own node (the plan is then its flat counterpart).
// Throws optcoll::Error for a layout of another p.
NodeLayout nodes_of(const PlanContext& ctx);

}  // namespace optcoll::plan::lanes
