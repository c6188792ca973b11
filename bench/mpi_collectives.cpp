// optcoll against native MPI for Allgatherv (regular, irregular,
// degenerate), Reduce_scatter_block, Allreduce, Scan and Exscan, in the
// same run.
//
//   mpirun -n 8 build/mpi_collectives [--op NAME] [--min B] [--max B] [--reps R] [--out FILE]
//
// NAME: allgatherv_regular, allgatherv_irregular, allgatherv_degenerate,
// reduce_scatter_block, allreduce, scan, exscan (the model's choice),
// scan_doubling, scan_pipeline (forced), allmerge (the three merge
// all-reduction algorithms) (default: all). Sizes are the total
// bytes of the result vector (MPI_INT elements), 8 B .. 16 MiB in powers
// of 4. Distributions as in the simulator (optcoll simulate --dist):
// irregular gives rank i (i mod 3) units, degenerate puts everything at
// rank p/2. Method as in mpi_bcast_reduce: native and optcoll alternate,
// one sample is a batch after a barrier (maximum over ranks), medians.
//
// Output: CSV (bench/csv.hpp) on stdout or to --out FILE, the machine and
// the command in the leading '#' lines, then one row per operation and
// size:
//   op,p,bytes,native_us,optcoll_us,optcoll_over_native,algorithm,blocks,
//   model_alpha_s,model_beta_s_per_byte,allgatherv_us,circulant_us,
//   bruck_us,circulant_over_allgatherv,bruck_over_allgatherv
// algorithm, blocks and the alpha-beta model are optcoll's choice
// (optcoll::mpi::describe). The allmerge rows leave those and optcoll_us
// empty: their native_us is MPI_Allgatherv + std::sort, and the three merge
// algorithms have a column each (ratios to the allgatherv one); the other
// rows leave the allmerge columns empty.
#include <fmt/core.h>
#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "mpi/comm/choose.hpp"
#include "mpi_timing.hpp"
#include "optcoll/optcoll.h"
#include "optcoll/optcoll.hpp"

namespace {

using namespace optcoll::bench;

// Per-rank counts of `total` elements for a distribution.
std::vector<int> counts_for(const std::string& dist, std::int64_t total) {
  std::vector<int> c(static_cast<std::size_t>(g_size), 0);
  if (dist == "degenerate") {
    c[static_cast<std::size_t>(g_size / 2)] = static_cast<int>(total);
    return c;
  }
  std::int64_t units = 0;
  for (int i = 0; i < g_size; ++i) units += dist == "irregular" ? i % 3 : 1;
  const std::int64_t unit = std::max<std::int64_t>(total / std::max<std::int64_t>(units, 1), 1);
  for (int i = 0; i < g_size; ++i)
    c[static_cast<std::size_t>(i)] = static_cast<int>((dist == "irregular" ? i % 3 : 1) * unit);
  return c;
}

void run_op(Csv& csv, const std::string& op, std::int64_t lo, std::int64_t hi, int base_reps) {
  for (std::int64_t bytes : sizes(lo, hi)) {
    const std::int64_t total = std::max<std::int64_t>(bytes / 4, 1);
    std::vector<int> recv(static_cast<std::size_t>(total) + static_cast<std::size_t>(g_size), 0);
    std::vector<int> send;
    std::function<void()> native;
    std::function<void()> ours;
    optcoll::plan::Collective coll = optcoll::plan::Collective::allgather;
    std::int64_t describe_count = total;
    std::int64_t describe_smallest = -1;
    optcoll::Options describe_options;
    std::vector<int> counts;
    std::vector<int> displs;
    if (op.rfind("allgatherv_", 0) == 0) {
      counts = counts_for(op.substr(11), total);
      displs.assign(counts.size(), 0);
      for (std::size_t i = 1; i < counts.size(); ++i) displs[i] = displs[i - 1] + counts[i - 1];
      send.assign(static_cast<std::size_t>(counts[static_cast<std::size_t>(g_rank)]) + 1, g_rank);
      const int mine = counts[static_cast<std::size_t>(g_rank)];
      native = [&, mine] {
        MPI_Allgatherv(send.data(), mine, MPI_INT, recv.data(), counts.data(), displs.data(), MPI_INT, MPI_COMM_WORLD);
      };
      ours = [&, mine] {
        OPTCOLL_Allgatherv(send.data(), mine, MPI_INT, recv.data(), counts.data(), displs.data(), MPI_INT,
                           MPI_COMM_WORLD);
      };
      describe_count = *std::max_element(counts.begin(), counts.end());
      describe_smallest = *std::min_element(counts.begin(), counts.end());
    } else if (op == "reduce_scatter_block") {
      const int block = static_cast<int>(std::max<std::int64_t>(total / g_size, 1));
      send.assign(static_cast<std::size_t>(block) * static_cast<std::size_t>(g_size), g_rank);
      native = [&, block] {
        MPI_Reduce_scatter_block(send.data(), recv.data(), block, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      };
      ours = [&, block] {
        OPTCOLL_Reduce_scatter_block(send.data(), recv.data(), block, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      };
      coll = optcoll::plan::Collective::reduce_scatter;
      describe_count = block;
    } else if (op.rfind("scan", 0) == 0 || op == "exscan") {
      // MPI_SUM over MPI_INT; the forced variants name their algorithm.
      send.assign(static_cast<std::size_t>(total), g_rank);
      const bool ex = op == "exscan";
      const optcoll::Options o{op.rfind("scan_", 0) == 0 ? op.substr(5) : std::string(), 0};
      native = [&, ex] {
        if (ex)
          MPI_Exscan(send.data(), recv.data(), static_cast<int>(total), MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        else
          MPI_Scan(send.data(), recv.data(), static_cast<int>(total), MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      };
      ours = [&, ex, o] {
        if (ex)
          OPTCOLL_Exscan(send.data(), recv.data(), static_cast<int>(total), MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        else
          optcoll::scan(send.data(), recv.data(), total, MPI_INT, MPI_SUM, MPI_COMM_WORLD, o);
      };
      coll = ex ? optcoll::plan::Collective::exscan : optcoll::plan::Collective::scan;
      describe_options = o;
    } else {
      send.assign(static_cast<std::size_t>(total), g_rank);
      native = [&] {
        MPI_Allreduce(send.data(), recv.data(), static_cast<int>(total), MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      };
      ours = [&] {
        OPTCOLL_Allreduce(send.data(), recv.data(), static_cast<int>(total), MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      };
      coll = optcoll::plan::Collective::allreduce;
    }
    g_batch = batch_for(bytes);
    native();  // warm-up (and optcoll's cache / calibration)
    ours();
    const int reps = reps_for(bytes, base_reps);
    std::vector<double> tn;
    std::vector<double> to;
    for (int i = 0; i < reps; ++i) {
      tn.push_back(timed(native));
      to.push_back(timed(ours));
    }
    const optcoll::mpi::Decision d = optcoll::mpi::describe(MPI_COMM_WORLD, coll, describe_count, MPI_INT, MPI_SUM,
                                                            describe_options, describe_smallest);
    const double mn = median(tn) * 1e6;
    const double mo = median(to) * 1e6;
    const std::nullopt_t none = std::nullopt;
    if (g_rank == 0)
      csv.row(op, g_size, total * 4, mn, mo, mo / mn, d.algorithm, d.blocks, d.model.ab.alpha, d.model.ab.beta, none,
              none, none, none, none);
  }
}

// Merge all-reduction (Lang 2025): every rank holds total/p sorted random
// ints; the three algorithms alternate with native MPI_Allgatherv followed
// by std::sort of everything (what an application without allmerge does).
void run_allmerge(Csv& csv, std::int64_t lo, std::int64_t hi, int base_reps) {
  for (std::int64_t bytes : sizes(lo, hi)) {
    const int mine = static_cast<int>(std::max<std::int64_t>(bytes / 4 / g_size, 1));
    std::vector<int> keys(static_cast<std::size_t>(mine));
    std::uint64_t x = std::uint64_t{0x9e3779b97f4a7c15} * static_cast<std::uint64_t>(g_rank + 1);
    for (int& k : keys) {
      x ^= x << 13U;
      x ^= x >> 7U;
      x ^= x << 17U;
      k = static_cast<int>(x % std::uint64_t{1000000007});
    }
    std::sort(keys.begin(), keys.end());
    std::vector<int> counts(static_cast<std::size_t>(g_size), mine), displs(static_cast<std::size_t>(g_size));
    for (int i = 0; i < g_size; ++i) displs[static_cast<std::size_t>(i)] = i * mine;
    std::vector<int> all(static_cast<std::size_t>(mine) * static_cast<std::size_t>(g_size));
    const std::function<void()> native = [&] {
      MPI_Allgatherv(keys.data(), mine, MPI_INT, all.data(), counts.data(), displs.data(), MPI_INT, MPI_COMM_WORLD);
      std::sort(all.begin(), all.end());
    };
    const auto ours = [&](const char* alg) {
      return std::function<void()>([&, alg] {
        const std::vector<int> r = optcoll::allmerge(std::span<const int>(keys), MPI_COMM_WORLD, std::less<int>(), alg);
        if (r.size() != all.size()) MPI_Abort(MPI_COMM_WORLD, 3);
      });
    };
    const std::vector<std::function<void()>> fs{native, ours("allgatherv"), ours("circulant"), ours("bruck")};
    g_batch = batch_for(bytes);
    for (const auto& f : fs) f();  // warm-up
    std::vector<std::vector<double>> t(fs.size());
    for (int r = 0; r < reps_for(bytes, base_reps); ++r)
      for (std::size_t j = 0; j < fs.size(); ++j) t[j].push_back(timed(fs[j]));
    if (g_rank != 0) continue;
    std::vector<double> med;
    for (const auto& v : t) med.push_back(median(v) * 1e6);
    const std::nullopt_t none = std::nullopt;
    csv.row("allmerge", g_size, bytes, med[0], none, none, none, none, none, none, med[1], med[2], med[3],
            med[2] / med[1], med[3] / med[1]);
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  std::int64_t lo = 8;
  std::int64_t hi = std::int64_t{16} << 20;
  int reps = 31;
  std::string which = "all";
  std::string out;
  if (!Args()
           .value("--min", lo)
           .value("--max", hi)
           .value("--reps", reps)
           .value("--op", which)
           .value("--out", out)
           .parse(argc, argv, "mpi_collectives [--op NAME] [--min B] [--max B] [--reps R] [--out FILE]")) {
    MPI_Finalize();
    return 2;
  }
  Csv csv(out, g_rank == 0);
  if (!csv.ok()) MPI_Abort(MPI_COMM_WORLD, 2);
  csv.begin(fmt::format("optcoll against native MPI (MPI_INT, MPI_SUM; bytes: the whole result vector; medians of "
                        "batches after a barrier, maximum over ranks; {} repetitions, fewer above 64 KiB)",
                        reps),
            command_line(argc, argv), mpi_meta());
  csv.header({"op", "p", "bytes", "native_us", "optcoll_us", "optcoll_over_native", "algorithm", "blocks",
              "model_alpha_s", "model_beta_s_per_byte", "allgatherv_us", "circulant_us", "bruck_us",
              "circulant_over_allgatherv", "bruck_over_allgatherv"});
  for (const std::string op : {"allgatherv_regular", "allgatherv_irregular", "allgatherv_degenerate",
                               "reduce_scatter_block", "allreduce", "scan", "exscan", "scan_doubling", "scan_pipeline"})
    if (which == "all" || which == op) run_op(csv, op, lo, hi, reps);
  if (which == "all" || which == "allmerge") run_allmerge(csv, lo, hi, reps);
  MPI_Finalize();
  return 0;
}
