// Choosing the block count n of a pipelined circulant collective.
//
// Under the alpha-beta model a round with blocks of m/n bytes costs
// alpha + beta*m/n, and the circulant broadcast takes n-1+q rounds:
//     T(n) = (n - 1 + q) * (alpha + beta * m / n).
// dT/dn = 0 gives n* = sqrt((q - 1) * beta * m / alpha), the rule used here,
// rounded to the better neighbouring integer and clamped to [1, max_blocks].
// The paper's alternative is a block size of F * sqrt(m / ceil(log2 p)).
#pragma once

#include <cstdint>

namespace optcoll::model {

struct AlphaBeta {
  double alpha = 2e-6;  // seconds per message
  double beta = 1e-10;  // seconds per byte
};

// Modelled time of n-1+q rounds moving blocks of ceil(bytes/n) bytes.
double circulant_time(int q, std::int64_t bytes, std::int64_t n, const AlphaBeta& ab) noexcept;

// The block count minimising circulant_time, in [1, max_blocks] (max_blocks
// is typically the element count). bytes = 0 or q <= 1 gives 1.
std::int64_t choose_blocks(int q, std::int64_t bytes, std::int64_t max_blocks, const AlphaBeta& ab) noexcept;

// The paper's rule (Träff 2024 §3): block size F * sqrt(m / ceil(log2 p))
// bytes, so n = ceil(m / that); clamped to [1, max_blocks].
std::int64_t paper_blocks(int q, std::int64_t bytes, std::int64_t max_blocks, double F) noexcept;

}  // namespace optcoll::model
