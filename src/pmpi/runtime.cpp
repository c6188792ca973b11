// Configuration, routing and counters of liboptcoll_pmpi.so (runtime.hpp).
#include "runtime.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>
#include <vector>

#include "mpi/comm/choose.hpp"
#include "mpi/comm/comm_state.hpp"
#include "mpi/executor/datatype.hpp"
#include "optcoll/optcoll.hpp"

namespace optcoll::pmpi {
namespace {

Config g_config;
std::atomic<bool> g_started{false};
std::atomic<bool> g_stopped{false};
std::mutex g_start_mutex;
std::array<std::array<std::atomic<std::int64_t>, kPaths>, kOps.size()> g_calls{};

const char* env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? v : nullptr;
}

// Rank 0's settings, as bytes.
void broadcast_settings(Config& c) {
  mpi::check(PMPI_Bcast(&c.settings, sizeof c.settings, MPI_BYTE, 0, MPI_COMM_WORLD), "MPI_Bcast");
}

// Rank 0 reads OPTCOLL_TUNING_FILE; every rank parses its text.
Tuning broadcast_tuning(int rank) {
  std::string text;
  const char* path = env("OPTCOLL_TUNING_FILE");
  if (rank == 0 && path != nullptr) {
    std::ifstream in(path);
    std::ostringstream all;
    all << in.rdbuf();
    if (!in)
      std::fprintf(stderr, "optcoll: cannot read OPTCOLL_TUNING_FILE=%s; using the model\n", path);
    else
      text = all.str();
  }
  std::int64_t size = static_cast<std::int64_t>(text.size());
  mpi::check(PMPI_Bcast(&size, 1, MPI_INT64_T, 0, MPI_COMM_WORLD), "MPI_Bcast");
  text.resize(static_cast<std::size_t>(size));
  if (size > 0) mpi::check(PMPI_Bcast(text.data(), static_cast<int>(size), MPI_CHAR, 0, MPI_COMM_WORLD), "MPI_Bcast");
  try {
    return Tuning::parse(text);
  } catch (const Error& e) {
    if (rank == 0) std::fprintf(stderr, "optcoll: OPTCOLL_TUNING_FILE=%s: %s; using the model\n", path, e.what());
    return {};
  }
}

void trace(Op op, MPI_Comm comm, int p, std::int64_t bytes, Path path, const std::string& why) {
  if (g_config.settings.verbose < 2) return;
  int rank = 0;
  if (comm != MPI_COMM_NULL) PMPI_Comm_rank(comm, &rank);
  if (rank != 0) return;
  const std::string name(info(op).name);
  if (bytes < 0)
    std::fprintf(stderr, "optcoll: MPI_%s -> %s (%s)\n", name.c_str(), std::string(to_string(path)).c_str(),
                 why.c_str());
  else
    std::fprintf(stderr, "optcoll: MPI_%s p=%d bytes=%lld -> %s (%s)\n", name.c_str(), p, static_cast<long long>(bytes),
                 std::string(to_string(path)).c_str(), why.c_str());
}

// Without start() (MPI initialised by a path that bypassed MPI_Init /
// MPI_Init_thread here): this process's own environment, no calibration.
void lazy_start() {
  std::lock_guard lock(g_start_mutex);
  if (g_started.load()) return;
  g_config.settings = select::Settings::from_environment();
  if (const char* path = env("OPTCOLL_TUNING_FILE")) {
    std::ifstream in(path);
    std::ostringstream all;
    all << in.rdbuf();
    try {
      if (in) g_config.tuning = Tuning::parse(all.str());
    } catch (const Error&) {
      // Ignored as in start(), where rank 0 reports it.
    }
  }
  g_started.store(true);
}

// The payload the tuning file is indexed by (the shapes): the vector, all
// groups together, p blocks for Alltoall, all messages together for
// Alltoallv (what optcoll-tune's exercises are sized by).
std::int64_t tuning_bytes(const select::Call& call) {
  if (call.op == plan::Collective::alltoall) return call.bytes() * call.p;
  if (call.op == plan::Collective::alltoallv) return call.total;
  return select::shape_of(call).m;
}

// `auto`: the tuning file's measurement, else the selection's prediction.
Path automatic(MPI_Comm comm, const select::Call& call, Groups groups, std::string& why) {
  if (g_config.tuning.covers(call.op)) {
    why = "tuning file";
    return g_config.tuning.optcoll_wins(call.op, call.p, tuning_bytes(call)) ? Path::optcoll : Path::native;
  }
  try {
    mpi::CommState& state = mpi::comm_state(comm);
    mpi::Choice d = mpi::choose(state, call, {}, true);
    if (!groups.counts.null() && call.smallest >= 0 && call.smallest < call.count) {
      // Unequal groups: the classic algorithms priced from every group.
      std::vector<std::int64_t> bytes(static_cast<std::size_t>(call.p));
      for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = groups.counts[i] * groups.unit;
      const select::Classic c = select::best_classic(call, mpi::CommMachine(state).alpha_beta(), bytes);
      d.classic = c.name;
      d.classic_time = c.price.time;
    }
    if (g_config.settings.verbose >= 2) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "model: optcoll %s %.1f us, classic %s %.1f us",
                    std::string(d.algorithm->name).c_str(), d.time * 1e6, std::string(d.classic).c_str(),
                    d.classic_time * 1e6);
      why = buf;
    }
    return d.time >= 0 && d.time < d.classic_time ? Path::optcoll : Path::native;
  } catch (const Error& e) {
    why = e.what();
    return Path::fallback;
  }
}

// Per communicator (an attribute): the v-collectives' call counts and
// agreed routes (route_v()).
struct Agreed {
  std::array<std::int64_t, kOps.size()> calls{};
  std::array<Path, kOps.size()> path{};
  std::array<std::int64_t, kOps.size()> total{};
};

int delete_agreed(MPI_Comm, int, void* value, void*) {
  delete static_cast<Agreed*>(value);
  return MPI_SUCCESS;
}

Agreed& agreed(MPI_Comm comm) {
  static int keyval = [] {
    int k = MPI_KEYVAL_INVALID;
    mpi::check(PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, &delete_agreed, &k, nullptr), "MPI_Comm_create_keyval");
    return k;
  }();
  void* value = nullptr;
  int found = 0;
  mpi::check(PMPI_Comm_get_attr(comm, keyval, &value, &found), "MPI_Comm_get_attr");
  if (found != 0) return *static_cast<Agreed*>(value);
  auto* a = new Agreed;
  mpi::check(PMPI_Comm_set_attr(comm, keyval, a), "MPI_Comm_set_attr");
  return *a;
}

// Elementwise over groups of four int64: max, max, sum, max.
void agree(void* in, void* inout, int* len, MPI_Datatype*) {
  const auto* x = static_cast<const std::int64_t*>(in);
  auto* y = static_cast<std::int64_t*>(inout);
  for (int k = 0; k + 3 < *len; k += 4) {
    y[k] = std::max(y[k], x[k]);
    y[k + 1] = std::max(y[k + 1], x[k + 1]);
    y[k + 2] += x[k + 2];
    y[k + 3] = std::max(y[k + 3], x[k + 3]);
  }
}

MPI_Op agree_op() {
  static MPI_Op op = [] {
    MPI_Op o = MPI_OP_NULL;
    mpi::check(PMPI_Op_create(&agree, 1, &o), "MPI_Op_create");
    return o;
  }();
  return op;
}

}  // namespace

std::string_view to_string(Path p) noexcept {
  switch (p) {
    case Path::optcoll:
      return "optcoll";
    case Path::native:
      return "native";
    case Path::fallback:
      return "fallback";
  }
  return "?";
}

void start() {
  std::lock_guard lock(g_start_mutex);
  Config c;
  c.settings = select::Settings::from_environment();
  int rank = 0;
  int size = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  try {
    broadcast_settings(c);
    c.tuning = broadcast_tuning(rank);
  } catch (const Error& e) {
    std::fprintf(stderr, "optcoll: %s; every collective runs natively\n", e.what());
    c.settings.mode.fill(Mode::native);
  }
  g_config = std::move(c);
  g_started.store(true);
  // alpha and beta, measured now on MPI_COMM_WORLD if `auto` will need them
  // (other communicators measure their own at their first such call).
  bool needs_model = false;
  for (const OpInfo& o : kOps) {
    const auto i = static_cast<std::size_t>(o.collective);
    needs_model =
        needs_model || (g_config.settings.mode[i] == Mode::automatic && !g_config.tuning.covers(o.collective));
  }
  if (needs_model && size > 1) {
    try {
      mpi::block_model(mpi::comm_state(MPI_COMM_WORLD));
    } catch (const Error& e) {
      std::fprintf(stderr, "optcoll: calibration failed: %s\n", e.what());
    }
  }
}

void stop() {
  if (!g_started.load() || g_stopped.exchange(true)) return;
  if (g_config.settings.verbose < 1) return;
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) std::fprintf(stderr, "%s\n", summary(rank).c_str());
}

bool active() noexcept {
  if (g_stopped.load(std::memory_order_relaxed)) return false;
  if (g_started.load(std::memory_order_acquire)) return true;
  int initialized = 0;
  int finalized = 0;
  PMPI_Initialized(&initialized);
  PMPI_Finalized(&finalized);
  if (initialized == 0 || finalized != 0) return false;
  try {
    lazy_start();
  } catch (...) {
    return false;
  }
  return true;
}

void count(Op op, Path path) noexcept {
  g_calls[static_cast<std::size_t>(op)][static_cast<std::size_t>(path)].fetch_add(1, std::memory_order_relaxed);
}

bool keeps_calls() noexcept {
  return g_config.settings.verbose < 2;
}

const Config& config() noexcept {
  return g_config;
}

std::int64_t calls(Op op, Path path) noexcept {
  return g_calls[static_cast<std::size_t>(op)][static_cast<std::size_t>(path)].load();
}

std::string summary(int rank) {
  std::string out = "optcoll: rank " + std::to_string(rank) + " calls:";
  for (std::size_t i = 0; i < kOps.size(); ++i) {
    // The blocking calls always; the request and large-count forms only
    // once the program has made one.
    std::int64_t total = 0;
    for (std::size_t p = 0; p < kPaths; ++p) total += calls(static_cast<Op>(i), static_cast<Path>(p));
    if (i >= kBlockingOps && total == 0) continue;
    out += i == 0 ? " MPI_" : "; MPI_";
    out += kOps[i].name;
    for (std::size_t p = 0; p < kPaths; ++p) {
      out += ' ';
      out += to_string(static_cast<Path>(p));
      out += '=';
      out += std::to_string(calls(static_cast<Op>(i), static_cast<Path>(p)));
    }
  }
  return out;
}

Path route(Op op, MPI_Comm comm, const select::Call& call, Groups groups) {
  const plan::Collective c = info(op).collective;
  const Mode mode = g_config.mode(c);
  Path path = Path::native;
  std::string why;  // built only for the trace (verbose 2): building it costs more than the routing
  const bool tracing = g_config.settings.verbose >= 2;
  if (mode == Mode::native) {
    if (tracing) why = mpi::env_name(c) + "=native";
  } else if (call.p == 1 || call.payload() == 0) {
    why = "nothing to move";
  } else if (mode == Mode::optcoll) {
    path = Path::optcoll;
    if (tracing) why = mpi::env_name(c);
  } else {
    path = automatic(comm, call, groups, why);
  }
  count(op, path);
  trace(op, comm, static_cast<int>(call.p), tuning_bytes(call), path, why);
  return path;
}

Path route_v(Op op, MPI_Comm comm, int p, std::int64_t own, const char* bad) {
  const plan::Collective c = info(op).collective;
  const Mode mode = g_config.mode(c);
  if (bad != nullptr && mode != Mode::automatic) return fallback(op, comm, bad);
  if (mode != Mode::automatic || p == 1) {
    // Forced or native: as route() with an unknown payload.
    const Path path = mode == Mode::optcoll && p > 1 ? Path::optcoll : Path::native;
    count(op, path);
    if (g_config.settings.verbose >= 2)
      trace(op, comm, p, -1, path, mode == Mode::optcoll ? mpi::env_name(c) : std::string("nothing to move"));
    return path;
  }
  Agreed& a = agreed(comm);
  const auto i = static_cast<std::size_t>(int_binding(op));  // (MPI_Gatherv_c and MPI_Gatherv match)
  const std::int64_t n = ++a.calls[i];
  std::string why;           // empty: "auto: agreed at an earlier call" (built only for the trace)
  if ((n & (n - 1)) == 0) {  // the 1st, 2nd, 4th, ... call: agree
    // {largest, -smallest, total, bad}: max, max, sum, max (agree_op()).
    std::int64_t v[4] = {own, -own, own, bad != nullptr ? 1 : 0};
    mpi::check(PMPI_Allreduce(MPI_IN_PLACE, v, 4, MPI_INT64_T, agree_op(), comm), "MPI_Allreduce");
    if (v[3] != 0) {
      a.path[i] = Path::fallback;
      why = "auto: some rank's arguments are not optcoll's";
    } else {
      select::Call call{.op = c, .p = p, .elem_size = 1, .count = v[0], .smallest = -v[1], .total = v[2]};
      if (c == plan::Collective::alltoallv) call.count = v[0] / p;  // a message of the busiest rank
      a.total[i] = v[2];
      a.path[i] = v[2] == 0 ? Path::native : automatic(comm, call, {}, why);
    }
  }
  Path path = a.path[i];
  if (bad != nullptr && path == Path::optcoll) path = Path::fallback;  // an erroneous call: PMPI_* reports it
  count(op, path);
  if (g_config.settings.verbose >= 2)
    trace(op, comm, p, a.total[i], path, why.empty() ? std::string("auto: agreed at an earlier call") : why);
  return path;
}

Path fallback(Op op, MPI_Comm comm, const char* why) {
  count(op, Path::fallback);
  trace(op, comm, 0, -1, Path::fallback, why);  // (an intercommunicator: each group's rank 0)
  return Path::fallback;
}

}  // namespace optcoll::pmpi
