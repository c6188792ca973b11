// `optcoll bench schedules --from A --to B`: average time per rank to compute
// its baseblock, receive and send schedule, over all ranks of every p: the
// fused Circulant::schedule (the last line, ns_per_rank) and, alternating
// with it, the three separate calls baseblock + recv_schedule + send_schedule.
// `optcoll bench all-roots -p P`: time to build every rank's receive schedule
// (wall clock, last line, and the thread's CPU time, which a shared machine
// inflates less).
#include <fmt/core.h>
#include <time.h>

#include <chrono>
#include <vector>

#include "commands.hpp"
#include "optcoll/schedule/all_roots.hpp"
#include "optcoll/schedule/circulant.hpp"

namespace optcoll::cli {
namespace {

using Clock = std::chrono::steady_clock;

double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

struct BenchArgs {
  std::int64_t from = 1;
  std::int64_t to = 1;
  std::int64_t p = 1;
};

int run_schedules(const BenchArgs& a) {
  using namespace optcoll::schedule;
  if (a.from < 1 || a.to > kMaxP || a.from > a.to)
    throw UsageError(fmt::format("need 1 <= --from <= --to <= {}, got [{}, {}]", kMaxP, a.from, a.to));
  double fused = 0;
  double separate = 0;
  long long sink = 0;
  int recv[kMaxQ];
  int send[kMaxQ];
  for (rank_t p = a.from; p <= a.to; ++p) {
    const Circulant g(p);
    const auto q = static_cast<std::size_t>(g.q());
    const auto last = q > 0 ? q - 1 : 0;
    const auto t0 = Clock::now();
    for (rank_t r = 0; r < p; ++r) {
      sink += g.schedule(r, std::span<int>(recv, q), std::span<int>(send, q));
      sink += recv[0] + send[last];
    }
    const auto t1 = Clock::now();
    for (rank_t r = 0; r < p; ++r) {
      const int b = g.baseblock(r);
      g.recv_schedule(r, b, std::span<int>(recv, q));
      g.send_schedule(r, b, std::span<int>(send, q));
      sink += recv[0] + send[last];
    }
    const auto t2 = Clock::now();
    fused += std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(p);
    separate += std::chrono::duration<double, std::nano>(t2 - t1).count() / static_cast<double>(p);
  }
  const auto count = static_cast<double>(a.to - a.from + 1);
  fmt::print("p in [{}, {}]: checksum {}\n", a.from, a.to, sink);
  fmt::print("three_calls_ns_per_rank: {:.2f}\n", separate / count);
  fmt::print("ns_per_rank: {:.2f}\n", fused / count);
  return 0;
}

int run_all_roots(const BenchArgs& a) {
  using namespace optcoll::schedule;
  if (a.p < 1 || a.p > kMaxP) throw UsageError(fmt::format("-p must be in [1, {}], got {}", kMaxP, a.p));
  const Circulant g(a.p);
  const double c0 = thread_cpu_ms();
  const auto t0 = Clock::now();
  const AllRootsSchedule all(g);
  const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  const double cpu = thread_cpu_ms() - c0;
  fmt::print("p={} q={} bytes={} checksum={}\n", a.p, g.q(),
             static_cast<std::size_t>(a.p) * static_cast<std::size_t>(g.q()), all.baseblock(a.p - 1));
  fmt::print("all_roots_cpu_ms: {:.2f}\n", cpu);
  fmt::print("all_roots_ms: {:.2f}\n", ms);
  return 0;
}

void add_bench_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<BenchArgs>();
  auto* cmd = app.add_subcommand("bench", "Time schedule computations");
  cmd->require_subcommand(1);
  auto* sched = cmd->add_subcommand("schedules", "Average ns per rank for receive + send schedule");
  sched->add_option("--from", args->from, "Smallest p")->required();
  sched->add_option("--to", args->to, "Largest p")->required();
  sched->callback([args, &exit_code] { exit_code = run_schedules(*args); });
  auto* roots = cmd->add_subcommand("all-roots", "Time the receive schedules of all ranks of one p");
  roots->add_option("-p", args->p, "Number of processes")->required();
  roots->callback([args, &exit_code] { exit_code = run_all_roots(*args); });
}

const Subcommand registered{"bench", &add_bench_command};

}  // namespace
}  // namespace optcoll::cli
