// Optimal ordered gather/scatter trees, homogeneous model (Traff 2018,
// Figure 6 and Theorem 2; Proposition 3 and Eqs. 3-6 for the splits).
//
// C[i,j] is the least completion time of an ordered tree over ranks [i, j]
// with any root. Its root receives its last child's subtree, [k+1, j] or
// [i, k], from that subtree's root; the rest is an ordered tree with the same
// root (Proposition 3). For a split with two non-singleton sides,
//   max(C[i,k], C[k+1,j]) + min(comm(S[i,k]), comm(S[k+1,j]))
// (the smaller side sends; Figure 6). A singleton side {i} or {j} is either
// a leaf child (comm of its block) or the root, which then has not copied
// yet: Eq. 5, max(gamma m_i, C[i+1,j]) + comm(S[i+1,j]), or Eq. 6,
// C[i,j-1] + comm(S[i,j-1]) + gamma m_j. Figure 6 as printed allows the
// singleton root only for j = i+1 and no left singleton at all; with them
// in every split, C is the optimum over all ordered trees (the tests check
// it against an exhaustive search).
//
// A fixed root r (§3.2): F[i,j] for i <= r <= j is the best tree over [i, j]
// rooted at r: the root side always holds r, the other side is any C.
//
// Speed: the p^3/6 split evaluations are the whole cost. They run tile by
// tile (T rows i at once, j ascending, i descending) so that the column
// C[., j] stays in cache for T ranges, in a vectorized loop that computes
// exactly the scalar formula (dp_kernel.hpp). Only values are stored;
// reconstruction re-scans the O(p) ranges on the tree's root chains with the
// scalar formula, first minimum in a fixed scan order. Memory: p^2 doubles
// (C and its transpose, packed), plus (r+1)(p-r) twice for a fixed root.
//
// Example, m = [2, 3, 3, 3], alpha 1, beta 1, gamma 1 (Proposition 1 gives
// 2 alpha + 11 = 13): C[0,1] = 6, C[2,3] = 7, C[0,3] = max(6, 7) + comm(5) = 13.
#include <algorithm>
#include <limits>
#include <memory>

#include "dp_kernel.hpp"
#include "dp_table.hpp"
#include "optcoll/error.hpp"
#include "optcoll/trees/constructions.hpp"
#include "optcoll/trees/evaluate.hpp"

namespace optcoll::trees {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr rank_t kTile = 16;
using detail::Problem;
using detail::Table;

// F[i][j] for i in [0, r], j in [r, p): the trees rooted at r.
class Fixed {
 public:
  Fixed(rank_t p, rank_t r) : r_(r), w_(p - r), row_(at(r + 1) * at(w_)), col_(row_.size()) {}
  double get(rank_t i, rank_t j) const { return row_[at(i) * at(w_) + at(j - r_)]; }
  void set(rank_t i, rank_t j, double v) {
    row_[at(i) * at(w_) + at(j - r_)] = col_[at(j - r_) * at(r_ + 1) + at(i)] = v;
  }
  const double* row(rank_t i, rank_t j) const { return row_.data() + at(i) * at(w_) + at(j - r_); }
  const double* col(rank_t j, rank_t i) const { return col_.data() + at(j - r_) * at(r_ + 1) + at(i); }

 private:
  static std::size_t at(rank_t x) { return static_cast<std::size_t>(x); }
  rank_t r_, w_;
  std::vector<double> row_, col_;
};

void fill_free(const Problem& q, Table& C, rank_t i, rank_t j) {
  const rank_t len = j - i + 1;
  const auto u = detail::at;
  if (len == 1) return C.set(i, j, 0.0);
  if (len == 2) {
    return C.set(i, j, std::min(q.gm[u(i)] + q.comm(q.S(j, j)), q.comm(q.S(i, i)) + q.gm[u(j)]));
  }
  double best = std::max(q.gm[u(i)], C.get(i + 1, j)) + q.comm(q.S(i + 1, j));  // Eq. 5: root i
  best = std::min(best, C.get(i + 1, j) + q.comm(q.S(i, i)));                   // leaf i last
  best = std::min(best, C.get(i, j - 1) + q.comm(q.S(i, j - 1)) + q.gm[u(j)]);  // Eq. 6: root j
  best = std::min(best, C.get(i, j - 1) + q.comm(q.S(j, j)));                   // leaf j last
  const rank_t n = len - 3;                                                     // k in [i+1, j-2]
  if (n > 0)
    best = std::min(best, detail::min_split(C.row(i, i + 1), C.col(j, i + 2), q.P.data() + i + 2, n, q.P[u(i)],
                                            q.P[u(j + 1)], q.comm));
  C.set(i, j, best);
}

void fill_fixed(const Problem& q, const Table& C, Fixed& F, rank_t r, rank_t i, rank_t j) {
  const auto u = detail::at;
  if (i == j) return F.set(i, j, 0.0);
  double best = kInf;
  // Last child on the right, [k+1, j] for k in [r, j-1]; the root side [i, k].
  if (j > r) {
    rank_t k0 = r;
    if (i == r) {
      best = std::max(q.gm[u(r)], C.get(r + 1, j)) + q.comm(q.S(r + 1, j));  // Eq. 5
      k0 = r + 1;
    }
    if (j - k0 > 0)
      best = std::min(best, detail::min_split(F.row(i, k0), C.col(j, k0 + 1), q.P.data() + k0 + 1, j - k0, -kInf,
                                              q.P[u(j + 1)], q.comm));
  }
  // Last child on the left, [i, k] for k in [i, r-1]; the root side [k+1, j].
  if (i < r) {
    rank_t k1 = r - 1;  // last k of the general case
    if (j == r) {
      best = std::min(best, C.get(i, r - 1) + q.comm(q.S(i, r - 1)) + q.gm[u(r)]);  // Eq. 6
      k1 = r - 2;
    }
    if (k1 >= i)
      best = std::min(best, detail::min_split(C.row(i, i), F.col(j, i + 1), q.P.data() + i + 1, k1 - i + 1, q.P[u(i)],
                                              kInf, q.comm));
  }
  F.set(i, j, best);
}

// The split of [i, j] a reconstruction takes: the root side is [i, k] if
// root_left, else [k+1, j]. Scan: k ascending; at k = i the singleton root i
// first, elsewhere the root on the right first; strictly smaller wins.
struct Choice {
  rank_t k;
  bool root_left;
};

Choice choose_free(const Problem& q, const Table& C, rank_t i, rank_t j) {
  const auto u = detail::at;
  Choice c{i, true};
  double best = kInf;
  auto take = [&](double v, rank_t k, bool left) {
    if (v < best) best = v, c = {k, left};
  };
  if (j == i + 1) {
    take(q.gm[u(i)] + q.comm(q.S(j, j)), i, true);
    take(q.comm(q.S(i, i)) + q.gm[u(j)], i, false);
    return c;
  }
  take(std::max(q.gm[u(i)], C.get(i + 1, j)) + q.comm(q.S(i + 1, j)), i, true);
  take(C.get(i + 1, j) + q.comm(q.S(i, i)), i, false);
  for (rank_t k = i + 1; k < j - 1; ++k) {
    const double mx = std::max(C.get(i, k), C.get(k + 1, j));
    take(mx + q.comm(q.S(i, k)), k, false);
    take(mx + q.comm(q.S(k + 1, j)), k, true);
  }
  take(C.get(i, j - 1) + q.comm(q.S(i, j - 1)) + q.gm[u(j)], j - 1, false);
  take(C.get(i, j - 1) + q.comm(q.S(j, j)), j - 1, true);
  return c;
}

Choice choose_fixed(const Problem& q, const Table& C, const Fixed& F, rank_t r, rank_t i, rank_t j) {
  const auto u = detail::at;
  Choice c{i, true};
  double best = kInf;
  auto take = [&](double v, rank_t k, bool left) {
    if (v < best) best = v, c = {k, left};
  };
  for (rank_t k = i; k < j; ++k) {
    if (k < r) {  // root side [k+1, j]
      take(k + 1 == j ? C.get(i, r - 1) + q.comm(q.S(i, r - 1)) + q.gm[u(r)]
                      : std::max(C.get(i, k), F.get(k + 1, j)) + q.comm(q.S(i, k)),
           k, false);
    } else {  // root side [i, k]
      take(k == i ? std::max(q.gm[u(r)], C.get(r + 1, j)) + q.comm(q.S(r + 1, j))
                  : std::max(F.get(i, k), C.get(k + 1, j)) + q.comm(q.S(k + 1, j)),
           k, true);
    }
  }
  return c;
}

}  // namespace

struct OptimalTrees::Impl {
  std::vector<std::int64_t> m;
  CostModel model;
  Problem q;
  Table C;
  Impl(std::span<const std::int64_t> m_, const CostModel& model_)
      : m(m_.begin(), m_.end()), model(model_), q(m_, model_), C(q.p) {
    const rank_t p = q.p;
    for (rank_t top = p - 1; top >= 0; top -= kTile) {
      const rank_t bottom = std::max<rank_t>(0, top - kTile + 1);
      for (rank_t j = bottom; j < p; ++j)
        for (rank_t i = std::min(top, j); i >= bottom; --i) fill_free(q, C, i, j);
    }
  }

  // Peels each range's root side down to its root; the peeled other sides
  // are the root's children, the last received first.
  TreeResult build(const Fixed* F, rank_t r) const {
    const rank_t p = q.p;
    TreeBuilder b(p);
    struct Task {
      rank_t i, j, parent;
    };
    std::vector<Task> stack{{0, p - 1, -1}};
    std::vector<std::pair<rank_t, rank_t>> peeled;
    rank_t tree_root = 0;
    while (!stack.empty()) {
      const Task t = stack.back();
      stack.pop_back();
      rank_t x = t.i, y = t.j;
      peeled.clear();
      while (x < y) {
        const Choice c = F != nullptr && x <= r && r <= y ? choose_fixed(q, C, *F, r, x, y) : choose_free(q, C, x, y);
        if (c.root_left) {
          peeled.emplace_back(c.k + 1, y);
          y = c.k;
        } else {
          peeled.emplace_back(x, c.k);
          x = c.k + 1;
        }
      }
      if (t.parent < 0) {
        tree_root = x;
      } else {
        b.add_child(t.parent, x);
      }
      for (const auto& [a, e] : peeled) stack.push_back({a, e, x});  // the first received is popped first
    }
    TreeResult res{std::move(b).build(tree_root, CopyRule::ordered), 0,
                   F != nullptr ? F->get(0, p - 1) : C.get(0, p - 1)};
    res.time = completion_time(res.tree, m, model);
    return res;
  }
};

OptimalTrees::OptimalTrees(std::span<const std::int64_t> m, const CostModel& model)
    : impl_(std::make_unique<Impl>(m, model)) {}
OptimalTrees::~OptimalTrees() = default;
OptimalTrees::OptimalTrees(OptimalTrees&&) noexcept = default;
OptimalTrees& OptimalTrees::operator=(OptimalTrees&&) noexcept = default;

TreeResult OptimalTrees::best() const {
  return impl_->build(nullptr, -1);
}

TreeResult OptimalTrees::rooted(rank_t r) const {
  const Problem& q = impl_->q;
  const rank_t p = q.p;
  if (r < 0 || r >= p) throw Error(Errc::invalid_root, "root out of range");
  Fixed F(p, r);
  for (rank_t top = r; top >= 0; top -= kTile) {
    const rank_t bottom = std::max<rank_t>(0, top - kTile + 1);
    for (rank_t j = r; j < p; ++j)
      for (rank_t i = top; i >= bottom; --i) fill_fixed(q, impl_->C, F, r, i, j);
  }
  return impl_->build(&F, r);
}

TreeResult optimal_tree(std::span<const std::int64_t> m, const CostModel& model, std::optional<rank_t> root) {
  const OptimalTrees dp(m, model);
  return root ? dp.rooted(*root) : dp.best();
}

}  // namespace optcoll::trees
