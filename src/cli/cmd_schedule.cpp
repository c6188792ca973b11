// `optcoll schedule -p P [--root R] [--json]`: print every rank's baseblock,
// receive and send schedule (the layout of Träff 2024, Tables 1-3).
#include <fmt/core.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "commands.hpp"
#include "optcoll/schedule/circulant.hpp"

namespace optcoll::cli {
namespace {

constexpr std::int64_t kMaxPrintP = std::int64_t{1} << 20;

struct ScheduleArgs {
  std::int64_t p = 0;
  std::int64_t root = 0;
  bool json = false;
};

int run_schedule(const ScheduleArgs& a) {
  using namespace optcoll::schedule;
  if (a.p < 1 || a.p > kMaxP) throw UsageError(fmt::format("-p must be in [1, {}], got {}", kMaxP, a.p));
  // Every rank's row is printed (and, for the table, held): beyond 2^20
  // ranks that is gigabytes; `verify --sample-ranks` checks larger p.
  if (a.p > kMaxPrintP)
    throw UsageError(
        fmt::format("-p {} prints every rank: at most {} (use verify --sample-ranks for larger p)", a.p, kMaxPrintP));
  if (a.root < 0 || a.root >= a.p) throw UsageError(fmt::format("--root must be in [0, {}), got {}", a.p, a.root));
  const Circulant g(a.p);
  const auto q = static_cast<std::size_t>(g.q());
  auto sched_of = [&](rank_t r) { return make_rank_schedule(g, r >= a.root ? r - a.root : r - a.root + a.p); };

  if (a.json) {
    // Key order is part of the contract, hence ordered_json.
    nlohmann::ordered_json j;
    j["p"] = a.p;
    j["q"] = g.q();
    j["root"] = a.root;
    std::vector<rank_t> skips;
    for (int k = 0; k <= g.q(); ++k) skips.push_back(g.skip(k));
    j["skips"] = skips;
    auto& ranks = j["ranks"] = nlohmann::ordered_json::array();
    for (rank_t r = 0; r < a.p; ++r) {
      const RankSchedule s = sched_of(r);
      nlohmann::ordered_json e;
      e["rank"] = r;
      e["baseblock"] = s.baseblock;
      e["recv"] = std::vector<int>(s.recv.begin(), s.recv.begin() + static_cast<std::ptrdiff_t>(q));
      e["send"] = std::vector<int>(s.send.begin(), s.send.begin() + static_cast<std::ptrdiff_t>(q));
      ranks.push_back(std::move(e));
    }
    fmt::print("{}\n", j.dump());
    return 0;
  }

  std::vector<RankSchedule> all;
  all.reserve(static_cast<std::size_t>(a.p));
  for (rank_t r = 0; r < a.p; ++r) all.push_back(sched_of(r));
  const int width = static_cast<int>(std::to_string(a.p).size()) + 2;
  auto row = [&](const std::string& label, auto&& cell) {
    fmt::print("{:<15}", label);
    for (rank_t r = 0; r < a.p; ++r) fmt::print("{:>{}}", cell(r), width);
    fmt::print("\n");
  };
  fmt::print("p = {}, q = {}, root = {}, skips:", a.p, g.q(), a.root);
  for (int k = 0; k <= g.q(); ++k) fmt::print(" {}", g.skip(k));
  fmt::print("\n");
  row("r:", [](rank_t r) { return r; });
  row("b:", [&](rank_t r) { return all[static_cast<std::size_t>(r)].baseblock; });
  for (std::size_t k = 0; k < q; ++k)
    row(fmt::format("recvblock[{}]:", k), [&](rank_t r) { return all[static_cast<std::size_t>(r)].recv[k]; });
  for (std::size_t k = 0; k < q; ++k)
    row(fmt::format("sendblock[{}]:", k), [&](rank_t r) { return all[static_cast<std::size_t>(r)].send[k]; });
  return 0;
}

void add_schedule_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ScheduleArgs>();
  auto* cmd = app.add_subcommand("schedule", "Print the receive and send schedules of every rank");
  cmd->add_option("-p", args->p, "Number of processes, 1 <= p <= 2^31-1")->required();
  cmd->add_option("--root", args->root, "Root rank (columns stay real ranks)");
  cmd->add_flag("--json", args->json, "Machine-readable output");
  cmd->callback([args, &exit_code] { exit_code = run_schedule(*args); });
}

const Subcommand registered{"schedule", &add_schedule_command};

}  // namespace
}  // namespace optcoll::cli
