// Tree construction and structural checks (Definitions 1 and 3).
#include "optcoll/trees/tree.hpp"

#include <string>

#include "optcoll/error.hpp"

namespace optcoll::trees {
namespace {

std::size_t at(rank_t v) {
  return static_cast<std::size_t>(v);
}

[[noreturn]] void bad_tree(const std::string& what) {
  throw Error(Errc::invalid_rank, "not a tree: " + what);
}

}  // namespace

TreeBuilder::TreeBuilder(rank_t p) : p_(p) {
  if (p < 1) throw Error(Errc::invalid_p, "a tree needs p >= 1");
  edges_.reserve(at(p - 1));
}

void TreeBuilder::add_child(rank_t parent, rank_t child) {
  if (parent < 0 || parent >= p_ || child < 0 || child >= p_ || parent == child)
    bad_tree("edge " + std::to_string(parent) + " -> " + std::to_string(child));
  edges_.emplace_back(parent, child);
}

Tree TreeBuilder::build(rank_t root, CopyRule rule) && {
  if (root < 0 || root >= p_) throw Error(Errc::invalid_root, "tree root out of range");
  if (static_cast<rank_t>(edges_.size()) != p_ - 1) bad_tree("p - 1 edges expected");
  Tree t;
  t.root_ = root;
  t.parent_.assign(at(p_), -1);
  t.begin_.assign(at(p_) + 1, 0);
  for (const auto& [u, v] : edges_) {
    if (v == root || t.parent_[at(v)] >= 0) bad_tree("rank " + std::to_string(v) + " has two parents");
    t.parent_[at(v)] = u;
    ++t.begin_[at(u) + 1];
  }
  for (std::size_t v = 0; v < at(p_); ++v) t.begin_[v + 1] += t.begin_[v];
  t.children_.resize(edges_.size());
  std::vector<std::int64_t> fill(t.begin_.begin(), t.begin_.end() - 1);
  for (const auto& [u, v] : edges_) t.children_[at(fill[at(u)]++)] = v;

  // Breadth first from the root: reaching every rank proves connectivity
  // (p - 1 edges, one parent each: then there is no cycle).
  t.order_.reserve(at(p_));
  t.order_.push_back(root);
  std::vector<std::int64_t> depth(at(p_), 0);
  for (std::size_t q = 0; q < t.order_.size(); ++q) {
    const rank_t v = t.order_[q];
    for (rank_t c : t.children(v)) {
      t.order_.push_back(c);
      depth[at(c)] = depth[at(v)] + 1;
      if (depth[at(c)] > t.height_) t.height_ = depth[at(c)];
    }
  }
  if (static_cast<rank_t>(t.order_.size()) != p_) bad_tree("not connected to the root");

  // Subtree intervals, bottom up.
  t.lo_.resize(at(p_));
  t.hi_.resize(at(p_));
  std::vector<rank_t> count(at(p_), 1);
  for (std::size_t q = t.order_.size(); q-- > 0;) {
    const rank_t v = t.order_[q];
    t.lo_[at(v)] = t.hi_[at(v)] = v;
    for (rank_t c : t.children(v)) {
      t.lo_[at(v)] = std::min(t.lo_[at(v)], t.lo_[at(c)]);
      t.hi_[at(v)] = std::max(t.hi_[at(v)], t.hi_[at(c)]);
      count[at(v)] += count[at(c)];
    }
  }
  t.intervals_ = true;
  for (std::size_t v = 0; v < at(p_); ++v)
    if (t.hi_[v] - t.lo_[v] + 1 != count[v]) t.intervals_ = false;

  t.copy_after_.assign(at(p_), 0);
  for (rank_t v = 0; v < p_; ++v) {
    const auto kids = t.children(v);
    std::int64_t k = 0;
    if (rule == CopyRule::ordered) {
      k = !kids.empty() && kids[0] < v ? 1 : 0;
    } else if (rule == CopyRule::rank_order) {
      for (rank_t c : kids) k += c < v ? 1 : 0;
    }
    t.copy_after_[at(v)] = k;
  }
  return t;
}

Tree TreeBuilder::build(rank_t root, std::span<const std::int64_t> copy_after) && {
  if (static_cast<rank_t>(copy_after.size()) != p_) bad_tree("one copy position per rank needed");
  Tree t = std::move(*this).build(root, CopyRule::first);
  for (rank_t v = 0; v < p_; ++v) {
    const std::int64_t k = copy_after[at(v)];
    if (k < 0 || k > t.degree(v)) bad_tree("copy position out of range at rank " + std::to_string(v));
    t.copy_after_[at(v)] = k;
  }
  return t;
}

bool is_ordered(const Tree& t) {
  if (!t.interval_subtrees()) return false;
  for (rank_t v = 0; v < t.size(); ++v) {
    rank_t a = v, b = v;  // the interval v holds so far
    for (rank_t c : t.children(v)) {
      if (t.lo(c) == b + 1) {
        b = t.hi(c);
      } else if (t.hi(c) == a - 1) {
        a = t.lo(c);
      } else {
        return false;
      }
    }
    const auto kids = t.children(v);
    if (t.copy_after(v) != (!kids.empty() && kids[0] < v ? 1 : 0)) return false;
  }
  return true;
}

bool is_rank_ordered(const Tree& t) {
  if (!t.interval_subtrees()) return false;
  for (rank_t v = 0; v < t.size(); ++v) {
    rank_t next = t.lo(v);  // the children and v itself tile [lo(v), hi(v)] in rank order
    std::int64_t below = 0;
    for (rank_t c : t.children(v)) {
      if (next == v) ++next;
      if (t.lo(c) != next) return false;
      next = t.hi(c) + 1;
      below += c < v ? 1 : 0;
    }
    if (t.copy_after(v) != below) return false;
  }
  return true;
}

bool is_binary(const Tree& t) {
  for (rank_t v = 0; v < t.size(); ++v)
    if (t.degree(v) > 2) return false;
  return true;
}

std::vector<std::int64_t> subtree_sizes(const Tree& t, std::span<const std::int64_t> m) {
  if (static_cast<rank_t>(m.size()) != t.size()) throw Error(Errc::invalid_count, "one block size per rank needed");
  std::vector<std::int64_t> s(m.begin(), m.end());
  const auto order = t.top_down();
  for (std::size_t q = order.size(); q-- > 1;) s[at(t.parent(order[q]))] += s[at(order[q])];
  return s;
}

}  // namespace optcoll::trees
