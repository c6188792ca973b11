// Communicator caching: keyvals, the duplicate, the delete callbacks and the
// MPI_Finalize hook (see optcoll/mpi/comm_state.hpp).
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

#include "mpi/comm/comm_state.hpp"
#include "mpi/executor/prepared_plan.hpp"
#include "mpi/requests/request.hpp"
#include "optcoll/optcoll.hpp"

namespace optcoll::mpi {
namespace {

std::mutex g_mutex;
std::atomic<bool> g_keys{false};       // keyvals created (and not yet freed by MPI_Finalize)
int g_state_key = MPI_KEYVAL_INVALID;  // on user communicators: CommState*
int g_self_key = MPI_KEYVAL_INVALID;   // on MPI_COMM_SELF: the finalize hook
int g_seen_key = MPI_KEYVAL_INVALID;   // on communicators without state: look_up()'s answer (seen_value)
MPI_Comm g_self = MPI_COMM_NULL;
std::atomic<std::int64_t> g_live{0};
// Bumped before any CommState is deleted: a thread's last lookup
// (find_comm_state) is valid while the count it saw is unchanged, so a
// communicator freed and its handle reused never finds the old state.
std::atomic<std::uint64_t> g_deleted{0};
struct LastLookup {
  MPI_Comm comm = MPI_COMM_NULL;
  CommState* state = nullptr;
  std::uint64_t deleted = 0;
};
thread_local LastLookup t_last;

// The attribute's value: the communicator's share of its state (requests
// hold the others).
using Owner = std::shared_ptr<CommState>;

int delete_state(MPI_Comm, int, void* value, void*) {
  g_deleted.fetch_add(1, std::memory_order_acq_rel);
  std::unique_ptr<Owner> owned(static_cast<Owner*>(value));
  (*owned)->user_alive.store(false, std::memory_order_release);
  return MPI_SUCCESS;
}

// Runs first in MPI_Finalize (MPI_COMM_SELF's attributes are deleted before
// anything else): releases MPI_COMM_WORLD's state while MPI still works.
int finalize_hook(MPI_Comm, int, void*, void*) {
  std::lock_guard lock(g_mutex);
  if (g_state_key != MPI_KEYVAL_INVALID) {
    void* value = nullptr;
    int found = 0;
    // (Deleting an attribute that is not set is an error in Open MPI.)
    if (PMPI_Comm_get_attr(MPI_COMM_WORLD, g_state_key, &value, &found) == MPI_SUCCESS && found != 0)
      PMPI_Comm_delete_attr(MPI_COMM_WORLD, g_state_key);
    PMPI_Comm_free_keyval(&g_state_key);
    PMPI_Comm_free_keyval(&g_seen_key);
  }
  g_keys.store(false);
  if (g_self != MPI_COMM_NULL) PMPI_Comm_free(&g_self);
  return MPI_SUCCESS;
}

// Creates the keyvals and the finalize hook once per process (g_mutex held).
void init_keys() {
  if (g_state_key != MPI_KEYVAL_INVALID) return;
  check(PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_state, &g_state_key, nullptr), "MPI_Comm_create_keyval");
  check(PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &g_seen_key, nullptr),
        "MPI_Comm_create_keyval");
  check(PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, finalize_hook, &g_self_key, nullptr), "MPI_Comm_create_keyval");
  check(PMPI_Comm_set_attr(MPI_COMM_SELF, g_self_key, nullptr), "MPI_Comm_set_attr");
  // The hook stays attached (MPI frees a keyval once no attribute uses it).
  check(PMPI_Comm_free_keyval(&g_self_key), "MPI_Comm_free_keyval");
  g_keys.store(true, std::memory_order_release);
}

// Ranks of comm on this node per core they may use between them (the union
// of their CPU affinity masks; a rank bound to one core is not
// oversubscribed if the others are bound to other cores). Above 1, busy
// polling steals the CPU from the ranks being waited for. node: comm's
// ranks on this node.
double node_ranks_per_core(MPI_Comm node) {
  int local = 1;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) CPU_ZERO(&set);
  check(PMPI_Comm_size(node, &local), "MPI_Comm_size");
  check(PMPI_Allreduce(MPI_IN_PLACE, &set, static_cast<int>(sizeof(set)), MPI_BYTE, MPI_BOR, node), "MPI_Allreduce");
  const int cores = CPU_COUNT(&set);
  return cores > 0 ? static_cast<double>(local) / cores : 1.0;
}

// The node facts of s: ranks per core, one_node, and the node layout
// (OPTCOLL_NODE_SIZE's nodes, else the hosts' if in block placement).
void find_nodes(CommState& s) {
  MPI_Comm node = MPI_COMM_NULL;
  check(PMPI_Comm_split_type(s.comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  try {
    s.ranks_per_core = node_ranks_per_core(node);
    int local = 1;
    check(PMPI_Comm_size(node, &local), "MPI_Comm_size");
    s.one_node = local == s.size;    // the same answer on every rank
    if (s.settings.node_size > 0) {  // rank 0's setting: every rank takes this branch
      const plan::NodeLayout imposed =
          plan::NodeLayout::equal(s.size, std::min<plan::rank_t>(s.settings.node_size, s.size));
      if (imposed.hierarchical()) s.nodes = imposed;
    } else if (!s.one_node) {
      s.nodes = node_layout(s.comm, node);
    }
  } catch (...) {
    PMPI_Comm_free(&node);
    throw;
  }
  PMPI_Comm_free(&node);
}

std::shared_ptr<CommState> build_state(MPI_Comm user) {
  auto s = std::make_shared<CommState>();
  check(PMPI_Comm_dup(user, &s->comm), "MPI_Comm_dup");
  g_live.fetch_add(1);  // from here on ~CommState frees the duplicate
  check(PMPI_Comm_set_errhandler(s->comm, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  check(PMPI_Comm_rank(s->comm, &s->rank), "MPI_Comm_rank");
  check(PMPI_Comm_size(s->comm, &s->size), "MPI_Comm_size");
  s->graph = schedule::Circulant(s->size);
  if (s->rank == 0) s->settings = Settings::from_environment();
  check(PMPI_Bcast(&s->settings, sizeof(Settings), MPI_BYTE, 0, s->comm), "MPI_Bcast");
  find_nodes(*s);
  // OPTCOLL_WAIT=auto: block in MPI_Waitall unless the node is
  // oversubscribed (docs/decisions/poll-when-oversubscribed.md).
  const bool oversubscribed = s->ranks_per_core > 1;
  s->wait = s->settings.wait == 2 || (s->settings.wait == 0 && oversubscribed) ? WaitMode::poll : WaitMode::block;
  s->spin = s->settings.spin >= 0 ? s->settings.spin : 100;
  return s;
}

}  // namespace

CommState::~CommState() {
  if (comm != MPI_COMM_NULL) {
    int done = 0;
    PMPI_Finalized(&done);  // a request the program never freed may hold it past MPI_Finalize
    if (done == 0) PMPI_Comm_free(&comm);
    g_live.fetch_sub(1);
  }
}

CommState* find_comm_state(MPI_Comm comm) {
  // The attribute lookup costs about 170 instructions (callgrind, Open MPI
  // 4.1), a sixth of a small call's own overhead; most calls repeat the
  // previous communicator.
  const std::uint64_t deleted = g_deleted.load(std::memory_order_acquire);
  LastLookup& last = t_last;  // (one __tls_get_addr)
  if (last.state != nullptr && last.comm == comm && last.deleted == deleted) return last.state;
  if (!g_keys.load(std::memory_order_acquire)) {
    std::lock_guard lock(g_mutex);
    init_keys();
  }
  void* value = nullptr;
  int found = 0;
  check(PMPI_Comm_get_attr(comm, g_state_key, &value, &found), "MPI_Comm_get_attr");
  if (found == 0) return nullptr;
  last = {comm, static_cast<Owner*>(value)->get(), deleted};
  return last.state;
}

namespace {
// look_up()'s answer for a communicator without state, kept in the
// attribute's value itself (no allocation, nothing to free): size and rank
// (31 bits each) and whether it is an intercommunicator. 0: none kept.
constexpr std::uintptr_t kSeen = 1;
constexpr std::uintptr_t kInter = 2;
void* seen_value(int size, int rank, bool inter) noexcept {
  return reinterpret_cast<void*>(static_cast<std::uintptr_t>(size) << 33 | static_cast<std::uintptr_t>(rank) << 2 |
                                 (inter ? kInter : 0) | kSeen);
}
}  // namespace

CommLookup look_up(MPI_Comm comm) noexcept {
  static_assert(sizeof(std::uintptr_t) >= 8, "look_up keeps size and rank in a pointer");
  CommLookup c;
  if (comm == MPI_COMM_NULL) {
    c.bad = "invalid communicator";
    return c;
  }
  try {
    c.state = find_comm_state(comm);
    if (c.state != nullptr) {  // a communicator optcoll has used: an intracommunicator
      c.size = c.state->size;
      c.rank = c.state->rank;
      return c;
    }
    // One that optcoll has seen and not used (an intercommunicator, or a
    // call routed to MPI): what MPI said the first time.
    void* value = nullptr;
    int found = 0;
    check(PMPI_Comm_get_attr(comm, g_seen_key, &value, &found), "MPI_Comm_get_attr");
    if (found != 0) {
      const auto v = reinterpret_cast<std::uintptr_t>(value);
      c.size = static_cast<int>(v >> 33);
      c.rank = static_cast<int>((v >> 2) & 0x7fffffff);
      if ((v & kInter) != 0) c.bad = "intercommunicator";
      return c;
    }
  } catch (...) {
    c.bad = "invalid communicator";
    return c;
  }
  int inter = 0;
  if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS ||
      (inter == 0 && (PMPI_Comm_size(comm, &c.size) != MPI_SUCCESS || PMPI_Comm_rank(comm, &c.rank) != MPI_SUCCESS))) {
    c.bad = "invalid communicator";
    return c;
  }
  if (inter != 0) c.bad = "intercommunicator";
  PMPI_Comm_set_attr(comm, g_seen_key, seen_value(c.size, c.rank, inter != 0));  // (a failure: asked again next time)
  return c;
}

CommState& comm_state(MPI_Comm comm) {
  // (Running requests have advanced in check_call(), which every call
  // makes first.)
  if (CommState* s = find_comm_state(comm)) return *s;
  auto owner = std::make_unique<Owner>(build_state(comm));
  check(PMPI_Comm_set_attr(comm, g_state_key, owner.get()), "MPI_Comm_set_attr");
  return *owner.release()->get();
}

std::int64_t live_comm_states() noexcept {
  return g_live.load();
}

MPI_Comm self_comm() {
  std::lock_guard lock(g_mutex);
  init_keys();
  if (g_self == MPI_COMM_NULL) {
    check(PMPI_Comm_dup(MPI_COMM_SELF, &g_self), "MPI_Comm_dup");
    check(PMPI_Comm_set_errhandler(g_self, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  }
  return g_self;
}

}  // namespace optcoll::mpi
