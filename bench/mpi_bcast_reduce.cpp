// optcoll against the native MPI_Bcast / MPI_Reduce, in the same run.
//
//   mpirun -n 8 build-mpi/mpi_bcast_reduce                 # native vs optcoll
//   mpirun -n 8 build-mpi/mpi_bcast_reduce --rules         # block-count rules
//   mpirun -n 8 build-mpi/mpi_bcast_reduce --logp          # LogP tree (docs/benchmarks/logp.md)
//   mpirun -n 8 build-mpi/mpi_bcast_reduce --sweep BYTES   # every n at one size
//   (each also [--op bcast|reduce|both] [--min B] [--max B] [--reps R] [--out FILE])
//
// Native mode: for each size (MPI_INT elements, 8 B .. 16 MiB in powers of
// 4, then 16 MiB) and each collective, native and optcoll alternate
// (A B A B ...). One sample: a barrier, then a batch of back-to-back calls
// (32 up to 8 KiB, 8 up to 128 KiB, 2 up to 1 MiB, else 1), timed from the
// barrier's exit to the last call's return, divided by the batch, maximum
// over ranks. (Single calls after a barrier are too noisy on an
// oversubscribed node: whether a rank is even running when the data arrives
// decides the time.) Medians over the repetitions. Prints size, the two
// medians, optcoll/native, optcoll's algorithm and n.
//
// LogP mode (8 B .. 4 KiB unless --min/--max): native, optcoll's logp_tree
// and the circulant plan with n = 1 (and the binomial tree) alternate
// within every repetition, timed like native mode; medians and the ratios
// of the same run. Prints the communicator's measured L, o, g, G and what
// the automatic choice picks.
//
// Rules mode: optcoll broadcast with n from the calibrated alpha-beta model,
// from the paper's rule n = m / (F sqrt(m / ceil(log2 p))) for F = 70 and
// the --F values, and the best n of a sweep (powers of 2 up to 256, and n
// near each rule's choice).
//
// Sweep mode (--sweep BYTES): optcoll with each n of a list against native,
// the n interleaved within every repetition.
//
// Output: CSV (bench/csv.hpp) on stdout or to --out FILE; the leading '#'
// lines hold the machine, the MPI, the command and the mode's calibration.
// One row per measurement, the columns per mode (times: medians in us):
//   native: op,p,bytes,native_us,optcoll_us,optcoll_over_native,algorithm,blocks
//   logp:   op,p,bytes,reps,native_us,logp_tree_us,circulant_n1_us,binomial_us,
//           logp_over_native,logp_over_circulant_n1,auto_picks
//   rules:  p,q,bytes,model_n,model_us,F<f>_n,F<f>_us (per --F),best_n,best_us,native_us
//   sweep:  op,p,bytes,impl,n,us,model_n (impl circulant with n, or native)
#include <fmt/core.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "mpi/comm/choose.hpp"
#include "mpi_timing.hpp"
#include "optcoll/model/block_count.hpp"
#include "optcoll/optcoll.hpp"

namespace {

using namespace optcoll::bench;

void native_mode(Csv& csv, std::int64_t lo, std::int64_t hi, int base_reps, const std::string& which) {
  const int root = 0;
  csv.header({"op", "p", "bytes", "native_us", "optcoll_us", "optcoll_over_native", "algorithm", "blocks"});
  for (const std::string op : {"bcast", "reduce"}) {
    if (which != "both" && which != op) continue;
    for (std::int64_t bytes : sizes(lo, hi)) {
      const std::int64_t count = std::max<std::int64_t>(bytes / 4, 1);
      std::vector<int> a(static_cast<std::size_t>(count), g_rank + 1);
      std::vector<int> b(static_cast<std::size_t>(count), 0);
      const bool bc = op == "bcast";
      const auto native = [&] {
        if (bc)
          MPI_Bcast(a.data(), static_cast<int>(count), MPI_INT, root, MPI_COMM_WORLD);
        else
          MPI_Reduce(a.data(), b.data(), static_cast<int>(count), MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
      };
      const auto ours = [&] {
        if (bc)
          optcoll::bcast(a.data(), count, MPI_INT, root, MPI_COMM_WORLD);
        else
          optcoll::reduce(a.data(), b.data(), count, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
      };
      g_batch = batch_for(bytes);
      native();  // warm-up (and optcoll's cache / calibration)
      ours();
      const int reps = reps_for(bytes, base_reps);
      std::vector<double> tn, to;
      for (int i = 0; i < reps; ++i) {
        tn.push_back(timed(native));
        to.push_back(timed(ours));
      }
      const optcoll::mpi::Decision d = optcoll::mpi::describe(
          MPI_COMM_WORLD, bc ? optcoll::plan::Collective::bcast : optcoll::plan::Collective::reduce, count, MPI_INT,
          MPI_SUM);
      const double mn = median(tn) * 1e6;
      const double mo = median(to) * 1e6;
      if (g_rank == 0) csv.row(op, g_size, count * 4, mn, mo, mo / mn, d.algorithm, d.blocks);
    }
  }
}

void logp_mode(Csv& csv, std::int64_t lo, std::int64_t hi, int reps, const std::string& which) {
  const int root = 0;
  using optcoll::plan::Collective;
  const optcoll::mpi::Decision d0 =
      optcoll::mpi::describe(MPI_COMM_WORLD, Collective::bcast, 1, MPI_INT, MPI_SUM, {"logp_tree", 0});
  if (g_rank == 0)
    csv.meta("logp", fmt::format("L={:.3g} us o={:.3g} us g={:.3g} us G={:.3g} ns/B (measured); plan units (10 ns): "
                                 "L={} o={} g={}{}",
                                 d0.measured.L * 1e6, d0.measured.o * 1e6, d0.measured.g * 1e6, d0.measured.G * 1e9,
                                 d0.logp.L, d0.logp.o, d0.logp.g, d0.poll ? " (polling waits)" : ""));
  csv.header({"op", "p", "bytes", "reps", "native_us", "logp_tree_us", "circulant_n1_us", "binomial_us",
              "logp_over_native", "logp_over_circulant_n1", "auto_picks"});
  const std::vector<optcoll::Options> variants{{"logp_tree", 0}, {"circulant", 1}, {"binomial", 0}};
  for (const std::string op : {"bcast", "reduce"}) {
    if (which != "both" && which != op) continue;
    const bool bc = op == "bcast";
    for (std::int64_t bytes : sizes(lo, hi)) {
      const std::int64_t count = std::max<std::int64_t>(bytes / 4, 1);
      std::vector<int> a(static_cast<std::size_t>(count), g_rank + 1);
      std::vector<int> b(static_cast<std::size_t>(count), 0);
      const auto native = [&] {
        if (bc)
          MPI_Bcast(a.data(), static_cast<int>(count), MPI_INT, root, MPI_COMM_WORLD);
        else
          MPI_Reduce(a.data(), b.data(), static_cast<int>(count), MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
      };
      const auto ours = [&](const optcoll::Options& o) {
        if (bc)
          optcoll::bcast(a.data(), count, MPI_INT, root, MPI_COMM_WORLD, o);
        else
          optcoll::reduce(a.data(), b.data(), count, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, o);
      };
      g_batch = batch_for(bytes);
      native();  // warm-up (and optcoll's plans)
      for (const auto& o : variants) ours(o);
      std::vector<std::vector<double>> t(variants.size() + 1);
      for (int i = 0; i < reps; ++i) {
        t[0].push_back(timed(native));
        for (std::size_t j = 0; j < variants.size(); ++j) t[j + 1].push_back(timed([&] { ours(variants[j]); }));
      }
      const optcoll::mpi::Decision d =
          optcoll::mpi::describe(MPI_COMM_WORLD, bc ? Collective::bcast : Collective::reduce, count, MPI_INT, MPI_SUM);
      std::vector<double> m;
      for (const auto& x : t) m.push_back(median(x) * 1e6);
      if (g_rank == 0)
        csv.row(op, g_size, count * 4, reps, m[0], m[1], m[2], m[3], m[1] / m[0], m[1] / m[2], d.algorithm);
    }
  }
}

void rules_mode(Csv& csv, std::int64_t lo, std::int64_t hi, int base_reps, const std::vector<double>& Fs) {
  const int root = 0;
  const optcoll::mpi::Decision d0 =
      optcoll::mpi::describe(MPI_COMM_WORLD, optcoll::plan::Collective::bcast, 1 << 20, MPI_INT, MPI_SUM);
  int q = 0;
  while ((1 << q) < g_size) ++q;
  if (g_rank == 0)
    csv.meta("calibration",
             fmt::format("alpha={:.3g} s beta={:.3g} s/B{}; 8 B round {:.3g} s, fill {:.2f}, "
                         "ranks/core {:.1f}, model beta {:.3g} s/B",
                         d0.measured.alpha, d0.measured.beta, d0.poll ? " (polling waits)" : "",
                         d0.measured.round_small, d0.measured.fill, d0.measured.ranks_per_core, d0.model.ab.beta));
  std::vector<std::string> columns{"p", "q", "bytes", "model_n", "model_us"};
  for (double F : Fs) {
    columns.push_back(fmt::format("F{}_n", F));
    columns.push_back(fmt::format("F{}_us", F));
  }
  for (const char* c : {"best_n", "best_us", "native_us"}) columns.emplace_back(c);
  csv.header(columns);
  for (std::int64_t bytes : sizes(lo, hi)) {
    const std::int64_t count = std::max<std::int64_t>(bytes / 4, 1);
    const std::int64_t m = count * 4;
    std::vector<int> a(static_cast<std::size_t>(count), g_rank);
    const int reps = reps_for(bytes, base_reps);
    g_batch = batch_for(bytes);
    const auto run_n = [&](std::int64_t n) {
      std::vector<double> t;
      optcoll::bcast(a.data(), count, MPI_INT, root, MPI_COMM_WORLD, {"circulant", n});
      for (int i = 0; i < reps; ++i)
        t.push_back(timed([&] { optcoll::bcast(a.data(), count, MPI_INT, root, MPI_COMM_WORLD, {"circulant", n}); }));
      return median(t);
    };
    const optcoll::mpi::Decision d =
        optcoll::mpi::describe(MPI_COMM_WORLD, optcoll::plan::Collective::bcast, count, MPI_INT, MPI_SUM);
    std::vector<std::int64_t> cand{d.blocks};
    std::vector<std::int64_t> paper;
    for (double F : Fs) {
      paper.push_back(optcoll::model::paper_blocks(q, m, count, F));
      cand.push_back(paper.back());
    }
    for (std::int64_t n = 1; n <= std::min<std::int64_t>(256, count); n *= 2) cand.push_back(n);
    std::sort(cand.begin(), cand.end());
    cand.erase(std::unique(cand.begin(), cand.end()), cand.end());
    std::vector<double> times;
    for (std::int64_t n : cand) times.push_back(run_n(n));
    const auto time_of = [&](std::int64_t n) {
      return times[static_cast<std::size_t>(std::find(cand.begin(), cand.end(), n) - cand.begin())];
    };
    const std::size_t best = static_cast<std::size_t>(std::min_element(times.begin(), times.end()) - times.begin());
    std::vector<double> tn;
    for (int i = 0; i < reps; ++i)
      tn.push_back(timed([&] { MPI_Bcast(a.data(), static_cast<int>(count), MPI_INT, root, MPI_COMM_WORLD); }));
    if (g_rank == 0) {
      std::vector<std::string> row{csv_cell(g_size), csv_cell(q), csv_cell(m), csv_cell(d.blocks),
                                   csv_cell(time_of(d.blocks) * 1e6)};
      for (std::size_t i = 0; i < Fs.size(); ++i) {
        row.push_back(csv_cell(paper[i]));
        row.push_back(csv_cell(time_of(paper[i]) * 1e6));
      }
      for (const std::string& c : {csv_cell(cand[best]), csv_cell(times[best] * 1e6), csv_cell(median(tn) * 1e6)})
        row.push_back(c);
      csv.row_cells(row);
    }
  }
}

// Sweep mode: optcoll broadcast of `bytes` with each n of a list, the n
// interleaved within every repetition (so that machine noise hits all alike),
// plus native; medians.
void sweep_mode(Csv& csv, std::int64_t bytes, int reps, const std::string& op) {
  const int root = 0;
  const std::int64_t count = std::max<std::int64_t>(bytes / 4, 1);
  std::vector<std::int64_t> ns;
  for (std::int64_t n : {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 256})
    if (n <= count) ns.push_back(n);
  std::vector<int> a(static_cast<std::size_t>(count), g_rank);
  std::vector<int> b(static_cast<std::size_t>(count), 0);
  const bool bc = op != "reduce";
  g_batch = batch_for(bytes);
  std::vector<std::vector<double>> t(ns.size() + 1);
  for (int i = 0; i < reps; ++i) {
    for (std::size_t j = 0; j < ns.size(); ++j) {
      const optcoll::Options o{"circulant", ns[j]};
      t[j].push_back(timed([&] {
        if (bc)
          optcoll::bcast(a.data(), count, MPI_INT, root, MPI_COMM_WORLD, o);
        else
          optcoll::reduce(a.data(), b.data(), count, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, o);
      }));
    }
    t[ns.size()].push_back(timed([&] {
      if (bc)
        MPI_Bcast(a.data(), static_cast<int>(count), MPI_INT, root, MPI_COMM_WORLD);
      else
        MPI_Reduce(a.data(), b.data(), static_cast<int>(count), MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
    }));
  }
  const optcoll::mpi::Decision d =
      optcoll::mpi::describe(MPI_COMM_WORLD, bc ? optcoll::plan::Collective::bcast : optcoll::plan::Collective::reduce,
                             count, MPI_INT, MPI_SUM);
  if (g_rank != 0) return;
  const std::string name = bc ? "bcast" : "reduce";
  csv.meta("model", fmt::format("{} n={} alpha={:.3g} s beta={:.3g} s/B; medians of {} repetitions", name, d.blocks,
                                d.model.ab.alpha, d.model.ab.beta, reps));
  csv.header({"op", "p", "bytes", "impl", "n", "us", "model_n"});
  for (std::size_t j = 0; j < ns.size(); ++j)
    csv.row(name, g_size, count * 4, "circulant", ns[j], median(t[j]) * 1e6, d.blocks);
  csv.row(name, g_size, count * 4, "native", std::nullopt, median(t[ns.size()]) * 1e6, d.blocks);
}

constexpr const char* kMethod = "medians of batches after a barrier, maximum over ranks";

std::string native_title(int reps) {
  return fmt::format(
      "optcoll Bcast/Reduce against native, MPI_INT, MPI_SUM, root 0; {}; {} repetitions, fewer above 64 KiB", kMethod,
      reps);
}
std::string logp_title() {
  return fmt::format(
      "optcoll Bcast/Reduce LogP tree, circulant n = 1 and binomial against native, MPI_INT, MPI_SUM, root 0; {}; "
      "variants interleaved",
      kMethod);
}
std::string rules_title() {
  return fmt::format(
      "optcoll Bcast block-count rules: the alpha-beta model's n, the paper's rule, the best n of a sweep, and "
      "native; MPI_INT, root 0; {}",
      kMethod);
}
std::string sweep_title(const std::string& op) {
  return fmt::format("optcoll {} with each block count n against native, MPI_INT, {}; n interleaved",
                     op == "reduce" ? "Reduce" : "Bcast", kMethod);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  std::int64_t lo = 8;
  std::int64_t hi = std::int64_t{16} << 20;
  int reps = 41;
  bool rules = false;
  bool logp = false;
  std::int64_t sweep = 0;
  std::string which = "both";
  std::vector<double> Fs{70};
  std::string out;
  if (!Args()
           .flag("--rules", rules)
           .flag("--logp", logp)
           .value("--min", lo)
           .value("--max", hi)
           .value("--reps", reps)
           .value("--op", which)
           .values("--F", Fs)
           .value("--sweep", sweep)
           .value("--out", out)
           .parse(argc, argv,
                  "mpi_bcast_reduce [--rules [--F f]...] [--logp] [--sweep BYTES] [--op bcast|reduce|both] "
                  "[--min B] [--max B] [--reps R] [--out FILE]")) {
    MPI_Finalize();
    return 2;
  }
  Csv csv(out, g_rank == 0);
  if (!csv.ok()) MPI_Abort(MPI_COMM_WORLD, 2);
  const std::string title = sweep > 0 ? sweep_title(which)
                            : logp    ? logp_title()
                            : rules   ? rules_title()
                                      : native_title(reps);
  csv.begin(title, command_line(argc, argv), mpi_meta());
  if (sweep > 0)
    sweep_mode(csv, sweep, reps, which);
  else if (logp)
    logp_mode(csv, lo, std::min<std::int64_t>(hi, 4096), reps, which);
  else if (rules)
    rules_mode(csv, lo, hi, reps, Fs);
  else
    native_mode(csv, lo, hi, reps, which);
  MPI_Finalize();
  return 0;
}
