// `optcoll simulate alltoall|alltoallv|many_to_many -p P -m BYTES
// [--dist TRAFFIC]`: every algorithm of the exchange on one traffic matrix,
// data flow verified, with the numbers the notes' §9 compares: rounds, the
// largest message, the most bytes one rank sends / receives, and the time
// (alpha-beta in lockstep, as optcoll's round-synchronous executor runs;
// alpha-beta with a clock per rank; LogGP).
//
// Traffic (m bytes = one large message; elements of --elem-size bytes):
//   regular       every message m (Alltoall);
//   hot_sender    rank 0 sends m to everyone, the others m / 64;
//   hot_receiver  everyone sends m to rank 0, m / 64 elsewhere;
//   sparse        each message m with probability 1/8, else empty (seeded);
//   permutation   one message m per rank, to a random permutation (seeded).
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>

#include "cmd_exchange.hpp"
#include "commands.hpp"
#include "optcoll/model/alltoall.hpp"
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/alltoall.hpp"

namespace optcoll::cli {

bool is_exchange_op(const std::string& op) {
  return op == "alltoall" || op == "alltoallv" || op == "many_to_many";
}

namespace {

// The permutation of the seed and the generator that continues from it.
std::vector<std::int64_t> shuffled(std::int64_t p, std::mt19937_64& rng) {
  std::vector<std::int64_t> perm(static_cast<std::size_t>(p));
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  return perm;
}

}  // namespace

std::vector<std::int64_t> exchange_permutation(std::int64_t p, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  return shuffled(p, rng);
}

std::vector<std::int64_t> exchange_traffic(std::int64_t p, const std::string& pattern, std::int64_t big,
                                           std::uint64_t seed) {
  const std::int64_t small = big / 64;
  std::vector<std::int64_t> c(static_cast<std::size_t>(p * p), 0);
  std::mt19937_64 rng(seed);
  const std::vector<std::int64_t> perm = shuffled(p, rng);
  for (std::int64_t i = 0; i < p; ++i)
    for (std::int64_t j = 0; j < p; ++j) {
      std::int64_t& v = c[static_cast<std::size_t>(i * p + j)];
      if (pattern == "regular")
        v = big;
      else if (pattern == "hot_sender")
        v = i == 0 ? big : small;
      else if (pattern == "hot_receiver")
        v = j == 0 ? big : small;
      else if (pattern == "sparse")
        v = rng() % 8 == 0 ? big : 0;
      else if (pattern == "permutation")
        v = perm[static_cast<std::size_t>(i)] == j ? big : 0;
      else
        throw UsageError("--dist for an exchange must be regular, hot_sender, hot_receiver, sparse or permutation");
    }
  return c;
}

ExchangeVolumes exchange_volumes(std::int64_t p, std::span<const std::int64_t> counts) {
  ExchangeVolumes v;
  for (std::int64_t i = 0; i < p; ++i) {
    std::int64_t s = 0, r = 0;
    for (std::int64_t j = 0; j < p; ++j) {
      s += counts[static_cast<std::size_t>(i * p + j)];
      r += counts[static_cast<std::size_t>(j * p + i)];
    }
    v.max_send = std::max(v.max_send, s);
    v.max_recv = std::max(v.max_recv, r);
  }
  return v;
}

sim::SimResult simulate_exchange(plan::Collective op, std::int64_t p, std::span<const std::int64_t> counts,
                                 const plan::AlgorithmInfo& alg, const sim::SimOptions& opt) {
  sim::SimOptions own = opt;
  own.streamed = alg.final_messages;  // (the shift schedule: rounds in flight)
  return sim::simulate_exchange(op, p, plan::exchange_layouts(op, p, counts), alg.make, own);
}

int run_exchange(const ExchangeArgs& a) {
  if (a.p < 1 || a.p > 4096) throw UsageError(fmt::format("{}: -p must be in [1, 4096], got {}", a.op, a.p));
  if (a.op == "many_to_many" && a.p > 512) throw UsageError("many_to_many: -p must be <= 512 (p^2 pieces per rank)");
  if (a.elem_size < 1 || a.m < 0 || a.m % a.elem_size != 0)
    throw UsageError(fmt::format("-m must be a non-negative multiple of --elem-size {}, got {}", a.elem_size, a.m));
  if (a.op == "alltoall" && a.traffic != "regular")
    throw UsageError("alltoall has equal counts: use alltoallv or many_to_many for skewed traffic");
  const plan::Collective op = a.op == "alltoall"    ? plan::Collective::alltoall
                              : a.op == "alltoallv" ? plan::Collective::alltoallv
                                                    : plan::Collective::many_to_many;
  const std::vector<std::int64_t> counts = exchange_traffic(a.p, a.traffic, a.m / a.elem_size, a.seed);
  const ExchangeVolumes v = exchange_volumes(a.p, counts);
  const std::int64_t max_send = v.max_send * a.elem_size, max_recv = v.max_recv * a.elem_size;
  sim::SimOptions opt;
  opt.elem_size = a.elem_size;
  opt.alpha_beta = a.ab;
  opt.loggp = a.loggp;
  opt.threads = a.threads;

  nlohmann::ordered_json j;
  j["op"] = a.op;
  j["p"] = a.p;
  j["m"] = a.m;
  j["dist"] = a.traffic;
  j["max_send_volume"] = max_send;
  j["max_recv_volume"] = max_recv;
  if (!a.json)
    fmt::print(
        "{} p={} m={} B, traffic {}: largest send volume {} B, receive volume {} B (alpha {:g} s, beta {:g} s/B)\n",
        a.op, a.p, a.m, a.traffic, max_send, max_recv, a.ab.alpha, a.ab.beta);
  bool ok = true, any = false;
  for (const plan::AlgorithmInfo& alg : plan::algorithms()) {
    if (alg.op != op || (!a.algorithm.empty() && alg.name != a.algorithm)) continue;
    any = true;
    const auto t0 = std::chrono::steady_clock::now();
    const sim::SimResult r = simulate_exchange(op, a.p, counts, alg, opt);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ok = ok && r.ok();
    if (a.json) {
      j["algorithms"][std::string(alg.name)] = {
          {"rounds", r.rounds},
          {"messages", r.messages},
          {"max_message_bytes", r.max_message_bytes},
          {"max_bytes_sent", r.max_bytes_sent},
          {"max_bytes_received", r.max_bytes_received},
          {"model_time", r.alpha_beta_time},
          {"clock_time", r.alpha_beta_clock_time},
          {"loggp_time", r.loggp_time},
          {"data_flow", {{"ok", r.ok()}, {"mode", r.payload}, {"errors", r.errors}}},
          {"simulation_seconds", secs}};
      continue;
    }
    fmt::print("  {:<10} rounds={:<5} messages={:<7} largest={:<10} max sent={:<11} max received={:<11}\n", alg.name,
               r.rounds, r.messages, r.max_message_bytes, r.max_bytes_sent, r.max_bytes_received);
    fmt::print("  {:<10} alpha-beta lockstep {:.6g} s, per-rank clock {:.6g} s, LogGP {:.6g} s; data flow {} ({})\n",
               "", r.alpha_beta_time, r.alpha_beta_clock_time, r.loggp_time, r.ok() ? "verified" : "FAILED", r.payload);
    for (const auto& e : r.errors) fmt::print("  error: {}\n", e);
  }
  if (!any) throw UsageError(fmt::format("no {} algorithm '{}'", a.op, a.algorithm));
  if (op == plan::Collective::alltoall) {
    const std::int64_t b = a.m;
    const double shift = model::alltoall_shift_time(a.p, b, a.ab), bruck = model::alltoall_bruck_time(a.p, b, a.ab);
    if (a.json) {
      j["model"] = {
          {"shift", shift}, {"bruck", bruck}, {"crossover_bytes", model::alltoall_crossover_bytes(a.p, a.ab)}};
    } else {
      fmt::print("model: shift {:.6g} s, bruck {:.6g} s; bruck below {:.4g} B per block\n", shift, bruck,
                 model::alltoall_crossover_bytes(a.p, a.ab));
    }
  }
  if (a.json) fmt::print("{}\n", j.dump());
  return ok ? 0 : 1;
}

}  // namespace optcoll::cli
