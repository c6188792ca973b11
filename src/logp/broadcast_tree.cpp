// B(P) in one BFS pass (Karp et al. 1993, Definitions 2.3-2.4).
//
// With T = B(P) and c = P(T-1) nodes labelled below T, B(P) holds every node
// of the universal tree labelled < T and P - c of those labelled T. A node
// labelled x gets the children x + d + i*g (d = L + 2o) in BFS order while
// they are < T, then while they equal T and the quota P - c lasts. The
// labels below T are closed under taking parents, so the result is a tree
// and the kept label-T nodes are children of nodes already present.
#include "optcoll/logp/broadcast_tree.hpp"

#include "text.hpp"

#include <algorithm>
#include <numeric>

#include "optcoll/error.hpp"
#include "optcoll/logp/fibonacci.hpp"

namespace optcoll::logp {

BroadcastTree::BroadcastTree(proc_t P, const Params& params) : params_(params) {
  validate(params);
  if (P < 1) throw Error(Errc::invalid_p, detail::format("B(P) needs P >= 1, got {}", P));
  completion_ = broadcast_time(P, params);
  const std::int64_t T = completion_;
  const std::int64_t below = *reachable(T - 1, params);  // < P, so no overflow
  std::int64_t quota = P - below - (T == 0 ? 1 : 0);     // label-T nodes to add (the root is there)
  const auto n = static_cast<std::size_t>(P);
  label_.assign(n, 0);
  parent_.assign(n, -1);
  first_.assign(n + 1, 0);
  const std::int64_t d = params.hop();
  proc_t next = 1;  // next free BFS id
  for (proc_t v = 0; v < P; ++v) {
    first_[idx(v)] = next;
    for (std::int64_t x = label_[idx(v)] + d; x <= T && next < P; x += params.g) {
      if (x == T) {
        if (quota == 0) break;
        --quota;
      }
      label_[idx(next)] = x;
      parent_[idx(next)] = v;
      ++next;
    }
  }
  first_[n] = next;
  if (next != P || quota != 0)
    throw Error(Errc::internal, detail::format("B({}) for {}: built {} nodes, quota {}", P, params.str(), next, quota));
}

std::int64_t BroadcastTree::delay_sum() const noexcept {
  return std::accumulate(label_.begin(), label_.end(), std::int64_t{0});
}

std::vector<std::int64_t> BroadcastTree::subtree_height() const {
  std::vector<std::int64_t> deepest(label_);
  // BFS order: children have larger ids than their parent.
  for (proc_t v = size() - 1; v > 0; --v) {
    auto& up = deepest[idx(parent(v))];
    up = std::max(up, deepest[idx(v)]);
  }
  for (std::size_t v = 0; v < deepest.size(); ++v) deepest[v] -= label_[v];
  return deepest;
}

Schedule broadcast_schedule(const BroadcastTree& tree) {
  Schedule s;
  s.name = detail::format("B({}) broadcast, {}", tree.size(), tree.params().str());
  s.params = tree.params();
  s.P = tree.size();
  s.items = 1;
  s.origins.push_back({0, 0, 0, 1});
  s.messages.reserve(static_cast<std::size_t>(tree.size() - 1));
  for (proc_t v = 0; v < tree.size(); ++v)
    for (proc_t i = 0; i < tree.num_children(v); ++i)
      s.messages.push_back({tree.send_time(v, i), v, tree.first_child(v) + i, 0, 1});
  s.lower_bound = tree.completion();
  s.promised_completion = tree.completion();
  return s;
}

TreeShape tree_shape(const BroadcastTree& tree, proc_t root) {
  const proc_t P = tree.size();
  if (root < 0 || root >= P) throw Error(Errc::invalid_root, detail::format("root {} outside [0, {})", root, P));
  const std::vector<std::int64_t> height = tree.subtree_height();
  auto rank = [&](proc_t v) { return v + root >= P ? v + root - P : v + root; };
  TreeShape s;
  s.root = root;
  s.parent.assign(static_cast<std::size_t>(P), -1);
  s.child_offset.assign(static_cast<std::size_t>(P) + 1, 0);
  s.children.reserve(static_cast<std::size_t>(P > 0 ? P - 1 : 0));
  std::vector<proc_t> kids;
  for (proc_t r = 0; r < P; ++r) {
    const proc_t v = r >= root ? r - root : r - root + P;  // tree node at rank r
    s.child_offset[static_cast<std::size_t>(r)] = static_cast<proc_t>(s.children.size());
    if (v > 0) s.parent[static_cast<std::size_t>(r)] = rank(tree.parent(v));
    kids.clear();
    for (proc_t c = tree.first_child(v); c < tree.first_child(v) + tree.num_children(v); ++c) kids.push_back(c);
    std::stable_sort(kids.begin(), kids.end(), [&](proc_t a, proc_t b) {
      const auto ha = height[static_cast<std::size_t>(a)];
      const auto hb = height[static_cast<std::size_t>(b)];
      return ha != hb ? ha > hb : tree.delay(a) < tree.delay(b);
    });
    for (proc_t c : kids) s.children.push_back(rank(c));
  }
  s.child_offset[static_cast<std::size_t>(P)] = static_cast<proc_t>(s.children.size());
  return s;
}

}  // namespace optcoll::logp
