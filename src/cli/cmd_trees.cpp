// `optcoll trees -p P -b B --alpha A --beta B --gamma G --dist D [--rho R]
// [--seed S] [--root R | --best-root] [--json]`: gather tree completion
// times in the layout of Traff 2018's Table 1. For each distribution, the
// first row has the given root (default floor(p/2), as in the paper), the
// second the root each construction picks (in brackets). --dist takes one
// name, a comma-separated list, or `all`.
#include <fmt/core.h>

#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "optcoll/trees/block_sizes.hpp"
#include "optcoll/trees/compare.hpp"

namespace optcoll::cli {
namespace {

using trees::BlockDistribution;
using trees::TableEntry;
using trees::TableRow;

// The DPs keep O(p^2) doubles and take O(p^3) steps.
constexpr std::int64_t kMaxP = 5000;
constexpr std::int64_t kMaxB = std::int64_t{1} << 36;
constexpr std::int64_t kMaxRho = 1 << 12;

struct TreesArgs {
  std::int64_t p = 2000;
  std::int64_t b = 1000;
  double alpha = 100, beta = 1, gamma = 1;
  std::string dist = "all";
  std::int64_t rho = 5;
  std::uint64_t seed = 1;
  std::optional<std::int64_t> root;
  bool best_root = false;
  bool json = false;
};

std::vector<BlockDistribution> parse_dists(const std::string& list) {
  if (list == "all") return {trees::all_block_distributions().begin(), trees::all_block_distributions().end()};
  std::vector<BlockDistribution> out;
  std::size_t at = 0;
  while (at <= list.size()) {
    const std::size_t comma = std::min(list.find(',', at), list.size());
    const std::string name = list.substr(at, comma - at);
    const auto d = trees::parse_block_distribution(name);
    if (!d) {
      std::string known;
      for (BlockDistribution x : trees::all_block_distributions())
        known += std::string(known.empty() ? "" : ", ") + std::string(to_string(x));
      throw UsageError("unknown distribution '" + name + "' (known: " + known + ", all)");
    }
    out.push_back(*d);
    at = comma + 1;
  }
  return out;
}

// Integral costs (the paper's tables) print as integers.
std::string num(double x) {
  if (std::abs(x) < 1e15 && x == std::floor(x)) return fmt::format("{}", static_cast<std::int64_t>(x));
  return fmt::format("{:.6g}", x);
}

std::string cell(const TableEntry& e, bool with_root) {
  return fmt::format("{:>10} {:<7}", num(e.time), with_root ? fmt::format("({})", e.root) : "");
}

void print_row(const std::string& label, std::int64_t m, const TableRow& r, bool with_root) {
  fmt::print("{:<18} {:>9} {}{}{}{}{}\n", label, m, cell(r.linear, with_root), cell(r.binary, with_root),
             cell(r.oblivious, with_root), cell(r.adaptive, with_root), cell(r.optimal, with_root));
}

nlohmann::json row_json(const TableRow& r) {
  const auto e = [](const TableEntry& x) { return nlohmann::json{{"time", x.time}, {"root", x.root}}; };
  return {{"linear", e(r.linear)},
          {"binary", e(r.binary)},
          {"oblivious", e(r.oblivious)},
          {"adaptive", e(r.adaptive)},
          {"optimal", e(r.optimal)}};
}

int run_trees(const TreesArgs& a) {
  if (a.p < 1 || a.p > kMaxP) throw UsageError(fmt::format("-p must be in [1, {}] (the DPs take O(p^3) time)", kMaxP));
  // Block sizes reach rho * b and sums p * rho * b: keep them far from 2^63.
  if (a.b < 0 || a.b > kMaxB) throw UsageError(fmt::format("-b must be in [0, {}], got {}", kMaxB, a.b));
  if (a.rho > kMaxRho) throw UsageError(fmt::format("--rho must be in [1, {}], got {}", kMaxRho, a.rho));
  if (a.rho < 1) throw UsageError("--rho must be >= 1");
  for (const double x : {a.alpha, a.beta, a.gamma})
    if (!std::isfinite(x) || x < 0) throw UsageError("--alpha, --beta and --gamma must be finite and >= 0");
  if (a.root && a.best_root) throw UsageError("--root and --best-root exclude each other");
  if (a.root && (*a.root < 0 || *a.root >= a.p)) throw UsageError("--root must be in [0, p)");
  const std::vector<BlockDistribution> dists = parse_dists(a.dist);
  const std::optional<std::int64_t> root = a.best_root ? std::nullopt : std::optional(a.root.value_or(a.p / 2));
  const bool best = !a.root;
  const auto model = trees::CostModel::homogeneous(a.alpha, a.beta, a.gamma);

  nlohmann::json rows = nlohmann::json::array();
  if (!a.json) {
    fmt::print("Gather tree completion times: p = {}, b = {}, alpha = {}, beta = {}, gamma = {}, rho = {}", a.p, a.b,
               num(a.alpha), num(a.beta), num(a.gamma), a.rho);
    if (root) fmt::print(", root = {}", *root);
    fmt::print("\n{:<18} {:>9} {:>10} {:<7}{:>10} {:<7}{:>10} {:<7}{:>10} {:<7}{:>10} {:<7}\n", "distribution", "m",
               "Linear", "(r)", "Binary", "(r)", "Oblivious", "(r)", "Adaptive", "(r)", "Optimal", "(r)");
  }
  for (BlockDistribution d : dists) {
    const std::vector<std::int64_t> m = trees::block_sizes(d, a.p, a.b, a.rho, a.seed);
    const trees::TableRows t = trees::compare_trees(m, model, root, best);
    if (a.json) {
      nlohmann::json j{{"distribution", to_string(d)}, {"m", t.m}};
      if (t.fixed) j["fixed"] = row_json(*t.fixed), j["fixed"]["root"] = *root;
      if (t.best) j["best"] = row_json(*t.best);
      rows.push_back(j);
      continue;
    }
    std::string label(to_string(d));
    if (t.fixed) print_row(label, t.m, *t.fixed, false), label.clear();
    if (t.best) print_row(label, t.m, *t.best, true);
  }
  if (a.json) {
    nlohmann::json out{{"p", a.p},         {"b", a.b},     {"alpha", a.alpha}, {"beta", a.beta},
                       {"gamma", a.gamma}, {"rho", a.rho}, {"seed", a.seed},   {"rows", rows}};
    if (root) out["root"] = *root;
    fmt::print("{}\n", out.dump(2));
  }
  return 0;
}

void add_trees_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<TreesArgs>();
  auto* cmd = app.add_subcommand("trees", "Gather/scatter tree completion times, Traff 2018 Table 1 layout");
  cmd->add_option("-p", a->p, "Number of processes (default 2000)");
  cmd->add_option("-b", a->b, "Average block size (default 1000)");
  cmd->add_option("--alpha", a->alpha, "Start-up cost per message (default 100)");
  cmd->add_option("--beta", a->beta, "Cost per unit transferred (default 1)");
  cmd->add_option("--gamma", a->gamma, "Cost per unit of a local copy (default 1)");
  cmd->add_option("--dist", a->dist, "Distribution, a comma-separated list, or all (default all)");
  cmd->add_option("--rho", a->rho, "Parameter of spikes and skewed (default 5)");
  cmd->add_option("--seed", a->seed, "Seed of the random distributions (default 1)");
  cmd->add_option("--root", a->root, "Only the row with this root (default: both rows, root floor(p/2))");
  cmd->add_flag("--best-root", a->best_root, "Only the row with each construction's own root");
  cmd->add_flag("--json", a->json, "Print JSON");
  cmd->callback([a, &exit_code] { exit_code = run_trees(*a); });
}

const Subcommand registered{"trees", &add_trees_command};

}  // namespace
}  // namespace optcoll::cli
