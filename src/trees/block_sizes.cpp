// Block size distributions (Traff 2018, §5.1).
#include "optcoll/trees/block_sizes.hpp"

#include <algorithm>
#include <array>
#include <functional>

#include "optcoll/error.hpp"

namespace optcoll::trees {
namespace {

using D = BlockDistribution;

constexpr std::array kAll{D::same,        D::random, D::random_decreasing, D::random_increasing,
                          D::bucket,      D::spikes, D::decreasing,        D::increasing,
                          D::alternating, D::skewed, D::two_blocks};

// splitmix64 (Steele, Lea, Flood 2014): a fixed, portable stream.
class Stream {
 public:
  explicit Stream(std::uint64_t seed) : x_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (x_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi], by rejection (no modulo bias).
  std::int64_t uniform(std::int64_t lo, std::int64_t hi) {
    const auto span = static_cast<std::uint64_t>(hi - lo) + 1;
    const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % span);
    std::uint64_t v = next();
    while (v >= limit) v = next();
    return lo + static_cast<std::int64_t>(v % span);
  }

 private:
  std::uint64_t x_;
};

}  // namespace

std::span<const BlockDistribution> all_block_distributions() noexcept {
  return kAll;
}

std::string_view to_string(BlockDistribution d) noexcept {
  switch (d) {
    case D::same:
      return "same";
    case D::random:
      return "random";
    case D::random_decreasing:
      return "random-decreasing";
    case D::random_increasing:
      return "random-increasing";
    case D::bucket:
      return "bucket";
    case D::spikes:
      return "spikes";
    case D::decreasing:
      return "decreasing";
    case D::increasing:
      return "increasing";
    case D::alternating:
      return "alternating";
    case D::skewed:
      return "skewed";
    case D::two_blocks:
      return "two-blocks";
  }
  return "?";
}

std::optional<BlockDistribution> parse_block_distribution(std::string_view name) noexcept {
  for (D d : kAll)
    if (to_string(d) == name) return d;
  return std::nullopt;
}

bool is_random(BlockDistribution d) noexcept {
  return d == D::random || d == D::random_decreasing || d == D::random_increasing || d == D::bucket || d == D::spikes;
}

std::vector<std::int64_t> block_sizes(BlockDistribution d, rank_t p, std::int64_t b, std::int64_t rho,
                                      std::uint64_t seed) {
  if (p < 1) throw Error(Errc::invalid_p, "block sizes need p >= 1");
  if (b < 0 || rho < 1) throw Error(Errc::invalid_count, "block sizes need b >= 0 and rho >= 1");
  // The formulas below form 2 b p, rho b and p b, and the trees sum up to p
  // blocks of up to max(rho, 2) b: all of it must stay below 2^62.
  // (In doubles: a threshold, exact enough, and no overflow of its own.)
  const double widest =
      static_cast<double>(b) * 2.0 * static_cast<double>(p) * static_cast<double>(std::max<std::int64_t>(rho, 2));
  if (widest > 0x1p62)
    throw Error(Errc::invalid_count, "block sizes: p * b * max(rho, 2) too large (sums would overflow)");
  std::vector<std::int64_t> m(static_cast<std::size_t>(p));
  Stream rng(seed);
  for (rank_t i = 0; i < p; ++i) {
    std::int64_t& x = m[static_cast<std::size_t>(i)];
    switch (d) {
      case D::same:
        x = b;
        break;
      case D::random:
      case D::random_decreasing:
      case D::random_increasing:
        x = rng.uniform(1, std::max<std::int64_t>(1, 2 * b));
        break;
      case D::bucket:
        x = (b + 1) / 2 + rng.uniform(1, std::max<std::int64_t>(1, b));
        break;
      case D::spikes:
        x = rng.uniform(0, rho - 1) == 0 ? rho * b : 1;
        break;
      case D::decreasing:
        x = 2 * b * (p - i) / p + 1;
        break;
      case D::increasing:
        x = 2 * b * (i + 1) / p + 1;
        break;
      case D::alternating:
        x = i % 2 == 0 ? b + b / 2 : b - b / 2;
        break;
      case D::skewed:
        x = i < rho ? p * b / rho : 1;
        break;
      case D::two_blocks:
        x = (i == 0 || i == p - 1) ? p * b / 2 : 0;
        break;
    }
  }
  if (d == D::random_decreasing) std::sort(m.begin(), m.end(), std::greater<>());
  if (d == D::random_increasing) std::sort(m.begin(), m.end());
  return m;
}

}  // namespace optcoll::trees
