// Count distributions for the irregular collectives (allgatherv,
// reduce_scatter): how `total` elements are spread over p ranks.
//   regular     total/p each
//   irregular   proportional to (i mod 3), as in Träff 2024 §3
//   degenerate  all at one rank (`big`), nothing elsewhere
//   spikes      every 16th rank (from 5) 64 times the weight of the others
// Counts sum to exactly `total` (leftovers go to the first weighted ranks).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace optcoll::model {

enum class Distribution { regular, irregular, degenerate, spikes };

std::optional<Distribution> parse_distribution(std::string_view name) noexcept;
std::string_view to_string(Distribution d) noexcept;

std::vector<std::int64_t> distribute(Distribution d, std::int64_t p, std::int64_t total, std::int64_t big = 0);

}  // namespace optcoll::model
