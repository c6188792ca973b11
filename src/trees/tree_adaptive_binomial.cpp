// Problem-adaptive binomial gather/scatter tree (Traff 2018, Proposition 1
// and §5.1 "Adaptive", the construction of [20]).
//
// The groups of the oblivious tree (tree_binomial.cpp): round k merges the
// aligned groups L = [a, a+2^k) and R = [a+2^k, a+2^(k+1)) ∩ [0, p). Each
// group keeps its root x (of L) or y (of R), its completion time T and its
// size S. The merge lets the root whose merged tree finishes sooner receive:
//   x receives R:  max(T_L, T_R) + comm(S_R)        (L a singleton: max(gamma m_x, T_R) + comm(S_R), Eq. 5)
//   y receives L:  max(T_L, T_R) + comm(S_L)        (R a singleton: T_L + comm(S_L) + gamma m_y, Eq. 6)
// so the smaller side sends; ties go to y. A fixed root's group always
// receives. The invariant, checked by the tests: T of the final group is
// completion_time() of the tree, and with gamma = beta and no fixed root
// it is ceil(log2 p) alpha + beta sum m_i (Proposition 1).
//
// Example, m = [1500, 500, 1500, 500], alpha 100, beta 1, gamma 0: k = 0:
// 0 receives 1 (600 < 1600), 2 receives 3; k = 1: tie (2700 either way), so
// 2 receives [0,1] from 0. Root 2, Time 2700: the three other blocks (2500)
// plus two start-ups, no waiting.
#include <algorithm>

#include "optcoll/error.hpp"
#include "optcoll/trees/constructions.hpp"
#include "optcoll/trees/evaluate.hpp"

namespace optcoll::trees {

TreeResult adaptive_binomial(std::span<const std::int64_t> m, const CostModel& model, std::optional<rank_t> root,
                             Direction d) {
  const auto p = static_cast<rank_t>(m.size());
  if (p < 1) throw Error(Errc::invalid_p, "no block sizes");
  if (root && (*root < 0 || *root >= p)) throw Error(Errc::invalid_root, "root out of range");
  const auto at = [](rank_t v) { return static_cast<std::size_t>(v); };
  // Per group, indexed by its first rank a.
  std::vector<rank_t> groot(at(p));
  std::vector<double> T(at(p), 0.0);
  std::vector<std::int64_t> S(m.begin(), m.end());
  for (rank_t i = 0; i < p; ++i) groot[at(i)] = i;
  TreeBuilder b(p);
  for (rank_t w = 1; w < p; w *= 2) {
    for (rank_t a = 0; a + w < p; a += 2 * w) {
      const rank_t r0 = a + w, end = std::min(a + 2 * w, p);
      const rank_t x = groot[at(a)], y = groot[at(r0)];
      const double tl = T[at(a)], tr = T[at(r0)];
      // A singleton group's root has not copied yet: L is one only for w = 1,
      // R also when p cuts it short.
      const double ox =
          (w == 1 ? std::max(model.copy(x, m[at(x)]), tr) : std::max(tl, tr)) + model.edge(d, y, x, S[at(r0)]);
      const double oy = end - r0 == 1 ? tl + model.edge(d, x, y, S[at(a)]) + model.copy(y, m[at(y)])
                                      : std::max(tl, tr) + model.edge(d, x, y, S[at(a)]);
      bool left_receives = ox < oy;
      if (root) {
        if (*root >= a && *root < r0) left_receives = true;
        if (*root >= r0 && *root < end) left_receives = false;
      }
      if (left_receives) {
        b.add_child(x, y);
        T[at(a)] = ox;
      } else {
        b.add_child(y, x);
        T[at(a)] = oy;
        groot[at(a)] = y;
      }
      S[at(a)] += S[at(r0)];
    }
  }
  Tree t = std::move(b).build(groot[0], CopyRule::ordered);
  const double time = completion_time(t, m, model, d);
  return {std::move(t), time, T[0]};
}

}  // namespace optcoll::trees
