// Gather/scatter trees as values (Traff 2018, Definitions 1-3).
//
// A Tree spans ranks [0, p). Each node receives from its children one after
// the other in the stored order (gather; a scatter serves them in reverse,
// Figure 2) and sends its whole subtree's blocks to its parent once. An inner
// node also copies its own block locally (gamma); the copy sits in the
// node's sequence after copy_after(v) of its children (the singleton T_{r} of
// Definition 2). Leaves copy nothing (C[i,i] = 0).
//
// Where the copy goes is a rule of the tree family:
//  - ordered (Figure 4, Eqs. 5-6): a node's collected blocks grow as an
//    interval; the copy comes first (overlapping the first child's subtree)
//    if the first child lies to the right, else right after the first child;
//  - rank_order (Definition 2 with the sequence in rank order: linear star,
//    binary trees of Figure 7): after the children of lower rank;
//  - first (non-ordered trees, Proposition 2): always first.
//
// Storage is compressed (children of all nodes in one array); O(p) memory.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "optcoll/trees/model.hpp"

namespace optcoll::trees {

enum class CopyRule : std::uint8_t { ordered, rank_order, first };

class Tree {
 public:
  Tree() = default;

  rank_t size() const noexcept { return static_cast<rank_t>(parent_.size()); }
  rank_t root() const noexcept { return root_; }
  // -1 at the root.
  rank_t parent(rank_t v) const noexcept { return parent_[at(v)]; }
  // In gather receive order.
  std::span<const rank_t> children(rank_t v) const noexcept {
    return {children_.data() + begin_[at(v)], children_.data() + begin_[at(v) + 1]};
  }
  std::int64_t degree(rank_t v) const noexcept { return begin_[at(v) + 1] - begin_[at(v)]; }
  // Number of children received before the local copy, in [0, degree(v)].
  std::int64_t copy_after(rank_t v) const noexcept { return copy_after_[at(v)]; }
  // Every node after its parent (breadth first from the root).
  std::span<const rank_t> top_down() const noexcept { return order_; }
  // Subtree of v = ranks [lo(v), hi(v)] when interval_subtrees().
  bool interval_subtrees() const noexcept { return intervals_; }
  rank_t lo(rank_t v) const noexcept { return lo_[at(v)]; }
  rank_t hi(rank_t v) const noexcept { return hi_[at(v)]; }
  // Depth of the deepest node (root 0).
  std::int64_t height() const noexcept { return height_; }

 private:
  friend class TreeBuilder;
  static std::size_t at(rank_t v) noexcept { return static_cast<std::size_t>(v); }

  rank_t root_ = 0;
  std::vector<rank_t> parent_;
  std::vector<std::int64_t> begin_;  // size p + 1
  std::vector<rank_t> children_;
  std::vector<std::int64_t> copy_after_;
  std::vector<rank_t> order_;
  std::vector<rank_t> lo_, hi_;
  bool intervals_ = false;
  std::int64_t height_ = 0;
};

// Builds a Tree edge by edge. build() checks that the edges form a tree
// spanning [0, p) rooted at `root` and throws optcoll::Error otherwise.
class TreeBuilder {
 public:
  explicit TreeBuilder(rank_t p);
  // Appends child to parent's receive sequence.
  void add_child(rank_t parent, rank_t child);
  // O(p).
  Tree build(rank_t root, CopyRule rule) &&;
  // With explicit copy positions, copy_after[v] in [0, number of children].
  Tree build(rank_t root, std::span<const std::int64_t> copy_after) &&;

 private:
  rank_t p_;
  std::vector<std::pair<rank_t, rank_t>> edges_;  // (parent, child) in insertion order
};

// Whether every subtree is a rank interval, every node's children extend its
// collected interval on the left or the right one after the other, and the
// copy follows CopyRule::ordered: the trees of Propositions 1 and 3. O(p).
bool is_ordered(const Tree& t);
// Whether every subtree is a rank interval, every node's children come in
// increasing rank order and the copy follows CopyRule::rank_order. O(p).
bool is_rank_ordered(const Tree& t);
// Whether every node has at most two children.
bool is_binary(const Tree& t);

// Subtree sizes Size(T_v) = sum of m over v's subtree, O(p).
std::vector<std::int64_t> subtree_sizes(const Tree& t, std::span<const std::int64_t> m);

}  // namespace optcoll::trees
