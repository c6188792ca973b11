// Process-wide state of liboptcoll_pmpi.so: the configuration (rank 0's
// environment at MPI_Init), the per-call routing and the counters behind
// OPTCOLL_VERBOSE.
//
// Every rank of a communicator must route a collective call the same way
// (one rank in optcoll and another in PMPI_* would hang). So a route
// depends only on what all ranks agree on: rank 0's configuration
// (broadcast over MPI_COMM_WORLD at MPI_Init), the communicator (size,
// inter or intra), the operation, the MPI_Op and the call's byte count (type
// signatures match, so count x type size is equal at all ranks), and the
// model's alpha and beta (measured on the communicator, maximum over ranks).
#pragma once

#include <mpi.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <string>

#include "counts.hpp"
#include "ops.hpp"
#include "optcoll/select/select.hpp"
#include "policy.hpp"

namespace optcoll::pmpi {

enum class Path : std::uint8_t {
  optcoll,   // optcoll ran the call
  native,    // PMPI_* by policy (native, or auto where optcoll does not win), or a trivial call
  fallback,  // PMPI_* because optcoll cannot take the call (intercommunicator, unsupported arguments)
};
inline constexpr std::size_t kPaths = 3;
std::string_view to_string(Path p) noexcept;

struct Config {
  select::Settings settings;  // OPTCOLL_<OP> (the modes), OPTCOLL_VERBOSE, ...
  Tuning tuning;              // OPTCOLL_TUNING_FILE
  Mode mode(plan::Collective c) const noexcept { return settings.mode[static_cast<std::size_t>(c)]; }
};

// Collective over MPI_COMM_WORLD, right after PMPI_Init(_thread): takes
// rank 0's configuration and tuning file, and measures alpha and beta on
// MPI_COMM_WORLD when some operation is `auto` without tuning data.
void start();
// At MPI_Finalize, before PMPI_Finalize: the summary (OPTCOLL_VERBOSE >= 1).
void stop();

// Whether calls are routed (between start and stop; if MPI was initialised
// without MPI_Init / MPI_Init_thread passing through here, the first call
// starts with this process's own environment).
bool active() noexcept;
const Config& config() noexcept;

// Call counts of this process, by op and path.
std::int64_t calls(Op op, Path path) noexcept;
// "optcoll: rank 0 calls: MPI_Bcast optcoll=3 native=1 fallback=0; ..."
std::string summary(int rank);

// Every group of an Allgatherv or Reduce_scatter, which every rank knows
// (the recvcounts: int, or MPI_Count in the large-count bindings): rank
// i's group is counts[i] x unit bytes.
struct Groups {
  CountArray counts;  // null: not known (then equal groups are assumed by the classic's price)
  std::int64_t unit = 0;
};

// The route of one call on an intracommunicator whose arguments optcoll
// supports (else: Path::fallback, counted, by the caller), as every rank
// knows it (call.p: the communicator's size). Under `auto`: the tuning
// file's measurement nearest to the call when it covers the operation,
// else the one selection's prediction (select::decide): optcoll when its
// plan is predicted strictly faster than the best classic algorithm, which
// select::best_classic prices from the groups when they are given and
// unequal (without them Bruck's algorithm is priced at its lower bound,
// which no circulant all-broadcast beats). Counts the call. Collective over
// comm when `auto` needs alpha and beta measured (the first such call on
// comm).
Path route(Op op, MPI_Comm comm, const select::Call& call, Groups groups = {});

// The route of a Gatherv, Scatterv or Alltoallv, where a rank knows only
// its own payload (`own` bytes: its block, or for Alltoallv what it sends)
// and bad: whether optcoll cannot take its arguments. Under `auto` the
// ranks agree on the payload (largest, smallest, total) and on bad with one
// small allreduce at the 1st, 2nd, 4th, 8th, ... such call of the
// operation on the communicator, and reuse the verdict in between: every
// rank counts the same calls, so every rank routes the same way (a
// large-count call counts with its int binding, int_binding(): one rank
// may call MPI_Gatherv_c where another calls MPI_Gatherv).
Path route_v(Op op, MPI_Comm comm, int p, std::int64_t own, const char* bad);
// Counts a call (route() and fallback() count theirs).
void count(Op op, Path path) noexcept;
// Whether a blocking call may be kept to run again without its route
// (mpi/executor/repeat_call.hpp): not while the trace (OPTCOLL_VERBOSE=2)
// reports every call's route.
bool keeps_calls() noexcept;

// Counts a call that went to PMPI_* because optcoll cannot take it.
Path fallback(Op op, MPI_Comm comm, const char* why);

}  // namespace optcoll::pmpi
