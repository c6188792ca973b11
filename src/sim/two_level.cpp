// TwoLevelClock (two_level.hpp).
#include "two_level.hpp"

#include <algorithm>

namespace optcoll::sim::detail {

TwoLevelClock::TwoLevelClock(const plan::NodeLayout& nodes, const model::TwoLevel& m)
    : nodes_(nodes),
      m_(m),
      out_(static_cast<std::size_t>(nodes.nodes()), 0),
      in_(static_cast<std::size_t>(nodes.nodes()), 0) {}

void TwoLevelClock::message(plan::rank_t from, plan::rank_t to, std::int64_t bytes) {
  const plan::rank_t a = nodes_.node_of(from);
  const plan::rank_t b = nodes_.node_of(to);
  if (a == b) {
    within_ = std::max(within_, m_.in.alpha + m_.in.beta * static_cast<double>(bytes));
    return;
  }
  auto& out = out_[static_cast<std::size_t>(a)];
  auto& in = in_[static_cast<std::size_t>(b)];
  // (A port is listed once per round: when it first carries bytes either way.)
  if (out == 0 && in_[static_cast<std::size_t>(a)] == 0) used_.push_back(a);
  if (in == 0 && out_[static_cast<std::size_t>(b)] == 0) used_.push_back(b);
  out += std::max<std::int64_t>(bytes, 1);
  in += std::max<std::int64_t>(bytes, 1);
}

double TwoLevelClock::end_round() {
  double t = within_;
  for (const plan::rank_t k : used_) {
    const auto u = static_cast<std::size_t>(k);
    const std::int64_t b = std::max(out_[u], in_[u]);
    t = std::max(t, m_.out.alpha + m_.out.beta * static_cast<double>(b));
    out_[u] = in_[u] = 0;
  }
  used_.clear();
  within_ = 0;
  return t;
}

}  // namespace optcoll::sim::detail
