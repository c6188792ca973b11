// `optcoll model -p P -m BYTES [--alpha A --beta B] [--json]`: the cost
// table. For every operation optcoll offers, one row: the notes' asymptotic
// formula (communication-primitives notes, tau = alpha per message, mu =
// beta per byte), the paper bound where one exists, and the simulator's
// alpha-beta time of optcoll's actual plan (the algorithm and block count
// the MPI layer would choose under the same alpha and beta) and of each
// classic baseline. Every plan priced here runs through the simulator,
// which also checks its data flow; a baseline too long to simulate
// (p x rounds above a budget) or without a plan is priced by its closed
// form (model/baselines.hpp) and marked "formula".
//
// m is the notes' message size: the whole vector for Bcast, Reduce,
// Allreduce, Scan, Exscan; one rank's block for Gather(v), Scatter(v),
// Allgather(v) and Reduce_scatter(_block) (p m bytes in all; the v-variants
// spread p m over the ranks proportionally to i mod 3).
//
// For the personalized exchanges m is one large message: Alltoall sends m
// to every rank; Alltoallv runs the hot-sender pattern of `optcoll
// simulate` (rank 0 sends m to everyone, the others m/64); many-to-many the
// permutation pattern (one message m per rank, seed 1: S = R = m), uneven
// messages with even volumes, which two-phase routing is for (notes §9;
// with one hot rank no routing beats its port, docs/benchmarks/exchanges.md). Their plans are simulated up to
// p = 1024 (many-to-many: 128, p^3 pieces); above, every entry is its
// closed form (model/alltoall.hpp).
//
// The rows are data (kRows): an operation is one entry.
#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cmd_exchange.hpp"
#include "commands.hpp"
#include "optcoll/error.hpp"
#include "optcoll/model/alltoall.hpp"
#include "optcoll/model/baselines.hpp"
#include "optcoll/model/distributions.hpp"
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/select/select.hpp"
#include "optcoll/sim/simulator.hpp"

namespace optcoll::cli {
namespace {

using plan::Collective;

struct ModelArgs {
  std::int64_t p = 0;
  std::int64_t m = 0;
  model::AlphaBeta ab;
  bool json = false;
};

constexpr double kSimulateBudget = 3e7;  // rank-rounds, as `optcoll simulate`

enum class Volume : std::uint8_t { whole, per_rank };

// One priced algorithm.
struct Priced {
  std::string name;
  std::int64_t n = 1;
  std::int64_t rounds = 0;
  double time = 0;
  std::string method;  // "simulated" (data flow verified) or "formula"
};

// What the rows share: p, the byte counts, the model.
struct Point {
  std::int64_t p;
  std::int64_t m;      // the notes' m
  std::int64_t total;  // bytes in the plan's buffer (m, or p m)
  int q;
  model::AlphaBeta ab;
  std::vector<std::int64_t> groups;  // per-rank bytes of the rank-group collectives
};

using PlanMaker = plan::PlanFactory;

// Simulates the plan of `make` for op with n blocks (bytes = elements).
// The simulator's work is rank-rounds, times p for the all-broadcasts (a
// message carries up to one block per group); above the budget the plan is
// priced by `formula` (its model time) when given, else marked too long.
Priced simulate_plan(const Point& pt, Collective op, std::string name, PlanMaker make, std::int64_t n, bool rank_groups,
                     double formula = -1) {
  plan::PlanSpec spec{op, pt.p, 0, pt.total, std::max<std::int64_t>(n, 1), true};
  spec.blocks = plan::checked_blocks(spec);
  std::vector<plan::Segment> segs;
  for (const std::int64_t g : pt.groups) segs.push_back({segs.empty() ? 0 : segs.back().offset + segs.back().count, g});
  const bool given = rank_groups && op != Collective::allreduce;
  const plan::PlanSetup setup =
      given ? plan::PlanSetup(spec, plan::BlockLayout(std::move(segs), spec.blocks)) : plan::PlanSetup(spec);
  Priced out{std::move(name), spec.blocks, 0, 0, "simulated"};
  out.rounds = make(setup.context(), 0)->rounds();
  const bool all_broadcast = op == Collective::allgather || op == Collective::reduce_scatter ||
                             (op == Collective::allreduce && out.name == "circulant");
  const double work =
      static_cast<double>(pt.p) * static_cast<double>(out.rounds) * (all_broadcast ? static_cast<double>(pt.p) : 1.0);
  if (work > kSimulateBudget) {
    out.method = formula >= 0 ? "formula" : "too long to simulate";
    out.time = formula;
    return out;
  }
  sim::SimOptions opt;
  opt.alpha_beta = pt.ab;
  const sim::SimResult r = sim::simulate(setup.context(), make, opt);
  if (!r.ok()) throw optcoll::Error(Errc::internal, fmt::format("{}: {}", out.name, r.errors.front()));
  out.time = r.alpha_beta_time;
  return out;
}

const plan::AlgorithmInfo& algorithm(Collective op, std::string_view name) {
  const plan::AlgorithmInfo* a = plan::find_algorithm(op, name);
  if (a == nullptr) throw optcoll::Error(Errc::internal, fmt::format("no algorithm {}", name));
  return *a;
}

// The call of a row as the one selection sees it (bytes as elements).
select::Call call_of(const Point& pt, Collective op, bool rank_groups) {
  select::Call c{.op = op, .p = pt.p, .elem_size = 1, .count = std::max<std::int64_t>(pt.total, 1), .exact = true};
  if (rank_groups && op != Collective::allreduce) {
    const auto [lo, hi] = std::minmax_element(pt.groups.begin(), pt.groups.end());
    c.count = *hi;
    c.smallest = *lo;
    c.total = pt.total;
  }
  return c;
}

// optcoll's choice, as the MPI layer makes it (select::decide) with this
// alpha and beta, for an exact operator, simulated. Gather and Scatter: the
// tree the MPI layer builds (mpi/collectives/rooted/gatherv_scatterv.cpp): the rank-ordered binomial
// tree, the adaptive binomial tree (Traff 2018, Prop. 1) for the v-variants.
Priced optcoll_plan(const Point& pt, Collective op, bool rank_groups) {
  if (op == Collective::gather || op == Collective::scatter) {
    const bool regular =
        std::adjacent_find(pt.groups.begin(), pt.groups.end(), std::not_equal_to<>()) == pt.groups.end();
    const char* name = regular ? "binomial" : "adaptive_binomial";
    return simulate_plan(pt, op, name, algorithm(op, name).make, 1, rank_groups);
  }
  select::FixedMachine machine(pt.ab);
  const select::Decision d = select::decide(call_of(pt, op, rank_groups), {}, machine, true);
  return simulate_plan(pt, op, std::string(d.algorithm->name), d.algorithm->make, d.blocks, rank_groups, d.time);
}

// The classic algorithms of op, simulated where a plan exists and the run
// is affordable, else by their closed forms.
std::vector<Priced> baselines(const Point& pt, Collective op, bool rank_groups) {
  std::vector<Priced> out;
  if (op == Collective::gather || op == Collective::scatter) {
    // The star: the root sends or receives p-1 messages one by one.
    const PlanMaker star = op == Collective::gather ? &plan::make_gather_linear : &plan::make_scatter_linear;
    if (static_cast<double>(pt.p) * static_cast<double>(pt.p) <= kSimulateBudget)
      out.push_back(simulate_plan(pt, op, "linear", star, 1, true));
    return out;
  }
  for (const select::Classic& c : select::classics(call_of(pt, op, rank_groups), pt.ab, pt.groups)) {
    const plan::AlgorithmInfo* a = plan::find_algorithm(op, c.name);
    if (a == nullptr || !a->baseline ||
        static_cast<double>(pt.p) * static_cast<double>(c.price.rounds) > kSimulateBudget)
      out.push_back({std::string(c.name), c.price.blocks, c.price.rounds, c.price.time, "formula"});
    else
      out.push_back(simulate_plan(pt, op, std::string(c.name), a->make, c.price.blocks, false));
  }
  return out;
}

// The rounds the paper bound allows optcoll's plan: n-1+q for the
// circulant pipelines (twice for allreduce's two phases), q for the
// logarithmic plans (doubling, dissemination, binomial trees, Bruck; twice
// for Rabenseifner's reduce-scatter + allgather), p-1
// for the shift exchange, 2(p-1) for two-phase routing; -1 where no round
// bound applies (the pipelined scan chain, n+p-2 rounds).
std::int64_t bound_rounds(const Priced& mine, Collective op, std::int64_t p, int q) {
  if (p == 1) return 0;
  if (mine.name == "circulant") return mine.n - 1 + q;
  if (op == Collective::allreduce && mine.name == "doubling") return model::doubling_allreduce_rounds(p);
  // Vector halving, then doubling, the fold inside the first round: 2q.
  if (op == Collective::allreduce && mine.name == "rabenseifner") return 2 * q;
  if (mine.name == "pipeline") return -1;
  if (mine.name == "shift" || mine.name == "direct") return p - 1;
  if (mine.name == "two_phase") return 2 * (p - 1);
  return q;
}

// The table's rows: one per operation optcoll offers.
struct Row {
  std::string_view name;
  Collective op;
  Volume volume;
  model::Distribution dist;
  std::string_view notes;              // the notes' asymptotic formula
  std::string_view growth;             // what multiplies mu m in it: "log p" or "p"
  std::string_view bound;              // the paper bound, or ""
  std::string_view traffic = {};       // exchanges: the traffic pattern (cmd_exchange.cpp)
  std::string_view latency = "log p";  // what multiplies tau in the notes' formula
};

constexpr Row kRows[] = {
    {"bcast", Collective::bcast, Volume::whole, model::Distribution::regular, "Theta(tau log p + mu m log p) (§1.3)",
     "log p", "n-1+ceil(log2 p) rounds of m/n (Traff 2024, Thm. 1)"},
    {"reduce", Collective::reduce, Volume::whole, model::Distribution::regular, "Theta(tau log p + mu m log p) (§2.2)",
     "log p", "n-1+ceil(log2 p) rounds (Traff 2024, Obs. 1.3)"},
    {"allreduce", Collective::allreduce, Volume::whole, model::Distribution::regular,
     "Theta(tau log p + mu m log p) (§3.2)", "log p", "2(n-1+ceil(log2 p)) rounds of m/(pn) (Traff 2024, Obs. 1.4)"},
    {"scan", Collective::scan, Volume::whole, model::Distribution::regular, "Theta(tau log p + mu m log p) (§4.2)",
     "log p", "ceil(log2 p) rounds (doubling, any p)"},
    {"exscan", Collective::exscan, Volume::whole, model::Distribution::regular, "Theta(tau log p + mu m log p) (§4.2)",
     "log p", "ceil(log2 p) rounds (doubling, any p)"},
    {"gather", Collective::gather, Volume::per_rank, model::Distribution::regular, "Theta(tau log p + mu m p) (§5.2)",
     "p", "ceil(log2 p) rounds, (p-1) m bytes into the root"},
    {"gatherv", Collective::gather, Volume::per_rank, model::Distribution::irregular,
     "Theta(tau log p + mu m p) (§5.2)", "p", "ceil(log2 p) rounds (Traff 2018, Prop. 1)"},
    {"allgather", Collective::allgather, Volume::per_rank, model::Distribution::regular,
     "Theta(tau log p + mu m p) (§6.2)", "p", "n-1+ceil(log2 p) rounds (Traff 2024, Alg. 7)"},
    {"allgatherv", Collective::allgather, Volume::per_rank, model::Distribution::irregular,
     "Theta(tau log p + mu m p) (§6.2)", "p", "n-1+ceil(log2 p) rounds (Traff 2024, Alg. 7)"},
    {"scatter", Collective::scatter, Volume::per_rank, model::Distribution::regular, "Theta(tau log p + mu m p) (§7.2)",
     "p", "ceil(log2 p) rounds, (p-1) m bytes out of the root"},
    {"scatterv", Collective::scatter, Volume::per_rank, model::Distribution::irregular,
     "Theta(tau log p + mu m p) (§7.2)", "p", "ceil(log2 p) rounds (Traff 2018, Prop. 1)"},
    {"reduce_scatter_block", Collective::reduce_scatter, Volume::per_rank, model::Distribution::regular,
     "Theta(tau log p + mu m p) (as allgather, reversed)", "p", "n-1+ceil(log2 p) rounds (Traff 2024, Obs. 1.4)"},
    {"reduce_scatter", Collective::reduce_scatter, Volume::per_rank, model::Distribution::irregular,
     "Theta(tau log p + mu m p) (as allgather, reversed)", "p", "n-1+ceil(log2 p) rounds (Traff 2024, Obs. 1.4)"},
    {"alltoall", Collective::alltoall, Volume::whole, model::Distribution::regular,
     "O(tau p + mu m p) shift (§8.2); O(tau log p + mu m p log p) Bruck (§8.3)", "p",
     "p-1 rounds, each block sent once (shift); ceil(log2 p) rounds (Bruck)", "regular", "p"},
    {"alltoallv", Collective::alltoallv, Volume::whole, model::Distribution::regular, "O(tau p + mu m p) (§8.2)", "p",
     "p-1 rounds, each message sent once (shift)", "hot_sender", "p"},
    {"many_to_many", Collective::many_to_many, Volume::whole, model::Distribution::regular,
     "O(tau p + mu (R + S + p^2)) (§9)", "1", "2(p-1) rounds, messages <= S/p + p and R/p + p", "permutation", "p"},
};

// An exchange row: optcoll's plan and the classic algorithms, the notes'
// latency and growth terms of the algorithm optcoll picks.
struct ExchangeRow {
  Priced mine;
  std::vector<Priced> base;
  std::string_view latency;
  std::string_view growth;
};

ExchangeRow price_exchange(const Row& row, const ModelArgs& a, int q) {
  const Collective op = row.op;
  const std::int64_t p = a.p, m = a.m, small = m / 64;
  const bool simulate = p <= (op == Collective::many_to_many ? 128 : 1024);
  const std::vector<std::int64_t> counts =
      simulate ? exchange_traffic(p, std::string(row.traffic), m, 1) : std::vector<std::int64_t>{};
  // A plan simulated, or its closed form above the size limit.
  const auto priced = [&](Collective as, std::string_view name, std::int64_t rounds, double formula) {
    if (!simulate) return Priced{std::string(name), 1, rounds, formula, "formula"};
    sim::SimOptions opt;
    opt.alpha_beta = a.ab;
    const sim::SimResult r = simulate_exchange(as, p, counts, algorithm(as, name), opt);
    if (!r.ok()) throw optcoll::Error(Errc::internal, fmt::format("{} {}: {}", row.name, name, r.errors.front()));
    return Priced{std::string(name), 1, r.rounds, r.alpha_beta_time, "simulated"};
  };
  const auto alpha_beta = [&](std::int64_t bytes) { return a.ab.alpha + a.ab.beta * static_cast<double>(bytes); };
  const double others = static_cast<double>(p - 1);
  ExchangeRow out;
  out.latency = "p";
  out.growth = "p";
  if (op == Collective::alltoall) {  // regular: m to everyone
    const Priced shift = priced(op, "shift", p - 1, model::alltoall_shift_time(p, m, a.ab));
    const Priced bruck = priced(op, "bruck", q, model::alltoall_bruck_time(p, m, a.ab));
    // optcoll's choice, as every entry point makes it.
    select::FixedMachine machine(a.ab);
    const select::Call call{.op = op, .p = p, .elem_size = 1, .count = m};
    const bool use_bruck = select::decide(call, {}, machine).algorithm->name == "bruck";
    out.mine = use_bruck ? bruck : shift;
    if (use_bruck) {
      out.latency = "log p";
      out.growth = "p log p";
    }
    // Notes Fig. 8: in step j everyone sends to P_j, one after the other.
    out.base = {shift,
                bruck,
                {"serial (notes Fig. 8)", 1, p * (p - 1), static_cast<double>(p) * others * alpha_beta(m), "formula"}};
  } else if (op == Collective::alltoallv) {  // hot sender: every shift round carries rank 0's m
    out.mine = priced(op, "shift", p - 1, model::alltoall_shift_time(p, m, a.ab));
    const double serial = others * alpha_beta(m) + (small > 0 ? others * others * alpha_beta(small) : 0.0);
    out.base = {{"serial (notes Fig. 8)", 1, p * (p - 1), serial, "formula"}};
  } else {  // permutation: S = R = m; the direct rounds are the distinct shifts perm(i) - i
    const std::vector<std::int64_t> perm = exchange_permutation(p, 1);
    std::vector<bool> shift_used(static_cast<std::size_t>(p), false);
    std::int64_t moved = 0;
    for (std::int64_t i = 0; i < p; ++i) {
      const std::int64_t s = (perm[static_cast<std::size_t>(i)] - i + p) % p;
      shift_used[static_cast<std::size_t>(s)] = s != 0;
      moved += s != 0 ? 1 : 0;
    }
    const auto busy = static_cast<double>(std::count(shift_used.begin(), shift_used.end(), true));
    out.latency = "p";
    out.growth = "1";
    out.mine = priced(op, "two_phase", 2 * (p - 1), model::many_to_many_two_phase_time(p, m, m, a.ab));
    out.base = {priced(op, "direct", p - 1, busy * alpha_beta(m)),
                {"serial (notes Fig. 8)", 1, p * (p - 1), static_cast<double>(moved) * alpha_beta(m), "formula"}};
  }
  return out;
}

int run_model(const ModelArgs& a) {
  if (a.p < 1 || a.p > 65536) throw UsageError(fmt::format("-p must be in [1, 65536], got {}", a.p));
  if (a.m < 1 || a.m > (std::int64_t{1} << 40)) throw UsageError(fmt::format("-m must be in [1, 2^40], got {}", a.m));
  if (!(a.ab.alpha > 0) || !(a.ab.beta >= 0) || !std::isfinite(a.ab.alpha) || !std::isfinite(a.ab.beta))
    throw UsageError("--alpha must be finite and > 0, --beta finite and >= 0");
  const int q = schedule::Circulant(a.p).q();
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  if (!a.json)
    fmt::print("optcoll model: p={} m={} B, alpha={:g} s, beta={:g} s/B (q = {}; times from the simulator)\n", a.p, a.m,
               a.ab.alpha, a.ab.beta, q);
  for (const Row& row : kRows) {
    Point pt{a.p, a.m, row.volume == Volume::whole ? a.m : a.p * a.m, q, a.ab, {}};
    Priced mine;
    std::vector<Priced> base;
    std::string_view latency = row.latency, growth = row.growth;
    if (!row.traffic.empty()) {
      ExchangeRow x = price_exchange(row, a, q);
      mine = std::move(x.mine);
      base = std::move(x.base);
      latency = x.latency;
      growth = x.growth;
    } else {
      pt.groups = model::distribute(row.dist, a.p, pt.total);
      mine = optcoll_plan(pt, row.op, row.volume == Volume::per_rank);
      if (a.p > 1) base = baselines(pt, row.op, row.volume == Volume::per_rank);
    }
    std::int64_t bound = bound_rounds(mine, row.op, a.p, q);
    if (row.op == Collective::allreduce && mine.name == "circulant") bound *= 2;
    if (a.json) {
      nlohmann::ordered_json r;
      r["op"] = row.name;
      r["notes_formula"] = row.notes;
      r["notes_latency"] = latency;
      r["notes_growth"] = growth;
      r["paper_bound"] = row.bound;
      r["bound_rounds"] = bound;
      r["bytes"] = row.traffic.empty() ? pt.total : a.m;
      r["optcoll"] = {{"algorithm", mine.name},
                      {"n", mine.n},
                      {"rounds", mine.rounds},
                      {"time", mine.time},
                      {"method", mine.method}};
      r["baselines"] = nlohmann::ordered_json::array();
      for (const Priced& b : base)
        r["baselines"].push_back(
            {{"algorithm", b.name}, {"n", b.n}, {"rounds", b.rounds}, {"time", b.time}, {"method", b.method}});
      rows.push_back(std::move(r));
      continue;
    }
    fmt::print("\n{:<20} {}\n", row.name, row.notes);
    if (!row.bound.empty())
      fmt::print("  paper bound: {}{}\n", row.bound, bound >= 0 ? fmt::format(" = {} here", bound) : std::string());
    fmt::print("  optcoll  {:<22} n={:<7} rounds={:<7} {:>12.6g} s  ({})\n", mine.name, mine.n, mine.rounds, mine.time,
               mine.method);
    for (const Priced& b : base)
      fmt::print("  classic  {:<22} n={:<7} rounds={:<7} {:>12.6g} s  ({}; {:.2f}x optcoll)\n", b.name, b.n, b.rounds,
                 b.time, b.method, mine.time > 0 && b.time >= 0 ? b.time / mine.time : 0.0);
  }
  if (a.json) {
    nlohmann::ordered_json j;
    j["p"] = a.p;
    j["m"] = a.m;
    j["alpha"] = a.ab.alpha;
    j["beta"] = a.ab.beta;
    j["rows"] = std::move(rows);
    fmt::print("{}\n", j.dump());
  }
  return 0;
}

void add_model_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<ModelArgs>();
  auto* cmd = app.add_subcommand("model", "The cost table: every operation's formula, bound and simulated cost");
  cmd->add_option("-p", a->p, "Number of processes (1..65536)")->required();
  cmd->add_option("-m", a->m, "Message size m in bytes (the vector; one rank's block for gather-like ops)")->required();
  cmd->add_option("--alpha", a->ab.alpha, "alpha-beta model: seconds per message (default 2e-6)");
  cmd->add_option("--beta", a->ab.beta, "alpha-beta model: seconds per byte (default 1e-10)");
  cmd->add_flag("--json", a->json, "Print JSON");
  cmd->callback([a, &exit_code] { exit_code = run_model(*a); });
}

const Subcommand registered{"model", &add_model_command};

}  // namespace
}  // namespace optcoll::cli
