// k-item broadcast in the postal model (Karp et al. 1993, §3, §3.4).
//
// Bounds, with N = P - 1 receivers, f_n < N <= f_{n+1} (so B(N) = n + 1) and
// k* = floor((f_0 + ... + f_n) / N):
//  - Theorem 3.1: any schedule needs B(N) + L + (k-1) - k*;
//  - single-sending (the source sends each item once, item i at time i-1 at
//    the earliest): B(N) + L + k - 1;
//  - Theorem 3.7 promises a single-sending schedule within B(N) + 2L + k - 2.
//
// Construction (single-sending): the first k items of a block-cyclic
// continuous broadcast (block_cyclic.hpp) whose tree has depth D finish at
// k - 1 + L + D, so any such schedule with D <= B(N) + L - 1 meets
// Theorem 3.7, and D = B(N) meets the single-sending bound. In order:
//  1. N = f_t: continuous_broadcast (optimal D = t for L = 1 and L >= 3 from
//     t(L) on and for most smaller t; D = t + 1 for L = 2);
//  2. otherwise the search on B(N) itself (several choices of the nodes kept
//     at the last label), which for L >= 3 finds optimal schedules for almost
//     every N tried (see docs/logp.md);
//  3. otherwise a cascade: a solved instance for N1 < N whose receive-only
//     processor, a fixed leaf, forwards every item to the root of a solved
//     instance for the remaining N - N1 (recursively), with the resulting
//     depth reported; it may exceed Theorem 3.7's bound, which the result says.
// This replaces the paper's sketched endgame (items reaching the
// "receivers" up to L-1 steps late, given only for L odd and N = f_t, with
// parts of the case analysis lost in the text); where step 1 or 2 succeeds it
// is better: B(N) + L + k - 1 instead of B(N) + 2L + k - 2.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "optcoll/logp/block_cyclic.hpp"

namespace optcoll::logp {

struct KItemBounds {
  proc_t N = 0;
  std::int64_t B = 0;          // B(N)
  std::int64_t kstar = 0;      // k*
  std::int64_t lower = 0;      // Theorem 3.1 (and at least B(P), L + k - 1)
  std::int64_t single = 0;     // B(N) + L + k - 1
  std::int64_t theorem37 = 0;  // B(N) + 2L + k - 2
};
KItemBounds kitem_bounds(proc_t P, std::int64_t L, std::int64_t k);

struct KItemPlan {
  BlockCyclic solution;
  Schedule schedule;  // lower_bound = Theorem 3.1's
  std::int64_t completion = 0;
  KItemBounds bounds;
  std::string method;
  bool within_theorem37() const noexcept { return completion <= bounds.theorem37; }
};
KItemPlan kitem_single_sending(proc_t P, std::int64_t L, std::int64_t k);

// A block-cyclic solution for N = P - 1 receivers with the least depth the
// constructions above find (steps 1-3), without items.
BlockCyclic single_sending_solution(proc_t N, std::int64_t L, std::string* method = nullptr);

// Figure 2 / §3.3: an optimal k-item schedule = a continuous phase (the
// first k - k* items, single-sent, along `continuous`) and an endgame in
// which the source may send the last k* items several times. The endgame is
// found by exhaustive depth-first search over who sends which item to whom
// at every step (tiny instances only), finishing by `deadline`. nullopt if
// none exists (search complete) or the budget ran out (`*exhausted`).
std::optional<Schedule> kitem_with_endgame(const BlockCyclic& continuous, std::int64_t k, std::int64_t deadline,
                                           std::int64_t budget = 20000000, bool* exhausted = nullptr);

}  // namespace optcoll::logp
