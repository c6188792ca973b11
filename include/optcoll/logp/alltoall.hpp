// All-to-all broadcast and combining broadcast (Karp et al. 1993, §4).
#pragma once

#include <cstdint>
#include <string>

#include "optcoll/logp/schedule.hpp"

namespace optcoll::logp {

// §4.1: each of P processors broadcasts k items. Processor i sends its items
// round-robin to i+1, ..., i+P-1 (mod P), one message every g': at round r
// (0 <= r < k(P-1)) item r/(P-1) goes to i + 1 + r mod (P-1), so every
// processor receives exactly one message per round. Lower bound
// L + 2o + g(k(P-1) - 1): k(P-1) receptions g apart, the first usable at L + 2o.
//
// The paper uses g' = g. A processor then runs its send overheads
// [r g, r g + o) and receive overheads [r g + o + L, r g + 2o + L), which
// the LogP model forbids to overlap; they do not iff no multiple m*g
// (1 <= m < k(P-1)) lies strictly between L and L + 2o (always when o = 0).
// When they would, the schedule uses the smallest g' > g for which they do
// not, and misses the paper's bound by (g' - g)(k(P-1) - 1).
// Item j of processor i is item id i*k + j.
struct AllToAll {
  Schedule schedule;
  std::int64_t gap = 0;  // g' used between rounds
  std::int64_t paper_bound = 0;
  std::int64_t completion = 0;  // L + 2o + g'(k(P-1) - 1)
};
AllToAll alltoall_broadcast(proc_t P, std::int64_t k, const Params& params);

// §4.2, postal model with latency L, zero-time combining of a commutative
// operator. At time j = 0..T-L processor i sends its current value to
// i + f_{j+L-1} (mod P); by induction processor i holds x[i-f_j+1 : i] at
// time j (Theorem 4.1), so for P = f_T everyone holds x[0 : P-1] at T, and T
// is optimal (a value reaches at most f_T processors by T, Theorem 2.2).
//
// P not of the form f_T: T_min = min{T : f_T >= P} is still a lower bound.
//  - idempotent operators (max, min, and, or): the same schedule mod P; the
//    windows wrap, so some values are combined twice, which they tolerate.
//    Time T_min: optimal.
//  - exact (any commutative operator): with P' = f_{T'} the largest
//    generalized Fibonacci number <= P, the e = P - P' < P' extra processors
//    P'+m first send their value to processor m (time 0, combined at L), the
//    P' processors run the schedule above from time L, and processor m sends
//    the result back to P'+m at L + T' (a copy: Message::replace). Time
//    T' + 2L against the lower bound T' + 1.
enum class CombineMode : std::uint8_t { exact, idempotent };
struct Combining {
  Schedule schedule;
  std::int64_t time = 0;         // completion of the construction
  std::int64_t lower_bound = 0;  // T_min
  std::string method;            // "fibonacci", "fibonacci-wrap" or "fold"
};
Combining combining_broadcast(proc_t P, std::int64_t L, CombineMode mode);

}  // namespace optcoll::logp
