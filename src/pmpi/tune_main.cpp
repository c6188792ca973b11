// optcoll-tune: measures every operation liboptcoll_pmpi.so intercepts,
// native (PMPI_*) against optcoll (OPTCOLL_*), on MPI_COMM_WORLD, and writes
// the tuning file that OPTCOLL_TUNING_FILE loads (policy.hpp). An MPI
// program of its own, so that the `optcoll` CLI stays free of MPI:
//
//   mpirun -np 8 optcoll-tune -o tuning.txt [--min-bytes 8] [--max-bytes 4194304]
//          [--reps 7] [--ops bcast,reduce] [--check] [--csv results.csv]
//
// Per operation and size (powers of 4): one warm-up of each, then --reps
// repetitions alternating native and optcoll (A B A B ...). One sample: a
// barrier, then a batch of back-to-back calls (32 up to 8 KiB, 8 up to
// 128 KiB, 2 up to 1 MiB, else 1), timed from the barrier's exit to the last
// call's return, divided by the batch, maximum over ranks. Medians. Rank 0
// prints one row per measurement as it goes (the progress) and writes the
// files at the end. --check first runs both on the same inputs and compares
// the results at every rank; any difference fails the run (exit code 1).
// --csv: op,p,bytes,native_us,optcoll_us,same with op the MPI call without
// its MPI_ prefix (Allgather, Allgatherv, ...), what `optcoll report` reads.
#include <fmt/core.h>
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "exercise.hpp"
#include "optcoll/plan/algorithms.hpp"
#include "policy.hpp"

namespace {

using optcoll::pmpi::Op;

struct Args {
  std::string out;
  std::string csv;
  std::int64_t min_bytes = 8;
  std::int64_t max_bytes = std::int64_t{4} << 20;
  int reps = 7;
  std::vector<std::string> ops;
  bool check = false;
};

int batch_for(std::int64_t bytes) {
  if (bytes <= (8 << 10)) return 32;
  if (bytes <= (128 << 10)) return 8;
  if (bytes <= (1 << 20)) return 2;
  return 1;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Seconds per call of a batch after a barrier, maximum over ranks.
double timed(optcoll::pmpi::Exercise& e, bool optcoll, int batch) {
  PMPI_Barrier(MPI_COMM_WORLD);
  const double t0 = PMPI_Wtime();
  for (int i = 0; i < batch; ++i) e.run(optcoll);
  double t = (PMPI_Wtime() - t0) / batch;
  PMPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return t;
}

std::string human(std::int64_t b) {
  if (b >= (1 << 20) && b % (1 << 20) == 0) return fmt::format("{} MiB", b >> 20);
  if (b >= (1 << 10) && b % (1 << 10) == 0) return fmt::format("{} KiB", b >> 10);
  return fmt::format("{} B", b);
}

int run(const Args& a) {
  int rank = 0;
  int p = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  std::vector<Op> ops;
  for (std::size_t i = 0; i < optcoll::pmpi::kBlockingOps; ++i) {
    const auto op = static_cast<Op>(i);
    const std::string name(optcoll::plan::to_string(optcoll::pmpi::info(op).collective));
    const std::string mpi_name(optcoll::pmpi::info(op).name);
    if (a.ops.empty() || std::find(a.ops.begin(), a.ops.end(), name) != a.ops.end() ||
        std::find(a.ops.begin(), a.ops.end(), mpi_name) != a.ops.end())
      ops.push_back(op);
  }
  std::vector<std::int64_t> sizes;
  for (std::int64_t b = a.min_bytes; b <= a.max_bytes; b *= 4) sizes.push_back(b);
  const std::size_t total = ops.size() * sizes.size();

  optcoll::pmpi::Tuning tuning;
  std::string csv = "op,p,bytes,native_us,optcoll_us,same\n";
  bool all_same = true;
  std::size_t done = 0;
  if (rank == 0)
    fmt::print("{:>7} {:<28} {:>4} {:>9} {:>11} {:>11} {:>14}{}\n", "", "op", "p", "bytes", "native us", "optcoll us",
               "native/optcoll", a.check ? "  results" : "");
  for (const Op op : ops) {
    const optcoll::pmpi::OpInfo& info = optcoll::pmpi::info(op);
    for (const std::int64_t bytes : sizes) {
      auto e = optcoll::pmpi::make_exercise(op, MPI_COMM_WORLD, bytes);
      int same = 1;
      if (a.check) {
        same = e->same_results() ? 1 : 0;
        PMPI_Allreduce(MPI_IN_PLACE, &same, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
        all_same = all_same && same != 0;
      }
      e->run(false);  // warm-up, and optcoll's per-communicator set-up
      e->run(true);
      const int batch = batch_for(bytes);
      std::vector<double> tn, to;
      for (int i = 0; i < a.reps; ++i) {
        tn.push_back(timed(*e, false, batch));
        to.push_back(timed(*e, true, batch));
      }
      const double n_us = median(tn) * 1e6;
      const double o_us = median(to) * 1e6;
      ++done;
      if (rank != 0) continue;
      tuning.add({info.collective, p, bytes, n_us, o_us});
      // The CSV names the MPI call (one chart each in `optcoll report`), the
      // tuning file its collective (OPTCOLL_<OP>, shared by MPI_Gather and
      // MPI_Gatherv, ...).
      csv += fmt::format("{},{},{},{:.3f},{:.3f},{}\n", info.name, p, bytes, n_us, o_us,
                         a.check ? (same != 0 ? "yes" : "NO") : "");
      fmt::print("[{:>2}/{:<2}] MPI_{:<24} {:>4} {:>9} {:>11.1f} {:>11.1f} {:>14.2f}{}\n", done, total, info.name, p,
                 human(bytes), n_us, o_us, n_us / o_us, a.check ? (same != 0 ? "  equal" : "  DIFFER") : "");
      std::fflush(stdout);
    }
  }
  if (rank == 0) {
    if (!a.out.empty()) {
      std::ofstream(a.out) << tuning.format();
      fmt::print("tuning file: {} (use OPTCOLL_TUNING_FILE={})\n", a.out, a.out);
    }
    if (!a.csv.empty()) std::ofstream(a.csv) << csv;
    if (!all_same) fmt::print(stderr, "optcoll-tune: results of optcoll and the native call differ\n");
  }
  return all_same ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Args a;
  CLI::App app{"Measure optcoll against the native MPI collectives; write a tuning file (OPTCOLL_TUNING_FILE)"};
  app.add_option("-o,--output", a.out, "Tuning file to write");
  app.add_option("--csv", a.csv, "Also write the measurements as CSV");
  app.add_option("--min-bytes", a.min_bytes, "Smallest payload (bytes)")
      ->check(CLI::Range(std::int64_t{4}, std::int64_t{1} << 30));
  app.add_option("--max-bytes", a.max_bytes, "Largest payload (bytes; sizes go up in powers of 4)")
      ->check(CLI::Range(std::int64_t{4}, std::int64_t{1} << 30));
  app.add_option("--reps", a.reps, "Repetitions per size (medians)")->check(CLI::Range(1, 1000));
  app.add_option("--ops", a.ops, "Operations (bcast, reduce, ...; default: all)")->delimiter(',');
  app.add_flag("--check", a.check, "Compare the results of both first");
  int code = 0;
  try {
    app.parse(argc, argv);
    code = run(a);
  } catch (const CLI::ParseError& e) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) code = app.exit(e);
    code = e.get_exit_code() == 0 ? 0 : 2;
  }
  MPI_Finalize();
  return code;
}
