// The gather/scatter rules (select/select.hpp): for the irregular ones the
// linear plan where the machine's per-message overhead makes it cheaper
// than building and running a tree, TWO where Lemma 2 of Traff 2018 makes
// it optimal, else the adaptive binomial tree; for regular Scatter the
// linear plan where the root's bytes hide its per-message overheads.
#include <algorithm>
#include <optional>

#include "optcoll/model/log2.hpp"
#include "optcoll/select/select.hpp"

namespace optcoll::select {

std::optional<plan::TwoSizes> choose_two(std::span<const std::int64_t> m, plan::rank_t root, const model::AlphaBeta& ab,
                                         bool named) {
  std::optional<plan::TwoSizes> two = plan::TwoSizes::of(m);
  if (!two || named) return two;
  // Lemma 2: one y-block, at the root, and the x-blocks' own binomial tree
  // (ceil(log2(p-1)) rounds, p-1 x-blocks into the root) finishes before the
  // root has copied its y-block.
  if (two->single != root) return std::nullopt;
  const auto p = static_cast<plan::rank_t>(m.size());
  const std::int64_t q = model::ceil_log2(p - 1);
  const double xs = static_cast<double>(two->x) * static_cast<double>(p - 1);
  if (static_cast<double>(q) * ab.alpha + ab.beta * xs > ab.beta * static_cast<double>(two->y)) return std::nullopt;
  return two;
}

bool v_runs_linear(plan::rank_t p, const model::AlphaBeta& ab, double tree) {
  if (p < 3 || !(ab.o > 0)) return false;
  const std::int64_t q = model::ceil_log2(p);
  const double t = tree > 0 ? tree : static_cast<double>(q) * ab.alpha;
  const double o = std::min(ab.o, ab.alpha);
  // Regret of the linear plan: (p - 2) o - 2 t, with no bytes; of the tree:
  // 2 t, once the bytes hide the overheads (select.hpp).
  return static_cast<double>(p - 2) * o < 4 * t;
}

bool scatter_runs_linear(plan::rank_t p, std::int64_t block, const model::AlphaBeta& ab, double round, double tree) {
  if (p < 3 || !(ab.o > 0) || !(round > 0) || !(tree > 0)) return false;
  const double bytes = ab.beta * static_cast<double>(p - 1) * static_cast<double>(block);
  return round + std::max(static_cast<double>(p - 2) * ab.o, bytes) < tree + bytes;
}

}  // namespace optcoll::select
