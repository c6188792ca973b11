// Oracles for the tree tests, written independently of src/trees/:
//  - every tree on p <= 7 ranks, with every receive order of every node's
//    children, filtered by a structural predicate (is_ordered, ...), so that
//    the DPs' optima can be checked by plain enumeration and the evaluator;
//  - the plain O(p^5) recursion over (range, root) for ordered trees, the
//    "naive DP" the fast homogeneous DP is checked against;
//  - a random instance generator.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <vector>

#include "optcoll/trees/evaluate.hpp"
#include "optcoll/trees/model.hpp"
#include "optcoll/trees/tree.hpp"

namespace optcoll::trees::testing {

// Calls `emit(root, children)` for every rooted tree on [0, p) and every
// order of every node's children list. p <= 7.
inline void for_each_tree(rank_t p, const std::function<void(rank_t, const std::vector<std::vector<rank_t>>&)>& emit) {
  const auto n = static_cast<std::size_t>(p);
  std::vector<rank_t> parent(n);
  for (rank_t root = 0; root < p; ++root) {
    // Parent arrays: every non-root rank picks a parent; keep the acyclic ones.
    std::vector<rank_t> digits(n, 0);
    while (true) {
      bool ok = true;
      for (std::size_t v = 0; v < n && ok; ++v) {
        parent[v] = static_cast<rank_t>(v) == root ? -1 : digits[v];
        if (parent[v] == static_cast<rank_t>(v)) ok = false;
      }
      for (std::size_t v = 0; v < n && ok; ++v) {  // reaches the root within p steps
        rank_t x = static_cast<rank_t>(v);
        for (rank_t s = 0; s < p && x != root; ++s) x = parent[static_cast<std::size_t>(x)];
        ok = x == root;
      }
      if (ok) {
        std::vector<std::vector<rank_t>> kids(n);
        for (std::size_t v = 0; v < n; ++v)
          if (parent[v] >= 0) kids[static_cast<std::size_t>(parent[v])].push_back(static_cast<rank_t>(v));
        // Every combination of children orders, node by node.
        std::function<void(std::size_t)> orders = [&](std::size_t v) {
          if (v == n) return emit(root, kids);
          std::sort(kids[v].begin(), kids[v].end());
          do {
            orders(v + 1);
          } while (std::next_permutation(kids[v].begin(), kids[v].end()));
        };
        orders(0);
      }
      std::size_t d = 0;  // next parent array (odometer over the non-root digits)
      for (; d < n; ++d) {
        if (static_cast<rank_t>(d) == root) continue;
        if (++digits[d] < p) break;
        digits[d] = 0;
      }
      if (d == n) break;
    }
  }
}

inline Tree make_tree(rank_t root, const std::vector<std::vector<rank_t>>& kids, CopyRule rule) {
  TreeBuilder b(static_cast<rank_t>(kids.size()));
  for (std::size_t v = 0; v < kids.size(); ++v)
    for (rank_t c : kids[v]) b.add_child(static_cast<rank_t>(v), c);
  return std::move(b).build(root, rule);
}

// All trees on p ranks with the copy rule, that satisfy `keep`.
inline std::vector<Tree> all_trees(rank_t p, CopyRule rule, const std::function<bool(const Tree&)>& keep) {
  std::vector<Tree> out;
  for_each_tree(p, [&](rank_t root, const std::vector<std::vector<rank_t>>& kids) {
    Tree t = make_tree(root, kids, rule);
    if (keep(t)) out.push_back(std::move(t));
  });
  return out;
}

// min over trees (with the given root, if any) of the completion time.
inline double best_time(const std::vector<Tree>& trees, const std::vector<std::int64_t>& m, const CostModel& model,
                        std::optional<rank_t> root, Direction d = Direction::gather) {
  double best = std::numeric_limits<double>::infinity();
  for (const Tree& t : trees)
    if (!root || t.root() == *root) best = std::min(best, completion_time(t, m, model, d));
  return best;
}

// The ordered optimum by the recursion over (range, root), memoized in a
// plain 3-d table: T(i, j, r) = min over the root's last child, an interval
// [k+1, j] (k >= r) or [i, k] (k < r) rooted at any r', of
// max(rest, T(child)) + cost, rest = T(root side, r), where a root side {r}
// has not copied yet: gamma m_r first (child on the right), or the copy after
// the child (child on the left). Any cost model.
inline double naive_ordered(const std::vector<std::int64_t>& m, const CostModel& model, std::optional<rank_t> root,
                            Direction d = Direction::gather) {
  const auto p = static_cast<rank_t>(m.size());
  const auto n = static_cast<std::size_t>(p);
  constexpr double inf = std::numeric_limits<double>::infinity();
  std::vector<double> T(n * n * n, inf);
  auto t = [&](rank_t i, rank_t j, rank_t r) -> double& {
    return T[(static_cast<std::size_t>(i) * n + static_cast<std::size_t>(j)) * n + static_cast<std::size_t>(r)];
  };
  auto size = [&](rank_t i, rank_t j) {
    std::int64_t s = 0;
    for (rank_t x = i; x <= j; ++x) s += m[static_cast<std::size_t>(x)];
    return s;
  };
  for (rank_t len = 1; len <= p; ++len)
    for (rank_t i = 0; i + len <= p; ++i) {
      const rank_t j = i + len - 1;
      for (rank_t r = i; r <= j; ++r) {
        if (len == 1) {
          t(i, j, r) = 0;
          continue;
        }
        double best = inf;
        for (rank_t k = i; k < j; ++k) {
          const bool right = k >= r;  // the last child is [k+1, j]
          const rank_t ci = right ? k + 1 : i, cj = right ? j : k;
          const std::int64_t s = size(ci, cj);
          for (rank_t rr = ci; rr <= cj; ++rr) {
            const double cost = model.edge(d, rr, r, s);
            double v = 0;
            if (right) {
              const double rest = k == i ? model.copy(r, m[static_cast<std::size_t>(r)]) : t(i, k, r);
              v = std::max(rest, t(ci, cj, rr)) + cost;
            } else if (k + 1 == j) {
              v = t(ci, cj, rr) + cost + model.copy(r, m[static_cast<std::size_t>(r)]);
            } else {
              v = std::max(t(k + 1, j, r), t(ci, cj, rr)) + cost;
            }
            best = std::min(best, v);
          }
        }
        t(i, j, r) = best;
      }
    }
  if (root) return t(0, p - 1, *root);
  double best = inf;
  for (rank_t r = 0; r < p; ++r) best = std::min(best, t(0, p - 1, r));
  return best;
}

// Block sizes with zeros, small and large values mixed.
inline std::vector<std::int64_t> random_sizes(std::mt19937_64& rng, rank_t p) {
  std::vector<std::int64_t> m(static_cast<std::size_t>(p));
  const int kind = static_cast<int>(rng() % 4);
  for (auto& x : m) {
    const auto u = rng() % 100;
    if (kind == 0) x = static_cast<std::int64_t>(rng() % 20);
    if (kind == 1) x = u < 20 ? 0 : static_cast<std::int64_t>(rng() % 200);
    if (kind == 2) x = u < 15 ? 1000 + static_cast<std::int64_t>(rng() % 1000) : static_cast<std::int64_t>(rng() % 10);
    if (kind == 3) x = 1 + static_cast<std::int64_t>(rng() % 3);
  }
  return m;
}

// Integral alpha, beta, gamma (exact arithmetic), gamma <= beta or not.
inline CostModel random_model(std::mt19937_64& rng) {
  const double alpha = static_cast<double>(rng() % 60), beta = static_cast<double>(1 + rng() % 3);
  const double gamma = static_cast<double>(rng() % 4);
  return CostModel::homogeneous(alpha, beta, gamma);
}

}  // namespace optcoll::trees::testing
