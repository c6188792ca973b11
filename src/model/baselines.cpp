#include "optcoll/model/baselines.hpp"
#include "optcoll/model/log2.hpp"

#include <algorithm>
#include <cmath>

namespace optcoll::model {
namespace {

double round_cost(std::int64_t bytes, const AlphaBeta& ab) noexcept {
  return ab.alpha + ab.beta * static_cast<double>(bytes);
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) noexcept {
  return a / b + (a % b != 0 ? 1 : 0);
}

// The n in [1, max_blocks] near the analytic optimum `star` that minimises
// price(n): the time functions are convex in n, so the two integer
// neighbours of the real minimiser suffice.
template <class Price>
BaselinePrice best_near(double star, std::int64_t max_blocks, Price price) {
  const double hi = static_cast<double>(std::max<std::int64_t>(max_blocks, 1));
  const auto lo_n = static_cast<std::int64_t>(std::clamp(std::floor(star), 1.0, hi));
  const auto hi_n = static_cast<std::int64_t>(std::clamp(std::ceil(star), 1.0, hi));
  const BaselinePrice a = price(lo_n);
  const BaselinePrice b = price(hi_n);
  return b.time < a.time ? b : a;
}

}  // namespace

std::int64_t binary_tree_first_arrival(std::int64_t p) noexcept {
  // Node v of a heap-ordered tree receives block 0 in round a(v): -1 at the
  // root, +1 per left edge and +2 per right edge. The nodes of the deepest
  // level D = floor(log2 p) are 2^D - 1 + x, x in [0, p - 2^D], with
  // a = D - 1 + popcount(x); level D - 1 is full, its latest a is 2D - 3.
  if (p <= 1) return -1;
  int D = 0;
  while ((std::int64_t{2} << D) <= p) ++D;
  const std::int64_t X = p - (std::int64_t{1} << D);
  int most = 0;    // most one-bits of any x in [0, X]
  int prefix = 0;  // one-bits of X above the current bit
  for (int h = 62; h >= 0; --h) {
    if (((X >> h) & 1) == 0) continue;
    most = std::max(most, prefix + h);  // clear bit h, set all below
    ++prefix;
  }
  most = std::max(most, prefix);
  return std::max<std::int64_t>(D - 1 + most, 2 * D - 3);
}

BaselinePrice price_binomial(std::int64_t p, std::int64_t m, const AlphaBeta& ab) {
  const int q = ceil_log2(p);
  return {"binomial", 1, q, q * round_cost(m, ab)};
}

BaselinePrice price_chain_n(std::int64_t p, std::int64_t m, std::int64_t n, const AlphaBeta& ab) {
  const std::int64_t rounds = p <= 1 ? 0 : p + n - 2;
  return {"chain", n, rounds, static_cast<double>(rounds) * round_cost(ceil_div(m, n), ab)};
}

BaselinePrice price_binary_tree_n(std::int64_t p, std::int64_t m, std::int64_t n, const AlphaBeta& ab) {
  const std::int64_t rounds = p <= 1 ? 0 : binary_tree_first_arrival(p) + 2 * (n - 1) + 1;
  // With p = 2 the root has no right child: every other round is idle.
  const std::int64_t busy = p == 2 ? n : rounds;
  return {"binary_tree", n, rounds, static_cast<double>(busy) * round_cost(ceil_div(m, n), ab)};
}

BaselinePrice price_chain(std::int64_t p, std::int64_t m, std::int64_t max_blocks, const AlphaBeta& ab) {
  // (p+n-2)(alpha + beta m/n) is smallest at n = sqrt((p-2) beta m / alpha).
  const double star =
      std::sqrt(static_cast<double>(std::max<std::int64_t>(p - 2, 0)) * ab.beta * static_cast<double>(m) / ab.alpha);
  return best_near(star, max_blocks, [&](std::int64_t n) { return price_chain_n(p, m, n, ab); });
}

BaselinePrice price_binary_tree(std::int64_t p, std::int64_t m, std::int64_t max_blocks, const AlphaBeta& ab) {
  // (A + 2n - 1)(alpha + beta m/n) is smallest at n = sqrt((A-1) beta m / (2 alpha)).
  const auto A = static_cast<double>(std::max<std::int64_t>(binary_tree_first_arrival(p) - 1, 0));
  const double star = std::sqrt(A * ab.beta * static_cast<double>(m) / (2 * ab.alpha));
  return best_near(star, max_blocks, [&](std::int64_t n) { return price_binary_tree_n(p, m, n, ab); });
}

BaselinePrice price_scatter_allgather(std::int64_t p, std::int64_t m, const AlphaBeta& ab) {
  if (p <= 1) return {"scatter_allgather", p, 0, 0};
  const int q = ceil_log2(p);
  const std::int64_t block = ceil_div(m, p);
  double t = 0;
  for (int s = 0; s < q; ++s) {  // scatter: rank 0 sends the largest range
    const std::int64_t half = std::int64_t{1} << (q - 1 - s);
    t += round_cost(std::min(half, p - half) * block, ab);
  }
  t += static_cast<double>(p - 1) * round_cost(block, ab);  // ring allgather
  return {"scatter_allgather", p, q + p - 1, t};
}

std::vector<BaselinePrice> price_baselines(std::int64_t p, std::int64_t m, std::int64_t max_blocks,
                                           const AlphaBeta& ab) {
  return {price_binomial(p, m, ab), price_chain(p, m, max_blocks, ab), price_binary_tree(p, m, max_blocks, ab),
          price_scatter_allgather(p, m, ab)};
}

}  // namespace optcoll::model

namespace optcoll::model {
namespace {

std::int64_t floor_pow2(std::int64_t p) noexcept {
  std::int64_t f = 1;
  while (f * 2 <= p) f *= 2;
  return f;
}

}  // namespace

BaselinePrice price_allgather_ring(const std::vector<std::int64_t>& groups, const AlphaBeta& ab) {
  const auto p = static_cast<std::int64_t>(groups.size());
  const std::int64_t largest = groups.empty() ? 0 : *std::max_element(groups.begin(), groups.end());
  return {"ring", 1, p - 1, static_cast<double>(p - 1) * (ab.alpha + ab.beta * static_cast<double>(largest))};
}

BaselinePrice price_allgather_bruck(const std::vector<std::int64_t>& groups, const AlphaBeta& ab) {
  const auto p = static_cast<std::int64_t>(groups.size());
  // Cyclic prefix sums give every window sum in O(1).
  std::vector<std::int64_t> pre(static_cast<std::size_t>(2 * p + 1), 0);
  for (std::int64_t i = 0; i < 2 * p; ++i)
    pre[static_cast<std::size_t>(i + 1)] = pre[static_cast<std::size_t>(i)] + groups[static_cast<std::size_t>(i % p)];
  BaselinePrice out{"bruck", 1, 0, 0};
  for (std::int64_t have = 1; have < p; have *= 2) {
    const std::int64_t w = std::min(have, p - have);
    std::int64_t most = 0;
    for (std::int64_t r = 0; r < p; ++r)
      most = std::max(most, pre[static_cast<std::size_t>(r + w)] - pre[static_cast<std::size_t>(r)]);
    out.time += ab.alpha + ab.beta * static_cast<double>(most);
    ++out.rounds;
  }
  return out;
}

BaselinePrice price_allreduce_ring(std::int64_t p, std::int64_t m, const AlphaBeta& ab) {
  const std::int64_t rounds = 2 * (p - 1);
  return {"ring", p, rounds, static_cast<double>(rounds) * round_cost(ceil_div(m, p), ab)};
}

BaselinePrice price_allreduce_recursive_doubling(std::int64_t p, std::int64_t m, const AlphaBeta& ab) {
  const std::int64_t f = floor_pow2(p);
  const std::int64_t rounds = ceil_log2(f) + (f != p ? 2 : 0);
  return {"recursive_doubling", 1, rounds, static_cast<double>(rounds) * round_cost(m, ab)};
}

BaselinePrice price_allreduce_rabenseifner(std::int64_t p, std::int64_t m, const AlphaBeta& ab) {
  // Non-powers of two first fold p - f ranks into partners (one round of m
  // bytes) and unfold at the end (another).
  const std::int64_t f = floor_pow2(p);
  BaselinePrice out{"rabenseifner", f, 0, 0};
  if (f != p) {
    out.rounds += 2;
    out.time += 2 * round_cost(m, ab);
  }
  for (std::int64_t half = m / 2, s = f / 2; s >= 1; s /= 2, half /= 2) {  // halving, then doubling
    out.rounds += 2;
    out.time += 2 * round_cost(std::max<std::int64_t>(half, 1), ab);
  }
  return out;
}

}  // namespace optcoll::model
