// Vectorized minima for the tree DPs (dp_kernel.hpp). Four doubles per step
// with the compiler's generic vectors; on x86-64 a second AVX2 clone is
// picked at load time. The tail runs the scalar formula.
#include "dp_kernel.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define OPTCOLL_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define OPTCOLL_CLONES
#endif

namespace optcoll::trees::detail {
namespace {

using v4 = double __attribute__((vector_size(32)));

inline v4 load(const double* p) noexcept {
  v4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline v4 splat(double x) noexcept {
  return v4{x, x, x, x};
}
inline v4 vmax(v4 x, v4 y) noexcept {
  return x > y ? x : y;
}
inline v4 vmin(v4 x, v4 y) noexcept {
  return x < y ? x : y;
}
inline v4 vcomm(v4 x, v4 alpha, v4 beta) noexcept {
  return x > 0 ? alpha + beta * x : splat(0.0);
}
inline double hmin(v4 x) noexcept {
  return std::min(std::min(x[0], x[1]), std::min(x[2], x[3]));
}

}  // namespace

OPTCOLL_CLONES
double min_split(const double* a, const double* b, const double* P, std::int64_t n, double lo, double hi,
                 Comm comm) noexcept {
  const v4 va = splat(comm.alpha), vb = splat(comm.beta), vlo = splat(lo), vhi = splat(hi);
  v4 best = splat(std::numeric_limits<double>::infinity());
  std::int64_t t = 0;
  for (; t + 4 <= n; t += 4) {
    const v4 s = load(P + t);
    const v4 x = vmin(s - vlo, vhi - s);
    best = vmin(best, vmax(load(a + t), load(b + t)) + vcomm(x, va, vb));
  }
  double m = hmin(best);
  for (; t < n; ++t) m = std::min(m, std::max(a[t], b[t]) + comm(std::min(P[t] - lo, hi - P[t])));
  return m;
}

OPTCOLL_CLONES
void min_roots(double* best, const double* l, std::int64_t nr, const double* c, std::int64_t nc, const double* a,
               const double* b, std::int64_t lda, double s) noexcept {
  const v4 vs = splat(s);
  for (std::int64_t u = 0; u < nc; ++u) {
    const v4 vc = splat(c[u]);
    const double* au = a + u * lda;
    const double* bu = b + u * lda;
    std::int64_t t = 0;
    if (s > 0) {
      for (; t + 4 <= nr; t += 4) {
        const v4 v = vmax(load(l + t), vc) + (load(au + t) + load(bu + t) * vs);
        const v4 cur = load(best + t);
        const v4 m = vmin(cur, v);
        std::memcpy(best + t, &m, sizeof m);
      }
      for (; t < nr; ++t) best[t] = std::min(best[t], std::max(l[t], c[u]) + (au[t] + bu[t] * s));
    } else {
      for (; t + 4 <= nr; t += 4) {
        const v4 m = vmin(load(best + t), vmax(load(l + t), vc));
        std::memcpy(best + t, &m, sizeof m);
      }
      for (; t < nr; ++t) best[t] = std::min(best[t], std::max(l[t], c[u]));
    }
  }
}

}  // namespace optcoll::trees::detail
