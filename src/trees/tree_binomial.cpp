// Oblivious rank-ordered binomial gather/scatter tree (Traff 2018, §5.1
// "Oblivious", built like the adaptive tree of [20] but without looking at
// the block sizes).
//
// Round k = 0, 1, ..., ceil(log2 p) - 1 merges the aligned groups
// L = [a, a+2^k) and R = [a+2^k, min(a+2^(k+1), p)) for a = 0, 2^(k+1), ...:
// the group holding the root receives; otherwise R's root receives, so a
// group without the root is rooted at its last rank. Every subtree is an
// interval and every node's children extend its interval (is_ordered()).
//
// Example, p = 6, root 2: k = 0: 1 receives 0 (the right group), 2 receives
// 3 (it holds the root), 5 receives 4; k = 1: 2 receives [0,1] from 1;
// k = 2: 2 receives [4,5] from 5. Root 2's children in order: 3, 1, 5.
#include <limits>

#include "optcoll/error.hpp"
#include "optcoll/trees/constructions.hpp"
#include "optcoll/trees/evaluate.hpp"

namespace optcoll::trees {

Tree binomial_tree(rank_t p, rank_t root) {
  if (p < 1) throw Error(Errc::invalid_p, "a tree needs p >= 1");
  if (root < 0 || root >= p) throw Error(Errc::invalid_root, "root out of range");
  TreeBuilder b(p);
  for (rank_t w = 1; w < p; w *= 2) {
    for (rank_t a = 0; a + w < p; a += 2 * w) {
      const rank_t end = std::min(a + 2 * w, p);
      const bool in_left = root >= a && root < a + w;
      const bool in_right = root >= a + w && root < end;
      const rank_t x = in_left ? root : a + w - 1;  // root of L
      const rank_t y = in_right ? root : end - 1;   // root of R
      if (in_left) {
        b.add_child(x, y);
      } else {
        b.add_child(y, x);
      }
    }
  }
  return std::move(b).build(root, CopyRule::ordered);
}

TreeResult binomial(std::span<const std::int64_t> m, const CostModel& model, std::optional<rank_t> root, Direction d) {
  const auto p = static_cast<rank_t>(m.size());
  if (root) {
    Tree t = binomial_tree(p, *root);
    const double time = completion_time(t, m, model, d);
    return {std::move(t), time, time};
  }
  // Candidates in increasing order: 0, 1, 3, 7, ..., p-1.
  std::vector<rank_t> cand{0};
  for (rank_t c = 1; c < p; c = 2 * c + 1) cand.push_back(c);
  if (cand.back() != p - 1) cand.push_back(p - 1);
  TreeResult best{Tree{}, std::numeric_limits<double>::infinity(), 0};
  for (rank_t c : cand) {
    Tree t = binomial_tree(p, c);
    const double time = completion_time(t, m, model, d);
    if (time < best.time) best = {std::move(t), time, time};
  }
  return best;
}

TreeResult binomial_exhaustive_root(std::span<const std::int64_t> m, const CostModel& model, Direction d) {
  const auto p = static_cast<rank_t>(m.size());
  TreeResult best{Tree{}, std::numeric_limits<double>::infinity(), 0};
  for (rank_t c = 0; c < p; ++c) {
    Tree t = binomial_tree(p, c);
    const double time = completion_time(t, m, model, d);
    if (time < best.time) best = {std::move(t), time, time};
  }
  return best;
}

}  // namespace optcoll::trees
