// Every OPTCOLL_* environment variable, parsed in one place, once per
// process or communicator: the overrides of the selection, the MPI layer's
// executor knobs and the drop-in's policy. MPI-free: the MPI layer and the
// drop-in read rank 0's values and broadcast the (trivially copyable)
// struct, so that every rank decides alike.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "optcoll/plan/plan.hpp"

namespace optcoll::select {

// The drop-in's policy per collective (OPTCOLL_<OP>).
enum class Mode : std::uint8_t {
  automatic,  // auto: the tuning file, else the selection's prediction decides per call
  optcoll,    // always optcoll (where it can take the call)
  native,     // always PMPI_*
};

// The policy keyword or algorithm name of OPTCOLL_<OP>: empty and "auto" are
// automatic, "optcoll" and any other name (an algorithm) optcoll, "native"
// native.
Mode parse_mode(std::string_view value) noexcept;
// Whether value is one of the policy keywords (not an algorithm name).
bool is_policy_keyword(std::string_view value) noexcept;

// The environment variable of op's algorithm and policy: OPTCOLL_BCAST, ...
std::string env_name(plan::Collective op);

// Zero / empty means "not set" throughout.
struct Settings {
  double alpha = 0;              // OPTCOLL_ALPHA, seconds per round
  double beta = 0;               // OPTCOLL_BETA, seconds per byte
  double overhead = 0;           // OPTCOLL_OVERHEAD, seconds per message streamed (model::AlphaBeta::o)
  std::int64_t block_bytes = 0;  // OPTCOLL_BLOCK_BYTES: n = ceil(bytes / block_bytes)
  std::int64_t max_chunk = 0;    // OPTCOLL_MAX_CHUNK_ELEMS: elements per MPI call (tests)
  std::int64_t rank_group = 0;   // OPTCOLL_RANK_GROUP: ranks per locality group (plan/locality.hpp)
  std::int64_t block_cap = -1;   // OPTCOLL_BLOCK_CAP: largest block in bytes, 0 none; -1: from the L2 cache
  std::int32_t wait = 0;         // OPTCOLL_WAIT: 0 auto, 1 block, 2 poll
  std::int32_t spin = -1;        // OPTCOLL_POLL_SPIN: polls before sleeping
  // OPTCOLL_LOGP="L,o,g": LogP parameters in units of the MPI layer's
  // kLogpUnit (all three set, o <= g), replacing the measurement; zero:
  // measure.
  std::array<std::int64_t, 3> logp{};
  // OPTCOLL_LOGP_AUTO: 1, the automatic selection may pick logp_tree for
  // small Bcast and Reduce; 0, never; -1 (unset): the MPI layer's default,
  // small Bcast on communicators that span nodes (select::LogpRule).
  std::int32_t logp_auto = -1;
  // OPTCOLL_NODE_SIZE: nodes of this many consecutive ranks (the last one
  // may hold fewer), replacing the detected nodes (the MPI layer's node
  // layout: mpi/comm/nodes.cpp); 0: detected.
  std::int64_t node_size = 0;
  // OPTCOLL_TWO_LEVEL="alpha_in,beta_in,alpha_out,beta_out": the two-level
  // machine of the node-aware plans (model/two_level.hpp), seconds and
  // seconds per byte, replacing its calibration; zero: calibrated.
  std::array<double, 4> two_level{};
  std::int32_t verbose = 0;  // OPTCOLL_VERBOSE: the drop-in's summary (1) and per-call lines (2)
  // OPTCOLL_<OP> (OPTCOLL_BCAST, OPTCOLL_ALLGATHER, ...), by
  // plan::Collective: the algorithm it names (empty for a policy keyword)
  // and the drop-in's policy.
  std::array<std::array<char, 48>, plan::kCollectives> algorithm{};
  std::array<Mode, plan::kCollectives> mode{};

  // This process's environment; malformed values are reported on stderr and
  // ignored. (OPTCOLL_TUNING_FILE is a path, read by the drop-in itself.)
  static Settings from_environment();
};

// OPTCOLL_CHECK=1: the MPI layer's argument check (src/mpi/checks/agreement.hpp).
// Unlike the Settings above, each process's own value, read at the first
// call: the check runs before a communicator's state (and rank 0's
// settings) exists, so set it at every rank (mpiexec passes the
// environment to every rank by default). Malformed values are reported on
// stderr and read as 0.
bool check_enabled() noexcept;
// Reads OPTCOLL_CHECK again (tests).
void refresh_check_setting() noexcept;

// One environment variable, for the generated documentation
// (`optcoll settings`): every variable the settings read.
struct Variable {
  std::string_view name;
  std::string_view values;
  std::string_view meaning;
};
std::span<const Variable> variables() noexcept;

}  // namespace optcoll::select
