// Optimal ordered binary gather/scatter trees, homogeneous model (Traff
// 2018, Figure 7 and Theorem 3).
//
// Every node has at most two children, each an interval, received in rank
// order, with the node's own copy in rank position (CopyRule::rank_order).
// C[i,j] is the best such tree over [i, j]; its root is i, j, or in between,
// with one or two children (the five cases of Figure 7):
//   1. root i, children [i+1,k], [k+1,j]:  max(max(g_i, C[i+1,k]) + comm(S[i+1,k]), C[k+1,j]) + comm(S[k+1,j])
//   2. root k, children [i,k-1], [k+1,j]:  max(C[i,k-1] + comm(S[i,k-1]) + g_k, C[k+1,j]) + comm(S[k+1,j])
//   3. root j, children [i,k], [k+1,j-1]:  max(C[i,k] + comm(S[i,k]), C[k+1,j-1]) + comm(S[k+1,j-1]) + g_j
//   4. root i, child [i+1,j]:              max(g_i, C[i+1,j]) + comm(S[i+1,j])
//   5. root j, child [i,j-1]:              C[i,j-1] + comm(S[i,j-1]) + g_j
// with g_x = gamma m_x. (Figure 7 prints g_i in case 5; the root there is j,
// and g_j reproduces every Binary entry of Tables 1-3, g_i does not.)
// A fixed root r only changes the last step, C[0, p-1] (§3.3): case 2 with
// k = r, or cases 1 and 4 (r = 0), or cases 3 and 5 (r = p-1).
//
// Time O(p^3): two vectorized split loops per range (below), in tiles of
// rows as in tree_dp_homogeneous.cpp; memory 2 p^2 doubles.
// Reconstruction re-scans the chosen ranges with the scalar formulas, first
// minimum in the order above (k ascending within a case).
#include <algorithm>
#include <limits>
#include <memory>

#include "dp_kernel.hpp"
#include "dp_table.hpp"
#include "optcoll/trees/constructions.hpp"
#include "optcoll/trees/evaluate.hpp"

namespace optcoll::trees {
namespace {

using detail::at;
using detail::Problem;
using detail::Table;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr rank_t kTile = 16;

// The first child's part of cases 1-3, which does not depend on j:
//   case 1: max(g_i, C[i+1,k]) + comm(S[i+1,k])
//   case 2: C[i,k-1] + comm(S[i,k-1]) + g_k
//   case 3: C[i,k] + comm(S[i,k])
// Cases 1 and 2 share the second child [k+1, j], so the fill keeps
// A12[i,k] = min(case 1, case 2) (max(min(a, a'), b) = min(max(a, b),
// max(a', b)) exactly) and A3[i,k], and each range needs two one-sided
// vectorized minima, max(A[i,k], C[k+1,j']) + comm(S[k+1,j']).
struct Dp {
  const Problem& q;
  const Table& C;
  double first1(rank_t i, rank_t k) const {
    return std::max(C.get(i + 1, k), q.gm[at(i)]) + q.comm(q.P[at(k + 1)] - q.P[at(i + 1)]);
  }
  double first2(rank_t i, rank_t k) const { return C.get(i, k - 1) + q.comm(q.P[at(k)] - q.P[at(i)]) + q.gm[at(k)]; }
  double first3(rank_t i, rank_t k) const { return C.get(i, k) + q.comm(q.P[at(k + 1)] - q.P[at(i)]); }
  // The second child [k+1, j] (j' = j - 1 for case 3).
  double second(double first, rank_t k, rank_t j) const {
    return std::max(first, C.get(k + 1, j)) + q.comm(q.P[at(j + 1)] - q.P[at(k + 1)]);
  }
};

struct Choice {
  int kase = 0;  // 1..5 as above
  rank_t k = 0;
};

// Options of [i, j] in scan order; `allowed(kase, k)` filters (fixed root).
template <class Allowed, class Take>
void scan(const Problem& q, const Table& C, rank_t i, rank_t j, Allowed allowed, Take take) {
  const Dp dp{q, C};
  for (rank_t k = i + 1; k < j; ++k)
    if (allowed(1, k)) take(dp.second(dp.first1(i, k), k, j), 1, k);
  for (rank_t k = i + 1; k < j; ++k)
    if (allowed(2, k)) take(dp.second(dp.first2(i, k), k, j), 2, k);
  for (rank_t k = i; k + 1 < j; ++k)
    if (allowed(3, k)) take(dp.second(dp.first3(i, k), k, j - 1) + q.gm[at(j)], 3, k);
  if (allowed(4, i)) take(std::max(q.gm[at(i)], C.get(i + 1, j)) + q.comm(q.S(i + 1, j)), 4, i);
  if (allowed(5, j)) take(C.get(i, j - 1) + q.comm(q.S(i, j - 1)) + q.gm[at(j)], 5, j);
}

void fill(const Problem& q, Table& C, detail::RowTable& A12, detail::RowTable& A3, rank_t i, rank_t j) {
  const Dp dp{q, C};
  if (i == j) {
    C.set(i, j, 0.0);
    A3.set(i, i, dp.first3(i, i));
    return;
  }
  const double* P = q.P.data();
  constexpr double lo = -kInf;
  if (j - 1 > i) A12.set(i, j - 1, std::min(dp.first1(i, j - 1), dp.first2(i, j - 1)));
  double best = std::max(q.gm[at(i)], C.get(i + 1, j)) + q.comm(q.S(i + 1, j));
  best = std::min(best, C.get(i, j - 1) + q.comm(q.S(i, j - 1)) + q.gm[at(j)]);
  if (const rank_t n = j - i - 1; n > 0) {  // k in [i+1, j-1] (cases 1, 2) and [i, j-2] (case 3)
    best = std::min(best, detail::min_split(A12.row(i, i + 1), C.col(j, i + 2), P + i + 2, n, lo, P[j + 1], q.comm));
    best = std::min(best,
                    detail::min_split(A3.row(i, i), C.col(j - 1, i + 1), P + i + 1, n, lo, P[j], q.comm) + q.gm[at(j)]);
  }
  C.set(i, j, best);
  A3.set(i, j, dp.first3(i, j));
}

}  // namespace

struct OptimalBinaryTrees::Impl {
  std::vector<std::int64_t> m;
  CostModel model;
  Problem q;
  Table C;
  Impl(std::span<const std::int64_t> m_, const CostModel& model_)
      : m(m_.begin(), m_.end()), model(model_), q(m_, model_), C(q.p) {
    // Tiles of rows, as in tree_dp_homogeneous.cpp: every operand is in a
    // row below, or in row i at a smaller j, or in column j or j-1 lower down.
    const rank_t p = q.p;
    detail::RowTable A12(p), A3(p);
    for (rank_t top = p - 1; top >= 0; top -= kTile) {
      const rank_t bottom = std::max<rank_t>(0, top - kTile + 1);
      for (rank_t j = bottom; j < p; ++j)
        for (rank_t i = std::min(top, j); i >= bottom; --i) fill(q, C, A12, A3, i, j);
    }
  }

  TreeResult build(std::optional<rank_t> root) const {
    const rank_t p = q.p;
    // The cases of the whole range: all, or those rooted at the fixed root.
    const auto any = [](int, rank_t) { return true; };
    const auto at_root = [&](int kase, rank_t k) {
      const rank_t r = *root;
      return (kase == 2 && k == r) || ((kase == 1 || kase == 4) && r == 0) || ((kase == 3 || kase == 5) && r == p - 1);
    };
    TreeBuilder b(p);
    struct Task {
      rank_t i, j, parent;
    };
    std::vector<Task> stack{{0, p - 1, -1}};
    rank_t tree_root = 0;
    double predicted = 0;
    while (!stack.empty()) {
      const Task t = stack.back();
      stack.pop_back();
      rank_t v = t.i;
      Task kids[2] = {{0, -1, 0}, {0, -1, 0}};  // in rank order; j < i: none
      if (t.i < t.j) {
        Choice c;
        double best = kInf;
        const auto take = [&](double val, int kase, rank_t k) {
          if (val < best) best = val, c = {kase, k};
        };
        if (t.parent < 0 && root) {
          scan(q, C, t.i, t.j, at_root, take);
        } else {
          scan(q, C, t.i, t.j, any, take);
        }
        if (t.parent < 0) predicted = best;
        const rank_t k = c.k;
        switch (c.kase) {
          case 1:
            v = t.i, kids[0] = {t.i + 1, k, v}, kids[1] = {k + 1, t.j, v};
            break;
          case 2:
            v = k, kids[0] = {t.i, k - 1, v}, kids[1] = {k + 1, t.j, v};
            break;
          case 3:
            v = t.j, kids[0] = {t.i, k, v}, kids[1] = {k + 1, t.j - 1, v};
            break;
          case 4:
            v = t.i, kids[0] = {t.i + 1, t.j, v};
            break;
          default:
            v = t.j, kids[0] = {t.i, t.j - 1, v};
            break;
        }
      }
      if (t.parent < 0) {
        tree_root = v;
      } else {
        b.add_child(t.parent, v);
      }
      for (int x = 1; x >= 0; --x)
        if (kids[x].i <= kids[x].j) stack.push_back(kids[x]);
    }
    TreeResult res{std::move(b).build(tree_root, CopyRule::rank_order), 0, predicted};
    res.time = completion_time(res.tree, m, model);
    return res;
  }
};

OptimalBinaryTrees::OptimalBinaryTrees(std::span<const std::int64_t> m, const CostModel& model)
    : impl_(std::make_unique<Impl>(m, model)) {}
OptimalBinaryTrees::~OptimalBinaryTrees() = default;
OptimalBinaryTrees::OptimalBinaryTrees(OptimalBinaryTrees&&) noexcept = default;
OptimalBinaryTrees& OptimalBinaryTrees::operator=(OptimalBinaryTrees&&) noexcept = default;

TreeResult OptimalBinaryTrees::best() const {
  return impl_->build(std::nullopt);
}

TreeResult OptimalBinaryTrees::rooted(rank_t root) const {
  if (root < 0 || root >= impl_->q.p) throw Error(Errc::invalid_root, "root out of range");
  return impl_->build(root);
}

TreeResult optimal_binary_tree(std::span<const std::int64_t> m, const CostModel& model, std::optional<rank_t> root) {
  const OptimalBinaryTrees dp(m, model);
  return root ? dp.rooted(*root) : dp.best();
}

}  // namespace optcoll::trees
