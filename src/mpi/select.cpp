// Algorithm and block-count selection (see optcoll/mpi/select.hpp).
#include "optcoll/mpi/select.hpp"

#include "optcoll/model/alltoall.hpp"

#include <algorithm>
#include <cstdio>
#include <string_view>

namespace optcoll::mpi {
namespace {

std::string valid_names(plan::Collective op) {
  std::string out;
  for (const plan::AlgorithmInfo& a : plan::algorithms()) {
    if (a.op != op) continue;
    if (!out.empty()) out += ", ";
    out += a.name;
  }
  return out;
}

const plan::AlgorithmInfo& pick(CommState& s, plan::Collective op, bool commutative, bool exact, const Options& options,
                                bool& fallback) {
  plan::PlanSpec spec;
  spec.op = op;
  spec.commutative = commutative;
  spec.exact = exact;
  const bool from_options = !options.algorithm.empty();
  const plan::AlgorithmInfo* a = nullptr;
  if (from_options) {
    check_algorithm_name(op, options);
    a = plan::find_algorithm(op, options.algorithm);
  } else {
    a = env_algorithm(s, op);
  }
  if (a == nullptr) return plan::select_algorithm(spec);
  const std::string_view name = a->name;
  if (!plan::valid_for(*a, spec)) {
    const plan::AlgorithmInfo& d = plan::select_algorithm(spec);
    const char* why = a->needs_commutative && !commutative
                          ? "needs a commutative operator"
                          : "combines in an order that depends on the rank, so it needs an exact (integer, logical or "
                            "bitwise) operator for every rank to get the same bits";
    if (s.rank == 0 && !s.noted_fallback)
      std::fprintf(stderr, "optcoll: %s algorithm '%s' %s; using '%s' instead\n",
                   std::string(plan::to_string(op)).c_str(), std::string(name).c_str(), why,
                   std::string(d.name).c_str());
    s.noted_fallback = true;
    fallback = true;
    return d;
  }
  return *a;
}

// The collectives whose block counts the cache cap improves (BENCHMARKS.md,
// issues 3 and 4). Not Reduce_scatter and the circulant Allreduce: at np 8
// and 16, 8-16 MiB, capped they were as often slower as faster (0.91x to
// 1.13x the uncapped time).
bool caps_blocks(plan::Collective op) {
  using plan::Collective;
  return op == Collective::bcast || op == Collective::reduce || op == Collective::allgather;
}

}  // namespace

const plan::AlgorithmInfo* env_algorithm(CommState& s, plan::Collective op) {
  const std::string_view name(s.settings.algorithm[static_cast<std::size_t>(op)].data());
  if (name.empty()) return nullptr;
  if (const plan::AlgorithmInfo* a = plan::find_algorithm(op, name)) return a;
  const std::string msg = "optcoll: unknown " + std::string(plan::to_string(op)) + " algorithm '" + std::string(name) +
                          "' (" + env_name(op) + "); valid: " + valid_names(op);
  if (s.rank == 0 && !s.noted_unknown) std::fprintf(stderr, "%s\n", msg.c_str());
  s.noted_unknown = true;
  throw MpiError(MPI_ERR_ARG, msg);
}

void check_algorithm_name(plan::Collective op, const Options& options) {
  if (options.algorithm.empty() || plan::find_algorithm(op, options.algorithm) != nullptr) return;
  throw MpiError(MPI_ERR_ARG, "optcoll: unknown " + std::string(plan::to_string(op)) + " algorithm '" +
                                  options.algorithm + "' (Options::algorithm); valid: " + valid_names(op));
}

Choice choose(CommState& s, plan::Collective op, std::int64_t count, std::int64_t bytes, bool commutative,
              const Options& options, std::int64_t excess_bytes, bool exact) {
  Choice c;
  c.automatic = options.algorithm.empty() && s.settings.algorithm[static_cast<std::size_t>(op)][0] == '\0';
  if (options.algorithm.empty()) {
    const std::size_t slot = 4 * static_cast<std::size_t>(op) + (commutative ? 2U : 0U) + (exact ? 1U : 0U);
    if (s.picked[slot] == nullptr) s.picked[slot] = &pick(s, op, commutative, exact, options, c.fallback);
    c.algorithm = s.picked[slot];
  } else {
    c.algorithm = &pick(s, op, commutative, exact, options, c.fallback);
  }
  const std::int64_t max_blocks = std::max<std::int64_t>(count, 1);
  switch (c.algorithm->blocking) {
    case plan::Blocking::one:
      c.blocks = 1;
      break;
    case plan::Blocking::per_rank:
      c.blocks = s.size;
      break;
    case plan::Blocking::n:
      if (options.blocks > 0) {
        c.blocks = options.blocks;
      } else if (s.settings.block_bytes > 0) {
        c.blocks = (bytes + s.settings.block_bytes - 1) / s.settings.block_bytes;
      } else if (count < 2 || s.graph.q() < 2) {
        c.blocks = 1;  // nothing to pipeline
      } else {
        if (excess_bytes == 0) {
          c.blocks = 1;  // the model's answer, without calibrating
        } else {
          // The model's answer depends on (bytes, count) only: remember the
          // last. (An all-broadcast's is the broadcast's of its excess.)
          const std::int64_t modelled = excess_bytes > 0 ? excess_bytes : bytes;
          CommState::ModelChoice& last = s.last_model_choice;
          if (last.bytes != modelled || last.count != count) {
            last.blocks = model::choose_blocks(s.graph.q(), modelled, count, block_model(s).ab);
            last.bytes = modelled;
            last.count = count;
          }
          c.blocks = last.blocks;
        }
        // Blocks that fit the cache (BlockModel, comm_state.hpp); bytes is
        // the largest group for an all-broadcast. No cap binds at or below
        // kMinBlockCap: those calls need no calibration for it.
        if (bytes > kMinBlockCap && caps_blocks(op)) {
          const std::int64_t cap = block_model(s).max_block_bytes;
          if (cap > 0) c.blocks = std::max(c.blocks, (bytes + cap - 1) / cap);
        }
      }
      c.blocks = std::clamp<std::int64_t>(c.blocks, 1, max_blocks);
      break;
  }
  if (c.automatic && s.settings.logp_auto && (op == plan::Collective::bcast || op == plan::Collective::reduce) &&
      logp_tree_wins(s, op, bytes, commutative, *c.algorithm, c.blocks)) {
    c.algorithm = plan::find_algorithm(op, "logp_tree");
    c.blocks = 1;
  }
  return c;
}

Choice choose_allreduce(CommState& s, std::int64_t count, std::int64_t bytes, bool commutative, bool exact,
                        const Options& options) {
  // p groups of count / p elements, rounded up or down (allreduce_layout).
  const std::int64_t per_group = (count + s.size - 1) / s.size;
  const std::int64_t size = count > 0 ? bytes / count : 0;
  const std::int64_t largest = per_group * size, smallest = count / s.size * size;
  Choice c =
      choose(s, plan::Collective::allreduce, per_group, largest, commutative, options, largest - smallest, exact);
  // Non-commutative: doubling (the default), whatever the size: the same
  // whole-vector messages as the ordered plan in about half its rounds.
  if (!c.automatic || !commutative || bytes > model::kDisseminationMaxBytes) return c;
  const int q = s.graph.q();
  const model::AlphaBeta ab = block_model(s).ab;
  const double t_circulant = 2 * model::all_broadcast_time(q, largest, smallest, bytes - smallest, c.blocks, ab);
  // Whole-vector rounds: dissemination where the operator is exact, else
  // doubling, one round more unless p is a power of two (the price of the
  // same bits on every rank).
  const int rounds = exact ? q : model::doubling_allreduce_rounds(s.size);
  const double t_whole = rounds * (ab.alpha + ab.beta * static_cast<double>(bytes));
  if (t_whole > t_circulant) return c;
  c.algorithm = plan::find_algorithm(plan::Collective::allreduce, exact ? "dissemination" : "doubling");
  c.blocks = 1;
  return c;
}

Choice choose_alltoall(CommState& s, std::int64_t block_bytes, const Options& options) {
  Choice c = choose(s, plan::Collective::alltoall, 1, block_bytes, true, options);
  if (!c.automatic || s.size <= 2) return c;
  const bool bruck = model::alltoall_prefers_bruck(s.size, block_bytes, block_model(s).ab);
  c.algorithm = plan::find_algorithm(plan::Collective::alltoall, bruck ? "bruck" : "shift");
  return c;
}

Choice choose_scan(CommState& s, plan::Collective op, std::int64_t count, std::int64_t bytes, bool commutative,
                   const Options& options) {
  Choice c = choose(s, op, count, bytes, commutative, options);
  if (count < 2 || s.size < 3) return c;  // one message either way
  const bool pipeline = c.algorithm->name == "pipeline";
  if (!c.automatic && !pipeline) return c;
  // The pipeline's n: Options::blocks or OPTCOLL_BLOCK_BYTES, else the
  // model's, for the chain of depth p-1 (priced like a pipelined broadcast
  // of depth p-1).
  const int depth = s.size - 1;
  std::int64_t n = 0;
  if (options.blocks > 0) {
    n = options.blocks;
  } else if (s.settings.block_bytes > 0) {
    n = (bytes + s.settings.block_bytes - 1) / s.settings.block_bytes;
  }
  const bool fixed = n > 0;
  if (!c.automatic && fixed) return c;  // choose() applied the same rule
  const model::AlphaBeta ab = block_model(s).ab;
  if (!fixed) n = model::choose_blocks(depth, bytes, count, ab);
  n = std::clamp<std::int64_t>(n, 1, count);
  if (!c.automatic) {
    c.blocks = n;
    return c;
  }
  const double t_pipeline = model::circulant_time(depth, bytes, n, ab);
  const double t_doubling = s.graph.q() * (ab.alpha + ab.beta * static_cast<double>(bytes));
  if (t_pipeline < t_doubling) {
    c.algorithm = plan::find_algorithm(op, "pipeline");
    c.blocks = n;
  }
  return c;
}

}  // namespace optcoll::mpi
