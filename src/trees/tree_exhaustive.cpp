// Optimal non-ordered gather/scatter trees by exhaustive search (Traff 2018,
// Proposition 2 and Eqs. 7-8), for small p: the reference that shows on the
// PARTITION example of §4 that ordered trees can be slower (983 vs 982).
//
// f[M, r] is the least completion time of any tree over the rank set M
// rooted at r. Its root's last child is the subtree over some non-empty
// R' of M \ {r} with root r'; the rest is a tree over M \ R' rooted at r:
//   f[M, r] = min over R', r' of max(f[M \ R', r], f[R', r']) + comm_{r'r}(Size(R'))
// where f[{r}, r] is replaced by gamma_r m_r: a non-ordered root copies its
// block first, concurrently with its first child (Eq. 8; copying later
// is never better). Homogeneous costs do not depend on r', so only
// min over r' of f[R', r'] is needed.
//
// Time O(3^p p) homogeneous, O(3^p p^2) pairwise; memory O(2^p p).
#include <algorithm>
#include <bit>
#include <limits>

#include "optcoll/error.hpp"
#include "optcoll/trees/constructions.hpp"
#include "optcoll/trees/evaluate.hpp"

namespace optcoll::trees {

TreeResult optimal_unordered_tree(std::span<const std::int64_t> m, const CostModel& model, std::optional<rank_t> root,
                                  Direction d) {
  const auto p = static_cast<rank_t>(m.size());
  if (p < 1 || p > 14) throw Error(Errc::invalid_p, "the exhaustive tree search needs 1 <= p <= 14");
  if (!model.homogeneous() && model.p() != p) throw Error(Errc::invalid_count, "the cost model is for another p");
  if (root && (*root < 0 || *root >= p)) throw Error(Errc::invalid_root, "root out of range");
  const std::uint32_t full = (std::uint32_t{1} << p) - 1;
  const auto n = static_cast<std::size_t>(p);
  const auto at = [](auto x) { return static_cast<std::size_t>(x); };
  constexpr double kInf = std::numeric_limits<double>::infinity();

  std::vector<std::int64_t> size(at(full) + 1, 0);
  for (std::uint32_t s = 1; s <= full; ++s) {
    const int low = std::countr_zero(s);
    size[s] = size[s & (s - 1)] + m[at(low)];
  }
  std::vector<double> f((at(full) + 1) * n, kInf), g(at(full) + 1, kInf);
  std::vector<std::uint32_t> pick_set((at(full) + 1) * n, 0);
  std::vector<std::int8_t> pick_root((at(full) + 1) * n, -1), g_root(at(full) + 1, -1);

  for (std::uint32_t mask = 1; mask <= full; ++mask) {
    for (rank_t r = 0; r < p; ++r) {
      const std::uint32_t bit = std::uint32_t{1} << r;
      if ((mask & bit) == 0) continue;
      const std::size_t cell = mask * n + at(r);
      if (mask == bit) {
        f[cell] = 0;
      } else {
        const std::uint32_t others = mask ^ bit;
        for (std::uint32_t sub = others; sub != 0; sub = (sub - 1) & others) {
          const std::uint32_t keep = mask ^ sub;
          const double l = keep == bit ? model.copy(r, m[at(r)]) : f[keep * n + at(r)];
          if (model.homogeneous()) {
            const double v = std::max(l, g[sub]) + model.comm(0, 0, size[sub]);
            if (v < f[cell]) f[cell] = v, pick_set[cell] = sub, pick_root[cell] = g_root[sub];
          } else {
            for (rank_t rr = 0; rr < p; ++rr) {
              if ((sub >> rr & 1U) == 0) continue;
              const double v = std::max(l, f[sub * n + at(rr)]) + model.edge(d, rr, r, size[sub]);
              if (v < f[cell]) f[cell] = v, pick_set[cell] = sub, pick_root[cell] = static_cast<std::int8_t>(rr);
            }
          }
        }
      }
      if (f[cell] < g[mask]) g[mask] = f[cell], g_root[mask] = static_cast<std::int8_t>(r);
    }
  }

  const rank_t r0 = root.value_or(g_root[full]);
  TreeBuilder b(p);
  struct Task {
    std::uint32_t mask;
    rank_t r;
  };
  std::vector<Task> stack{{full, r0}}, peeled;
  while (!stack.empty()) {
    const Task t = stack.back();
    stack.pop_back();
    peeled.clear();
    for (std::uint32_t cur = t.mask; cur != (std::uint32_t{1} << t.r);) {
      const std::size_t cell = cur * n + at(t.r);
      peeled.push_back({pick_set[cell], pick_root[cell]});
      cur ^= pick_set[cell];
    }
    for (auto it = peeled.rbegin(); it != peeled.rend(); ++it) {  // receive order
      b.add_child(t.r, it->r);
      stack.push_back(*it);
    }
  }
  TreeResult res{std::move(b).build(r0, CopyRule::first), 0, f[full * n + at(r0)]};
  res.time = completion_time(res.tree, m, model, d);
  return res;
}

}  // namespace optcoll::trees
