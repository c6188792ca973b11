// The registry's price functions (prices.hpp).
#include "prices.hpp"

#include <algorithm>
#include <cstdint>

#include "optcoll/model/alltoall.hpp"
#include "optcoll/model/baselines.hpp"

namespace optcoll::plan::prices {
namespace {

double round_cost(std::int64_t bytes, const AlphaBeta& ab) {
  return ab.alpha + ab.beta * static_cast<double>(bytes);
}
std::int64_t clamp_blocks(std::int64_t n, const Shape& s) {
  return std::clamp<std::int64_t>(n, 1, std::max<std::int64_t>(s.max_blocks, 1));
}
// r rounds of the whole vector.
Price whole(const Shape& s, std::int64_t r, const AlphaBeta& ab) {
  return {static_cast<double>(r) * round_cost(s.m, ab), r, 1};
}
Price from(const model::BaselinePrice& b) {
  return {b.time, b.rounds, b.blocks};
}
// p - 1 messages taken (or posted) in a row by one rank, o apart, while its
// link carries `bytes` of them: one latency, then the longer of the two.
Price streamed(rank_t p, std::int64_t bytes, const AlphaBeta& ab) {
  if (p <= 1) return {};
  const double o = ab.o > 0 ? std::min(ab.o, ab.alpha) : ab.alpha;
  return {ab.alpha + std::max(static_cast<double>(p - 2) * o, ab.beta * static_cast<double>(bytes)), p - 1, 1};
}

}  // namespace

Price circulant(const Shape& s, std::int64_t blocks, const AlphaBeta& ab) {
  if (s.p <= 1) return {};
  const std::int64_t n = clamp_blocks(blocks > 0 ? blocks : model::choose_blocks(s.q, s.m, s.max_blocks, ab), s);
  return {model::circulant_time(s.q, s.m, n, ab), n - 1 + s.q, n};
}

Price binomial(const Shape& s, std::int64_t, const AlphaBeta& ab) {
  return s.p <= 1 ? Price{} : from(model::price_binomial(s.p, s.m, ab));
}

Price chain(const Shape& s, std::int64_t blocks, const AlphaBeta& ab) {
  if (s.p <= 1) return {};
  return from(blocks > 0 ? model::price_chain_n(s.p, s.m, clamp_blocks(blocks, s), ab)
                         : model::price_chain(s.p, s.m, s.max_blocks, ab));
}

Price binary_tree(const Shape& s, std::int64_t blocks, const AlphaBeta& ab) {
  if (s.p <= 1) return {};
  return from(blocks > 0 ? model::price_binary_tree_n(s.p, s.m, clamp_blocks(blocks, s), ab)
                         : model::price_binary_tree(s.p, s.m, s.max_blocks, ab));
}

Price scatter_allgather(const Shape& s, std::int64_t, const AlphaBeta& ab) {
  return s.p <= 1 ? Price{} : from(model::price_scatter_allgather(s.p, s.m, ab));
}

Price binomial_ordered(const Shape& s, std::int64_t, const AlphaBeta& ab) {
  return s.p <= 1 ? Price{} : whole(s, s.q, ab);
}

Price all_broadcast(const Shape& s, std::int64_t blocks, const AlphaBeta& ab) {
  if (s.p <= 1) return {};
  const std::int64_t n = clamp_blocks(
      blocks > 0 ? blocks : model::choose_all_broadcast_blocks(s.q, s.largest, s.smallest, s.max_blocks, ab), s);
  return {model::all_broadcast_time(s.q, s.largest, s.smallest, s.m - s.smallest, n, ab), n - 1 + s.q, n};
}

Price all_broadcast_doubling(const Shape& s, std::int64_t, const AlphaBeta& ab) {
  if (s.p <= 1) return {};
  int f = 0;
  while ((rank_t{2} << f) <= s.p) ++f;
  const rank_t l = s.p - (rank_t{1} << f);
  // The bytes on the critical path: the groups' own (doubling_elements)
  // when known; else each round's largest message bounded from the largest
  // group (allgather_doubling.cpp): the fold moves one group, doubling round
  // k the groups of 2^k virtual ranks, min(2^k, l) of them two groups each,
  // and the unfold all groups but one; never more than all but the smallest
  // group. Exact for equal groups.
  std::int64_t bytes = s.doubling;
  if (bytes < 0) {
    const std::int64_t all_but_one = s.m - s.smallest;
    bytes = l > 0 ? s.largest + all_but_one : 0;
    for (int k = 0; k < f; ++k) {
      const std::int64_t groups = (std::int64_t{1} << k) + std::min<std::int64_t>(std::int64_t{1} << k, l);
      bytes += s.largest > all_but_one / groups ? all_but_one : groups * s.largest;
    }
  }
  const std::int64_t rounds = f + (l > 0 ? 2 : 0);
  return {static_cast<double>(rounds) * ab.alpha + ab.beta * static_cast<double>(bytes), rounds, 1};
}

Price reduce_scatter_ordered(const Shape& s, std::int64_t, const AlphaBeta& ab) {
  if (s.p <= 1) return {};
  // q rounds of the whole vector into rank 0, then a binomial scatter whose
  // root sends every group but its own.
  return {whole(s, s.q, ab).time + s.q * ab.alpha + ab.beta * static_cast<double>(s.m - s.smallest), 2 * s.q, 1};
}

Price allreduce_circulant(const Shape& s, std::int64_t blocks, const AlphaBeta& ab) {
  const Price phase = all_broadcast(s, blocks, ab);
  return {2 * phase.time, 2 * phase.rounds, phase.blocks};
}

Price allreduce_rabenseifner(const Shape& s, std::int64_t, const AlphaBeta& ab) {
  if (s.p <= 1) return {};
  // Two phases of q rounds; each moves rabenseifner_elements() (s.doubling)
  // or, unknown, at most the whole vector in the fold and all of it but the
  // smallest group in the halving rounds.
  const bool pow2 = (s.p & (s.p - 1)) == 0;
  const std::int64_t bytes = s.doubling >= 0 ? s.doubling : (pow2 ? 0 : s.m) + s.m - s.smallest;
  return {2 * (s.q * ab.alpha + ab.beta * static_cast<double>(bytes)), 2 * s.q, 1};
}

Price whole_vector_rounds(const Shape& s, std::int64_t, const AlphaBeta& ab) {
  return s.p <= 1 ? Price{} : whole(s, s.q, ab);
}

Price allreduce_bruck(const Shape& s, std::int64_t, const AlphaBeta& ab) {
  if (s.p <= 1) return {};
  std::int64_t f = 1;
  while (f * 2 <= s.p) f *= 2;
  const std::int64_t l = s.p - f;
  const int doubled = l == 0 ? 0 : __builtin_popcountll(static_cast<unsigned long long>(l)) - 1;
  Price out = whole(s, s.q, ab);
  out.time += doubled * ab.beta * static_cast<double>(s.m);
  return out;
}

Price allreduce_doubling(const Shape& s, std::int64_t, const AlphaBeta& ab) {
  return whole(s, model::doubling_allreduce_rounds(s.p), ab);
}

Price allreduce_ordered(const Shape& s, std::int64_t, const AlphaBeta& ab) {
  return s.p <= 1 ? Price{} : whole(s, 2 * s.q, ab);
}

Price scan_pipeline(const Shape& s, std::int64_t blocks, const AlphaBeta& ab) {
  if (s.p <= 1) return {};
  const int depth = static_cast<int>(std::min<std::int64_t>(s.p - 1, INT32_MAX));
  const std::int64_t n = clamp_blocks(blocks > 0 ? blocks : model::choose_blocks(depth, s.m, s.max_blocks, ab), s);
  return {model::circulant_time(depth, s.m, n, ab), n + s.p - 2, n};
}

Price gather_tree(const Shape& s, std::int64_t, const AlphaBeta& ab) {
  if (s.p <= 1) return {};
  return {s.q * ab.alpha + ab.beta * static_cast<double>(s.m - s.smallest), s.q, 1};
}

Price scan_linear(const Shape& s, std::int64_t, const AlphaBeta& ab) {
  if (!(ab.o > 0)) return s.p <= 1 ? Price{} : whole(s, s.p - 1, ab);
  return streamed(s.p, (s.p - 1) * s.m, ab);
}

Price gather_linear(const Shape& s, std::int64_t, const AlphaBeta& ab) {
  return streamed(s.p, s.m - s.smallest, ab);
}

Price alltoall_shift(const Shape& s, std::int64_t, const AlphaBeta& ab) {
  return {model::alltoall_shift_time(s.p, s.m, ab), s.p - 1, 1};
}

Price alltoall_bruck(const Shape& s, std::int64_t, const AlphaBeta& ab) {
  return {model::alltoall_bruck_time(s.p, s.m, ab), s.p <= 1 ? 0 : s.q, 1};
}

Price many_to_many_two_phase(const Shape& s, std::int64_t, const AlphaBeta& ab) {
  return {model::many_to_many_two_phase_time(s.p, s.m, s.largest, ab), s.p <= 1 ? 0 : 2 * (s.p - 1), 1};
}

}  // namespace optcoll::plan::prices
