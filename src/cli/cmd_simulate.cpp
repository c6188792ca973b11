// `optcoll simulate OP -p P -m BYTES [-n N] [--root R] [--alpha A --beta B]
// [--algorithm NAME] [--json]`: run a plan over p virtual ranks, check its
// data flow, price it, and price the classic algorithms under the same model.
#include <fmt/core.h>

#include <chrono>
#include <climits>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "cmd_exchange.hpp"
#include "commands.hpp"
#include "optcoll/error.hpp"
#include "optcoll/model/baselines.hpp"
#include "optcoll/model/distributions.hpp"
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/nodes.hpp"
#include "optcoll/select/select.hpp"
#include "optcoll/sim/allmerge.hpp"
#include "optcoll/sim/simulator.hpp"

namespace optcoll::cli {
namespace {

struct SimulateArgs {
  std::string op;
  std::int64_t p = 0;
  std::int64_t m = 0;
  std::int64_t n = 0;  // 0: the alpha-beta choice
  std::int64_t root = 0;
  std::int64_t elem_size = 1;
  std::string algorithm;
  std::string dist = "regular";
  bool noncommutative = false;
  bool inexact = false;  // reductions: not exact (floating point): needs_exact plans are not chosen
  bool json = false;
  std::uint64_t seed = 1;
  unsigned threads = 2;
  model::AlphaBeta ab;
  double gamma = 1e-9;  // allmerge: seconds per key merged
  sim::LogGP loggp;
  plan::rank_t latency_group = 0;  // LogGP: ranks in different groups of this many pay far_latency
  double far_latency = 0;
  plan::rank_t ppn = 0;  // nodes of this many consecutive ranks (0: one level)
  // The two-level machine with --ppn: the node's port (--alpha, --beta)
  // and within a node (--alpha-in, --beta-in).
  model::AlphaBeta in{2e-7, 4e-11};
};

// Baselines are simulated (data flow checked too) when that is cheap, and
// priced by their closed form otherwise.
constexpr double kSimulateBudget = 3e7;  // rank-rounds

struct PricedBaseline {
  model::BaselinePrice price;
  std::string method;
  double loggp = -1;
};

PricedBaseline price_baseline(const SimulateArgs& a, plan::Collective op, const model::BaselinePrice& price,
                              const sim::SimOptions& opt) {
  PricedBaseline out{price, "formula"};
  const plan::AlgorithmInfo* alg = plan::find_algorithm(op, price.name);
  if (alg == nullptr || static_cast<double>(a.p) * static_cast<double>(price.rounds) > kSimulateBudget) return out;
  // A classic with the groups of an Allgatherv or Reduce_scatter would need
  // them: priced by its formula (the Allreduce's groups follow from m).
  if (plan::has_rank_groups(op) && op != plan::Collective::allreduce) return out;
  // Priced as for a commutative operator: the communication is what counts.
  const plan::PlanSetup setup({op, a.p, a.root, a.m / a.elem_size, price.blocks, true});
  const sim::SimResult r = sim::simulate(setup.context(), alg->make, opt);
  if (!r.ok())
    throw optcoll::Error(Errc::internal, fmt::format("baseline {} failed: {}", price.name, r.errors.front()));
  out.price.rounds = r.rounds;
  // With nodes (--ppn): the two-level machine's time, what optcoll's is compared with.
  out.price.time = opt.nodes != nullptr ? r.two_level_time : r.alpha_beta_time;
  out.method = opt.nodes != nullptr ? "simulated, two-level" : "simulated";
  out.loggp = r.loggp_time;
  return out;
}

plan::Collective parse_op(const std::string& name) {
  if (name == "bcast") return plan::Collective::bcast;
  if (name == "reduce") return plan::Collective::reduce;
  if (name == "allgather" || name == "allgatherv") return plan::Collective::allgather;
  if (name == "reduce_scatter") return plan::Collective::reduce_scatter;
  if (name == "scan") return plan::Collective::scan;
  if (name == "exscan") return plan::Collective::exscan;
  return plan::Collective::allreduce;
}

// The classic algorithms (select::classics), simulated where a plan exists.
std::vector<PricedBaseline> baselines_for(const SimulateArgs& a, const select::Call& call,
                                          const std::vector<std::int64_t>& group_bytes, const sim::SimOptions& opt) {
  std::vector<PricedBaseline> out;
  if (call.count == 0) return out;
  for (const select::Classic& c : select::classics(call, opt.alpha_beta, group_bytes))
    out.push_back(price_baseline(a, call.op, {c.name, c.price.blocks, c.price.rounds, c.price.time}, opt));
  return out;
}

// allmerge: the three algorithms priced with growing runs (sim/allmerge.hpp);
// m is the total size of all keys, spread over the ranks by --dist.
int run_allmerge(const SimulateArgs& a) {
  if (a.p < 1 || a.p > 65536) throw UsageError(fmt::format("allmerge: -p must be in [1, 65536], got {}", a.p));
  if (a.elem_size < 1 || a.m < 0 || a.m % a.elem_size != 0)
    throw UsageError(fmt::format("-m must be a non-negative multiple of --elem-size {}, got {}", a.elem_size, a.m));
  if (!(a.ab.alpha > 0) || !(a.ab.beta >= 0) || !(a.gamma >= 0))
    throw UsageError("--alpha must be > 0, --beta and --gamma >= 0");
  const auto dist = model::parse_distribution(a.dist);
  if (!dist) throw UsageError(fmt::format("--dist must be regular, irregular, degenerate or spikes, got '{}'", a.dist));
  const std::vector<std::int64_t> keys = model::distribute(*dist, a.p, a.m / a.elem_size, a.root);
  nlohmann::ordered_json j;
  j["op"] = "allmerge";
  j["p"] = a.p;
  j["m"] = a.m;
  j["dist"] = a.dist;
  bool ok = true;
  if (!a.json)
    fmt::print("allmerge p={} m={} B ({}, {} B keys), alpha={:.3g} beta={:.3g} gamma={:.3g}\n", a.p, a.m, a.dist,
               a.elem_size, a.ab.alpha, a.ab.beta, a.gamma);
  for (const char* alg : {"circulant", "bruck", "allgatherv"}) {
    const sim::MergeCost c = sim::allmerge_cost(alg, keys, a.elem_size, a.ab, a.gamma);
    ok = ok && c.complete;
    if (a.json) {
      j["algorithms"][alg] = {
          {"rounds", c.rounds}, {"time", c.time}, {"max_sent_bytes", c.max_sent_bytes}, {"complete", c.complete}};
    } else {
      fmt::print("  {:<11} rounds={:<4} time={:.6g} s  max bytes sent by a rank={}{}\n", alg, c.rounds, c.time,
                 c.max_sent_bytes, c.complete ? "" : "  INCOMPLETE");
    }
  }
  if (a.json) fmt::print("{}\n", j.dump(2));
  return ok ? 0 : 1;
}

int run_simulate(const SimulateArgs& a) {
  if (a.op == "allmerge") return run_allmerge(a);
  if (is_exchange_op(a.op)) {
    ExchangeArgs e{a.op, a.p, a.m, a.dist, a.algorithm, a.elem_size, a.seed, a.threads, a.json, a.ab, a.loggp};
    return run_exchange(e);
  }
  const plan::Collective op = parse_op(a.op);
  if (a.p < 1 || a.p > schedule::kMaxP)
    throw UsageError(fmt::format("-p must be in [1, {}], got {}", schedule::kMaxP, a.p));
  if (a.root < 0 || a.root >= a.p) throw UsageError(fmt::format("--root must be in [0, {}), got {}", a.p, a.root));
  if (a.elem_size < 1) throw UsageError("--elem-size must be >= 1");
  if (a.m < 0 || a.m % a.elem_size != 0)
    throw UsageError(fmt::format("-m must be a non-negative multiple of --elem-size {}, got {}", a.elem_size, a.m));
  if (a.n < 0) throw UsageError(fmt::format("-n must be >= 1, got {}", a.n));
  if (!(a.ab.alpha > 0) || !(a.ab.beta >= 0) || !std::isfinite(a.ab.alpha) || !std::isfinite(a.ab.beta))
    throw UsageError("--alpha must be finite and > 0, --beta finite and >= 0");
  for (const double x : {a.loggp.L, a.loggp.o, a.loggp.g, a.loggp.G, a.far_latency})
    if (!(x >= 0) || !std::isfinite(x)) throw UsageError("--L, --o, --g, --G and --L-far must be finite and >= 0");
  if (a.latency_group < 0) throw UsageError("--latency-group must be >= 0");
  if (a.ppn < 0 || a.ppn > a.p) throw UsageError(fmt::format("--ppn must be in [1, -p], got {}", a.ppn));
  if (!(a.in.alpha >= 0) || !(a.in.beta >= 0) || !std::isfinite(a.in.alpha) || !std::isfinite(a.in.beta))
    throw UsageError("--alpha-in and --beta-in must be finite and >= 0");
  if (a.threads < 1 || a.threads > 1024)
    throw UsageError(fmt::format("--threads must be in [1, 1024], got {}", a.threads));
  const auto dist = model::parse_distribution(a.dist);
  if (!dist) throw UsageError(fmt::format("--dist must be regular, irregular, degenerate or spikes, got '{}'", a.dist));
  const bool groups = plan::has_rank_groups(op);
  if (groups && a.p > 65536)
    throw UsageError(fmt::format("{} packs up to p blocks per message: simulate p <= 65536, got {}", a.op, a.p));
  const std::int64_t count = a.m / a.elem_size;
  plan::PlanSpec spec{op, a.p, a.root, count, 1, !a.noncommutative};
  spec.exact = !a.inexact && !a.noncommutative;
  const plan::AlgorithmInfo* named = nullptr;
  if (!a.algorithm.empty() && (named = plan::find_algorithm(op, a.algorithm)) == nullptr)
    throw UsageError(
        fmt::format("no {} algorithm '{}'; choose one of: {}", a.op, a.algorithm, select::algorithm_names(op)));
  if (named != nullptr && named->needs_commutative && a.noncommutative)
    throw UsageError(fmt::format("{} algorithm '{}' needs a commutative operator", a.op, named->name));
  const int q = schedule::Circulant(a.p).q();
  const bool chosen = a.n == 0;
  // Group collectives: --dist spreads the m bytes over the ranks.
  std::vector<std::int64_t> group_elems = model::distribute(*dist, a.p, count, a.root);
  if (op == plan::Collective::allreduce) group_elems = model::distribute(model::Distribution::regular, a.p, count);
  std::vector<std::int64_t> group_bytes;
  std::vector<plan::Segment> segs;
  for (std::int64_t c : group_elems) {
    segs.push_back({segs.empty() ? 0 : segs.back().offset + segs.back().count, c});
    group_bytes.push_back(c * a.elem_size);
  }
  // The one selection (select.hpp), as the MPI layer makes it: the
  // algorithm unless named, and the block count unless -n.
  const bool given = groups && op != plan::Collective::allreduce;
  select::Call call{.op = op,
                    .p = a.p,
                    .elem_size = a.elem_size,
                    .count = count,
                    .commutative = !a.noncommutative,
                    .exact = spec.exact};
  if (given) {
    const auto [lo, hi] = std::minmax_element(group_elems.begin(), group_elems.end());
    call.count = *hi;
    call.smallest = *lo;
    call.total = count;
  }
  // With nodes: the flat plans share each node's port among its ranks
  // (model::TwoLevel::flat), the node-aware ones are priced on both levels.
  std::optional<plan::NodeLayout> nodes;
  const model::TwoLevel two_level{a.in, a.ab};
  if (a.ppn > 0) {
    nodes = plan::NodeLayout::equal(a.p, a.ppn);
    call.nodes = {nodes->nodes(), nodes->lanes(), nodes->largest()};
  }
  select::FixedMachine machine(nodes ? two_level.flat(nodes->largest()) : a.ab, 0, {},
                               nodes ? std::optional<model::TwoLevel>(two_level) : std::nullopt);
  const select::Decision decision = select::decide(call, {.algorithm = a.algorithm, .blocks = a.n}, machine);
  const plan::AlgorithmInfo* alg = decision.algorithm;
  // The scan pipeline is a chain of depth p-1 (plan/scan_pipeline.cpp).
  const bool chain = (op == plan::Collective::scan || op == plan::Collective::exscan) && alg->name == "pipeline";
  spec.blocks = decision.blocks;
  const std::int64_t n = plan::checked_blocks(spec);
  const plan::PlanSetup setup =
      given ? plan::PlanSetup(spec, plan::BlockLayout(std::move(segs), n)) : plan::PlanSetup(spec);
  sim::SimOptions opt;
  opt.elem_size = a.elem_size;
  opt.alpha_beta = a.ab;
  opt.loggp = a.loggp;
  opt.threads = a.threads;
  opt.latency_group = a.latency_group;
  opt.far_latency = a.far_latency;
  if (nodes) {
    opt.nodes = &*nodes;
    opt.two_level = two_level;
    opt.alpha_beta = two_level.flat(nodes->largest());
  }

  sim::SimOptions own = opt;
  own.streamed = alg->final_messages;  // (the linear Gather/Scatter: rounds in flight)
  const auto t0 = std::chrono::steady_clock::now();
  plan::PlanContext ctx = setup.context();
  if (nodes) ctx.nodes = &*nodes;
  const sim::SimResult r = sim::simulate(ctx, alg->make, own);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::int64_t phases = op == plan::Collective::allreduce ? 2 : 1;
  const std::int64_t lower = (count == 0 || a.p == 1)               ? 0
                             : alg->blocking == plan::Blocking::one ? q
                             : chain                                ? n + a.p - 2
                                                                    : phases * (n - 1 + q);
  const std::vector<PricedBaseline> baselines = baselines_for(a, call, group_bytes, opt);

  if (a.json) {
    nlohmann::ordered_json j;
    j["op"] = a.op;
    j["p"] = a.p;
    j["m"] = a.m;
    j["n"] = n;
    j["root"] = a.root;
    if (groups) j["dist"] = a.dist;
    j["algorithm"] = alg->name;
    j["rounds"] = r.rounds;
    j["lower_bound_rounds"] = lower;
    j["active_rounds"] = r.active_rounds;
    j["messages"] = r.messages;
    j["max_bytes_sent"] = r.max_bytes_sent;
    j["max_bytes_received"] = r.max_bytes_received;
    j["model_time"] = r.alpha_beta_time;
    j["loggp_time"] = r.loggp_time;
    if (nodes) {
      j["ppn"] = a.ppn;
      j["two_level_time"] = r.two_level_time;
    }
    j["alpha"] = a.ab.alpha;
    j["beta"] = a.ab.beta;
    j["data_flow"] = {{"ok", r.ok()},       {"mode", r.payload},        {"tracked_blocks", r.tracked_blocks},
                      {"blocks", r.blocks}, {"identical", r.identical}, {"errors", r.errors}};
    j["baselines"] = nlohmann::ordered_json::object();
    for (const auto& b : baselines) {
      auto& e = j["baselines"][std::string(b.price.name)];
      e["n"] = b.price.blocks;
      e["rounds"] = b.price.rounds;
      e["model_time"] = b.price.time;
      e["method"] = b.method;
      if (b.loggp >= 0) e["loggp_time"] = b.loggp;
    }
    j["simulation_seconds"] = secs;
    fmt::print("{}\n", j.dump());
    return r.ok() ? 0 : 1;
  }
  fmt::print("{} {}: p={} q={} root={} m={} bytes{}, n={} blocks{}\n", a.op, alg->name, a.p, q, a.root, a.m,
             groups ? fmt::format(" ({})", a.dist) : std::string(), n, chosen ? " (alpha-beta choice)" : "");
  fmt::print("rounds: {} (lower bound {}), {} with traffic\n", r.rounds, lower, r.active_rounds);
  fmt::print("messages: {}, largest {} bytes; most sent by one rank {} bytes, received {} bytes\n", r.messages,
             r.max_message_bytes, r.max_bytes_sent, r.max_bytes_received);
  fmt::print("data flow: {} ({}, {} of {} blocks tracked)\n", r.ok() ? "verified" : "FAILED", r.payload,
             r.tracked_blocks, r.blocks);
  for (const auto& e : r.errors) fmt::print("  error: {}\n", e);
  if (op == plan::Collective::allreduce)
    fmt::print("same bits on every rank: {}\n",
               r.identical ? "yes, for any operator"
                           : "only for exact operators (combines in an order that depends on the rank)");
  fmt::print("alpha-beta time: {:.6g} s (alpha {:g} s, beta {:g} s/B); LogGP time: {:.6g} s\n", r.alpha_beta_time,
             opt.alpha_beta.alpha, opt.alpha_beta.beta, r.loggp_time);
  if (nodes)
    fmt::print(
        "two-level time: {:.6g} s ({} nodes of {} ranks; a node's port alpha {:g} s, beta {:g} s/B, within "
        "a node alpha {:g} s, beta {:g} s/B)\n",
        r.two_level_time, nodes->nodes(), a.ppn, a.ab.alpha, a.ab.beta, a.in.alpha, a.in.beta);
  if (!baselines.empty()) fmt::print("classic algorithms, same model:\n");
  const double mine = nodes ? r.two_level_time : r.alpha_beta_time;
  for (const auto& b : baselines)
    fmt::print("  {:<22} n={:<8} rounds={:<9} time={:.6g} s ({:.2f}x optcoll, {})\n", b.price.name, b.price.blocks,
               b.price.rounds, b.price.time, mine > 0 ? b.price.time / mine : 0.0, b.method);
  fmt::print("simulated in {:.2f} s\n", secs);
  return r.ok() ? 0 : 1;
}

void add_simulate_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<SimulateArgs>();
  auto* cmd = app.add_subcommand("simulate", "Run a collective's plan over p virtual ranks: data flow and cost");
  cmd->add_option("op", a->op, "Collective")
      ->required()
      ->check(CLI::IsMember({"bcast", "reduce", "allgather", "allgatherv", "reduce_scatter", "allreduce", "scan",
                             "exscan", "allmerge", "alltoall", "alltoallv", "many_to_many"}));
  cmd->add_option("--dist", a->dist,
                  "allgatherv/reduce_scatter: regular|irregular|degenerate|spikes (default regular); "
                  "alltoallv/many_to_many: regular|hot_sender|hot_receiver|sparse|permutation");
  cmd->add_option("--seed", a->seed, "alltoallv/many_to_many: seed of the sparse and permutation traffic");
  cmd->add_option("-p", a->p, "Number of processes")->required();
  cmd->add_option("-m", a->m, "Message size in bytes")->required();
  cmd->add_option("-n", a->n, "Number of blocks (default: the alpha-beta optimum)");
  cmd->add_option("--root", a->root, "Root rank");
  cmd->add_option("--elem-size", a->elem_size, "Bytes per element (default 1)");
  cmd->add_option("--algorithm", a->algorithm, "Algorithm from the registry (default: the library's choice)");
  cmd->add_flag("--inexact", a->inexact,
                "Reduce with an operator that is not exact (floating point): plans that combine in a rank-dependent "
                "order (dissemination, Bruck) are not chosen");
  cmd->add_flag("--noncommutative", a->noncommutative,
                "Reduce with a non-commutative operator (baselines are still priced as commutative)");
  cmd->add_option("--alpha", a->ab.alpha, "alpha-beta model: seconds per message (default 2e-6)");
  cmd->add_option("--beta", a->ab.beta, "alpha-beta model: seconds per byte (default 1e-10)");
  cmd->add_option("--gamma", a->gamma, "allmerge: seconds per key merged (default 1e-9)");
  cmd->add_option("--L", a->loggp.L, "LogGP latency, seconds");
  cmd->add_option("--o", a->loggp.o, "LogGP overhead, seconds");
  cmd->add_option("--g", a->loggp.g, "LogGP gap, seconds");
  cmd->add_option("--G", a->loggp.G, "LogGP gap per byte, seconds");
  cmd->add_option("--latency-group", a->latency_group,
                  "LogGP on a two-level network: ranks r, s with r / N != s / N (different leaf switches or nodes) "
                  "pay --L-far instead of --L (default 0: one level)");
  cmd->add_option("--L-far", a->far_latency, "LogGP latency between groups of --latency-group ranks, seconds");
  cmd->add_option("--ppn", a->ppn,
                  "Nodes of this many consecutive ranks: --alpha and --beta are a node's port, which its ranks "
                  "share; the node-aware plans (lanes, leaders) are candidates and the two-level time is printed");
  cmd->add_option("--alpha-in", a->in.alpha, "With --ppn: seconds per message within a node (default 2e-7)");
  cmd->add_option("--beta-in", a->in.beta, "With --ppn: seconds per byte within a node (default 4e-11)");
  cmd->add_option("--threads", a->threads, "Threads for large p (default 2)");
  cmd->add_flag("--json", a->json, "Print JSON");
  cmd->callback([a, &exit_code] { exit_code = run_simulate(*a); });
}

const Subcommand registered{"simulate", &add_simulate_command};

}  // namespace
}  // namespace optcoll::cli
