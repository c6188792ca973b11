// Optimal summation as reversed broadcast with latency L + 1 (Karp et al.
// 1993, §5, Lemma 5.1).
#include "optcoll/logp/summation.hpp"

#include "text.hpp"

#include <algorithm>

#include "optcoll/error.hpp"
#include "optcoll/logp/fibonacci.hpp"

namespace optcoll::logp {
namespace {

Params reversed_params(const Params& p) {
  validate(p);
  if (p.G != 0) throw Error(Errc::invalid_count, "summation: one-word messages, G must be 0");
  return Params{p.L + 1, p.o, std::max(p.g, p.o + 1), 0};
}

// Processors worth using: labels d with t - d > o, at most P of them.
proc_t useful(std::int64_t t, proc_t P, const Params& rev) {
  if (P < 1) throw Error(Errc::invalid_p, detail::format("summation needs P >= 1, got {}", P));
  const auto below = reachable(t - rev.o - 1, rev);  // labels <= t - o - 1
  const std::int64_t n = below ? *below : P;
  return std::max<proc_t>(1, std::min(P, n));
}

// Numbers the operands in the order the root's value takes them in: a
// processor's initial operand, its first run, the first sender's subtree, its
// next run, ... (parents precede children: BFS ids). Returns the total.
std::int64_t number_operands(std::vector<SummationProc>& procs) {
  const auto n = procs.size();
  std::vector<std::int64_t> total(n), base(n, 0);
  for (std::size_t v = n; v-- > 0;) {
    total[v] = procs[v].own_operands;
    for (proc_t c : procs[v].senders) total[v] += total[static_cast<std::size_t>(c)];
  }
  for (std::size_t v = 0; v < n; ++v) {
    SummationProc& q = procs[v];
    std::int64_t next = base[v];
    q.first_operand = next++;
    for (std::size_t j = 0; j < q.runs.size(); ++j) {
      q.runs[j].first = next;
      next += q.runs[j].count;
      if (j < q.senders.size()) {
        base[static_cast<std::size_t>(q.senders[j])] = next;
        next += total[static_cast<std::size_t>(q.senders[j])];
      }
    }
  }
  return n == 0 ? 0 : total[0];
}

}  // namespace

std::int64_t max_operands(std::int64_t t, proc_t P, const Params& params) {
  if (t < 0) return 0;
  const Params rev = reversed_params(params);
  const BroadcastTree tree(useful(t, P, rev), rev);
  return tree.size() * t - tree.delay_sum() - params.o * (tree.size() - 1) + 1;
}

std::int64_t summation_time(std::int64_t n, proc_t P, const Params& params) {
  if (n < 1) throw Error(Errc::invalid_count, detail::format("summation needs n >= 1 operands, got {}", n));
  std::int64_t lo = 0, hi = n - 1;  // one processor sums n operands in n - 1
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (max_operands(mid, P, params) >= n)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

Summation optimal_summation(std::int64_t t, proc_t P, const Params& params, bool commutative) {
  if (t < 0) throw Error(Errc::invalid_count, detail::format("summation needs t >= 0, got {}", t));
  const Params rev = reversed_params(params);
  const BroadcastTree tree(useful(t, P, rev), rev);
  Summation s;
  s.params = params;
  s.t = t;
  s.gap = rev.g;
  s.commutative = commutative;
  const proc_t n = tree.size();
  s.procs.resize(static_cast<std::size_t>(n));
  // Timing: node v sends at t - delay(v); its children arrive last-sent-first.
  for (proc_t v = 0; v < n; ++v) {
    SummationProc& q = s.procs[static_cast<std::size_t>(v)];
    q.send = t - tree.delay(v);
    q.parent = tree.parent(v);
    for (proc_t i = tree.num_children(v) - 1; i >= 0; --i) {
      const proc_t c = tree.first_child(v) + i;
      q.senders.push_back(c);
      q.arrive.push_back(t - tree.delay(c) + params.o + params.L);
    }
    std::int64_t free_from = 0;
    q.own_operands = 1;
    for (std::size_t j = 0; j <= q.arrive.size(); ++j) {
      const std::int64_t until = j < q.arrive.size() ? q.arrive[j] : q.send;
      q.runs.push_back({free_from, v, 0, until - free_from});  // may be empty; numbered below
      q.own_operands += until - free_from;
      if (j < q.arrive.size()) free_from = q.arrive[j] + params.o + 1;
    }
  }
  s.operands = number_operands(s.procs);
  if (s.operands != max_operands(t, P, params))
    throw Error(Errc::internal, detail::format("summation t={} P={} {}: {} operands, formula {}", t, P, params.str(),
                                               s.operands, max_operands(t, P, params)));
  return s;
}

Summation summation_of(std::int64_t n, proc_t P, const Params& params, bool commutative) {
  Summation s = optimal_summation(summation_time(n, P, params), P, params, commutative);
  std::int64_t surplus = s.operands - n;
  // Shorten runs (latest processors first, earliest runs first): the
  // processor idles instead. Numbering is redone from scratch below.
  for (auto it = s.procs.rbegin(); it != s.procs.rend() && surplus > 0; ++it)
    for (Compute& r : it->runs) {
      const std::int64_t cut = std::min(surplus, r.count);
      r.start += cut;
      r.count -= cut;
      it->own_operands -= cut;
      surplus -= cut;
    }
  s.operands = number_operands(s.procs);
  return s;
}

Schedule Summation::schedule() const {
  Schedule s;
  s.name = detail::format("optimal summation t={} P={} {} ({} operands{})", t, procs.size(), params.str(), operands,
                          commutative ? "" : ", non-commutative");
  s.params = params;
  s.P = static_cast<proc_t>(procs.size());
  s.payload = Payload::sums;
  s.operands = operands;
  s.combine_cost = 1;
  s.commutative = commutative;
  s.result_procs = {0};
  for (proc_t v = 0; v < s.P; ++v) {
    const SummationProc& q = procs[static_cast<std::size_t>(v)];
    s.origins.push_back({v, 0, q.first_operand, 1});
    for (const Compute& r : q.runs)
      if (r.count > 0) s.computes.push_back(r);
    if (v > 0) s.messages.push_back({q.send, v, q.parent, -1, 1});
  }
  s.lower_bound = t;
  s.promised_completion = t;
  return s;
}

}  // namespace optcoll::logp
