// optcoll against the native MPI_Bcast / MPI_Reduce, in the same run.
//
//   mpirun -n 8 build-mpi/mpi_bcast_reduce                 # native vs optcoll
//   mpirun -n 8 build-mpi/mpi_bcast_reduce --rules         # block-count rules
//   mpirun -n 8 build-mpi/mpi_bcast_reduce --logp          # LogP tree (issue 7)
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
#include <fmt/core.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "mpi/select.hpp"
#include "mpi_timing.hpp"
#include "optcoll/model/block_count.hpp"
#include "optcoll/optcoll.hpp"

namespace {

using namespace optcoll::bench;

void native_mode(std::int64_t lo, std::int64_t hi, int base_reps, const std::string& which) {
  const int root = 0;
  for (const std::string op : {"bcast", "reduce"}) {
    if (which != "both" && which != op) continue;
    if (g_rank == 0) {
      fmt::print("\n{} p={}\n", op, g_size);
      fmt::print(
          "| size | native us | optcoll us | optcoll/native | algorithm | n |\n|---:|---:|---:|---:|---|---:|\n");
    }
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
      if (g_rank == 0)
        fmt::print("| {} | {:.1f} | {:.1f} | {:.2f} | {} | {} |\n", human(count * 4), mn, mo, mo / mn, d.algorithm,
                   d.blocks);
    }
  }
}

void logp_mode(std::int64_t lo, std::int64_t hi, int reps, const std::string& which) {
  const int root = 0;
  using optcoll::plan::Collective;
  const optcoll::mpi::Decision d0 =
      optcoll::mpi::describe(MPI_COMM_WORLD, Collective::bcast, 1, MPI_INT, MPI_SUM, {"logp_tree", 0});
  if (g_rank == 0)
    fmt::print("\nLogP p={}: L={:.3g} us o={:.3g} us g={:.3g} us G={:.3g} ns/B; plan units (10 ns): L={} o={} g={}{}\n",
               g_size, d0.measured.L * 1e6, d0.measured.o * 1e6, d0.measured.g * 1e6, d0.measured.G * 1e9, d0.logp.L,
               d0.logp.o, d0.logp.g, d0.poll ? " (polling waits)" : "");
  const std::vector<optcoll::Options> variants{{"logp_tree", 0}, {"circulant", 1}, {"binomial", 0}};
  for (const std::string op : {"bcast", "reduce"}) {
    if (which != "both" && which != op) continue;
    const bool bc = op == "bcast";
    if (g_rank == 0)
      fmt::print(
          "\n{} p={}, median us of {} reps\n| size | native | logp_tree | circulant n=1 | binomial | logp/native | "
          "logp/circ1 | auto picks |\n|---:|---:|---:|---:|---:|---:|---:|---|\n",
          op, g_size, reps);
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
        fmt::print("| {} | {:.1f} | {:.1f} | {:.1f} | {:.1f} | {:.2f} | {:.2f} | {} |\n", human(count * 4), m[0], m[1],
                   m[2], m[3], m[1] / m[0], m[1] / m[2], d.algorithm);
    }
  }
}

void rules_mode(std::int64_t lo, std::int64_t hi, int base_reps, const std::vector<double>& Fs) {
  const int root = 0;
  const optcoll::mpi::Decision d0 =
      optcoll::mpi::describe(MPI_COMM_WORLD, optcoll::plan::Collective::bcast, 1 << 20, MPI_INT, MPI_SUM);
  int q = 0;
  while ((1 << q) < g_size) ++q;
  if (g_rank == 0) {
    fmt::print("\nbcast block-count rules, p={} q={}, calibrated alpha={:.3g} s beta={:.3g} s/B{}\n", g_size, q,
               d0.measured.alpha, d0.measured.beta, d0.poll ? " (polling waits)" : "");
    fmt::print("  8 B round {:.3g} s, fill {:.2f}, ranks/core {:.1f}, model beta {:.3g}\n", d0.measured.round_small,
               d0.measured.fill, d0.measured.ranks_per_core, d0.model.ab.beta);
    std::string head = "| size | model n | model us |";
    std::string sep = "|---:|---:|---:|";
    for (double F : Fs) {
      head += fmt::format(" F={} n | F={} us |", F, F);
      sep += "---:|---:|";
    }
    fmt::print("{} best n | best us | native us |\n{}---:|---:|---:|\n", head, sep);
  }
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
      std::string row = fmt::format("| {} | {} | {:.1f} |", human(m), d.blocks, time_of(d.blocks) * 1e6);
      for (std::size_t i = 0; i < Fs.size(); ++i)
        row += fmt::format(" {} | {:.1f} |", paper[i], time_of(paper[i]) * 1e6);
      fmt::print("{} {} | {:.1f} | {:.1f} |\n", row, cand[best], times[best] * 1e6, median(tn) * 1e6);
    }
  }
}

// Sweep mode: optcoll broadcast of `bytes` with each n of a list, the n
// interleaved within every repetition (so that machine noise hits all alike),
// plus native; medians.
void sweep_mode(std::int64_t bytes, int reps, const std::string& op) {
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
  fmt::print("\n{} sweep p={} m={} (model n={}, alpha={:.3g} beta={:.3g}), median us over {} reps\n", op, g_size,
             human(count * 4), d.blocks, d.model.ab.alpha, d.model.ab.beta, reps);
  for (std::size_t j = 0; j < ns.size(); ++j) fmt::print("  n={:<4} {:10.1f}\n", ns[j], median(t[j]) * 1e6);
  fmt::print("  native {:10.1f}\n", median(t[ns.size()]) * 1e6);
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
  if (!Args()
           .flag("--rules", rules)
           .flag("--logp", logp)
           .value("--min", lo)
           .value("--max", hi)
           .value("--reps", reps)
           .value("--op", which)
           .values("--F", Fs)
           .value("--sweep", sweep)
           .parse(argc, argv,
                  "mpi_bcast_reduce [--rules [--F f]...] [--logp] [--sweep BYTES] [--op bcast|reduce|both] "
                  "[--min B] [--max B] [--reps R]")) {
    MPI_Finalize();
    return 2;
  }
  if (sweep > 0)
    sweep_mode(sweep, reps, which);
  else if (logp)
    logp_mode(lo, std::min<std::int64_t>(hi, 4096), reps, which);
  else if (rules)
    rules_mode(lo, hi, reps, Fs);
  else
    native_mode(lo, hi, reps, which);
  MPI_Finalize();
  return 0;
}
