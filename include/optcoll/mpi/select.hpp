// Which plan and block count an optcoll call uses.
//
// Algorithm: Options::algorithm, else OPTCOLL_BCAST / OPTCOLL_REDUCE (rank
// 0's environment), else plan::select_algorithm(). An unknown name is an
// MPI_ERR_ARG error (plus one line on stderr at rank 0 naming the valid
// choices, for the environment variables). A reduction algorithm that needs
// a commutative operator is never run with a non-commutative one, nor one
// that needs an exact operator (plan::AlgorithmInfo::needs_exact) with an
// inexact one: the default (plan::select_algorithm) replaces it, with one
// note on stderr per communicator.
//
// Block count n, for algorithms that pipeline n blocks (Blocking::n):
// Options::blocks, else ceil(bytes / OPTCOLL_BLOCK_BYTES), else the
// alpha-beta optimum model::choose_blocks(q, bytes, count, ab) with the
// communicator's block model (block_model(): calibrated, or OPTCOLL_ALPHA /
// OPTCOLL_BETA), for Bcast, Reduce and Allgather(v) at least
// ceil(bytes / the block model's max_block_bytes); clamped to [1, count].
// One block for Blocking::one; Blocking::per_rank plans choose their own.
// Every input is equal at all ranks, so is n. All-broadcasts (Allgather(v),
// Reduce_scatter(_block), the circulant Allreduce) pass bytes = the largest
// group (OPTCOLL_BLOCK_BYTES splits it) and excess_bytes >= 0, largest minus
// smallest group: the model's n is model::choose_all_broadcast_blocks, the
// broadcast's n for the excess (1 for equal groups).
//
// The LogP tree rule (select_logp.cpp): an automatic Bcast or Reduce of at
// most kLogpMaxBytes on 3 <= p <= kLogpMaxRanks ranks runs "logp_tree" when the plan
// simulator's LogGP clock, with the communicator's measured L, o, g, G,
// prices it strictly below the default choice and the binomial tree.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>

#include "optcoll/model/block_count.hpp"
#include "optcoll/mpi/comm_state.hpp"
#include "optcoll/optcoll.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::mpi {

struct Choice {
  const plan::AlgorithmInfo* algorithm = nullptr;
  std::int64_t blocks = 1;  // spec.blocks for the plan
  bool fallback = false;    // a commutative-only algorithm was replaced
  bool automatic = false;   // neither Options nor OPTCOLL_<OP> named it
};

// MPI_ERR_ARG unless options.algorithm is empty or names an algorithm for op.
// Local: every call checks it, also those that move no data.
void check_algorithm_name(plan::Collective op, const Options& options);

// The algorithm OPTCOLL_<OP> names in s's settings (rank 0's environment),
// nullptr when unset; MPI_ERR_ARG (reported once on rank 0's stderr) when it
// names none of op's registry algorithms.
const plan::AlgorithmInfo* env_algorithm(CommState& s, plan::Collective op);

// Collective at the first call on s that needs alpha and beta.
// exact: plan::PlanSpec::exact (algorithms with needs_exact need it).
Choice choose(CommState& s, plan::Collective op, std::int64_t count, std::int64_t bytes, bool commutative,
              const Options& options, std::int64_t excess_bytes = -1, bool exact = false);

// The LogP tree rule's size limit: beyond it the pipelined circulant plans
// (alpha-beta model) take over.
inline constexpr std::int64_t kLogpMaxBytes = 4096;
// ... and its communicator size limit (the price is a simulation).
inline constexpr int kLogpMaxRanks = 4096;

// Whether logp_tree is strictly cheaper than `current` (with `blocks`) and
// the binomial tree for a call of `bytes` (see above). Collective at the
// first call on s (logp_model()); cached per (op, commutative, bytes).
bool logp_tree_wins(CommState& s, plan::Collective op, std::int64_t bytes, bool commutative,
                    const plan::AlgorithmInfo& current, std::int64_t blocks);

// Allreduce: choose() for the all-broadcast of p groups of count / p
// elements; without Options or OPTCOLL_ALLREDUCE and for a commutative op,
// the alpha-beta model then picks between the circulant plan (reduce-scatter
// plus allgather), 2 model::all_broadcast_time, about 2 q alpha +
// 2 beta m (p-1)/p at n = 1, and a whole-vector plan up to
// model::kDisseminationMaxBytes: dissemination, q (alpha + beta m), for an
// exact operator (exact_op()), else doubling, which gives every rank the
// same bits in model::doubling_allreduce_rounds(p) rounds. A
// non-commutative op gets doubling. Every plan it picks gives every rank
// the same bits; a named needs_exact plan is replaced for an inexact op.
Choice choose_allreduce(CommState& s, std::int64_t count, std::int64_t bytes, bool commutative, bool exact,
                        const Options& options);

// Alltoall with blocks of block_bytes: choose(); without Options or
// OPTCOLL_ALLTOALL the alpha-beta model (model/alltoall.hpp, calibrated
// alpha and beta) picks Bruck's algorithm, sum over its q rounds of
// alpha + beta * blocks moved * block_bytes, or the shift schedule,
// (p-1)(alpha + beta * block_bytes). Collective (calibration) when automatic
// and p > 2.
Choice choose_alltoall(CommState& s, std::int64_t block_bytes, const Options& options);

// Scan / Exscan (op): choose(), with the pipeline's block count from the
// chain's depth p-1 instead of q; without Options or OPTCOLL_SCAN /
// OPTCOLL_EXSCAN the alpha-beta model picks between doubling,
// q (alpha + beta m), and the pipelined chain, (n+p-2)(alpha + beta m/n).
Choice choose_scan(CommState& s, plan::Collective op, std::int64_t count, std::int64_t bytes, bool commutative,
                   const Options& options);

// What a call with these arguments would run, for tests and benchmarks
// (collective when it builds the cache or calibrates). mpi_op is used by
// the reductions only.
struct Decision {
  std::string algorithm;
  std::int64_t blocks = 1;
  BlockModel model;               // in use (zero when not needed yet)
  Calibration measured;           // zero when overridden or not measured yet
  logp::Params logp{0, 0, 0, 0};  // in kLogpUnit; zero when not needed yet
  bool poll = false;              // waits by polling (oversubscribed node or OPTCOLL_WAIT=poll)
};
// For Allgather(v) / Reduce_scatter(_block) count is the largest group and
// smallest the smallest (-1: equal groups).
Decision describe(MPI_Comm comm, plan::Collective op, std::int64_t count, MPI_Datatype type, MPI_Op mpi_op,
                  const Options& options = {}, std::int64_t smallest = -1);

}  // namespace optcoll::mpi
