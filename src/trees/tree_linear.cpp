// Linear (star) gather/scatter tree (Traff 2018, §5.1 "Linear"): the root
// receives every other block directly, one after the other, so it pays
// (p-1) start-ups; blocks of size 0 are not sent (comm(0) = 0).
//
// Example, p = 4, root 2: children 0, 1, 3 in rank order, the copy of m_2
// between 1 and 3; Time = comm(m_0) + comm(m_1) + gamma m_2 + comm(m_3),
// since every child is a leaf that is ready at time 0.
#include "optcoll/error.hpp"
#include "optcoll/trees/constructions.hpp"
#include "optcoll/trees/evaluate.hpp"

namespace optcoll::trees {

Tree linear_tree(rank_t p, rank_t root) {
  TreeBuilder b(p);
  if (root < 0 || root >= p) throw Error(Errc::invalid_root, "root out of range");
  for (rank_t i = 0; i < p; ++i)
    if (i != root) b.add_child(root, i);
  return std::move(b).build(root, CopyRule::rank_order);
}

TreeResult linear(std::span<const std::int64_t> m, const CostModel& model, std::optional<rank_t> root, Direction d) {
  const auto p = static_cast<rank_t>(m.size());
  if (p < 1) throw Error(Errc::invalid_p, "no block sizes");
  if (root && (*root < 0 || *root >= p)) throw Error(Errc::invalid_root, "root out of range");
  // Time(star at c) = sum_{i != c} comm(i, c, m_i) + gamma_c m_c: the
  // leaves are ready at 0, so the root's sequence is never idle.
  double all = 0;  // homogeneous: the sum over every i, corrected per root
  if (model.homogeneous())
    for (rank_t i = 0; i < p; ++i) all += model.comm(i, 0, m[static_cast<std::size_t>(i)]);
  const auto star = [&](rank_t c) {
    if (p == 1) return 0.0;
    double t = 0;
    if (model.homogeneous()) {
      t = all - model.comm(c, 0, m[static_cast<std::size_t>(c)]);
    } else {
      for (rank_t i = 0; i < p; ++i)
        if (i != c) t += model.edge(d, i, c, m[static_cast<std::size_t>(i)]);
    }
    return t + model.copy(c, m[static_cast<std::size_t>(c)]);
  };
  rank_t r = root.value_or(0);
  double best = star(r);
  if (!root)
    for (rank_t c = 1; c < p; ++c)
      if (const double t = star(c); t < best) best = t, r = c;
  Tree t = linear_tree(p, r);
  const double time = completion_time(t, m, model, d);
  return {std::move(t), time, best};
}

}  // namespace optcoll::trees
