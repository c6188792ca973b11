// The block size distributions of Traff 2018, §5.1 (from [20]): for p
// processors, average block size b and parameter rho, m_i for
//   same                b
//   random              uniform in [1, 2b]
//   random-decreasing   random, sorted decreasingly
//   random-increasing   random, sorted increasingly
//   bucket              ceil(b/2) + uniform in [1, b]
//   spikes              rho b with probability 1/rho, else 1
//   decreasing          floor(2b(p-i)/p) + 1
//   increasing          floor(2b(i+1)/p) + 1
//   alternating         b + floor(b/2) at even i, b - floor(b/2) at odd i
//   skewed              floor(pb/rho) for i < rho, else 1
//   two-blocks          floor(pb/2) at i = 0 and i = p-1, else 0
// The random ones draw from splitmix64 seeded with `seed` (bounded by
// rejection), so a seed gives the same sizes on every platform.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "optcoll/trees/model.hpp"

namespace optcoll::trees {

enum class BlockDistribution : std::uint8_t {
  same,
  random,
  random_decreasing,
  random_increasing,
  bucket,
  spikes,
  decreasing,
  increasing,
  alternating,
  skewed,
  two_blocks,
};

// In the order of the paper's tables.
std::span<const BlockDistribution> all_block_distributions() noexcept;
std::string_view to_string(BlockDistribution d) noexcept;
std::optional<BlockDistribution> parse_block_distribution(std::string_view name) noexcept;
bool is_random(BlockDistribution d) noexcept;

// Throws optcoll::Error for p < 1, b < 0 or rho < 1.
std::vector<std::int64_t> block_sizes(BlockDistribution d, rank_t p, std::int64_t b, std::int64_t rho = 5,
                                      std::uint64_t seed = 1);

}  // namespace optcoll::trees
