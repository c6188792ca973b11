// optcoll's Gatherv / Scatterv against the native MPI_Gatherv /
// MPI_Scatterv, in the same run, for Traff 2018 §5.2's Spikes and Skewed
// distributions (rho = 5), root floor(p/2) as in the paper.
//
//   mpirun -n 16 build/mpi_gatherv [--min B] [--max B] [--reps R] [--dist spikes|skewed|both] [--out FILE]
//
// For each total size m (bytes of MPI_INT blocks, --min .. --max in powers
// of 4; block sizes trees::block_sizes(dist, p, m / 4p, 5)), the variants
// alternate within every repetition (native, default, adaptive_binomial,
// binomial, two, persistent): one sample is a barrier, then a batch of
// back-to-back calls (32 up to 8 KiB, 8 up to 128 KiB, 2 up to 1 MiB, else
// 1), timed to the last call's return, divided by the batch, maximum over
// ranks. "persistent" is Gatherv_init / Scatterv_init (the optimal tree,
// built once outside the timing), timed as start + wait.
//
// Output: CSV (bench/csv.hpp) on stdout or to --out FILE, the machine, MPI
// and command in the leading '#' lines, then one row per operation,
// distribution and size: the native median and each variant's median
// relative to it,
//   op,dist,p,root,bytes,native_us,default_over_native,adaptive_over_native,
//   binomial_over_native,two_over_native,persistent_over_native
#include <fmt/core.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "mpi_timing.hpp"
#include "optcoll/optcoll.hpp"
#include "optcoll/trees/block_sizes.hpp"

namespace {

using namespace optcoll::bench;

void run(Csv& csv, optcoll::trees::BlockDistribution dist, bool gather, std::int64_t bytes, int reps) {
  const int root = g_size / 2;
  const std::int64_t b = std::max<std::int64_t>(bytes / (4 * g_size), 1);
  const std::vector<std::int64_t> m = optcoll::trees::block_sizes(dist, g_size, b, 5, 1);
  std::vector<std::int64_t> displs(m.size());
  for (std::size_t i = 1; i < m.size(); ++i) displs[i] = displs[i - 1] + m[i - 1];
  const std::int64_t total = displs.back() + m.back();
  const std::vector<int> mi(m.begin(), m.end()), di(displs.begin(), displs.end());
  const std::int64_t mine = m[static_cast<std::size_t>(g_rank)];
  std::vector<int> small(static_cast<std::size_t>(mine) + 1, g_rank), all(static_cast<std::size_t>(total) + 1, 0);
  const int c = static_cast<int>(mine);
  const std::function<void()> native = [&] {
    if (gather)
      MPI_Gatherv(small.data(), c, MPI_INT, all.data(), mi.data(), di.data(), MPI_INT, root, MPI_COMM_WORLD);
    else
      MPI_Scatterv(all.data(), mi.data(), di.data(), MPI_INT, small.data(), c, MPI_INT, root, MPI_COMM_WORLD);
  };
  const auto ours = [&](const std::string& alg) {
    return std::function<void()>([&, alg] {
      if (gather)
        optcoll::gatherv(small.data(), mine, MPI_INT, all.data(), m, displs, MPI_INT, root, MPI_COMM_WORLD, {alg, 0});
      else
        optcoll::scatterv(all.data(), m, displs, MPI_INT, small.data(), mine, MPI_INT, root, MPI_COMM_WORLD, {alg, 0});
    });
  };
  optcoll::Request req =
      gather
          ? optcoll::gatherv_init(small.data(), mine, MPI_INT, all.data(), m, displs, MPI_INT, root, MPI_COMM_WORLD)
          : optcoll::scatterv_init(all.data(), m, displs, MPI_INT, small.data(), mine, MPI_INT, root, MPI_COMM_WORLD);
  const std::vector<std::string> names{"native", "default", "adaptive", "binomial", "two", "persistent"};
  const std::vector<std::function<void()>> fs{
      native, ours(""), ours("adaptive_binomial"), ours("binomial"), ours("two"), [&] {
        req.start();
        req.wait();
      }};
  g_batch = batch_for(bytes);
  for (const auto& f : fs) f();  // warm-up (caches, calibration)
  std::vector<std::vector<double>> t(fs.size());
  for (int r = 0; r < reps; ++r)
    for (std::size_t j = 0; j < fs.size(); ++j) t[j].push_back(timed(fs[j]));
  if (g_rank != 0) return;
  const double base = median(t[0]);
  std::vector<std::string> row{gather ? "gatherv" : "scatterv",
                               csv_cell(optcoll::trees::to_string(dist)),
                               csv_cell(g_size),
                               csv_cell(root),
                               csv_cell(total * 4),
                               csv_cell(base * 1e6)};
  for (std::size_t j = 1; j < fs.size(); ++j) row.push_back(csv_cell(median(t[j]) / base));
  csv.row_cells(row);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  std::int64_t lo = 1 << 10;
  std::int64_t hi = std::int64_t{4} << 20;
  int reps = 21;
  std::string which = "both";
  std::string out;
  if (!Args()
           .value("--min", lo)
           .value("--max", hi)
           .value("--reps", reps)
           .value("--dist", which)
           .value("--out", out)
           .parse(argc, argv, "mpi_gatherv [--min B] [--max B] [--reps R] [--dist spikes|skewed|both] [--out FILE]")) {
    MPI_Finalize();
    return 2;
  }
  Csv csv(out, g_rank == 0);
  if (!csv.ok()) MPI_Abort(MPI_COMM_WORLD, 2);
  csv.begin(fmt::format("Gatherv/Scatterv against native (Traff 2018 §5.2 Spikes and Skewed, rho = 5, root "
                        "floor(p/2), MPI_INT blocks; bytes: the whole vector); medians over {} alternating "
                        "repetitions of batches after a barrier, maximum over ranks; *_over_native: optcoll / native",
                        reps),
            command_line(argc, argv), mpi_meta());
  csv.header({"op", "dist", "p", "root", "bytes", "native_us", "default_over_native", "adaptive_over_native",
              "binomial_over_native", "two_over_native", "persistent_over_native"});
  using optcoll::trees::BlockDistribution;
  for (const bool gather : {true, false})
    for (const BlockDistribution d : {BlockDistribution::spikes, BlockDistribution::skewed}) {
      if (which != "both" && which != optcoll::trees::to_string(d)) continue;
      for (std::int64_t bytes = lo; bytes <= hi; bytes *= 4) run(csv, d, gather, bytes, reps);
    }
  MPI_Finalize();
  return 0;
}
