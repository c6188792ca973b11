#include "optcoll/model/distributions.hpp"

namespace optcoll::model {

std::optional<Distribution> parse_distribution(std::string_view name) noexcept {
  if (name == "regular") return Distribution::regular;
  if (name == "irregular") return Distribution::irregular;
  if (name == "degenerate") return Distribution::degenerate;
  if (name == "spikes") return Distribution::spikes;
  return std::nullopt;
}

std::string_view to_string(Distribution d) noexcept {
  switch (d) {
    case Distribution::regular:
      return "regular";
    case Distribution::irregular:
      return "irregular";
    case Distribution::degenerate:
      return "degenerate";
    case Distribution::spikes:
      return "spikes";
  }
  return "?";
}

std::vector<std::int64_t> distribute(Distribution d, std::int64_t p, std::int64_t total, std::int64_t big) {
  std::vector<std::int64_t> w(static_cast<std::size_t>(p), 1);
  for (std::int64_t i = 0; i < p; ++i) {
    auto& x = w[static_cast<std::size_t>(i)];
    if (d == Distribution::irregular) x = i % 3;
    if (d == Distribution::degenerate) x = i == big ? 1 : 0;
    if (d == Distribution::spikes) x = i % 16 == 5 ? 64 : 1;
  }
  std::int64_t sum = 0;
  for (std::int64_t x : w) sum += x;
  if (sum == 0) w.assign(w.size(), 1), sum = p;  // p < 3 for irregular
  std::vector<std::int64_t> c(w.size());
  std::int64_t given = 0;
  for (std::size_t i = 0; i < w.size(); ++i) {
    // total * w / sum without overflow (w <= 64, sum <= 64p)
    c[i] = total / sum * w[i] + total % sum * w[i] / sum;
    given += c[i];
  }
  for (std::size_t i = 0; given < total; i = (i + 1) % w.size())
    if (w[i] > 0) ++c[i], ++given;
  return c;
}

}  // namespace optcoll::model
