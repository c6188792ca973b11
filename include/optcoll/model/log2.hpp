// ceil(log2 x): the rounds of a binomial tree on x ranks, q of the circulant
// graph (schedule::Circulant computes its own), the prices' round counts.
#pragma once

#include <cstdint>

namespace optcoll::model {

// 0 for x <= 1.
constexpr int ceil_log2(std::int64_t x) noexcept {
  int q = 0;
  while (q < 63 && (std::int64_t{1} << q) < x) ++q;
  return q;
}

}  // namespace optcoll::model
