// The LogP/LogGP event simulator: runs a Schedule and checks every rule.
//
// Machine rules, for each processor:
//  - overhead: its send overheads [s, s+o), receive overheads [a, a+o),
//    combinations [a+o, a+o+c) and additions [t, t+1) never overlap;
//  - gap: successive send starts are at least g + (bytes-1)G apart (bytes of
//    the earlier message), successive arrivals of the last byte at least
//    g + (bytes-1)G (bytes of the later one: its first byte comes g after);
//  - capacity: at no time are more than ceil(L/g) messages in transit
//    ([s+o, a), a = s + o + (bytes-1)G + L) from it, or to it.
// Data rules:
//  - items: a processor sends only items it has (arrived, overhead done, or
//    originated) by the send start; every item reaches every target; no
//    second reception of an item when the schedule promises single receptions;
//  - sums: a value is a sequence of operand runs; additions append on the
//    right; at the end each result processor holds every operand exactly once
//    (once or more if idempotent; in increasing order if not commutative).
// Completion is the last time a target obtains an item or a result value
// changes; it is reported against the schedule's lower bound.
//
// Events are processed in time order (state changes before reads at equal
// times); O(E log E) for E messages and additions, plus O(P * items) memory
// in items mode.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "optcoll/logp/schedule.hpp"

namespace optcoll::logp {

enum class Activity : std::uint8_t { send, receive, combine, compute };
const char* to_string(Activity a) noexcept;

// One busy interval of one processor, for timelines (Gantt charts).
struct Segment {
  proc_t proc = 0;
  std::int64_t start = 0;
  std::int64_t end = 0;  // == start for zero overhead
  Activity what = Activity::send;
  proc_t peer = -1;         // the other end of a message
  std::int64_t label = -1;  // item, or first operand of an addition chain
};

struct SimReport {
  bool ok() const noexcept { return errors.empty(); }
  std::vector<std::string> errors;  // at most max_errors, then a count
  std::int64_t completion = -1;     // -1: nothing completed
  std::int64_t lower_bound = -1;
  std::int64_t messages = 0;
  std::int64_t additions = 0;
  std::int64_t max_in_transit = 0;  // most messages in transit from or to one processor
  std::int64_t duplicate_receptions = 0;
  std::int64_t operands_summed = 0;  // sums: operands in the first result value
  std::vector<Segment> timeline;     // when requested
  bool meets_bound() const noexcept { return ok() && lower_bound >= 0 && completion <= lower_bound; }
};

struct SimOptions {
  bool timeline = false;
  int max_errors = 10;
  std::int64_t max_item_cells = std::int64_t{1} << 27;  // P * items limit in items mode
};

// Never throws for a wrong schedule: every violation becomes an error line.
// Throws optcoll::Error for invalid parameters or a schedule too large.
SimReport simulate(const Schedule& s, const SimOptions& opt = {});

}  // namespace optcoll::logp
