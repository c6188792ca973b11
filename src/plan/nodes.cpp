// NodeLayout (plan/nodes.hpp).
#include "optcoll/plan/nodes.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include "optcoll/error.hpp"

namespace optcoll::plan {

NodeLayout NodeLayout::equal(rank_t p, rank_t size) {
  if (p < 1 || size < 1) throw Error(Errc::invalid_argument, "node layout: p and the node size must be positive");
  NodeLayout n;
  n.p_ = p;
  n.each_ = std::min(size, p);
  n.nodes_ = (p + n.each_ - 1) / n.each_;
  n.largest_ = n.each_;
  n.smallest_ = p - (n.nodes_ - 1) * n.each_;
  return n;
}

NodeLayout NodeLayout::of_sizes(std::vector<rank_t> sizes) {
  if (sizes.empty()) throw Error(Errc::invalid_argument, "node layout: no nodes");
  const rank_t first = sizes.front();
  bool equal_but_last = true;
  for (std::size_t k = 0; k + 1 < sizes.size(); ++k) equal_but_last = equal_but_last && sizes[k] == first;
  rank_t p = 0;
  for (const rank_t s : sizes) {
    if (s < 1) throw Error(Errc::invalid_argument, "node layout: a node without ranks");
    p += s;
  }
  if (equal_but_last && sizes.back() <= first) return equal(p, first);
  NodeLayout n;
  n.p_ = p;
  n.nodes_ = static_cast<rank_t>(sizes.size());
  n.smallest_ = *std::min_element(sizes.begin(), sizes.end());
  n.largest_ = *std::max_element(sizes.begin(), sizes.end());
  n.starts_.reserve(sizes.size() + 1);
  rank_t at = 0;
  for (const rank_t s : sizes) {
    n.starts_.push_back(at);
    at += s;
  }
  n.starts_.push_back(at);
  return n;
}

rank_t NodeLayout::size(rank_t node) const noexcept {
  if (starts_.empty()) return node + 1 < nodes_ ? each_ : p_ - node * each_;
  const auto k = static_cast<std::size_t>(node);
  return starts_[k + 1] - starts_[k];
}

rank_t NodeLayout::first(rank_t node) const noexcept {
  return starts_.empty() ? node * each_ : starts_[static_cast<std::size_t>(node)];
}

rank_t NodeLayout::node_of(rank_t rank) const noexcept {
  if (starts_.empty()) return rank / each_;
  const auto it = std::upper_bound(starts_.begin(), starts_.end(), rank);
  return static_cast<rank_t>(it - starts_.begin()) - 1;
}

std::vector<rank_t> NodeLayout::node_per_size() const {
  if (starts_.empty())
    return nodes_ > 1 && size(nodes_ - 1) != each_ ? std::vector<rank_t>{0, nodes_ - 1} : std::vector<rank_t>{0};
  std::vector<rank_t> firsts;
  std::set<rank_t> seen;
  for (rank_t k = 0; k < nodes_; ++k)
    if (seen.insert(size(k)).second) firsts.push_back(k);
  return firsts;
}

}  // namespace optcoll::plan
