// Table 4 analogue: average time per rank for baseblock + receive + send
// schedule, optcoll against the recursive reference transcription, measured
// in the same run, alternating A B A B per p, reporting medians.
//
//   schedule_vs_reference FROM TO [REPEATS]
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <vector>

#include "optcoll/schedule/circulant.hpp"
#include "reference/schedule_reference.hpp"

using Clock = std::chrono::steady_clock;
using optcoll::schedule::Circulant;
using optcoll::schedule::rank_t;

namespace {
long long g_sink = 0;

double time_optcoll(rank_t p) {
  const Circulant g(p);
  const auto q = static_cast<std::size_t>(g.q());
  int recv[32];
  int send[32];
  const auto t0 = Clock::now();
  for (rank_t r = 0; r < p; ++r) {
    const int b = g.baseblock(r);
    g.recv_schedule(r, b, std::span<int>(recv, q));
    g.send_schedule(r, b, std::span<int>(send, q));
    g_sink += recv[0] + send[0];
  }
  return std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / static_cast<double>(p);
}

double time_reference(rank_t p) {
  optcoll::reference::ReferenceSchedule ref(p);
  int recv[34];
  int send[34];
  const auto t0 = Clock::now();
  for (rank_t r = 0; r < p; ++r) {
    ref.recv_schedule(r, recv);
    ref.send_schedule(r, send);
    g_sink += recv[0] + send[0];
  }
  return std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / static_cast<double>(p);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    fmt::print(stderr, "usage: {} FROM TO [REPEATS]\n", argv[0]);
    return 2;
  }
  const rank_t from = std::atoll(argv[1]);
  const rank_t to = std::atoll(argv[2]);
  const int repeats = argc > 3 ? std::atoi(argv[3]) : 3;
  if (from < 1 || to < from || to > optcoll::schedule::kMaxP || repeats < 1) {
    fmt::print(stderr, "bad range\n");
    return 2;
  }
  std::vector<double> opt_avg;
  std::vector<double> ref_avg;
  std::vector<double> ratios;
  for (rank_t p = from; p <= to; ++p) {
    std::vector<double> a;
    std::vector<double> b;
    for (int i = 0; i < repeats; ++i) {
      a.push_back(time_reference(p));
      b.push_back(time_optcoll(p));
    }
    ref_avg.push_back(median(a));
    opt_avg.push_back(median(b));
    ratios.push_back(median(a) / median(b));
  }
  double ro = 0;
  double rr = 0;
  for (double v : opt_avg) ro += v;
  for (double v : ref_avg) rr += v;
  ro /= static_cast<double>(opt_avg.size());
  rr /= static_cast<double>(ref_avg.size());
  fmt::print("p in [{}, {}], {} repeats alternating, checksum {}\n", from, to, repeats, g_sink);
  fmt::print("reference_ns_per_rank: {:.1f}\n", rr);
  fmt::print("optcoll_ns_per_rank: {:.1f}\n", ro);
  fmt::print("median_speedup: {:.2f}\n", median(ratios));
  return 0;
}
