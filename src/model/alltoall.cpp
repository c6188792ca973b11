// Alpha-beta prices of the personalized exchanges (model/alltoall.hpp).
#include "optcoll/model/alltoall.hpp"

namespace optcoll::model {
namespace {

int ceil_log2(std::int64_t p) noexcept {
  int q = 0;
  while ((std::int64_t{1} << q) < p) ++q;
  return q;
}

}  // namespace

double alltoall_shift_time(std::int64_t p, std::int64_t block, const AlphaBeta& ab) noexcept {
  if (p <= 1) return 0;
  return static_cast<double>(p - 1) * (ab.alpha + ab.beta * static_cast<double>(block));
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
  // shift: (p-1) alpha + (p-1) beta b; bruck: q alpha + B beta b with B the
  // blocks moved in all rounds. Bruck wins for b < (p-1-q) alpha / ((B-p+1) beta).
  const int q = ceil_log2(p);
  std::int64_t moved = 0;
  for (int k = 0; k < q; ++k) moved += alltoall_bruck_blocks(p, k);
  const double fewer_rounds = static_cast<double>(p - 1 - q) * ab.alpha;
  const double more_bytes = static_cast<double>(moved - (p - 1)) * ab.beta;
  if (fewer_rounds <= 0) return 0;
  if (more_bytes <= 0) return 1e300;
  return fewer_rounds / more_bytes;
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
