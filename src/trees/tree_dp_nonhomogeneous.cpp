// Optimal ordered gather/scatter trees, non-homogeneous model (Traff 2018,
// Figure 5 and Theorem 1).
//
// C[i,j,r] is the least completion time of an ordered tree over [i, j]
// rooted at r. The root's last child is the subtree over [k+1, j] (r <= k)
// or [i, k] (k < r) with some root r'; the message r' -> r costs
// comm_{r'r}(Size) (gather; scatter: comm_{rr'}):
//   [k+1,j] last:  max(C[i,k,r], C[k+1,j,r']) + comm_{r'r}(S[k+1,j])
//                  (k = i = r: max(gamma_r m_r, C[i+1,j,r']) + ..., Eq. 5)
//   [i,k] last:    max(C[i,k,r'], C[k+1,j,r]) + comm_{r'r}(S[i,k])
//                  (k+1 = j = r: C[i,j-1,r'] + comm_{r'r}(S[i,j-1]) + gamma_r m_r, Eq. 6)
// Figure 5 as printed gives the roots i and j a single child only; a root at
// a range's end may have more (e.g. the root 0 of Table 1's Decreasing row),
// so every split is allowed for every root, as in tree_dp_homogeneous.cpp.
// With equal alpha_ij, beta_ij both DPs agree (the tests check it).
//
// Time: per range and split, every pair (root r, sending root r') once:
// sum over ranges of len^3/3, about p^5/60 steps (5e9 for p = 200), each
// split one vectorized block over r (detail::min_roots; the edge costs are
// stored child-major so that r is contiguous). Memory: p^3/6 doubles for C,
// 2 p^2 for the costs. Reconstruction re-scans the chosen ranges, first
// minimum with k ascending, then r' ascending.
#include <algorithm>
#include <limits>

#include "dp_kernel.hpp"
#include "optcoll/error.hpp"
#include "optcoll/trees/constructions.hpp"
#include "optcoll/trees/evaluate.hpp"

namespace optcoll::trees {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::size_t at(rank_t x) {
  return static_cast<std::size_t>(x);
}

class Dp {
 public:
  Dp(std::span<const std::int64_t> m, const CostModel& model, Direction d)
      : p_(static_cast<rank_t>(m.size())),
        off_(at(p_) * at(p_)),
        P_(at(p_) + 1, 0.0),
        gam_(at(p_)),
        a_(at(p_) * at(p_)),
        b_(at(p_) * at(p_)) {
    std::size_t total = 0;
    for (rank_t i = 0; i < p_; ++i)
      for (rank_t j = i; j < p_; ++j) off_[at(i) * at(p_) + at(j)] = total, total += at(j - i + 1);
    c_.assign(total, 0.0);
    for (rank_t x = 0; x < p_; ++x) {
      if (m[at(x)] < 0) throw Error(Errc::invalid_count, "negative block size");
      P_[at(x) + 1] = P_[at(x)] + static_cast<double>(m[at(x)]);
      gam_[at(x)] = model.copy(x, m[at(x)]);
      // Row x: the edges from child x to every possible parent y.
      for (rank_t y = 0; y < p_; ++y) {
        const rank_t from = d == Direction::gather ? x : y, to = d == Direction::gather ? y : x;
        a_[at(x) * at(p_) + at(y)] = model.alpha(from, to);
        b_[at(x) * at(p_) + at(y)] = model.beta(from, to);
      }
    }
  }

  // C[i, j, .] indexed by r - i.
  double* c(rank_t i, rank_t j) { return c_.data() + off_[at(i) * at(p_) + at(j)]; }
  const double* c(rank_t i, rank_t j) const { return c_.data() + off_[at(i) * at(p_) + at(j)]; }
  double S(rank_t i, rank_t j) const { return P_[at(j + 1)] - P_[at(i)]; }

  // The value of [i, j] rooted at r whose last child is the other side of
  // split k, rooted at rr: the formulas above, with the operations of
  // detail::min_roots.
  double option(rank_t i, rank_t j, rank_t r, rank_t k, rank_t rr) const {
    const bool right = k >= r;  // the last child is [k+1, j]
    const rank_t x = right ? k + 1 : i, y = right ? j : k;
    const double s = S(x, y);
    const double cv = c(x, y)[at(rr - x)];
    double l = -kInf;  // the root j alone: Eq. 6, copy after
    if (right) {
      l = k == i ? gam_[at(r)] : c(i, k)[at(r - i)];
    } else if (k + 1 < j) {
      l = c(k + 1, j)[at(r - k - 1)];
    }
    const double v =
        s == 0 ? std::max(l, cv) : std::max(l, cv) + (a_[at(rr) * at(p_) + at(r)] + b_[at(rr) * at(p_) + at(r)] * s);
    return !right && k + 1 == j ? v + gam_[at(r)] : v;
  }

  // All roots of [i, j] at once: per split, every (root, sending root) pair
  // in one vectorized block.
  void fill() {
    std::vector<double> best(at(p_));
    for (rank_t len = 2; len <= p_; ++len)
      for (rank_t i = 0; i + len <= p_; ++i) {
        const rank_t j = i + len - 1;
        std::fill(best.begin(), best.begin() + len, kInf);
        const double* a = a_.data();
        const double* b = b_.data();
        const auto row = [&](rank_t child, rank_t parent) { return at(child) * at(p_) + at(parent); };
        for (rank_t k = i; k < j; ++k) {
          // Last child [k+1, j], the roots r in [i, k].
          const double lone = gam_[at(i)];
          detail::min_roots(best.data(), k == i ? &lone : c(i, k), k - i + 1, c(k + 1, j), j - k, a + row(k + 1, i),
                            b + row(k + 1, i), p_, S(k + 1, j));
          // Last child [i, k], the roots r in [k+1, j].
          if (k + 1 == j) {
            const double none = -kInf;
            double v = kInf;
            detail::min_roots(&v, &none, 1, c(i, k), k - i + 1, a + row(i, j), b + row(i, j), p_, S(i, k));
            best[at(j - i)] = std::min(best[at(j - i)], v + gam_[at(j)]);
          } else {
            detail::min_roots(best.data() + (k + 1 - i), c(k + 1, j), j - k, c(i, k), k - i + 1, a + row(i, k + 1),
                              b + row(i, k + 1), p_, S(i, k));
          }
        }
        std::copy(best.begin(), best.begin() + len, c(i, j));
      }
  }

 private:
  rank_t p_;
  std::vector<std::size_t> off_;
  std::vector<double> P_, gam_, a_, b_, c_;
};

}  // namespace

TreeResult optimal_tree_pairwise(std::span<const std::int64_t> m, const CostModel& model, std::optional<rank_t> root,
                                 Direction d) {
  const auto p = static_cast<rank_t>(m.size());
  if (p < 1) throw Error(Errc::invalid_p, "no block sizes");
  if (!model.homogeneous() && model.p() != p) throw Error(Errc::invalid_count, "the cost model is for another p");
  if (root && (*root < 0 || *root >= p)) throw Error(Errc::invalid_root, "root out of range");
  Dp dp(m, model, d);
  dp.fill();
  const double* top = dp.c(0, p - 1);
  rank_t r = root.value_or(0);
  if (!root)
    for (rank_t x = 1; x < p; ++x)
      if (top[at(x)] < top[at(r)]) r = x;

  TreeBuilder b(p);
  struct Task {
    rank_t i, j, r;
  };
  std::vector<Task> stack{{0, p - 1, r}};
  std::vector<Task> peeled;
  while (!stack.empty()) {
    const Task t = stack.back();
    stack.pop_back();
    rank_t x = t.i, y = t.j;
    peeled.clear();
    while (x < y) {
      double best = kInf;
      Task part{0, 0, 0};
      rank_t cut = x;
      for (rank_t k = x; k < y; ++k) {
        const rank_t lo = k >= t.r ? k + 1 : x, hi = k >= t.r ? y : k;
        for (rank_t rr = lo; rr <= hi; ++rr)
          if (const double v = dp.option(x, y, t.r, k, rr); v < best) best = v, part = {lo, hi, rr}, cut = k;
      }
      peeled.push_back(part);
      if (cut >= t.r) {
        y = cut;
      } else {
        x = cut + 1;
      }
    }
    // Peeled last child first: the receive order is the reverse.
    for (auto it = peeled.rbegin(); it != peeled.rend(); ++it) {
      b.add_child(t.r, it->r);
      stack.push_back(*it);
    }
  }
  TreeResult res{std::move(b).build(r, CopyRule::ordered), 0, top[at(r)]};
  res.time = completion_time(res.tree, m, model, d);
  return res;
}

}  // namespace optcoll::trees
