// Which plan and block count an optcoll call uses: select::decide() (the
// one selection, select/select.hpp) with this communicator's overrides and
// machine.
//
// Overrides: Options::algorithm, else OPTCOLL_<OP> (rank 0's environment);
// Options::blocks; OPTCOLL_BLOCK_BYTES; OPTCOLL_LOGP_AUTO. An unknown name
// is an MPI_ERR_ARG error (plus one line on stderr at rank 0 naming the
// valid choices, for the environment variables). A named algorithm that is
// invalid for the operator (needs a commutative or an exact one) is
// replaced by the automatic choice, with one note on stderr per
// communicator.
//
// Machine: the communicator's block model (block_model(): calibrated at the
// first call that needs alpha and beta, or OPTCOLL_ALPHA / OPTCOLL_BETA)
// LogP parameters (logp_model()) and, where the ranks span nodes (the
// communicator's node layout, which also fills Call::nodes), the two-level
// machine of the node-aware plans (two_level_model()). Every input is
// equal at all ranks, so is the decision.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>

#include "mpi/comm/comm_state.hpp"
#include "optcoll/model/block_count.hpp"
#include "optcoll/optcoll.hpp"
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/select/select.hpp"

namespace optcoll::mpi {

using Choice = select::Decision;

// MPI_ERR_ARG unless options.algorithm is empty or names an algorithm for op.
// Local: every call checks it, also those that move no data.
void check_algorithm_name(plan::Collective op, const Options& options);

// The algorithm OPTCOLL_<OP> names in s's settings (rank 0's environment),
// nullptr when unset; MPI_ERR_ARG (reported once on rank 0's stderr) when it
// names none of op's registry algorithms.
const plan::AlgorithmInfo* env_algorithm(CommState& s, plan::Collective op);

// The LogP tree rule on s: OPTCOLL_LOGP_AUTO (1: Bcast and Reduce, 0: off),
// else Bcast on a communicator that spans nodes (!s.one_node), off on one
// node. The same at every rank.
select::LogpRule logp_rule(const CommState& s) noexcept;

// The decision for call (call.p = s.size; call.nodes is s's node layout,
// filled in here) on s, cached per collective while
// the call's shape and options repeat; with_prices: with the predicted
// times of the plan and the best classic algorithm (the drop-in's `auto`).
// Collective when it needs alpha and beta or the LogP parameters for the
// first time on s.
Choice choose(CommState& s, const select::Call& call, const Options& options, bool with_prices = false);

// s as select's machine: block_model(s), logp_model(s) and
// two_level_model(s), asked lazily.
class CommMachine final : public select::Machine {
 public:
  explicit CommMachine(CommState& s) : s_(s) {}
  model::AlphaBeta alpha_beta() override;
  std::int64_t max_block_bytes() override;
  std::optional<Logp> logp() override;
  // two_level_model(s) where knows_two_level(s), else none.
  std::optional<model::TwoLevel> two_level() override;

 private:
  CommState& s_;
};

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
// smallest the smallest (-1: equal groups), total all of them (-1: count
// times p), doubling plan::doubling_elements of them (-1: unknown), as the
// call computes them.
Decision describe(MPI_Comm comm, plan::Collective op, std::int64_t count, MPI_Datatype type, MPI_Op mpi_op,
                  const Options& options = {}, std::int64_t smallest = -1, std::int64_t total = -1,
                  std::int64_t doubling = -1);

}  // namespace optcoll::mpi
