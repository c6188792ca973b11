// Every OPTCOLL_* variable (select/settings.hpp).
#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "optcoll/plan/algorithms.hpp"
#include "optcoll/select/settings.hpp"

namespace optcoll::select {
namespace {

const char* env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? v : nullptr;
}

void ignored(const char* name, const char* value, const char* why) {
  std::fprintf(stderr, "optcoll: ignoring %s=%s (%s)\n", name, value, why);
}

// A positive finite double, or 0 (unset / malformed).
double positive_double(const char* name) {
  const char* v = env(name);
  if (v == nullptr) return 0;
  char* end = nullptr;
  errno = 0;
  const double d = std::strtod(v, &end);
  if (errno != 0 || end == v || *end != '\0' || !(d > 0) || d > 1e6) {
    ignored(name, v, "expected a positive number");
    return 0;
  }
  return d;
}

// An integer >= least, or `otherwise` (unset / malformed).
std::int64_t integer(const char* name, long long least, std::int64_t otherwise, const char* expected) {
  const char* v = env(name);
  if (v == nullptr) return otherwise;
  char* end = nullptr;
  errno = 0;
  const long long i = std::strtoll(v, &end, 10);
  if (errno != 0 || end == v || *end != '\0' || i < least) {
    ignored(name, v, expected);
    return otherwise;
  }
  return static_cast<std::int64_t>(i);
}

// A positive integer, or 0 (unset / malformed).
std::int64_t positive_int(const char* name) {
  return integer(name, 1, 0, "expected a positive integer");
}

// OPTCOLL_<OP>: the drop-in's policy, and the algorithm it names.
template <std::size_t N>
void name(const char* var, std::array<char, N>& out, Mode& mode) {
  const char* v = env(var);
  if (v == nullptr) return;
  mode = parse_mode(v);
  // The drop-in's policy keywords name no algorithm: optcoll's default.
  if (is_policy_keyword(v)) return;
  // A name too long for the buffer is kept truncated: it names no algorithm
  // and is reported as unknown when used.
  std::strncpy(out.data(), v, out.size() - 1);
}

// OPTCOLL_CHECK: -1 not read yet, else 0 or 1.
std::atomic<int> g_check{-1};

int read_check() {
  const char* v = env("OPTCOLL_CHECK");
  if (v == nullptr) return 0;
  const std::string_view s(v);
  if (s == "0" || s == "1") return s == "1" ? 1 : 0;
  ignored("OPTCOLL_CHECK", v, "expected 0 or 1");
  return 0;
}

constexpr Variable kVariables[] = {
    {"OPTCOLL_<OP>", "auto, optcoll, native, or an algorithm name",
     "per collective (OPTCOLL_BCAST, OPTCOLL_ALLREDUCE, ...): the algorithm (a name from the registry; the MPI layer "
     "and the drop-in) and the drop-in's policy: auto (default: optcoll where the tuning file or the selection's "
     "prediction says it wins), optcoll (always), native (never)"},
    {"OPTCOLL_ALPHA", "seconds > 0", "alpha of the block-count model, replacing the calibration's"},
    {"OPTCOLL_BETA", "seconds per byte > 0", "beta of the block-count model, replacing the calibration's"},
    {"OPTCOLL_OVERHEAD", "seconds > 0",
     "per-message overhead o of messages sent back to back (the linear Gather(v)/Scatter(v)'s price), replacing "
     "the calibration's; with OPTCOLL_ALPHA and OPTCOLL_BETA and without it, o is unknown and the linear plans "
     "are not chosen automatically"},
    {"OPTCOLL_BLOCK_BYTES", "bytes > 0", "pipelined plans use n = ceil(bytes / this) blocks"},
    {"OPTCOLL_BLOCK_CAP", "bytes >= 0",
     "largest pipelined block of Bcast, Reduce, Allgather(v) (0: no cap; default: "
     "a quarter of the smallest L2 cache per core, 64 KiB to 1 MiB)"},
    {"OPTCOLL_MAX_CHUNK_ELEMS", "elements > 0", "most elements per MPI call (tests of the chunked paths)"},
    {"OPTCOLL_RANK_GROUP", "ranks > 0",
     "ranks per locality group (a node, a leaf switch), consecutive ranks: the circulant plans of Bcast, Reduce, "
     "Allgather(v), Reduce_scatter(_block) and Allreduce renumber their ranks so that their longer skips stay "
     "inside groups, when it divides p (commutative operators only; default: off)"},
    {"OPTCOLL_WAIT", "auto, block, poll",
     "how the executor waits: poll on oversubscribed nodes (auto), always block, "
     "always poll"},
    {"OPTCOLL_POLL_SPIN", "0 .. 1000000", "polls before a polling wait yields the core (default 100)"},
    {"OPTCOLL_LOGP", "L,o,g", "LogP parameters in units of 10 ns for the logp_tree plans, replacing the measurement"},
    {"OPTCOLL_LOGP_AUTO", "0, 1",
     "1: the automatic selection may run logp_tree for Bcast/Reduce up to 4 KiB; 0: never; unset: Bcast across nodes"},
    {"OPTCOLL_NODE_SIZE", "ranks > 0",
     "nodes of this many consecutive ranks (the last may hold fewer), replacing the nodes the MPI layer detects: "
     "the node-aware plans (lanes, leaders) see them (tests, and nodes inside one host)"},
    {"OPTCOLL_TWO_LEVEL", "alpha_in,beta_in,alpha_out,beta_out",
     "the two-level machine of the node-aware plans: seconds per message and per byte within a node and through "
     "a node's network port, replacing the calibration"},
    {"OPTCOLL_VERBOSE", "0, 1, 2",
     "the drop-in: 1 prints the calls per operation and path at MPI_Finalize, 2 also "
     "one line per call with the reason"},
    {"OPTCOLL_TUNING_FILE", "a path", "the drop-in: measurements written by optcoll-tune, which `auto` follows"},
    {"OPTCOLL_CHECK", "0, 1",
     "1: every call of the MPI layer first checks that all ranks agree on its arguments (root, operator, "
     "counts, type signatures) and raises an MPI error at every rank where they differ; each process's own "
     "value, read once: set it at every rank"},
};

}  // namespace

Mode parse_mode(std::string_view value) noexcept {
  if (value.empty() || value == "auto") return Mode::automatic;
  if (value == "native") return Mode::native;
  return Mode::optcoll;  // "optcoll" or an algorithm name
}

bool is_policy_keyword(std::string_view value) noexcept {
  return value == "auto" || value == "optcoll" || value == "native";
}

std::span<const Variable> variables() noexcept {
  return kVariables;
}

bool check_enabled() noexcept {
  int c = g_check.load(std::memory_order_relaxed);
  if (c < 0) {
    c = read_check();
    g_check.store(c, std::memory_order_relaxed);
  }
  return c == 1;
}

void refresh_check_setting() noexcept {
  g_check.store(read_check(), std::memory_order_relaxed);
}

std::string env_name(plan::Collective op) {
  std::string v = "OPTCOLL_";
  for (const char c : plan::to_string(op)) v += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return v;
}

Settings Settings::from_environment() {
  Settings s;
  s.alpha = positive_double("OPTCOLL_ALPHA");
  s.beta = positive_double("OPTCOLL_BETA");
  s.overhead = positive_double("OPTCOLL_OVERHEAD");
  s.block_bytes = positive_int("OPTCOLL_BLOCK_BYTES");
  s.max_chunk = positive_int("OPTCOLL_MAX_CHUNK_ELEMS");
  s.rank_group = positive_int("OPTCOLL_RANK_GROUP");
  s.block_cap = integer("OPTCOLL_BLOCK_CAP", 0, -1, "expected bytes >= 0 (0: no cap)");
  if (const char* w = env("OPTCOLL_WAIT")) {
    const std::string_view v(w);
    if (v == "block")
      s.wait = 1;
    else if (v == "poll")
      s.wait = 2;
    else if (v != "auto")
      ignored("OPTCOLL_WAIT", w, "expected auto, block or poll");
  }
  if (const char* v = env("OPTCOLL_POLL_SPIN")) {
    char* end = nullptr;
    const long i = std::strtol(v, &end, 10);
    if (end == v || *end != '\0' || i < 0 || i > 1000000)
      ignored("OPTCOLL_POLL_SPIN", v, "expected 0..1000000");
    else
      s.spin = static_cast<std::int32_t>(i);
  }
  if (const char* v = env("OPTCOLL_LOGP")) {
    long long L = 0, o = 0, g = 0;
    char tail = 0;
    if (std::sscanf(v, "%lld,%lld,%lld%c", &L, &o, &g, &tail) != 3 || L < 1 || o < 0 || g < 1 || o > g ||
        g > (std::int64_t{1} << 40) || L > (std::int64_t{1} << 40))
      ignored("OPTCOLL_LOGP", v, "expected L,o,g: integers, L >= 1, 0 <= o <= g, g >= 1");
    else
      s.logp = {L, o, g};
  }
  s.node_size = positive_int("OPTCOLL_NODE_SIZE");
  if (const char* v = env("OPTCOLL_TWO_LEVEL")) {
    std::array<double, 4> t{};
    char tail = 0;
    const bool ok = std::sscanf(v, "%lf,%lf,%lf,%lf%c", &t[0], &t[1], &t[2], &t[3], &tail) == 4 &&
                    std::all_of(t.begin(), t.end(), [](double x) { return x > 0 && x <= 1e6; });
    if (ok)
      s.two_level = t;
    else
      ignored("OPTCOLL_TWO_LEVEL", v, "expected alpha_in,beta_in,alpha_out,beta_out: four positive numbers");
  }
  if (const char* v = env("OPTCOLL_LOGP_AUTO")) {
    const std::string_view a(v);
    if (a == "1" || a == "0")
      s.logp_auto = a == "1" ? 1 : 0;
    else
      ignored("OPTCOLL_LOGP_AUTO", v, "expected 0 or 1");
  }
  if (const char* v = env("OPTCOLL_VERBOSE")) {
    const std::string_view x(v);
    if (x == "0" || x == "1" || x == "2")
      s.verbose = x[0] - '0';
    else
      ignored("OPTCOLL_VERBOSE", v, "expected 0, 1 or 2");
  }
  for (std::size_t op = 0; op < plan::kCollectives; ++op)
    name(env_name(static_cast<plan::Collective>(op)).c_str(), s.algorithm[op], s.mode[op]);
  return s;
}

}  // namespace optcoll::select
