// The completion-time evaluator (Definition 2): a bottom-up pass over the
// tree in reverse breadth-first order, O(p). It knows nothing about how a
// tree was built; the constructions' own cost tables are checked against it.
#include "optcoll/trees/evaluate.hpp"

#include <algorithm>

#include "optcoll/error.hpp"

namespace optcoll::trees {

std::vector<double> subtree_times(const Tree& t, std::span<const std::int64_t> m, const CostModel& model, Direction d) {
  if (static_cast<rank_t>(m.size()) != t.size()) throw Error(Errc::invalid_count, "one block size per rank needed");
  if (!model.homogeneous() && model.p() != t.size())
    throw Error(Errc::invalid_count, "the pairwise cost model is for another p");
  const std::vector<std::int64_t> size = subtree_sizes(t, m);
  std::vector<double> time(m.size(), 0.0);
  const auto order = t.top_down();
  for (std::size_t q = order.size(); q-- > 0;) {
    const rank_t v = order[q];
    const auto kids = t.children(v);
    if (kids.empty()) continue;  // Time(T_{v}) = 0: a leaf sends from its own buffer
    const std::int64_t copy_at = t.copy_after(v);
    double clock = 0;
    for (std::size_t k = 0; k <= kids.size(); ++k) {
      if (static_cast<std::int64_t>(k) == copy_at) clock += model.copy(v, m[static_cast<std::size_t>(v)]);  // Eq. 2
      if (k == kids.size()) break;
      const rank_t c = kids[k];
      const auto cu = static_cast<std::size_t>(c);
      clock = std::max(clock, time[cu]) + model.edge(d, c, v, size[cu]);  // Eq. 1
    }
    time[static_cast<std::size_t>(v)] = clock;
  }
  return time;
}

double completion_time(const Tree& t, std::span<const std::int64_t> m, const CostModel& model, Direction d) {
  return subtree_times(t, m, model, d)[static_cast<std::size_t>(t.root())];
}

}  // namespace optcoll::trees
