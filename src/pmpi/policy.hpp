// The policy of liboptcoll_pmpi.so: per collective, OPTCOLL_<OP> = auto |
// optcoll | native | <algorithm name> (a name implies optcoll), and the
// tuning file (OPTCOLL_TUNING_FILE). What `auto` predicts without a tuning
// file is the one selection's (select/select.hpp, runtime.cpp). MPI-free,
// so that the rules can be tested without MPI.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "optcoll/plan/plan.hpp"
#include "optcoll/select/settings.hpp"

namespace optcoll::pmpi {

using select::is_policy_keyword;
using select::Mode;
using select::parse_mode;

// Measured times of one call: what `optcoll-tune` writes, one per line,
//     <collective> <p> <bytes> <native us> <optcoll us>
// ('#' starts a comment). bytes: the call's total payload (the shapes).
struct TuningPoint {
  plan::Collective op = plan::Collective::bcast;
  std::int64_t p = 0;
  std::int64_t bytes = 0;
  double native_us = 0;
  double optcoll_us = 0;
};

class Tuning {
 public:
  // Throws optcoll::Error (Errc::invalid_count) naming the line of the first
  // malformed entry.
  static Tuning parse(std::string_view text);
  std::string format() const;

  void add(const TuningPoint& t) { points_.push_back(t); }
  std::span<const TuningPoint> points() const noexcept { return points_; }
  bool covers(plan::Collective op) const noexcept;

  // The measured winner nearest to (p, bytes): among the points of op, those
  // of the p nearest on a log scale, of them the one whose bytes are nearest
  // on a log scale (a smaller p or size on ties). True if optcoll was faster.
  // Precondition: covers(op).
  bool optcoll_wins(plan::Collective op, std::int64_t p, std::int64_t bytes) const noexcept;

 private:
  std::vector<TuningPoint> points_;
};

}  // namespace optcoll::pmpi
