// Optimal summation (Karp et al. 1993, §5).
//
// Additions take one time unit; a processor that receives a partial sum pays
// the overhead o and then one addition. Inverting the problem, we ask for the
// most operands summable by time t. In a lazy algorithm (Lemma 5.1) every
// processor but the root sends one message, at S_i, and starts its receptions
// at R_j = S_i - (o+1) - (k-j) g'; between them it adds g' - o - 1 of its own
// operands. Reversing time maps such an algorithm to a broadcast with latency
// L + 1 (the addition after a reception), overhead o and gap g': the node
// labelled d there sends at S = t - d here. Processor i adds its own operands
// for S_i - (o+1) k_i time units, summing S_i - (o+1) k_i + 1 of them, so
//     n(t) = sum_i S_i - o (P' - 1) + 1        (S_root = t),
// maximal for the P' smallest labels, i.e. B(P'; L+1, o, g'). (The paper's
// Lemma 5.1 prints "- oP + 1"; counting the receptions, P' - 1 of them,
// gives "- o(P'-1) + 1", which the simulator confirms on Figure 6.) A
// processor with S_i <= o adds nothing net, so P' = min(P, #labels < t - o).
//
// g' = max(g, o + 1): a reception occupies o + 1, so receptions cannot be
// closer; the paper's g - o - 1 additions between receptions assume g > o.
//
// Figure 6 (t = 28, P = 8, L = 5, g = 4, o = 2): the tree of Figure 1 (L+1 = 6),
// send times 28 (root), 18, 14, 10, 6, 8, 4, 4, and n = 79 operands.
//
// Non-commutative operators (footnote 2): additions append on the right, so
// numbering the operands in the order the root's value takes them in (each
// processor: its initial run, then per reception the sender's subtree, then
// its next run) makes the result x_0 (+) x_1 (+) ... (+) x_{n-1}.
#pragma once

#include <cstdint>
#include <vector>

#include "optcoll/logp/broadcast_tree.hpp"
#include "optcoll/logp/schedule.hpp"

namespace optcoll::logp {

struct SummationProc {
  std::int64_t send = 0;  // S_i; the root's is t (it does not send)
  proc_t parent = -1;
  std::vector<proc_t> senders;       // children, in the order their values arrive
  std::vector<std::int64_t> arrive;  // arrival times (receive overhead starts)
  std::vector<Compute> runs;         // own additions: before the first reception, then after each
  std::int64_t first_operand = 0;    // the operand held at time 0
  std::int64_t own_operands = 0;     // 1 + additions of own operands
};

struct Summation {
  Params params;  // the machine
  std::int64_t t = 0;
  std::int64_t gap = 0;  // g'
  std::int64_t operands = 0;
  bool commutative = true;
  std::vector<SummationProc> procs;  // processor 0 is the root
  // Simulator input: root holds x_0..x_{n-1} at t; lower bound t.
  Schedule schedule() const;
};

// The most operands P processors can sum by time t (t >= 0). O(P).
std::int64_t max_operands(std::int64_t t, proc_t P, const Params& params);
// The least t with max_operands(t, P) >= n (n >= 1). O(P log n).
std::int64_t summation_time(std::int64_t n, proc_t P, const Params& params);
// The optimal schedule summing max_operands(t, P) operands by time t.
Summation optimal_summation(std::int64_t t, proc_t P, const Params& params, bool commutative = true);
// A schedule for exactly n operands in summation_time(n, P): the optimal one
// with the surplus removed from the processors' first runs.
Summation summation_of(std::int64_t n, proc_t P, const Params& params, bool commutative = true);

}  // namespace optcoll::logp
