// Table 4 analogue: average time per rank for baseblock + receive + send
// schedule, optcoll against the recursive reference transcription, measured
// in the same run, alternating per p (reference, optcoll fused, optcoll three
// calls) REPEATS times, reporting medians. Each measurement covers all ranks
// of one p and records wall-clock and thread CPU time; on a shared machine
// the CPU time is the less disturbed of the two.
//
//   schedule_vs_reference FROM TO [REPEATS] [--out FILE]
//
// optcoll "fused" is Circulant::schedule (one pass for all three), "three
// calls" is baseblock + recv_schedule + send_schedule, as a caller that
// needs only one of them would pay.
//
// Output: CSV (bench/csv.hpp) on stdout or to FILE, the machine and the
// command in the leading '#' lines, then one row per clock (wall, cpu):
//   p_from,p_to,repeats,clock,reference_ns,optcoll_ns,speedup,three_calls_ns,three_calls_speedup
// ns: per rank, the per-p medians averaged over p; speedups: the median
// over p of the per-p ratios reference / optcoll. A checksum of the
// schedules goes to stderr, so that the compiler keeps their computation.
#include <fmt/core.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "csv.hpp"
#include "optcoll/schedule/circulant.hpp"
#include "reference/schedule_reference.hpp"

using Clock = std::chrono::steady_clock;
using optcoll::schedule::Circulant;
using optcoll::schedule::rank_t;

namespace {
long long g_sink = 0;

struct Sample {
  double wall = 0;  // ns per rank
  double cpu = 0;   // ns per rank
};

double thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

template <class F>
Sample timed(rank_t p, F&& body) {
  const double c0 = thread_cpu_ns();
  const auto t0 = Clock::now();
  for (rank_t r = 0; r < p; ++r) body(r);
  const double wall = std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
  const double cpu = thread_cpu_ns() - c0;
  return {wall / static_cast<double>(p), cpu / static_cast<double>(p)};
}

Sample time_fused(const Circulant& g) {
  const auto q = static_cast<std::size_t>(g.q());
  int recv[32];
  int send[32];
  return timed(g.p(), [&](rank_t r) {
    g_sink += g.schedule(r, std::span<int>(recv, q), std::span<int>(send, q));
    g_sink += recv[0] + send[0];
  });
}

Sample time_three_calls(const Circulant& g) {
  const auto q = static_cast<std::size_t>(g.q());
  int recv[32];
  int send[32];
  return timed(g.p(), [&](rank_t r) {
    const int b = g.baseblock(r);
    g.recv_schedule(r, b, std::span<int>(recv, q));
    g.send_schedule(r, b, std::span<int>(send, q));
    g_sink += recv[0] + send[0];
  });
}

Sample time_reference(optcoll::reference::ReferenceSchedule& ref, rank_t p) {
  int recv[34];
  int send[34];
  return timed(p, [&](rank_t r) {
    ref.recv_schedule(r, recv);
    ref.send_schedule(r, send);
    g_sink += recv[0] + send[0];
  });
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}
}  // namespace

int main(int argc, char** argv) {
  const std::string command = optcoll::bench::command_line(argc, argv);
  std::string out;
  if (!optcoll::bench::take_option(argc, argv, "--out", out) || argc < 3) {
    fmt::print(stderr, "usage: {} FROM TO [REPEATS] [--out FILE]\n", argv[0]);
    return 2;
  }
  const rank_t from = std::atoll(argv[1]);
  const rank_t to = std::atoll(argv[2]);
  const int repeats = argc > 3 ? std::atoi(argv[3]) : 3;
  if (from < 1 || to < from || to > optcoll::schedule::kMaxP || repeats < 1) {
    fmt::print(stderr, "bad range\n");
    return 2;
  }
  optcoll::bench::Csv csv(out);
  if (!csv.ok()) return 2;
  csv.begin(fmt::format("per-rank schedule computation, ns per rank (Traff 2024 Table 4 analogue): the paper's "
                        "recursive algorithms (reference) against Circulant::schedule (optcoll, fused) and its three "
                        "separate calls; per p reference, fused, three calls alternate {} times",
                        repeats),
            command);
  // Per p: medians over the repeats; then averaged over p (ns per rank) and
  // the median over p of the per-p ratios (speedups).
  std::vector<double> ref_wall, fused_wall, three_wall, ref_cpu, fused_cpu, three_cpu;
  std::vector<double> speedup_wall, speedup_cpu, speedup3_wall, speedup3_cpu;
  for (rank_t p = from; p <= to; ++p) {
    const Circulant g(p);
    optcoll::reference::ReferenceSchedule ref(p);
    std::vector<double> rw, rc, fw, fc, tw, tc;
    for (int i = 0; i < repeats; ++i) {
      const Sample a = time_reference(ref, p);
      const Sample b = time_fused(g);
      const Sample c = time_three_calls(g);
      rw.push_back(a.wall);
      rc.push_back(a.cpu);
      fw.push_back(b.wall);
      fc.push_back(b.cpu);
      tw.push_back(c.wall);
      tc.push_back(c.cpu);
    }
    ref_wall.push_back(median(rw));
    ref_cpu.push_back(median(rc));
    fused_wall.push_back(median(fw));
    fused_cpu.push_back(median(fc));
    three_wall.push_back(median(tw));
    three_cpu.push_back(median(tc));
    speedup_wall.push_back(ref_wall.back() / fused_wall.back());
    speedup_cpu.push_back(ref_cpu.back() / fused_cpu.back());
    speedup3_wall.push_back(ref_wall.back() / three_wall.back());
    speedup3_cpu.push_back(ref_cpu.back() / three_cpu.back());
  }
  csv.header({"p_from", "p_to", "repeats", "clock", "reference_ns", "optcoll_ns", "speedup", "three_calls_ns",
              "three_calls_speedup"});
  csv.row(from, to, repeats, "wall", mean(ref_wall), mean(fused_wall), median(speedup_wall), mean(three_wall),
          median(speedup3_wall));
  csv.row(from, to, repeats, "cpu", mean(ref_cpu), mean(fused_cpu), median(speedup_cpu), mean(three_cpu),
          median(speedup3_cpu));
  fmt::print(stderr, "schedule_vs_reference: checksum {}\n", g_sink);
  return 0;
}
