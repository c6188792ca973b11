// Per-communicator state of the MPI layer, cached on the user's communicator
// with MPI attribute caching.
//
// At the first optcoll call on a communicator that moves data, comm_state()
// (collective) duplicates the communicator (all optcoll traffic runs on the
// duplicate, so user point-to-point never matches it; tags from kTag on:
// kTag, kTag + 1 .. 3 for a Gather(v)/Scatter(v) tree's construction,
// kTag + 16 + k for nonblocking calls, kRequestTags), takes the
// settings from rank 0's environment (PMPI_Bcast, so that a rank-divergent
// environment cannot make ranks build different plans and hang), finds how
// the ranks sit on nodes (node_layout(), OPTCOLL_NODE_SIZE), and caches
// a CommState on the user communicator. MPI_Comm_free of the user
// communicator runs the attribute's delete callback, which frees the
// duplicate and the state. MPI_COMM_WORLD's state is released during
// MPI_Finalize: an attribute on MPI_COMM_SELF, whose attributes MPI deletes
// first while MPI is still fully usable, deletes WORLD's attribute.
#pragma once

#include <mpi.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mpi/executor/executor.hpp"
#include "optcoll/logp/params.hpp"
#include "optcoll/model/block_count.hpp"
#include "optcoll/model/two_level.hpp"
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/nodes.hpp"
#include "optcoll/schedule/circulant.hpp"
#include "optcoll/select/select.hpp"
#include "optcoll/select/settings.hpp"

namespace optcoll::mpi {

inline constexpr int kTag = 0x0c011;

// Every OPTCOLL_* variable, from rank 0's environment (broadcast as bytes).
using select::Settings;

// What calibrate() measured on a communicator (zero: not measured). See
// src/mpi/comm/calibrate.cpp for the method.
struct Calibration {
  double round_small = 0;     // one circulant round of 8-byte messages, s
  double tree_small = 0;      // a binomial broadcast of 8 bytes from rank 0, all its rounds, s
  double alpha = 0;           // per-round cost of a block-sized message, s
  double beta = 0;            // per-byte cost, all ranks sending at once, s/B
  double fill = 1;            // beta factor of the q-1 fill rounds (< 1 when oversubscribed)
  double ranks_per_core = 0;  // ranks per core on the most loaded node
  double l2_bytes = 0;        // smallest L2 cache per core over the ranks (0: unknown somewhere)
  double overhead = 0;        // per message of a burst of small sends, at the sender (model::AlphaBeta::o), s
  // LogP / LogGP (Karp et al. 1993; calibrate_logp.cpp): ping-pong and burst
  // between rank 0 and rank p-1, seconds (G: seconds per byte).
  double L = 0;
  double o = 0;
  double g = 0;
  double G = 0;
};

// The MPI layer's LogP time unit: the plans' Params are integers in this
// unit, which is also the cost of one addition in the summation tree
// (Lemma 5.1's L+1): an MPI_Reduce_local of a few elements takes about that.
inline constexpr double kLogpUnit = 10e-9;

// The block-count model in use: n = choose_blocks(q, bytes, count, ab)
// (all-broadcasts: choose.hpp), raised so that no block exceeds
// max_block_bytes (OPTCOLL_BLOCK_CAP, else max_block_bytes_for() the
// smallest L2). Without a calibration (OPTCOLL_ALPHA and OPTCOLL_BETA both
// set) and OPTCOLL_BLOCK_CAP, max_block_bytes is 0: the plain alpha-beta
// rule.
struct BlockModel {
  model::AlphaBeta ab{0, 0};
  std::int64_t max_block_bytes = 0;
};

// The largest pipelined block on a node whose cores have l2_bytes of L2
// cache each: a quarter of it (a round's send and receive block and the
// transport's copies of them stay in the cache), in [kMinBlockCap, 1 MiB];
// 256 KiB when the size is unknown (l2_bytes <= 0). Larger blocks than
// the cache holds cost more than the alpha-beta model, which knows no
// caches, charges them (measured: docs/decisions/block-cap-from-l2.md).
using model::kMinBlockCap;
std::int64_t max_block_bytes_for(double l2_bytes) noexcept;

class PreparedPlan;  // prepared_plan.hpp

// The prepared plans of finished nonblocking calls on one communicator, for
// the next such call with the same plan (request.cpp): a repeated
// MPI_I<op> skips building and compiling its plan. The requests give
// their plan back when freed; any thread, under the lock.
struct SparePlans {
  static constexpr std::size_t kMax = 8;  // the most recently finished
  std::mutex lock;
  std::vector<std::unique_ptr<PreparedPlan>> plans;
};

// A blocking call as its entry saw its arguments (the drop-in's shapes):
// its buffers, count, datatype, operator and root. Its entry keeps one only
// where the handles name the same objects for the whole run (predefined
// datatypes and operators) and the buffers are the caller's own.
struct CallKey {
  const void* in = nullptr;
  const void* out = nullptr;
  std::int64_t count = -1;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_Op op = MPI_OP_NULL;
  int root = -1;
  bool operator==(const CallKey&) const = default;
};

// A blocking call that ran its collective's cached plan on the caller's
// buffers and nothing else (run_plan.cpp: run_again): the same call again
// runs that plan again as it is bound. `binding` names the bind()
// (PreparedPlan::binding()), so a plan rebound or replaced since is not
// taken for it.
struct RepeatCall {
  CallKey key;
  PreparedPlan* plan = nullptr;
  std::uint64_t binding = 0;
};

// Scratch and work buffers up to this size stay allocated between calls
// (re-faulting a 16 MiB buffer's pages costs about a millisecond per call);
// larger ones are released after each call.
inline constexpr std::int64_t kKeepCallBuffers = std::int64_t{32} << 20;

// Owned by the attribute on the user's communicator and by the requests
// made on it, so that a request outlives the program's MPI_Comm_free
// (requests/request.hpp).
struct CommState : std::enable_shared_from_this<CommState> {
  MPI_Comm comm = MPI_COMM_NULL;  // optcoll's duplicate, MPI_ERRORS_RETURN
  // The user's communicator has not been freed (its attribute not deleted).
  std::atomic<bool> user_alive{true};
  int rank = 0;
  int size = 1;
  schedule::Circulant graph{1};
  Settings settings;
  WaitMode wait = WaitMode::block;
  int spin = 0;
  double ranks_per_core = 0;  // this node: ranks of comm per core they may use
  bool one_node = false;      // every rank of comm on this node (shared memory)
  // How comm's ranks sit on nodes (node_layout()): set only where they
  // span several nodes in block placement, some node holding several ranks
  // (NodeLayout::hierarchical()); none: the node-aware plans run flat and
  // are not candidates. The same at every rank.
  std::optional<plan::NodeLayout> nodes;
  std::optional<model::TwoLevel> two_level;  // set by two_level_model()
  std::optional<BlockModel> model;           // set by block_model()
  std::optional<logp::Params> logp;          // set by logp_model(), in kLogpUnit
  std::int64_t logp_measurements = 0;        // how often calibrate_logp() ran (tests: once)
  // A nonblocking or persistent collective was made on comm (make_request).
  // The same at every rank of comm between two of its collectives: every
  // rank makes those requests, in the order of comm's collectives.
  bool made_requests = false;
  Calibration measured;
  Scratch scratch;
  ByteBuffer work;       // a non-root's reduction buffer
  MpiExecutor executor;  // reused across calls (keeps its small vectors)
  // The last plan of each collective (by plan::Collective), reused while
  // the choice, spec and layout repeat (run_plan.cpp).
  std::array<std::unique_ptr<PreparedPlan>, plan::kCollectives> plans;
  // The plan the call in progress ran on its caller's buffers (run_plan;
  // none where it then used a work buffer of its own), and the last such
  // call of each collective that can run again (run_again).
  RepeatCall ran;
  std::array<RepeatCall, plan::kCollectives> repeats;
  std::int64_t runs_again = 0;  // calls that ran again so (tests)
  // Every rank's receive schedule, built at the first call that needs it.
  std::unique_ptr<schedule::AllRootsSchedule> all_roots;
  // The last decision per collective (choose.cpp), reused while the call's
  // shape and options repeat (the settings and the machine are fixed for
  // the communicator's lifetime).
  struct CachedChoice {
    select::Call call;
    std::string algorithm;  // Options::algorithm
    std::int64_t blocks = 0;
    select::Decision choice;
    bool priced = false;  // with the predicted times
    bool valid = false;
  };
  std::array<CachedChoice, plan::kCollectives> choices;
  bool noted_fallback = false;
  bool noted_unknown = false;
  std::uint32_t request_calls = 0;  // nonblocking calls so far (their tags: request.cpp)
  SparePlans spare;

  CommState() = default;
  CommState(const CommState&) = delete;
  CommState& operator=(const CommState&) = delete;
  ~CommState();
};

// After a call that ran on the communicator's own buffers (not a
// request's): scratch and work buffers larger than kKeepCallBuffers are
// released. run_plan trims the scratch after every plan it runs; a
// collective with a working buffer of its own (Reduce, Scan,
// Reduce_scatter, the trees, Allmerge) calls this once its result is out.
inline void release_call_buffers(CommState& s) noexcept {
  s.ran = {};
  s.scratch.trim(kKeepCallBuffers);
  if (s.work.capacity() > kKeepCallBuffers) s.work.release();
}

using select::env_name;

// The state cached on comm, built at first use (collective over comm then).
// comm must be a valid intracommunicator. Throws MpiError.
CommState& comm_state(MPI_Comm comm);

// The cached state, or nullptr if none was built yet. Local.
CommState* find_comm_state(MPI_Comm comm);

// What a call needs to know of its communicator: its size and rank, from
// its optcoll state where it has one (one cached lookup), else from MPI
// once per communicator (kept on it as an attribute); `bad` says why
// optcoll cannot run on it (MPI_COMM_NULL or an invalid handle, an
// intercommunicator: decided at its first call). The one lookup of every
// entry: the drop-in's Gate, check_call() and the argument agreement.
// Local; never throws.
struct CommLookup {
  int size = 1;
  int rank = 0;
  CommState* state = nullptr;
  const char* bad = nullptr;
};
CommLookup look_up(MPI_Comm comm) noexcept;

// Measures s's round costs (collective over s.comm).
Calibration calibrate(const CommState& s);

// The block-count model of s: OPTCOLL_ALPHA and OPTCOLL_BETA if both are
// set, else calibrated at the first call (collective over s.comm then), with
// a single override replacing its measured counterpart.
const BlockModel& block_model(CommState& s);

// Measures L, o, g and G on s (collective over s.comm; calibrate_logp.cpp).
Calibration calibrate_logp(const CommState& s);

// The LogP parameters of s in kLogpUnit: OPTCOLL_LOGP if set; else, on a
// communicator that spans nodes, L = alpha - 2o, o = g = the overhead o of
// block_model() (and G = beta in s.measured) where that model has o; else
// measured (calibrate_logp). Collective at the first call (the alpha-beta
// calibration or the measurement); later calls are local.
const logp::Params& logp_model(CommState& s);

// The sum of x over comm's ranks below this one (0 at rank 0; collective
// over comm; nodes.cpp): ceil(log2 p) rounds of one message each way, with
// tag kTag (no other message of that tag on comm meanwhile). Not
// MPI_Exscan: SMPI 3.32's sends every rank's value to every rank above it
// (p (p - 1) / 2 messages, a waitany over p - 1 requests per message): 14 s
// of host time at 256 ranks, and the node detection at 1024 ranks did not
// end in 600 s.
std::int64_t exclusive_sum(MPI_Comm comm, std::int64_t x);

// The node layout of comm (collective over comm: at most three small
// collectives and exclusive_sum; nodes.cpp): `node` is comm split into its nodes (every rank of a
// node in one communicator, e.g. MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)).
// The nodes when every node holds consecutive ranks of comm (block
// placement; sizes may differ) and the layout is hierarchical; none
// otherwise (round-robin or any other placement, one node, one rank per
// node). Every rank returns the same. O(nodes) memory.
std::optional<plan::NodeLayout> node_layout(MPI_Comm comm, MPI_Comm node);

// Whether s has a two-level machine for the node-aware plans: its ranks
// span nodes (s.nodes) and OPTCOLL_TWO_LEVEL gives the machine or the
// nodes are real, some of them on other hosts. Nodes imposed on one host
// (OPTCOLL_NODE_SIZE) share its memory, no port to spare: there the
// node-aware plans run when named but are not chosen automatically. The
// same at every rank.
bool knows_two_level(const CommState& s) noexcept;

// The two-level machine of s (knows_two_level(s) must hold):
// OPTCOLL_TWO_LEVEL if set, else measured (calibrate_two_level).
// Collective at the first call (the measurement); later calls are local.
const model::TwoLevel& two_level_model(CommState& s);

// Measures both levels on s's nodes (s.nodes must be set; collective over
// s.comm; calibrate_two_level.cpp).
model::TwoLevel calibrate_two_level(const CommState& s);

// Number of CommState objects alive in this process (tests: freed
// communicators release their state).
std::int64_t live_comm_states() noexcept;

}  // namespace optcoll::mpi
