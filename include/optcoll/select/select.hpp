// The one selection: which registry plan and block count a call runs, what
// that is predicted to cost, and what the best classic algorithm (the one an
// MPI library would run) is predicted to cost. Every entry point asks here:
// the MPI layer (OPTCOLL_* and optcoll::), the drop-in's `auto`, `optcoll
// model`, `optcoll simulate` and optcoll-tune. No MPI: the machine comes
// from a Machine, which the MPI layer backs with its calibration of the
// communicator (collective the first time it is asked) and the CLI with
// fixed numbers. Every input is equal at all ranks of a call, so is the
// decision.
//
// Rules (decide()):
//  - A named algorithm (Overrides::algorithm) runs if it is valid for the
//    operator (plan::valid_for); an unknown name is Errc::invalid_argument;
//    a name invalid for the operator is replaced by the automatic choice
//    (Decision::fallback).
//  - Automatic: among the registry's priced algorithms for the operation
//    that are not baselines and are valid, the one with the smallest
//    alpha-beta price at its block count (ties: registry order); an
//    algorithm with AlgorithmInfo::max_bytes is a candidate only up to
//    that size unless nothing else is valid. Asks the machine only when
//    there are several candidates or a pipelined block count to choose.
//  - The LogP tree rule (Overrides::logp): an automatic Bcast (or Reduce,
//    LogpRule::bcast_and_reduce) of 1..kLogpMaxBytes bytes on
//    3..kLogpMaxRanks ranks runs logp_tree when the plan simulator's
//    LogGP clock, with the machine's LogP parameters, prices it strictly
//    below the choice above and the binomial tree.
//  - Block count n (Blocking::n): Overrides::blocks, else ceil(bytes /
//    Overrides::block_bytes), else the price function's optimum for alpha
//    and beta (the broadcast's n for the excess of the largest group over
//    the smallest for the all-broadcasts: 1 for equal groups), for Bcast,
//    Reduce and Allgather(v) raised to at least ceil(bytes /
//    Machine::max_block_bytes()) above model::kMinBlockCap; clamped to
//    [1, elements]. bytes: the vector, the largest group for the
//    all-broadcasts (allreduce: its reduce-scatter's).
// Time: O(registry) plus, for the LogP rule, simulations of O(p rounds).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "optcoll/logp/params.hpp"
#include "optcoll/model/block_count.hpp"
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/tree_plan.hpp"
#include "optcoll/sim/simulator.hpp"

namespace optcoll::select {

// What every rank of the call knows, in elements of elem_size bytes.
struct Call {
  plan::Collective op = plan::Collective::bcast;
  plan::rank_t p = 1;
  std::int64_t elem_size = 1;
  // The vector (bcast, reduce, allreduce, scan, exscan); the largest group
  // (allgather, reduce_scatter, gather, scatter); one block (alltoall); the
  // largest message (alltoallv; many_to_many: the largest send volume).
  std::int64_t count = 0;
  // Rank-group collectives: the smallest group and all groups together;
  // -1: every group holds `count` (many_to_many: total is the largest
  // receive volume).
  std::int64_t smallest = -1;
  std::int64_t total = -1;
  // Allgather / Reduce_scatter with unequal groups: plan::doubling_elements
  // of the groups (-1: unknown; the doubling price then bounds it).
  std::int64_t doubling = -1;
  bool commutative = true;  // reductions
  bool exact = false;       // reductions: plan::PlanSpec::exact
  // How the ranks sit on nodes (plan/nodes.hpp): nodes, full lanes (the
  // smallest node), the largest node. One node, or one rank per node: flat.
  struct Nodes {
    plan::rank_t count = 1;
    plan::rank_t lanes = 1;
    plan::rank_t largest = 1;
    bool operator==(const Nodes&) const = default;
    bool hierarchical() const noexcept { return count > 1 && largest > 1; }
  } nodes{};
  std::int64_t bytes() const noexcept { return count * elem_size; }
  // The bytes of the whole collective as the models count them
  // (plan::Shape::m): every group of the rank-group collectives, else the
  // vector.
  std::int64_t payload() const noexcept {
    const bool groups = op == plan::Collective::allgather || op == plan::Collective::reduce_scatter ||
                        op == plan::Collective::gather || op == plan::Collective::scatter;
    return groups ? (total < 0 ? count * p : total) * elem_size : bytes();
  }
  bool operator==(const Call&) const = default;
};

// The call's Shape for the registry's price functions.
plan::Shape shape_of(const Call& c);

// The machine the prices are for. The MPI layer's answers may communicate
// (calibration) the first time; decide() asks only what it needs.
class Machine {
 public:
  virtual ~Machine() = default;
  virtual model::AlphaBeta alpha_beta() = 0;
  // The largest pipelined block in bytes, 0: no cap.
  virtual std::int64_t max_block_bytes() = 0;
  // LogP parameters for the LogP tree rule: the plans' integer Params and
  // the same in seconds; none when unknown.
  struct Logp {
    logp::Params units{1, 0, 1, 0};
    sim::LogGP seconds;
  };
  virtual std::optional<Logp> logp() = 0;
  // The two-level machine (model/two_level.hpp) of a communicator that
  // spans nodes; none: the node-aware plans are not candidates.
  virtual std::optional<model::TwoLevel> two_level() { return std::nullopt; }
};

// Fixed numbers (the CLI, tests).
class FixedMachine final : public Machine {
 public:
  explicit FixedMachine(model::AlphaBeta ab, std::int64_t max_block_bytes = 0, std::optional<Logp> logp = {},
                        std::optional<model::TwoLevel> two_level = {})
      : ab_(ab), cap_(max_block_bytes), logp_(logp), two_level_(two_level) {}
  model::AlphaBeta alpha_beta() override { return ab_; }
  std::int64_t max_block_bytes() override { return cap_; }
  std::optional<Logp> logp() override { return logp_; }
  std::optional<model::TwoLevel> two_level() override { return two_level_; }

 private:
  model::AlphaBeta ab_;
  std::int64_t cap_;
  std::optional<Logp> logp_;
  std::optional<model::TwoLevel> two_level_;
};

// Which automatic calls the LogP tree rule may give logp_tree.
enum class LogpRule : std::uint8_t { off, bcast, bcast_and_reduce };

// What the user fixed (Options, OPTCOLL_<OP>, OPTCOLL_BLOCK_BYTES, ...).
struct Overrides {
  std::string_view algorithm{};   // empty: automatic
  std::int64_t blocks = 0;        // n, 0: chosen
  std::int64_t block_bytes = 0;   // n = ceil(bytes / block_bytes), 0: chosen
  LogpRule logp = LogpRule::off;  // the LogP tree rule
};

struct Decision {
  const plan::AlgorithmInfo* algorithm = nullptr;
  std::int64_t blocks = 1;  // spec.blocks for the plan
  bool automatic = false;   // no override named it
  bool fallback = false;    // a named algorithm was invalid for the operator and replaced
  // Predicted seconds of the plan and of the best classic algorithm
  // (`classic`), in the same model: alpha-beta, or LogGP when the LogP rule
  // chose logp_tree. -1: not priced (decide() without prices, nothing asked
  // of the machine).
  double time = -1;
  std::string_view classic;
  double classic_time = -1;
  std::string_view reason;  // why this algorithm, a static text
};

// The automatic choice and block count for c. with_prices: also price the
// plan and the classic algorithms (asks the machine for alpha and beta).
// Throws optcoll::Error (Errc::invalid_argument) for an unknown algorithm
// name, naming the valid ones.
Decision decide(const Call& c, const Overrides& o, Machine& m, bool with_prices = false);

// The best classic algorithm for c (what an MPI library runs) and its
// alpha-beta price: the registry's baselines and the formulas of
// model/baselines.hpp and model/alltoall.hpp. Allgather(v) and
// Reduce_scatter: the ring and Bruck's algorithm, priced exactly from
// group_bytes (every group's bytes) when given, else Bruck at its bound
// q alpha + beta (m - smallest) (exact for equal groups).
struct Classic {
  std::string_view name;
  plan::Price price;
};
Classic best_classic(const Call& c, const model::AlphaBeta& ab, std::span<const std::int64_t> group_bytes = {});
// Every classic algorithm priced for c, for the cost tables.
std::vector<Classic> classics(const Call& c, const model::AlphaBeta& ab,
                              std::span<const std::int64_t> group_bytes = {});

// The LogP tree rule's limits.
inline constexpr std::int64_t kLogpMaxBytes = 4096;
inline constexpr plan::rank_t kLogpMaxRanks = 4096;

// "name1, name2, ...": op's registry algorithms.
std::string algorithm_names(plan::Collective op);

// Gatherv / Scatterv: whether the root (the only rank that knows every
// block's bytes m) runs TWO (plan::two_view()). Automatic: where Lemma 2 of
// Traff 2018 applies, i.e. one rank holds the larger of two sizes y, it is
// the root, and ceil(log2(p-1)) alpha + beta (p-1) x <= beta y (the x-blocks'
// tree finishes while the root copies its own block); the root broadcasts
// the answer. named ("two"): whenever m takes exactly two values. Otherwise
// the call runs the adaptive binomial tree. O(p).
std::optional<plan::TwoSizes> choose_two(std::span<const std::int64_t> m, plan::rank_t root, const model::AlphaBeta& ab,
                                         bool named);

// Gatherv / Scatterv: whether the call runs the linear plan (the root takes
// or sends p - 1 messages, in flight together) rather than a tree. Every
// rank decides alike from p and the machine alone: only the root knows the
// sizes, so the rule cannot see the bytes B. The tree costs its distributed
// construction and its run, about two binomial trees of small messages
// (2 tree, `tree` the calibration's 8-byte binomial tree, q alpha where
// unknown), then its bytes: alpha + 2 tree + beta B. The linear plan costs
// alpha + max((p - 2) o, beta B): the root's overheads, hidden once the
// bytes (which cost both alike at the root's link) exceed them. With B
// unknown the rule minimises the larger regret: the linear plan's, at
// B = 0, is (p - 2) o - 2 tree; the tree's, at large B, is 2 tree. So:
// linear where (p - 2) o < 4 tree. Never where o is unknown (ab.o = 0).
// Measured under SimGrid/SMPI: docs/decisions/gatherv-scatterv-linear-or-tree.md.
// O(1).
bool v_runs_linear(plan::rank_t p, const model::AlphaBeta& ab, double tree);

// Regular Scatter, blocks of `block` bytes: whether the root sends them
// straight to their ranks (the linear plan, all in flight) rather than down
// the binomial tree. Both move beta (p - 1) block through the root's link.
// The linear plan pays one small round `round` before it and the root's
// p - 2 further overheads beside it, round + max((p - 2) o, beta (p - 1)
// block); the tree pays its q small rounds, `tree` (measured as such:
// they mostly pair nearby ranks, which costs less than `round`), before
// its last bytes arrive: tree + beta (p - 1) block. So the linear plan wins
// once the bytes hide the overheads. Never where o, round or tree is
// unknown (0). O(1).
bool scatter_runs_linear(plan::rank_t p, std::int64_t block, const model::AlphaBeta& ab, double round, double tree);

// Allmerge (Lang 2025): "bruck" (Algorithm 1, the default for an empty
// name) and "circulant" (Algorithm 2) run the registry's allreduce/bruck and
// allreduce/dissemination plans with merging as the operator; "allgatherv"
// (plan: nullptr) gathers every run and merges locally. Any other name:
// Errc::invalid_argument, naming the valid ones. O(registry).
inline constexpr const char* kAllmergeNames = "circulant bruck allgatherv";
struct MergeChoice {
  std::string_view name;
  const plan::AlgorithmInfo* plan = nullptr;
};
MergeChoice choose_allmerge(std::string_view requested);

}  // namespace optcoll::select
