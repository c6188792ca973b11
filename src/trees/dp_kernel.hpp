// Inner loops of the tree DPs (tree_dp_*.cpp): exact minima over a range of
// split points, vectorized. Internal to src/trees/.
//
// Exactness: every candidate is computed with the same operations, in the
// same order, as the scalar formulas that reconstruct the trees, and the
// files are compiled with -ffp-contract=off (cmake/trees.cmake), so a
// vectorized minimum equals the scalar minimum bit for bit; the tests compare
// both against a plain triple loop.
#pragma once

#include <cstdint>

namespace optcoll::trees::detail {

// comm(x) = x > 0 ? alpha + beta x : 0, the homogeneous message cost.
struct Comm {
  double alpha, beta;
  double operator()(double x) const noexcept { return x > 0 ? alpha + beta * x : 0.0; }
};

// min over t in [0, n) of max(a[t], b[t]) + comm(min(P[t] - lo, hi - P[t])).
// lo = -inf or hi = +inf select one side. n >= 0; +inf for n == 0.
double min_split(const double* a, const double* b, const double* P, std::int64_t n, double lo, double hi,
                 Comm comm) noexcept;

// The pairwise DP's step (Figure 5) for one split: for every root r of the
// receiving side and every root r' of the sending side,
//   best[r] = min(best[r], max(l[r], c[r']) + (a[r' * lda + r] + b[r' * lda + r] * s))
// (s == 0: no message, the term in brackets is 0). r in [0, nr), r' in [0, nc).
void min_roots(double* best, const double* l, std::int64_t nr, const double* c, std::int64_t nc, const double* a,
               const double* b, std::int64_t lda, double s) noexcept;

}  // namespace optcoll::trees::detail
