// `optcoll verify --from A --to B [--sample-ranks N] [--threads T]`: check the
// schedules of every p in [A, B] (see schedule/verify.hpp for what is checked).
#include <fmt/core.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

#include "commands.hpp"
#include "optcoll/schedule/verify.hpp"

namespace optcoll::cli {
namespace {

// More worker threads than this is a typo, not a machine (and thread
// creation would fail with an exception outside any handler).
constexpr unsigned kMaxThreads = 1024;

struct VerifyArgs {
  std::int64_t from = 1;
  std::int64_t to = 1;
  std::int64_t sample_ranks = 0;  // 0: exhaustive
  unsigned threads = 0;
  std::uint64_t seed = 1;
  bool pow2 = false;
  std::int64_t simulate_max_p = 4096;
};

int run_verify(const VerifyArgs& a) {
  using namespace optcoll::schedule;
  if (a.from < 1 || a.to > kMaxP || a.from > a.to)
    throw UsageError(fmt::format("need 1 <= --from <= --to <= {}, got [{}, {}]", kMaxP, a.from, a.to));
  if (a.sample_ranks < 0) throw UsageError("--sample-ranks must be >= 0");
  if (a.threads > kMaxThreads)
    throw UsageError(fmt::format("--threads must be in [0, {}], got {}", kMaxThreads, a.threads));
  if (a.simulate_max_p < 0) throw UsageError("--simulate-max-p must be >= 0");
  std::vector<rank_t> ps;
  if (a.pow2) {
    for (int k = 0; k <= 31; ++k)
      for (rank_t d = -1; d <= 1; ++d) {
        const rank_t p = (rank_t{1} << k) + d;
        if (p >= a.from && p <= a.to) ps.push_back(p);
      }
    std::sort(ps.begin(), ps.end());
    ps.erase(std::unique(ps.begin(), ps.end()), ps.end());
  } else {
    if (a.to - a.from > 100'000'000) throw UsageError("at most 10^8 values of p per run");
    for (rank_t p = a.from; p <= a.to; ++p) ps.push_back(p);
  }
  const unsigned nthreads = std::max(1U, a.threads != 0 ? a.threads : std::thread::hardware_concurrency());
#if defined(__GLIBC__)
  // Every p allocates and frees arrays of up to a few MB; keep them in the
  // heap rather than mmap/munmap each time (millions of page faults).
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
#endif
  // Largest p first, so that the last ones to finish are small.
  std::reverse(ps.begin(), ps.end());
  const bool tty = isatty(STDERR_FILENO) != 0;

  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> done{0};
  std::mutex mu;
  VerifyReport total;
  double busy_ns = 0;
  auto worker = [&] {
    VerifyReport mine;
    double ns = 0;
    for (std::size_t i; (i = next.fetch_add(1)) < ps.size();) {
      const rank_t p = ps[i];
      const auto t0 = std::chrono::steady_clock::now();
      VerifyReport r;
      if (a.sample_ranks > 0) {
        r = verify_ranks(p, sample_ranks(Circulant(p), a.sample_ranks, a.seed + static_cast<std::uint64_t>(p)));
      } else {
        const Circulant g(p);
        r = verify_exhaustive(p, p <= a.simulate_max_p ? default_block_counts(g) : std::vector<std::int64_t>{});
      }
      ns += std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
      mine.merge(r);
      done.fetch_add(1);
    }
    std::lock_guard lock(mu);
    total.merge(mine);
    busy_ns += ns;
  };
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < nthreads; ++t) pool.emplace_back(worker);
  if (tty) {
    while (done.load() < ps.size()) {
      const std::size_t d = done.load();
      const int bar = static_cast<int>(40.0 * static_cast<double>(d) / static_cast<double>(ps.size()));
      fmt::print(stderr, "\r[{:<40}] {}/{} values of p", std::string(static_cast<std::size_t>(bar), '#'), d, ps.size());
      std::fflush(stderr);
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    fmt::print(stderr, "\r{:<70}\r", "");
  }
  for (auto& t : pool) t.join();

  for (const auto& m : total.messages) fmt::print("FAIL {}\n", m);
  const double ns_per_rank = total.ranks_checked > 0 ? busy_ns / static_cast<double>(total.ranks_checked) : 0.0;
  fmt::print(
      "verified {} values of p in [{}, {}] ({}): ranks={} max_violations={} max_recursions={} "
      "broadcast_rounds={} failures={} avg_ns_per_rank={:.1f}\n",
      ps.size(), a.from, a.to,
      a.sample_ranks > 0 ? fmt::format("sampled, {} random ranks per p", a.sample_ranks) : std::string("exhaustive"),
      total.ranks_checked, total.max_violations, total.max_descents, total.broadcast_rounds_simulated, total.failures,
      ns_per_rank);
  return total.ok() ? 0 : 1;
}

void add_verify_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<VerifyArgs>();
  auto* cmd = app.add_subcommand("verify", "Verify the schedules of every p in a range");
  cmd->add_option("--from", args->from, "Smallest p")->required();
  cmd->add_option("--to", args->to, "Largest p")->required();
  cmd->add_option("--sample-ranks", args->sample_ranks,
                  "Check only boundary ranks plus N random ranks per p (for huge p); 0 = all ranks");
  cmd->add_option("--threads", args->threads, "Worker threads (default: all cores)");
  cmd->add_option("--seed", args->seed, "Seed for the sampled ranks");
  cmd->add_flag("--pow2", args->pow2, "Only p = 2^k-1, 2^k, 2^k+1 within the range");
  cmd->add_option("--simulate-max-p", args->simulate_max_p,
                  "Also simulate Algorithm 1 round by round (n = 1, q-1, q, q+1, 4q+1) for p up to this");
  cmd->callback([args, &exit_code] { exit_code = run_verify(*args); });
}

const Subcommand registered{"verify", &add_verify_command};

}  // namespace
}  // namespace optcoll::cli
