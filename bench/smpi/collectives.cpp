// optcoll's collectives against SMPI's own (Open MPI's and MPICH's
// selection logic and the classic algorithms), in one simulation, with
// every optcoll result checked against the native one.
//
//   smpirun -platform P.xml -hostfile H -np N build-smpi/bench/smpi/collectives
//       [--ops OP[:DIST],...] [--sizes B,...] [--reps R] [--classics 0|1]
//       [--variants OP:ALG,...] [--natives IMPL,...] [--optcoll 0] [--print-natives 1]
//       [--check-memory B] [--csv FILE] [--platform NAME] [--inject-fault 1]
//
// (scripts/bench-smpi.sh runs it; docs/smpi.md has the method.) Per
// operation and size (cases.hpp): if every rank's buffers fit in
// --check-memory bytes over all ranks (default 128 MiB), the inputs get a
// pattern and a plain SMPI algorithm (native.hpp; for Scan and Exscan a
// local sum of the patterns) computes the expected result; then every implementation runs once on fresh inputs and each
// rank compares its result with the expected one byte for byte (check "ok"
// or "FAIL"; --inject-fault flips one byte of optcoll's result at the last
// rank, or at the root for Reduce and Gather(v), which must fail). Larger payloads live in SMPI's shared
// memory, unchecked ("-"). Each implementation then runs once more
// (warm-up) and --reps times (default 5) from a common start (every rank
// starts at the same simulated instant; timed_from_common_start); the
// row's time is the median over repetitions of the maximum over ranks (wall_s: the host seconds its simulation took).
// CSV rows (rank 0 appends them to --csv, or writes them to stdout, with
// bench/csv.hpp's writer; no header and no metadata: scripts/bench-smpi.sh
// merges the rows of many simulations under its own):
//   platform,op,dist,p,bytes,total_bytes,impl,alg,blocks,us,us_min,us_max,reps,check,wall_s
// impl: optcoll (its own choice, alg/blocks from optcoll::mpi::describe),
// optcoll:<alg> (--variants), ompi, mpich, smpi:<algorithm> (--classics),
// native (operations SMPI implements once); --natives replaces the list
// (ompi, mpich, smpi:<algorithm>; "none": optcoll only), --optcoll 0 leaves
// optcoll out, --print-natives 1 only prints the list per size. Each row is
// written as soon as it is measured (SimGrid aborts the whole simulation
// on some of its own algorithms' bugs). Exit status 1 if an optcoll
// result was wrong (a wrong native one is only reported). At start-up rank
// 0 prints the node layout SMPI reports (MPI_Comm_split_type with
// MPI_COMM_TYPE_SHARED: one node per simulated host): "collectives: nodes
// N ppn MIN..MAX" (scripts/bench-smpi-nodes.sh checks and records it).
#include <fmt/core.h>
#include <fmt/ranges.h>
#include <mpi.h>

#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cases.hpp"
#include "csv.hpp"
#include "mpi/comm/choose.hpp"
#include "mpi_timing.hpp"
#include "native.hpp"

namespace {

using namespace optcoll::bench;
using namespace optcoll::bench::smpi;

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

struct Config {
  std::vector<std::pair<std::string, std::string>> ops;
  std::vector<std::int64_t> sizes;
  std::vector<std::pair<std::string, std::string>> variants;  // (op, optcoll algorithm)
  int reps = 5;
  bool classics = true;
  std::int64_t check_memory = std::int64_t{128} << 20;
  std::string csv;
  std::string platform;
  bool inject_fault = false;
  std::vector<std::string> natives;  // --natives: instead of ompi, mpich and the classics
  bool optcoll = true;               // --optcoll 0: the natives only
  bool print_natives = false;        // --print-natives 1: list them per size, run nothing
};

struct Row {
  std::string impl;
  std::string alg;
  std::int64_t blocks = 0;
  std::vector<double> t;  // per repetition, maximum over ranks
  std::string check = "-";
  double wall = 0;  // seconds of host time to simulate the check and the timed calls
};

// Simulated time between the agreement on a start and the start itself:
// far more than a reduction of one value takes (about 70 us at p = 1024).
constexpr double kStartMargin = 1e-3;

// One call from a common start: SMPI's clock is global, so every rank
// sleeps (in simulated time) until the same instant, a margin after the
// latest rank left a barrier, and this rank's time is its completion minus
// that instant; the maximum over ranks is the time from the common start
// to the last completion. (Timed from each rank's own barrier exit, the
// barrier's exit skew, tens of microseconds at p = 1024, was charged or
// hidden: a Scatter of 4 B per rank took "18 us" on 1024 ranks.)
double timed_from_common_start(const std::function<void()>& f) {
  MPI_Barrier(MPI_COMM_WORLD);
  double latest = MPI_Wtime();
  MPI_Allreduce(MPI_IN_PLACE, &latest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  const double start = latest + kStartMargin;
  const double wait = start - MPI_Wtime();
  if (wait <= 0)
    throw std::runtime_error("the common start passed before rank " + std::to_string(g_rank) + " got there");
  const auto ns = static_cast<long>(wait * 1e9);
  timespec t{ns / 1000000000L, ns % 1000000000L};
  nanosleep(&t, nullptr);  // SMPI's: simulated time
  f();
  return MPI_Wtime() - start;
}

// Median over repetitions of the maximum over ranks, after one warm-up.
std::vector<double> time_reps(const std::function<void()>& f, int reps) {
  f();
  std::vector<double> local;
  for (int i = 0; i < reps; ++i) local.push_back(timed_from_common_start(f));
  return local;
}

// Every rank's result against `expected` (the oracle's, this rank's part);
// "ok" or "FAIL", the same at all ranks.
std::string compare(const Case& k, const std::vector<int>& expected, const std::string& impl) {
  long long bad = std::memcmp(expected.data(), k.result().data(), expected.size() * sizeof(int)) != 0 ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (bad != 0 && g_rank == 0)
    fmt::print(stderr, "collectives: MISMATCH {} {} p={} bytes={}: {} differs from the oracle at {} rank(s)\n", k.op,
               k.dist, g_size, k.bytes, impl, bad);
  return bad == 0 ? "ok" : "FAIL";
}

// The implementations run for a case: optcoll (unless --optcoll 0), the
// variants, and the natives (--natives, or ompi, mpich and the classics).
std::vector<std::string> natives_of(const Config& cfg, const Native& nat, std::int64_t count) {
  std::vector<std::string> natives = cfg.natives;
  if (!natives.empty()) {
    if (nat.family.empty() && natives != std::vector<std::string>{"none"}) natives = {"native"};
  } else if (nat.family.empty()) {
    natives.push_back("native");
  } else {
    natives = {"ompi", "mpich"};
    if (cfg.classics)
      for (const std::string& a : nat.classics)
        if (native_supports(a, count, g_size)) natives.push_back("smpi:" + a);
  }
  std::erase(natives, "none");
  std::erase_if(natives, [&](const std::string& n) {  // named ones too: SimGrid aborts on the others
    return n.rfind("smpi:", 0) == 0 && !native_supports(n.substr(5), count, g_size);
  });
  return natives;
}

bool run_case(const Config& cfg, const std::string& op, const std::string& dist, std::int64_t bytes, Csv& csv) {
  const auto wall0 = std::chrono::steady_clock::now();
  const bool checked = case_bytes_per_rank(op, dist, bytes, g_size) * g_size <= cfg.check_memory;
  const std::unique_ptr<Case> k = make_case(op, dist, bytes, !checked);
  const Native nat = native_for(op);
  const std::vector<std::string> natives = natives_of(cfg, nat, k->describe_count);
  if (cfg.print_natives) {
    if (g_rank == 0) fmt::print("{} {} {}\n", op, bytes, fmt::join(natives, ","));
    return true;
  }
  std::int64_t total = std::max(k->send.size(), k->recv.size()) * static_cast<std::int64_t>(sizeof(int));
  MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  // The oracle: the local expectation where the case has one, else a plain
  // algorithm of SMPI's (native.hpp); its selectors'
  // choices are checked like optcoll, and some are wrong.
  std::vector<int> expected;
  if (checked && k->expected) {
    k->prepare();
    expected = k->expected();
  } else if (checked) {
    select_native(nat.family, nat.oracle);
    k->prepare();
    MPI_Barrier(MPI_COMM_WORLD);
    k->native();
    expected.assign(k->result().begin(), k->result().end());
    restore_native(nat.family);
  }
  bool ok = true;
  Row first;  // optcoll's, for the progress line
  // One implementation: checked once on fresh inputs, timed, and its row
  // written at once (a later native that SimGrid aborts on loses nothing).
  const auto measure = [&](const std::string& impl, const std::function<void()>& call, bool fault,
                           const std::function<void(Row&)>& annotate) {
    const auto start = std::chrono::steady_clock::now();
    Row r;
    r.impl = impl;
    if (checked) {
      k->prepare();
      MPI_Barrier(MPI_COMM_WORLD);
      call();
      // The fault goes to the last rank, or to the root where only it has a result.
      const int victim = k->op == "reduce" || k->op.rfind("gather", 0) == 0 ? 0 : g_size - 1;
      if (fault && g_rank == victim && k->result_count > 0)
        reinterpret_cast<unsigned char*>(k->result().data())[0] ^= 0x10U;
      r.check = compare(*k, expected, impl);
    }
    r.t = time_reps(call, cfg.reps);
    r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    annotate(r);  // collective (describe), and restores SMPI's selection
    MPI_Allreduce(MPI_IN_PLACE, r.t.data(), static_cast<int>(r.t.size()), MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    ok = ok && (r.check != "FAIL" || r.impl.rfind("optcoll", 0) != 0);
    if (first.impl.empty()) first = r;
    if (g_rank != 0) return;
    // Fixed decimals: simulated times are exact, and the merged file's rows
    // from earlier simulations have the same form.
    csv.row(cfg.platform, op, dist, g_size, bytes, total, r.impl, r.alg, r.blocks, fixed(median(r.t) * 1e6, 3),
            fixed(*std::min_element(r.t.begin(), r.t.end()) * 1e6, 3),
            fixed(*std::max_element(r.t.begin(), r.t.end()) * 1e6, 3), r.t.size(), r.check, fixed(r.wall, 2));
  };
  if (cfg.optcoll) {
    measure(
        "optcoll", [&] { k->ours({}); }, cfg.inject_fault,
        [&](Row& r) {
          if (!k->describable) return;
          const optcoll::mpi::Decision d =
              optcoll::mpi::describe(MPI_COMM_WORLD, k->coll, k->describe_count, MPI_INT, MPI_SUM, {},
                                     k->describe_smallest, k->describe_total, k->describe_doubling);
          r.alg = d.algorithm;
          r.blocks = d.blocks;
          static bool reported = false;  // the model optcoll chose by, once
          if (!reported && d.model.ab.alpha > 0 && g_rank == 0) {
            reported = true;
            fmt::print(stderr,
                       "collectives: p={} optcoll model alpha={:.4g} beta={:.4g} block_cap={} poll={} o={:.4g} "
                       "round_small={:.4g} "
                       "tree_small={:.4g}\n",
                       g_size, d.model.ab.alpha, d.model.ab.beta, d.model.max_block_bytes, d.poll ? 1 : 0, d.model.ab.o,
                       d.measured.round_small, d.measured.tree_small);
          }
          static bool reported_logp = false;  // the LogP parameters, once measured (or given)
          if (!reported_logp && d.logp.L > 0 && g_rank == 0) {
            reported_logp = true;
            fmt::print(stderr, "collectives: p={} optcoll logp L={} o={} g={} (units of 10 ns)\n", g_size, d.logp.L,
                       d.logp.o, d.logp.g);
          }
        });
    for (const auto& [vop, alg] : cfg.variants)
      if (vop == op) {
        const optcoll::Options o{alg, 0};
        measure(
            "optcoll:" + alg, [&] { k->ours(o); }, false, [&](Row& r) { r.alg = alg; });
      }
  }
  for (const std::string& impl : natives) {
    select_native(nat.family, impl.rfind("smpi:", 0) == 0 ? impl.substr(5) : impl);
    measure(impl, k->native, false, [&](Row&) { restore_native(nat.family); });
  }
  if (g_rank == 0 && !first.impl.empty()) {
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    fmt::print(stderr, "collectives: {} {} p={} {}: {} {:.1f} us ({} n={}), check {}, wall {:.1f} s\n", op, dist,
               g_size, human(bytes), first.impl, median(first.t) * 1e6, first.alg, first.blocks, first.check, wall);
  }
  return ok;
}

// The node layout: the number of shared-memory nodes and their sizes.
void print_nodes() {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int local = 0;
  int local_rank = 0;
  MPI_Comm_size(node, &local);
  MPI_Comm_rank(node, &local_rank);
  MPI_Comm_free(&node);
  int v[3] = {local_rank == 0 ? 1 : 0, local, -local};  // nodes, largest, -smallest
  MPI_Allreduce(MPI_IN_PLACE, &v[0], 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &v[1], 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (g_rank == 0) fmt::print(stderr, "collectives: nodes {} ppn {}..{}\n", v[0], -v[2], v[1]);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  Config cfg;
  std::string ops = "all";
  std::string sizes = "8,256,8192,65536,262144,1048576,4194304,16777216";
  std::string variants;
  std::string natives;
  int classics = 1;
  int inject = 0;
  int with_optcoll = 1;
  int print_natives = 0;
  if (!Args()
           .value("--ops", ops)
           .value("--sizes", sizes)
           .value("--reps", cfg.reps)
           .value("--classics", classics)
           .value("--variants", variants)
           .value("--natives", natives)
           .value("--optcoll", with_optcoll)
           .value("--print-natives", print_natives)
           .value("--check-memory", cfg.check_memory)
           .value("--csv", cfg.csv)
           .value("--platform", cfg.platform)
           .value("--inject-fault", inject)
           .parse(argc, argv,
                  "collectives [--ops OP[:DIST],...] [--sizes B,...] [--reps R] [--classics 0|1] "
                  "[--variants OP:ALG,...] [--natives IMPL,...] [--optcoll 0] [--print-natives 1] [--check-memory B] "
                  "[--csv FILE] [--platform NAME] [--inject-fault 1]")) {
    MPI_Finalize();
    return 2;
  }
  cfg.classics = classics != 0;
  cfg.optcoll = with_optcoll != 0;
  cfg.print_natives = print_natives != 0;
  cfg.inject_fault = inject != 0;
  for (const std::string& s : split(sizes)) cfg.sizes.push_back(std::atoll(s.c_str()));
  cfg.natives = split(natives);
  for (const std::string& v : split(variants)) {
    const std::size_t c = v.find(':');
    if (c != std::string::npos) cfg.variants.emplace_back(v.substr(0, c), v.substr(c + 1));
  }
  for (const auto& [op, dist] : all_operations()) {
    bool take = ops == "all";
    for (const std::string& o : split(ops)) take = take || o == op || o == op + ":" + dist;
    if (take) cfg.ops.emplace_back(op, dist);
  }
  if (!cfg.print_natives) print_nodes();
  Csv csv(cfg.csv, g_rank == 0, Csv::Mode::append);
  if (!csv.ok()) MPI_Abort(MPI_COMM_WORLD, 2);
  bool ok = true;
  try {
    for (const auto& [op, dist] : cfg.ops)
      for (std::int64_t bytes : cfg.sizes) ok = run_case(cfg, op, dist, bytes, csv) && ok;
  } catch (const std::exception& e) {
    fmt::print(stderr, "collectives: rank {}: {}\n", g_rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  MPI_Finalize();
  return ok ? 0 : 1;
}
