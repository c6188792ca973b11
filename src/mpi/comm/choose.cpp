// The MPI layer's side of the one selection (see mpi/comm/choose.hpp):
// overrides from Options and the settings, the communicator as the
// machine, a per-communicator cache, MPI error classes.
#include "mpi/comm/choose.hpp"

#include <algorithm>
#include <cstdio>
#include <string_view>

#include "optcoll/error.hpp"

namespace optcoll::mpi {

model::AlphaBeta CommMachine::alpha_beta() {
  return block_model(s_).ab;
}

std::int64_t CommMachine::max_block_bytes() {
  return block_model(s_).max_block_bytes;
}

std::optional<select::Machine::Logp> CommMachine::logp() {
  Logp lp;
  lp.units = logp_model(s_);  // collective at the first call
  if (s_.measured.L > 0) {
    lp.seconds = {s_.measured.L, s_.measured.o, s_.measured.g, std::max(s_.measured.G, 0.0)};
  } else {  // OPTCOLL_LOGP: no G known
    lp.seconds = {static_cast<double>(lp.units.L) * kLogpUnit, static_cast<double>(lp.units.o) * kLogpUnit,
                  static_cast<double>(lp.units.g) * kLogpUnit, 0.0};
  }
  return lp;
}

std::optional<model::TwoLevel> CommMachine::two_level() {
  if (!knows_two_level(s_)) return std::nullopt;
  return two_level_model(s_);  // collective at the first call
}

select::LogpRule logp_rule(const CommState& s) noexcept {
  using select::LogpRule;
  if (s.settings.logp_auto >= 0) return s.settings.logp_auto == 1 ? LogpRule::bcast_and_reduce : LogpRule::off;
  // Across nodes a small message's latency is the network's, several
  // per-message overheads (L/o of 5 to 20), the regime the LogP tree is
  // built for; a node that posts its sends back to back reaches more ranks
  // per latency than a binomial tree's one. On one node L is about o and
  // the tree loses (docs/decisions/logp-rule-across-nodes.md). Reduce
  // stays off: its summation tree receives many operands in a row, and
  // SMPI on the fat tree measured it 3x slower than the circulant plan.
  return s.one_node ? LogpRule::off : LogpRule::bcast;
}

const plan::AlgorithmInfo* env_algorithm(CommState& s, plan::Collective op) {
  const std::string_view name(s.settings.algorithm[static_cast<std::size_t>(op)].data());
  if (name.empty()) return nullptr;
  if (const plan::AlgorithmInfo* a = plan::find_algorithm(op, name)) return a;
  const std::string msg = "optcoll: unknown " + std::string(plan::to_string(op)) + " algorithm '" + std::string(name) +
                          "' (" + env_name(op) + "); valid: " + select::algorithm_names(op);
  if (s.rank == 0 && !s.noted_unknown) std::fprintf(stderr, "%s\n", msg.c_str());
  s.noted_unknown = true;
  throw MpiError(MPI_ERR_ARG, msg);
}

void check_algorithm_name(plan::Collective op, const Options& options) {
  if (options.algorithm.empty() || plan::find_algorithm(op, options.algorithm) != nullptr) return;
  throw MpiError(MPI_ERR_ARG, "optcoll: unknown " + std::string(plan::to_string(op)) + " algorithm '" +
                                  options.algorithm + "' (Options::algorithm); valid: " + select::algorithm_names(op));
}

Choice choose(CommState& s, const select::Call& shape, const Options& options, bool with_prices) {
  select::Call call = shape;
  if (s.nodes) call.nodes = {s.nodes->nodes(), s.nodes->lanes(), s.nodes->largest()};
  CommState::CachedChoice& cached = s.choices[static_cast<std::size_t>(call.op)];
  if (cached.valid && cached.call == call && cached.algorithm == options.algorithm && cached.blocks == options.blocks &&
      (cached.priced || !with_prices))
    return cached.choice;
  check_algorithm_name(call.op, options);
  select::Overrides o;
  if (!options.algorithm.empty()) {
    o.algorithm = options.algorithm;
  } else if (const plan::AlgorithmInfo* a = env_algorithm(s, call.op)) {
    o.algorithm = a->name;
  }
  o.blocks = options.blocks;
  o.block_bytes = s.settings.block_bytes;
  o.logp = logp_rule(s);
  CommMachine machine(s);
  const Choice c = select::decide(call, o, machine, with_prices);
  if (c.fallback && s.rank == 0 && !s.noted_fallback)
    std::fprintf(stderr, "optcoll: %s algorithm '%s': %s ('%s')\n", std::string(plan::to_string(call.op)).c_str(),
                 std::string(o.algorithm).c_str(), std::string(c.reason).c_str(),
                 std::string(c.algorithm->name).c_str());
  s.noted_fallback = s.noted_fallback || c.fallback;
  cached = {call, options.algorithm, options.blocks, c, with_prices, true};
  return c;
}

}  // namespace optcoll::mpi
