// Alpha-beta prices of the personalized exchanges (model/alltoall.hpp).
#include "optcoll/model/alltoall.hpp"
#include "optcoll/model/log2.hpp"

#include <algorithm>

namespace optcoll::model {
namespace {}  // namespace

double alltoall_shift_time(std::int64_t p, std::int64_t block, const AlphaBeta& ab) noexcept {
  if (p <= 1) return 0;
  const double messages = static_cast<double>(p - 1);
  if (ab.o <= 0) return messages * (ab.alpha + ab.beta * static_cast<double>(block));
  const double windows = static_cast<double>((p - 1 + kRoundsInFlight - 1) / kRoundsInFlight);
  return std::max(2 * messages * ab.o,
                  ab.alpha + std::max({(messages - 1) * ab.o, messages * ab.beta * static_cast<double>(block),
                                       (windows - 1) * ab.alpha}));
}

std::int64_t alltoall_bruck_blocks(std::int64_t p, int t) noexcept {
  // k in [0, p) with bit t set: full periods of 2^(t+1) contribute 2^t each,
  // the last partial period max(0, rest - 2^t).
  const std::int64_t period = std::int64_t{2} << t;
  const std::int64_t half = std::int64_t{1} << t;
  const std::int64_t rest = p % period;
  return (p / period) * half + (rest > half ? rest - half : 0);
}

double alltoall_bruck_time(std::int64_t p, std::int64_t block, const AlphaBeta& ab) noexcept {
  double t = 0;
  for (int k = 0; k < ceil_log2(p); ++k)
    t += ab.alpha + ab.beta * static_cast<double>(alltoall_bruck_blocks(p, k) * block);
  return t;
}

bool alltoall_prefers_bruck(std::int64_t p, std::int64_t block, const AlphaBeta& ab) noexcept {
  return alltoall_bruck_time(p, block, ab) < alltoall_shift_time(p, block, ab);
}

double alltoall_crossover_bytes(std::int64_t p, const AlphaBeta& ab) noexcept {
  const int q = ceil_log2(p);
  if (p - 1 - q <= 0) return 0;
  std::int64_t moved = 0;
  for (int k = 0; k < q; ++k) moved += alltoall_bruck_blocks(p, k);
  if (moved - (p - 1) <= 0) return 1e300;
  if (ab.o <= 0) {
    // shift: (p-1) alpha + (p-1) beta b; bruck: q alpha + B beta b with B the
    // blocks moved in all rounds. Bruck wins for b < (p-1-q) alpha / ((B-p+1) beta).
    return static_cast<double>(p - 1 - q) * ab.alpha / (static_cast<double>(moved - (p - 1)) * ab.beta);
  }
  // Streamed: bruck - shift is nondecreasing in b (Bruck's slope beta B is
  // at least the shift's, 0 or beta (p-1)), so the crossover is bisected.
  if (!alltoall_prefers_bruck(p, 0, ab)) return 0;
  std::int64_t lo = 0, hi = 1;  // bruck wins at lo, not at hi
  while (hi < (std::int64_t{1} << 50) && alltoall_prefers_bruck(p, hi, ab)) lo = hi, hi *= 2;
  if (alltoall_prefers_bruck(p, hi, ab)) return 1e300;
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    (alltoall_prefers_bruck(p, mid, ab) ? lo : hi) = mid;
  }
  return static_cast<double>(hi);
}

double many_to_many_two_phase_time(std::int64_t p, std::int64_t max_send, std::int64_t max_recv,
                                   const AlphaBeta& ab) noexcept {
  if (p <= 1) return 0;
  const double rounds = static_cast<double>(p - 1);
  const double per_round_1 = static_cast<double>(max_send) / static_cast<double>(p) + static_cast<double>(p);
  const double per_round_2 = static_cast<double>(max_recv) / static_cast<double>(p) + static_cast<double>(p);
  return rounds * (2 * ab.alpha + ab.beta * (per_round_1 + per_round_2));
}

}  // namespace optcoll::model
