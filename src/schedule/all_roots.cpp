// All-roots receive schedules (Träff 2024, Appendix A needs them for
// allgather(v) and reduce-scatter).
//
// p = m * 2^j with m odd. The receive schedules of the m-graph are computed
// rank by rank (Circulant::recv_schedule); the p-graph's follow from them by
// Observation 2 applied j times, in closed form:
//
// Doubling p' to 2p' (q' to q'+1) keeps the skips, subtracts 1 from every
// negative entry and appends entry q': -1 for ranks below p'; for a rank
// r >= p' the copy of r - p' also turns its baseblock entry into -1 and
// appends that baseblock (q' for r = p', whose copy is the root). Unrolled
// over the j doublings, rank r = r0 + m*t (0 <= r0 < m, 0 <= t < 2^j) gets
//   - entry k < q_m: the m-graph entry of r0 minus j when negative; its
//     baseblock entry stays when t = 0 and becomes (q_m + ctz t) - q
//     otherwise (turned into -1 at the first doubling that copies it);
//   - entry q_m + i, i < j: (q_m + i) - q when bit i of t is clear; when it
//     is set, (q_m + i') - q for the next set bit i' > i of t, and the
//     baseblock of r for the highest set bit: b_m(r0), or q_m + ctz t for
//     r0 = 0.
// This reproduces Algorithm 5 exactly wherever Observation 2 holds for it,
// which the verifier checks for every p it verifies (and the tests compare
// both ways of computing).
#include "optcoll/schedule/all_roots.hpp"

#include <algorithm>
#include <bit>

namespace optcoll::schedule {

std::vector<std::int8_t> list_baseblocks(const Circulant& g) {
  const auto p = static_cast<std::size_t>(g.p());
  std::vector<std::int8_t> b(p, 0);
  // Invariant before step k: b[0 .. skip[k]) lists the baseblocks of a
  // skip[k]-processor graph, with b[0] = k.
  for (int k = 0; k < g.q(); ++k) {
    const auto lo = static_cast<std::size_t>(g.skip(k));
    const auto hi = static_cast<std::size_t>(g.skip(k + 1));
    std::copy_n(b.begin(), hi - lo, b.begin() + static_cast<std::ptrdiff_t>(lo));
    b[0] = static_cast<std::int8_t>(k + 1);
  }
  return b;
}

AllRootsSchedule::AllRootsSchedule(const Circulant& g) : g_(g), base_(list_baseblocks(g)) {
  const int q = g.q();
  const rank_t p = g.p();
  const auto uq = static_cast<std::size_t>(q);
  recv_.resize(static_cast<std::size_t>(p) * uq);
  if (q == 0) return;
  const int j = std::countr_zero(static_cast<std::uint64_t>(p));
  const rank_t m = p >> j;
  const int qm = q - j;  // q of the m-graph: ceil(log2(m 2^j)) = ceil(log2 m) + j
  const auto uqm = static_cast<std::size_t>(qm);

  // The m-graph's receive schedules (straight into place when p is odd). Its
  // skips are the first qm+1 of the p-graph's, and its baseblocks the first m
  // of the listing but for rank 0.
  std::vector<std::int8_t> mrows(j == 0 ? 0 : static_cast<std::size_t>(m) * uqm);
  std::int8_t* mdst = j == 0 ? recv_.data() : mrows.data();
  if (qm > 0) {
    const Circulant gm(m);
    int tmp[kMaxQ];
    for (rank_t v = 0; v < m; ++v) {
      const int b = v == 0 ? qm : base_[static_cast<std::size_t>(v)];
      gm.recv_schedule(v, b, std::span<int>(tmp, uqm));
      std::copy_n(tmp, uqm, mdst + static_cast<std::size_t>(v) * uqm);
    }
  }
  if (j == 0) return;

  const rank_t copies = rank_t{1} << j;
  // Entries qm .. q-1 for the current t, kept up to date as t counts up
  // (amortized O(1) per t); the highest set bit's slot is patched per rank.
  std::int8_t tail[kMaxQ];
  for (int i = 0; i < j; ++i) tail[i] = static_cast<std::int8_t>(qm + i - q);
  int top = -1;  // highest set bit of t
  const auto minus_j = static_cast<std::int8_t>(j);
  for (rank_t t = 0;; ++t) {
    const auto ut = static_cast<std::uint64_t>(t);
    const int low = t == 0 ? 0 : qm + std::countr_zero(ut);  // q_m + ctz t
    const auto moved = static_cast<std::int8_t>(low - q);    // where the baseblock entry went
    std::int8_t* row = recv_.data() + static_cast<std::size_t>(m * t) * uq;
    const std::int8_t* src = mrows.data();
    for (rank_t r0 = 0; r0 < m; ++r0, row += uq, src += uqm) {
      for (std::size_t k = 0; k < uqm; ++k) {
        const std::int8_t v = src[k];
        row[k] = v < 0 ? static_cast<std::int8_t>(v - minus_j) : (t == 0 ? v : moved);
      }
      std::copy_n(tail, static_cast<std::size_t>(j), row + uqm);
      if (top >= 0)
        row[uqm + static_cast<std::size_t>(top)] =
            r0 == 0 ? static_cast<std::int8_t>(low) : base_[static_cast<std::size_t>(r0)];
    }
    if (t + 1 == copies) break;
    // t -> t + 1: the c trailing ones clear, bit c sets.
    const int c = std::countr_one(ut);
    for (int i = 0; i < c; ++i) tail[i] = static_cast<std::int8_t>(qm + i - q);
    const std::uint64_t above = ut >> (c + 1);
    if (above != 0) {
      tail[c] = static_cast<std::int8_t>(qm + c + 1 + std::countr_zero(above) - q);
    } else {
      top = c;
    }
  }
}

}  // namespace optcoll::schedule
