#include "optcoll/model/block_count.hpp"

#include <algorithm>
#include <cmath>

namespace optcoll::model {

double circulant_time(int q, std::int64_t bytes, std::int64_t n, const AlphaBeta& ab) noexcept {
  if (n < 1) n = 1;
  const double block = std::ceil(static_cast<double>(bytes) / static_cast<double>(n));
  return static_cast<double>(n - 1 + q) * (ab.alpha + ab.beta * block);
}

std::int64_t choose_blocks(int q, std::int64_t bytes, std::int64_t max_blocks, const AlphaBeta& ab) noexcept {
  if (bytes <= 0 || max_blocks <= 1 || q <= 1 || ab.alpha <= 0) return 1;
  const double star = std::sqrt(static_cast<double>(q - 1) * ab.beta * static_cast<double>(bytes) / ab.alpha);
  const auto clamp = [&](double v) {
    return static_cast<std::int64_t>(std::clamp(v, 1.0, static_cast<double>(max_blocks)));
  };
  const std::int64_t lo = clamp(std::floor(star));
  const std::int64_t hi = clamp(std::ceil(star));
  return circulant_time(q, bytes, hi, ab) < circulant_time(q, bytes, lo, ab) ? hi : lo;
}

double all_broadcast_time(int q, std::int64_t largest, std::int64_t smallest, std::int64_t volume, std::int64_t n,
                          const AlphaBeta& ab) noexcept {
  if (n < 1) n = 1;
  const double excess = std::ceil(static_cast<double>(largest - smallest) / static_cast<double>(n));
  return static_cast<double>(n - 1 + q) * ab.alpha + ab.beta * static_cast<double>(volume) +
         static_cast<double>(q - 1) * ab.beta * excess;
}

std::int64_t choose_all_broadcast_blocks(int q, std::int64_t largest, std::int64_t smallest, std::int64_t max_blocks,
                                         const AlphaBeta& ab) noexcept {
  // T(n) - beta volume has the n-dependence of circulant_time(q, excess, n).
  return choose_blocks(q, largest - smallest, max_blocks, ab);
}

std::int64_t choose_group_blocks(int q, std::span<const std::int64_t> group_bytes, std::int64_t max_blocks,
                                 const AlphaBeta& ab) noexcept {
  if (group_bytes.empty()) return 1;
  const auto [smallest, largest] = std::minmax_element(group_bytes.begin(), group_bytes.end());
  return choose_all_broadcast_blocks(q, *largest, *smallest, max_blocks, ab);
}

std::int64_t paper_blocks(int q, std::int64_t bytes, std::int64_t max_blocks, double F) noexcept {
  if (bytes <= 0 || max_blocks <= 1 || q < 1) return 1;
  const double block = F * std::sqrt(static_cast<double>(bytes) / static_cast<double>(q));
  const double n = std::ceil(static_cast<double>(bytes) / std::max(block, 1.0));
  return static_cast<std::int64_t>(std::clamp(n, 1.0, static_cast<double>(max_blocks)));
}

}  // namespace optcoll::model
