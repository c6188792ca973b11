// LogP / LogGP machine parameters (Karp, Sahay, Santos, Schauser 1993, §1).
//
// P processors; a message of m bytes sent at time s keeps the sender busy for
// the overhead o, leaves the sender by s + o + (m-1)G, travels the latency L,
// and keeps the receiver busy for o from its arrival: it is usable at
// s + 2o + L + (m-1)G. Successive sends of a processor start at least
// g + (m-1)G apart, and so do successive receptions. At most ceil(L/g)
// messages are in transit from or to a processor. G is LogGP's gap per byte;
// G = 0 and m = 1 is plain LogP. The postal model of Bar-Noy and Kipnis is
// LogP with o = 0 and g = 1. Times are integers (processor cycles).
#pragma once

#include <cstdint>
#include <string>

namespace optcoll::logp {

// Processor ids and counts, 64-bit as everywhere in optcoll.
using proc_t = std::int64_t;

struct Params {
  std::int64_t L = 1;  // latency, >= 1
  std::int64_t o = 0;  // overhead per send and per receive, >= 0
  std::int64_t g = 1;  // gap, >= 1 and >= o
  std::int64_t G = 0;  // LogGP gap per byte, >= 0

  // A node labelled t in the universal broadcast tree has children
  // t + L + 2o + i*g (Definition 2.3): the first child after one message time.
  std::int64_t hop() const noexcept { return L + 2 * o; }
  std::int64_t capacity() const noexcept { return (L + g - 1) / g; }
  bool postal() const noexcept { return o == 0 && g == 1 && G == 0; }
  std::string str() const;
};

// The postal model with latency L (g = 1, o = 0).
constexpr Params postal(std::int64_t L) noexcept {
  return Params{L, 0, 1, 0};
}

// Throws optcoll::Error(Errc::invalid_count) unless L >= 1, o >= 0, g >= 1,
// o <= g (a send overhead must fit in the gap, as the paper's schedules
// assume) and G >= 0, all at most 2^40 (so that sums of a few million of
// them stay far from overflow).
void validate(const Params& p);

}  // namespace optcoll::logp
