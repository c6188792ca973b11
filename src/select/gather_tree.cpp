// The irregular gather/scatter tree rule (select/select.hpp): TWO where
// Lemma 2 of Traff 2018 makes it optimal, else the adaptive binomial tree.
#include <optional>

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
  std::int64_t q = 0;
  while ((plan::rank_t{1} << q) < p - 1) ++q;
  const double xs = static_cast<double>(two->x) * static_cast<double>(p - 1);
  if (static_cast<double>(q) * ab.alpha + ab.beta * xs > ab.beta * static_cast<double>(two->y)) return std::nullopt;
  return two;
}

}  // namespace optcoll::select
