// The policy rules (policy.hpp): keywords and the tuning file.
#include "policy.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <sstream>
#include <tuple>

#include "optcoll/error.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::pmpi {
namespace {

double log_distance(std::int64_t a, std::int64_t b) noexcept {
  return std::abs(std::log2(static_cast<double>(std::max<std::int64_t>(a, 1))) -
                  std::log2(static_cast<double>(std::max<std::int64_t>(b, 1))));
}

bool parse_collective(std::string_view s, plan::Collective& out) noexcept {
  for (std::size_t i = 0; i < plan::kCollectives; ++i) {
    const auto c = static_cast<plan::Collective>(i);
    if (plan::to_string(c) == s) {
      out = c;
      return true;
    }
  }
  return false;
}

}  // namespace

Tuning Tuning::parse(std::string_view text) {
  Tuning t;
  std::istringstream in{std::string(text)};
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::istringstream fields(line);
    std::string op;
    if (!(fields >> op)) continue;  // blank or comment
    TuningPoint pt;
    std::string rest;
    const bool ok = parse_collective(op, pt.op) && (fields >> pt.p >> pt.bytes >> pt.native_us >> pt.optcoll_us) &&
                    !(fields >> rest) && pt.p >= 1 && pt.bytes >= 0 && pt.native_us >= 0 && pt.optcoll_us >= 0;
    if (!ok)
      throw Error(Errc::invalid_count, "tuning file line " + std::to_string(number) +
                                           ": expected '<collective> <p> <bytes> <native us> <optcoll us>', got '" +
                                           line + "'");
    t.add(pt);
  }
  return t;
}

std::string Tuning::format() const {
  std::ostringstream out;
  out << "# optcoll tuning file (optcoll-tune): collective p bytes native_us optcoll_us\n";
  for (const TuningPoint& t : points_)
    out << plan::to_string(t.op) << ' ' << t.p << ' ' << t.bytes << ' ' << t.native_us << ' ' << t.optcoll_us << '\n';
  return out.str();
}

bool Tuning::covers(plan::Collective op) const noexcept {
  return std::any_of(points_.begin(), points_.end(), [&](const TuningPoint& t) { return t.op == op; });
}

bool Tuning::optcoll_wins(plan::Collective op, std::int64_t p, std::int64_t bytes) const noexcept {
  // Lexicographic: the nearest p first, then the nearest size; ties to the
  // smaller p, then the smaller size.
  const TuningPoint* best = nullptr;
  auto key = [&](const TuningPoint& t) {
    return std::tuple(log_distance(t.p, p), t.p, log_distance(t.bytes, bytes), t.bytes);
  };
  for (const TuningPoint& t : points_)
    if (t.op == op && (best == nullptr || key(t) < key(*best))) best = &t;
  return best != nullptr && best->optcoll_us < best->native_us;
}

}  // namespace optcoll::pmpi
