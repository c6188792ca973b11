// Timings of the logp/ constructions: B(P) for P up to 1e7, the counting
// recurrences, the base-case search, continuous and k-item schedules, and
// the simulator. Each measurement is repeated; the median and the spread are
// written (the machine may be shared).
//
//   logp_bench [repeats] [--out FILE]
//
// Output: CSV (bench/csv.hpp) on stdout or to FILE, the machine and the
// command in the leading '#' lines, then one row per measurement:
//   what,median_s,min_s,max_s,result,runs
// result: what the call returned, as a check; runs: its repetitions (the
// base-case search runs once).
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "csv.hpp"
#include "optcoll/logp/broadcast_tree.hpp"
#include "optcoll/logp/continuous.hpp"
#include "optcoll/logp/fibonacci.hpp"
#include "optcoll/logp/kitem.hpp"
#include "optcoll/logp/simulator.hpp"
#include "optcoll/logp/summation.hpp"

namespace {

using namespace optcoll::logp;
using optcoll::bench::Csv;

void measure(Csv& csv, const std::string& what, int repeats, const std::function<std::int64_t()>& f) {
  std::vector<double> s;
  std::int64_t result = 0;
  for (int i = 0; i < repeats; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    result = f();
    s.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(s.begin(), s.end());
  csv.row(what, s[s.size() / 2], s.front(), s.back(), result, repeats);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = optcoll::bench::command_line(argc, argv);
  std::string out;
  if (!optcoll::bench::take_option(argc, argv, "--out", out)) return 2;
  Csv csv(out);
  if (!csv.ok()) return 2;
  const int rep = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  csv.begin(fmt::format("logp/ constructions (Karp et al. 1993): median, min and max seconds of {} runs unless runs "
                        "says otherwise; result: what the call returned, as a check",
                        rep),
            command);
  csv.header({"what", "median_s", "min_s", "max_s", "result", "runs"});
  for (const Params& p : {postal(1), Params{6, 2, 4, 0}, postal(10)})
    for (proc_t P : {proc_t{1000000}, proc_t{10000000}})
      measure(csv, fmt::format("B(P) tree, P = {}, {}", P, p.str()), rep,
              [&] { return BroadcastTree(P, p).completion(); });
  measure(csv, "broadcast_time(1e18), L=6 o=2 g=4 (count only)", rep, [] {
    return broadcast_time(1000000000000000000, Params{6, 2, 4, 0});
  });
  measure(csv, "reachable(t = 1e6), L=1000 o=0 g=1 (to overflow)", rep,
          [] { return reachable(1000000, postal(1000)).value_or(-1); });
  measure(csv, "optimal summation t = 2000, P = 1e6, L=5 o=2 g=4 (operands)", rep, [] {
    return optimal_summation(2000, 1000000, Params{5, 2, 4, 0}).operands;
  });
  for (std::int64_t L : {3, 6, 10})
    measure(csv, fmt::format("base-case search, L = {} (t(L))", L), 1, [L] { return base_cases(L).t0; });
  for (std::int64_t L : {3, 6})
    for (std::int64_t t : {L == 3 ? 30 : 55, L == 3 ? 36 : 70}) {
      const proc_t P = *postal_fib(L, t) + 1;
      measure(csv, fmt::format("continuous broadcast P-1 = f_{} = {}, L = {} (delay)", t, P - 1, L), rep,
              [&] { return continuous_broadcast(P, L)->delay; });
    }
  for (std::int64_t L : {1, 2, 3, 7})
    for (proc_t P : {proc_t{10001}, proc_t{200001}})
      measure(csv, fmt::format("k-item single-sending solution, P = {}, L = {} (depth)", P, L), rep,
              [&] { return single_sending_solution(P - 1, L).tree.depth(); });
  {
    const proc_t P = *postal_fib(3, 24) + 1;
    const Schedule s = block_cyclic_schedule(continuous_broadcast(P, 3)->solution, 200);
    measure(csv,
            fmt::format("simulate continuous P = {}, L = 3, 200 items ({} messages; completion)", P, s.messages.size()),
            rep, [&] { return simulate(s).completion; });
  }
  return 0;
}
