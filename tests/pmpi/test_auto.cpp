// The drop-in's `auto` (liboptcoll_pmpi.so, src/pmpi/runtime.cpp), both
// directions for every intercepted MPI call: a plain MPI program
// (auto_points.c, built against MPI only) runs under LD_PRELOAD with
// OPTCOLL_VERBOSE=2, and every call's route is read from the line rank 0
// prints for it (and the counts of the summary at MPI_Finalize).
//
// The expected route never comes from optcoll's code (this program does not
// link it):
//  - The model: OPTCOLL_ALPHA and OPTCOLL_BETA fix alpha and beta, and the
//    alpha-beta times of optcoll's algorithms and of the classic ones (what
//    an MPI library runs) are written out below from their round structure.
//    optcoll must run where its best algorithm is at least 5% faster than
//    the best classic one, native where it is not faster (a tie goes
//    native). Points in between are not used (the test checks that).
//  - The tuning file: this test writes the measurements, and the nearest
//    point decides (every call is made at a measured point).
// Under the model, MPI_Allgather, MPI_Reduce_scatter_block, MPI_Gather(v),
// MPI_Scatter(v) and MPI_Alltoall(v) never win: optcoll's algorithms for
// them cost exactly what the classic ones cost (the circulant allgather of
// equal groups moves what Bruck's algorithm moves in as many rounds; every
// gather/scatter tree is priced like the binomial tree; Alltoall(v) runs the
// shift schedule or Bruck's algorithm, which are the classic ones). For those
// the model test checks native, and the tuning file both directions.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "auto_oracle.hpp"

extern char** environ;

namespace {

using namespace pmpi_auto_oracle;

// ---------------------------------------------------------------------------
// Running auto_points under the drop-in.

constexpr long kRanks = 5;
const AB kModel{1e-5, 1e-8};  // OPTCOLL_ALPHA, OPTCOLL_BETA of the model runs

// One call of auto_points and its expected route.
struct Point {
  std::string spec;   // auto_points' argument
  long long bytes;    // the payload the drop-in reports (and the tuning file is indexed by)
  bool optcoll;       // expected: optcoll (else native)
  std::string where;  // for messages: why this is expected
};

struct Traced {
  std::string call;
  long long bytes = 0;
  std::string path;
  std::string why;
};

struct Run {
  int status = -1;
  std::string output;
  std::vector<Traced> calls;                           // in order, rank 0's lines
  std::map<std::string, std::array<long, 3>> summary;  // MPI_<call> -> optcoll, native, fallback
};

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

Run run(const std::vector<std::string>& env, const std::vector<Point>& points) {
  // OPTCOLL_MPI_ENV: what this MPI needs on this machine (root, oversubscribed).
  std::string cmd = "env " OPTCOLL_MPI_ENV " LD_PRELOAD=" + quoted(OPTCOLL_PMPI_LIB) + " OPTCOLL_VERBOSE=2";
  for (const std::string& e : env) cmd += " " + quoted(e);
  cmd += " " + quoted(OPTCOLL_MPIEXEC) + " -n " + std::to_string(kRanks) + " " + quoted(OPTCOLL_AUTO_PROGRAM);
  for (const Point& p : points) cmd += " " + quoted(p.spec);
  cmd += " 2>&1";
  Run r;
  FILE* f = popen(cmd.c_str(), "r");
  if (f == nullptr) return r;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), static_cast<int>(buf.size()), f) != nullptr) r.output += buf.data();
  const int st = pclose(f);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  const std::regex traced(R"(^optcoll: MPI_(\w+) p=\d+ bytes=(-?\d+) -> (\w+) \((.*)\)$)");
  const std::regex counted(R"(MPI_(\w+) optcoll=(\d+) native=(\d+) fallback=(\d+))");
  std::size_t at = 0;
  while (at < r.output.size()) {
    std::size_t end = r.output.find('\n', at);
    if (end == std::string::npos) end = r.output.size();
    const std::string line = r.output.substr(at, end - at);
    at = end + 1;
    std::smatch m;
    if (std::regex_match(line, m, traced)) {
      r.calls.push_back({m[1], std::stoll(m[2]), m[3], m[4]});
    } else if (line.rfind("optcoll: rank 0 calls:", 0) == 0) {
      for (std::sregex_iterator i(line.begin(), line.end(), counted), e; i != e; ++i)
        r.summary[(*i)[1]] = {std::stol((*i)[2]), std::stol((*i)[3]), std::stol((*i)[4])};
    }
  }
  return r;
}

std::string call_of(const std::string& spec) {
  return spec.substr(0, spec.find(':'));
}

// Runs the points and checks every call's route, then the summary's counts.
void expect_routes(const std::vector<std::string>& env, const std::vector<Point>& points) {
  const Run r = run(env, points);
  ASSERT_EQ(r.status, 0) << r.output;
  ASSERT_EQ(r.calls.size(), points.size()) << "one traced line per call expected:\n" << r.output;
  std::map<std::string, std::array<long, 3>> want;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Point& p = points[i];
    const Traced& t = r.calls[i];
    const std::string call = call_of(p.spec);
    EXPECT_EQ(t.call, call) << p.spec;
    EXPECT_EQ(t.bytes, p.bytes) << p.spec << ": the payload the drop-in saw";
    EXPECT_EQ(t.path, p.optcoll ? "optcoll" : "native")
        << p.spec << " (" << p.where << "); the drop-in: " << t.path << " (" << t.why << ")";
    ++want[call][p.optcoll ? 0 : 1];
  }
  for (const auto& [call, counts] : want) {
    const auto got = r.summary.find(call);
    ASSERT_NE(got, r.summary.end()) << "MPI_" << call << " missing from the summary:\n" << r.output;
    EXPECT_EQ(got->second, counts) << "MPI_" << call << ": optcoll, native, fallback in the summary";
  }
}

std::vector<std::string> model_env() {
  char a[32], b[32];
  std::snprintf(a, sizeof a, "%g", kModel.alpha);
  std::snprintf(b, sizeof b, "%g", kModel.beta);
  return {std::string("OPTCOLL_ALPHA=") + a, std::string("OPTCOLL_BETA=") + b};
}

// A model point: optcoll's time against the classic's, decisively: at
// least 5% faster, or not faster (equal up to rounding: a tie).
Point model_point(const std::string& spec, long long bytes, double optcoll_s, double classic_s) {
  const double ratio = optcoll_s / classic_s;
  const bool wins = ratio < 0.95;
  EXPECT_TRUE(wins || ratio > 1 - 1e-9) << spec << ": optcoll / classic = " << ratio << " is too close to call";
  char where[160];
  std::snprintf(where, sizeof where, "model: optcoll %.2f us, classic %.2f us", optcoll_s * 1e6, classic_s * 1e6);
  return {spec, bytes, wins, where};
}

std::string counts(const std::vector<long>& v) {
  std::string s;
  for (const long x : v) {
    if (!s.empty()) s += ',';
    s += std::to_string(x);
  }
  return s;
}

std::vector<long> times(std::vector<long> v, long k) {
  for (long& x : v) x *= k;
  return v;
}

long long sum(const std::vector<long>& v) {
  long long s = 0;
  for (const long x : v) s += x;
  return s;
}

// Only the variables each run sets: none of the caller's OPTCOLL_*.
void clear_optcoll_environment() {
  std::vector<std::string> names;
  for (char** e = environ; *e != nullptr; ++e)
    if (std::string_view(*e).rfind("OPTCOLL_", 0) == 0) names.emplace_back(*e, std::strchr(*e, '=') - *e);
  for (const std::string& n : names) unsetenv(n.c_str());
}

class PmpiAuto : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { clear_optcoll_environment(); }
  const long p = kRanks;
};

// ---------------------------------------------------------------------------
// The model: the calls that can win.

TEST_F(PmpiAuto, ModelBcast) {
  std::vector<Point> pts;
  for (const long m : {4096L, 64L})
    pts.push_back(
        model_point("Bcast:" + std::to_string(m), m, circulant(kModel, p, m, m), classic_bcast(kModel, p, m, m)));
  EXPECT_TRUE(pts[0].optcoll);
  EXPECT_FALSE(pts[1].optcoll);
  expect_routes(model_env(), pts);
}

TEST_F(PmpiAuto, ModelReduce) {
  std::vector<Point> pts;
  for (const long n : {1024L, 16L})
    pts.push_back(model_point("Reduce:" + std::to_string(n) + ":int", 4 * n, circulant(kModel, p, 4 * n, n),
                              classic_bcast(kModel, p, 4 * n, n)));
  // A non-commutative operator: optcoll and MPI both reduce along a
  // rank-ordered binomial tree, q rounds of the vector.
  const double ordered = static_cast<double>(ceil_log2(p)) * kModel.round(4096);
  pts.push_back(model_point("Reduce:1024:noncomm", 4096, ordered, ordered));
  EXPECT_TRUE(pts[0].optcoll);
  EXPECT_FALSE(pts[1].optcoll);
  EXPECT_FALSE(pts[2].optcoll);
  expect_routes(model_env(), pts);
}

TEST_F(PmpiAuto, ModelAllreduce) {
  struct {
    long count;
    const char* kind;
    bool commutative, exact;
    long elem;
  } const cases[] = {
      {2, "int", true, true, 4},         // dissemination: q rounds against q + 2 of recursive doubling
      {500, "float", true, false, 4},    // circulant: fewer rounds than the ring, less volume than the others
      {2, "float", true, false, 4},      // inexact: recursive doubling both sides
      {500, "noncomm", false, true, 4},  // any operator: recursive doubling both sides
  };
  std::vector<Point> pts;
  for (const auto& c : cases) {
    const long m = c.count * c.elem;
    pts.push_back(model_point("Allreduce:" + std::to_string(c.count) + ":" + c.kind, m,
                              optcoll_allreduce(kModel, p, c.count, c.elem, c.commutative, c.exact),
                              classic_allreduce(kModel, p, m)));
  }
  EXPECT_TRUE(pts[0].optcoll);
  EXPECT_TRUE(pts[1].optcoll);
  EXPECT_FALSE(pts[2].optcoll);
  EXPECT_FALSE(pts[3].optcoll);
  expect_routes(model_env(), pts);
}

void scan_test(const std::string& call, long p) {
  std::vector<Point> pts;
  for (const long n : {4096L, 16L})
    pts.push_back(model_point(call + ":" + std::to_string(n) + ":int", 4 * n, optcoll_scan(kModel, p, 4 * n, n),
                              classic_scan(kModel, p, 4 * n)));
  EXPECT_TRUE(pts[0].optcoll);
  EXPECT_FALSE(pts[1].optcoll);
  expect_routes(model_env(), pts);
}

TEST_F(PmpiAuto, ModelScan) {
  scan_test("Scan", p);
}

TEST_F(PmpiAuto, ModelExscan) {
  scan_test("Exscan", p);
}

// Allgatherv and Reduce_scatter: groups the classic algorithms handle
// badly (one rank's group, the others empty) and well (one empty group:
// Bruck's rounds carry no more than the volume), and equal groups (a tie).
const std::vector<std::vector<long>> kGroups = {
    {1024, 0, 0, 0, 0}, {1024, 1024, 1024, 1024, 0}, {256, 256, 256, 256, 256}};

TEST_F(PmpiAuto, ModelAllgatherv) {
  std::vector<Point> pts;
  for (const std::vector<long>& g : kGroups) {
    const std::vector<long> bytes = times(g, 4);
    pts.push_back(model_point("Allgatherv:" + counts(bytes), sum(bytes), circulant_all_broadcast(kModel, bytes, 1),
                              classic_all_broadcast(kModel, bytes)));
  }
  EXPECT_TRUE(pts[0].optcoll);
  EXPECT_FALSE(pts[1].optcoll);
  EXPECT_FALSE(pts[2].optcoll);
  expect_routes(model_env(), pts);
}

TEST_F(PmpiAuto, ModelReduceScatter) {
  std::vector<Point> pts;
  for (const std::vector<long>& g : kGroups) {
    const std::vector<long> bytes = times(g, 4);  // MPI_INT
    const long q = ceil_log2(p);
    const long m = sum(bytes);
    // optcoll: the circulant reduce-scatter, or any operator's reduction to
    // rank 0 followed by a binomial scatter (q rounds of m, then q rounds in
    // which rank 0 sends everything but its own group).
    const double ordered = static_cast<double>(q) * kModel.round(m) + static_cast<double>(q) * kModel.alpha +
                           kModel.beta * static_cast<double>(m - *std::min_element(bytes.begin(), bytes.end()));
    pts.push_back(model_point("Reduce_scatter:" + counts(g), m,
                              std::min(circulant_all_broadcast(kModel, bytes, 4), ordered),
                              classic_all_broadcast(kModel, bytes)));
  }
  EXPECT_TRUE(pts[0].optcoll);
  EXPECT_FALSE(pts[1].optcoll);
  EXPECT_FALSE(pts[2].optcoll);
  expect_routes(model_env(), pts);
}

// The calls that never win under the model: optcoll's best equals the
// classic's best (computed once for both sides), so each runs native.
TEST_F(PmpiAuto, ModelNeverWins) {
  const long q = ceil_log2(p);
  std::vector<Point> pts;
  for (const long g : {64L, 4096L}) {
    // Allgather / Reduce_scatter_block of equal groups: the circulant
    // all-broadcast with n = 1 is q rounds moving (p-1) g, like Bruck.
    const std::vector<long> equal(static_cast<std::size_t>(p), g);
    const double all = classic_all_broadcast(kModel, equal);
    EXPECT_DOUBLE_EQ(circulant_all_broadcast(kModel, equal, 1), all) << "the tie this test relies on";
    pts.push_back(model_point("Allgather:" + std::to_string(g), g * p, all, all));
    pts.push_back(model_point("Reduce_scatter_block:" + std::to_string(g / 4), g * p, all, all));
    // Gather / Scatter: every tree (optcoll's and the binomial one) q rounds,
    // the root moving all but its own group.
    const double tree = static_cast<double>(q) * kModel.alpha + kModel.beta * static_cast<double>((p - 1) * g);
    pts.push_back(model_point("Gather:" + std::to_string(g), g * p, tree, tree));
    pts.push_back(model_point("Scatter:" + std::to_string(g), g * p, tree, tree));
    const std::vector<long> v = {2 * g, g, 0, g, g};
    const double vtree = static_cast<double>(q) * kModel.alpha + kModel.beta * static_cast<double>(sum(v));
    pts.push_back(model_point("Gatherv:" + counts(v), sum(v), vtree, vtree));
    pts.push_back(model_point("Scatterv:" + counts(v), sum(v), vtree, vtree));
    // Alltoall(v): the shift schedule and Bruck's algorithm on both sides.
    const double shift = static_cast<double>(p - 1) * kModel.round(g);
    pts.push_back(model_point("Alltoall:" + std::to_string(g), g * p, shift, shift));
    pts.push_back(model_point("Alltoallv:" + std::to_string(g), g * p * p, shift, shift));
  }
  expect_routes(model_env(), pts);
}

// ---------------------------------------------------------------------------
// The tuning file: for each call, one measured point where optcoll was
// faster and one where it was slower (which size is which alternates over
// the calls); calls at exactly those points.

struct TuningCase {
  const char* call;
  const char* collective;  // the tuning file's name (OPTCOLL_<OP>)
  // The spec of a call of about `unit` bytes per rank, and its payload as
  // the drop-in reports it.
  std::string (*spec)(long unit);
  long long (*bytes)(long unit);
};

std::string num(long x) {
  return std::to_string(x);
}
const std::vector<long> kShape = {2, 1, 0, 1, 1};  // the v-calls' groups, in units

const TuningCase kTuning[] = {
    {"Bcast", "bcast", [](long u) { return "Bcast:" + num(u); }, [](long u) { return 1LL * u; }},
    {"Reduce", "reduce", [](long u) { return "Reduce:" + num(u / 4) + ":int"; }, [](long u) { return 1LL * u; }},
    {"Allgather", "allgather", [](long u) { return "Allgather:" + num(u); }, [](long u) { return 1LL * u * kRanks; }},
    {"Allgatherv", "allgather", [](long u) { return "Allgatherv:" + counts(times(kShape, u)); },
     [](long u) { return sum(times(kShape, u)); }},
    {"Reduce_scatter_block", "reduce_scatter", [](long u) { return "Reduce_scatter_block:" + num(u / 4); },
     [](long u) { return 1LL * u * kRanks; }},
    {"Reduce_scatter", "reduce_scatter", [](long u) { return "Reduce_scatter:" + counts(times(kShape, u / 4)); },
     [](long u) { return sum(times(kShape, u)); }},
    {"Allreduce", "allreduce", [](long u) { return "Allreduce:" + num(u / 4) + ":int"; },
     [](long u) { return 1LL * u; }},
    {"Gather", "gather", [](long u) { return "Gather:" + num(u); }, [](long u) { return 1LL * u * kRanks; }},
    {"Gatherv", "gather", [](long u) { return "Gatherv:" + counts(times(kShape, u)); },
     [](long u) { return sum(times(kShape, u)); }},
    {"Scatter", "scatter", [](long u) { return "Scatter:" + num(u); }, [](long u) { return 1LL * u * kRanks; }},
    {"Scatterv", "scatter", [](long u) { return "Scatterv:" + counts(times(kShape, u)); },
     [](long u) { return sum(times(kShape, u)); }},
    // Alltoall: p blocks of u bytes; Alltoallv: every message u bytes, all p^2 of them.
    {"Alltoall", "alltoall", [](long u) { return "Alltoall:" + num(u); }, [](long u) { return 1LL * u * kRanks; }},
    {"Alltoallv", "alltoallv", [](long u) { return "Alltoallv:" + num(u); },
     [](long u) { return 1LL * u * kRanks * kRanks; }},
    {"Scan", "scan", [](long u) { return "Scan:" + num(u / 4) + ":int"; }, [](long u) { return 1LL * u; }},
    {"Exscan", "exscan", [](long u) { return "Exscan:" + num(u / 4) + ":int"; }, [](long u) { return 1LL * u; }},
};

class PmpiAutoTuning : public ::testing::TestWithParam<std::size_t> {
 protected:
  static void SetUpTestSuite() { clear_optcoll_environment(); }
};

TEST_P(PmpiAutoTuning, BothDirections) {
  const std::size_t i = GetParam();
  const TuningCase& c = kTuning[i];
  const long small = 64, large = 4096;
  // Even entries: optcoll measured faster at the small size; odd ones: at the large one.
  const bool small_wins = i % 2 == 0;
  const std::string file = ::testing::TempDir() + "optcoll_tuning_" + c.call + ".txt";
  {
    std::ofstream out(file);
    out << "# " << c.call << ": collective p bytes native_us optcoll_us\n";
    out << c.collective << ' ' << kRanks << ' ' << c.bytes(small) << (small_wins ? " 10 5\n" : " 5 10\n");
    out << c.collective << ' ' << kRanks << ' ' << c.bytes(large) << (small_wins ? " 5 10\n" : " 10 5\n");
  }
  const std::vector<Point> pts = {
      {c.spec(small), c.bytes(small), small_wins, small_wins ? "measured faster" : "measured slower"},
      {c.spec(large), c.bytes(large), !small_wins, small_wins ? "measured slower" : "measured faster"},
  };
  expect_routes({"OPTCOLL_TUNING_FILE=" + file}, pts);
  std::remove(file.c_str());
}

// Every call the drop-in intercepts (its table, src/mpi/api/collectives.def) has its
// tuning case above.
TEST(PmpiAutoCoverage, EveryInterceptedCallHasATuningCase) {
  std::ifstream in(OPTCOLL_OPS_DEF);
  ASSERT_TRUE(in) << OPTCOLL_OPS_DEF;
  const std::regex entry(R"(^OPTCOLL_COLLECTIVE\((\w+),.*)");
  std::vector<std::string> intercepted, tested;
  for (std::string line; std::getline(in, line);)
    if (std::smatch m; std::regex_match(line, m, entry)) intercepted.push_back(m[1]);
  for (const TuningCase& c : kTuning) tested.emplace_back(c.call);
  EXPECT_EQ(intercepted.size(), 15U);
  EXPECT_EQ(tested, intercepted);
}

INSTANTIATE_TEST_SUITE_P(Calls, PmpiAutoTuning, ::testing::Range<std::size_t>(0, std::size(kTuning)),
                         [](const ::testing::TestParamInfo<std::size_t>& param) {
                           return std::string(kTuning[param.param].call);
                         });

}  // namespace
