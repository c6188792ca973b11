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
#include <span>

namespace optcoll::model {

struct AlphaBeta {
  double alpha = 2e-6;  // seconds per message
  double beta = 1e-10;  // seconds per byte
  // Seconds per message of messages streamed back to back (LogGP's o: a
  // rank posting or taking p - 1 messages in a row); 0: unknown. Prices
  // that need it (AlgorithmInfo::needs_overhead) are not used without it.
  double o = 0;
};

// Modelled time of n-1+q rounds moving blocks of ceil(bytes/n) bytes.
double circulant_time(int q, std::int64_t bytes, std::int64_t n, const AlphaBeta& ab) noexcept;

// The block count minimising circulant_time, in [1, max_blocks] (max_blocks
// is typically the element count). bytes = 0 or q <= 1 gives 1.
std::int64_t choose_blocks(int q, std::int64_t bytes, std::int64_t max_blocks, const AlphaBeta& ab) noexcept;

// All-broadcast: p circulant broadcasts at once on one graph (Allgather(v),
// Träff 2024 Alg. 7; Reduce_scatter and the circulant Allreduce's phases
// run it backwards), every group split into n blocks; groups of `smallest`
// to `largest` bytes, no rank receiving more than `volume` bytes:
//     T(n) = (n - 1 + q) alpha + beta volume
//            + (q - 1) beta (largest - smallest) / n.
// Every received byte crosses the port once in one of the n-1+q rounds;
// the last term is the pipeline fill of the part of the largest group the
// others lack (for smallest = 0 and one group T is circulant_time, for equal
// groups the volume alone: then n = 1 is optimal and the circulant
// all-broadcast is Bruck's algorithm). Exact in both cases; tests/sim
// checks it and the n it picks against the simulator in between.
double all_broadcast_time(int q, std::int64_t largest, std::int64_t smallest, std::int64_t volume, std::int64_t n,
                          const AlphaBeta& ab) noexcept;

// The n in [1, max_blocks] minimising all_broadcast_time: the broadcast's
// optimum for largest - smallest bytes (1 for equal groups).
std::int64_t choose_all_broadcast_blocks(int q, std::int64_t largest, std::int64_t smallest, std::int64_t max_blocks,
                                         const AlphaBeta& ab) noexcept;

// Allreduce by dissemination (every round the whole vector) is a candidate
// up to this many bytes only: the calibration measures beta with messages
// of at most 64 KiB, and beyond that whole-vector rounds on a shared node
// cost far more than beta m (measured: docs/decisions/dissemination-up-to-64k.md).
inline constexpr std::int64_t kDisseminationMaxBytes = 64 << 10;

// The linear Scan / Exscan (plan scan_linear) is a candidate up to this many
// bytes only: its price counts o per message, measured with 8-byte messages,
// and beyond the eager limits (Open MPI's shared memory 4 KiB, SMPI's 8 KiB)
// each message pays a rendezvous round trip instead
// (docs/decisions/scan-linear-for-short-vectors.md). Its p - 1 receive
// slots also grow with the vector.
inline constexpr std::int64_t kLinearScanMaxBytes = 4 << 10;

// The smallest cap on a pipelined block (mpi::max_block_bytes_for): calls
// of at most this many bytes are never raised to more blocks by the cap.
inline constexpr std::int64_t kMinBlockCap = 64 << 10;

// Rounds of the recursive-doubling allreduce (plan "doubling") on p ranks:
// floor(log2 p), plus a fold and an unfold round unless p is a power of two.
constexpr int doubling_allreduce_rounds(std::int64_t p) noexcept {
  int f = 0;
  while ((std::int64_t{2} << f) <= p) ++f;
  return p <= 1 ? 0 : f + ((p & (p - 1)) != 0 ? 2 : 0);
}

// The same for groups of these sizes in bytes.
std::int64_t choose_group_blocks(int q, std::span<const std::int64_t> group_bytes, std::int64_t max_blocks,
                                 const AlphaBeta& ab) noexcept;

// The paper's rule (Träff 2024 §3): block size F * sqrt(m / ceil(log2 p))
// bytes, so n = ceil(m / that); clamped to [1, max_blocks].
std::int64_t paper_blocks(int q, std::int64_t bytes, std::int64_t max_blocks, double F) noexcept;

}  // namespace optcoll::model
