// optcoll's Alltoall(v) and many-to-many against native MPI, in the same run.
//
//   mpirun -n 8 build/mpi_alltoall [--op alltoall|alltoallv|many_to_many|all]
//                                  [--min B] [--max B] [--big B] [--reps R] [--out FILE]
//
// alltoall: blocks of min .. max bytes (MPI_INT elements) in
//   powers of 4; native MPI_Alltoall, OPTCOLL_Alltoall (the model's choice),
//   and both algorithms forced.
// alltoallv: random counts around the block size (a quarter of them empty),
//   native MPI_Alltoallv against OPTCOLL_Alltoallv.
// many_to_many: messages of --big bytes on the traffic patterns of the
//   simulator (optcoll simulate many_to_many --dist ...): hot_sender,
//   hot_receiver, sparse, permutation; native MPI_Alltoallv, optcoll's
//   direct shift schedule and two-phase routing, with the largest per-rank
//   volume (sent, received) of each from the simulator on the same matrix.
// Method as in mpi_collectives: the variants alternate (A B C A B C ...),
// one sample is a batch after a barrier (maximum over ranks), medians.
//
// Output: CSV (bench/csv.hpp) on stdout or to --out FILE, the machine, MPI
// and command in the leading '#' lines, then one row per measurement:
//   op,p,block_bytes,traffic,big_bytes,native_us,optcoll_us,
//   optcoll_over_native,chosen,shift_us,bruck_us,direct_us,two_phase_us,
//   two_phase_over_native,direct_max_sent_bytes,direct_max_received_bytes,
//   two_phase_max_sent_bytes,two_phase_max_received_bytes
// alltoall rows fill block_bytes (bytes per destination) to bruck_us
// (chosen: the model's pick); alltoallv rows block_bytes to
// optcoll_over_native; many_to_many rows traffic, big_bytes, native_us
// (MPI_Alltoallv) and the direct and two-phase columns, the volumes from
// the simulator. A row leaves the other columns empty.
#include <fmt/core.h>
#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "mpi/comm/choose.hpp"
#include "mpi_timing.hpp"
#include "optcoll/optcoll.h"
#include "optcoll/optcoll.hpp"
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/alltoall.hpp"
#include "optcoll/sim/simulator.hpp"

namespace {

using namespace optcoll::bench;

// Medians of the variants, timed round-robin.
std::vector<double> race(const std::vector<std::function<void()>>& fs, int reps) {
  for (const auto& f : fs) f();  // warm-up (and optcoll's cache / calibration)
  std::vector<std::vector<double>> t(fs.size());
  for (int i = 0; i < reps; ++i)
    for (std::size_t k = 0; k < fs.size(); ++k) t[k].push_back(timed(fs[k]));
  std::vector<double> m;
  for (auto& v : t) m.push_back(median(v) * 1e6);
  return m;
}

const std::nullopt_t none = std::nullopt;

void run_alltoall(Csv& csv, std::int64_t lo, std::int64_t hi, int base_reps) {
  for (std::int64_t bytes : sizes(lo, hi)) {
    const int n = static_cast<int>(std::max<std::int64_t>(bytes / 4, 1));
    const auto total = static_cast<std::size_t>(n) * static_cast<std::size_t>(g_size);
    std::vector<int> send(total, g_rank), recv(total);
    const auto forced = [&](const char* alg) {
      return [&, alg] {
        optcoll::alltoall(send.data(), n, MPI_INT, recv.data(), n, MPI_INT, MPI_COMM_WORLD, {alg, 0});
      };
    };
    g_batch = batch_for(bytes * g_size);
    const std::vector<double> m =
        race({[&] { MPI_Alltoall(send.data(), n, MPI_INT, recv.data(), n, MPI_INT, MPI_COMM_WORLD); },
              [&] { OPTCOLL_Alltoall(send.data(), n, MPI_INT, recv.data(), n, MPI_INT, MPI_COMM_WORLD); },
              forced("shift"), forced("bruck")},
             reps_for(bytes * g_size, base_reps));
    const optcoll::mpi::Decision d =
        optcoll::mpi::describe(MPI_COMM_WORLD, optcoll::plan::Collective::alltoall, n * 4, MPI_BYTE, MPI_OP_NULL);
    if (g_rank == 0)
      csv.row("alltoall", g_size, std::int64_t{n} * 4, none, none, m[0], m[1], m[1] / m[0], d.algorithm, m[2], m[3],
              none, none, none, none, none, none, none);
  }
}

// Counts (elements) from i to j, the same at every rank.
using Matrix = std::vector<std::int64_t>;

struct VCall {
  std::vector<int> sc, sd, rc, rd;
  std::vector<std::int64_t> sc64, sd64, rc64, rd64;
  std::vector<int> send, recv;
  explicit VCall(const Matrix& m) {
    const auto p = static_cast<std::size_t>(g_size), r = static_cast<std::size_t>(g_rank);
    int s = 0, t = 0;
    for (std::size_t o = 0; o < p; ++o) {
      sc.push_back(static_cast<int>(m[r * p + o]));
      sd.push_back(s);
      s += sc.back();
      rc.push_back(static_cast<int>(m[o * p + r]));
      rd.push_back(t);
      t += rc.back();
    }
    sc64.assign(sc.begin(), sc.end());
    sd64.assign(sd.begin(), sd.end());
    rc64.assign(rc.begin(), rc.end());
    rd64.assign(rd.begin(), rd.end());
    send.assign(static_cast<std::size_t>(s) + 1, g_rank);
    recv.assign(static_cast<std::size_t>(t) + 1, 0);
  }
  void native() {
    MPI_Alltoallv(send.data(), sc.data(), sd.data(), MPI_INT, recv.data(), rc.data(), rd.data(), MPI_INT,
                  MPI_COMM_WORLD);
  }
  void alltoallv() {
    OPTCOLL_Alltoallv(send.data(), sc.data(), sd.data(), MPI_INT, recv.data(), rc.data(), rd.data(), MPI_INT,
                      MPI_COMM_WORLD);
  }
  void many(const char* alg) {
    optcoll::many_to_many(send.data(), sc64, sd64, recv.data(), rc64, rd64, MPI_INT, MPI_COMM_WORLD, {alg, 0});
  }
};

void run_alltoallv(Csv& csv, std::int64_t lo, std::int64_t hi, int base_reps) {
  const auto p = static_cast<std::size_t>(g_size);
  for (std::int64_t bytes : sizes(lo, hi)) {
    const std::int64_t n = std::max<std::int64_t>(bytes / 4, 1);
    Matrix m(p * p);
    std::mt19937_64 rng(static_cast<std::uint64_t>(bytes));
    for (auto& x : m) x = rng() % 4 == 0 ? 0 : static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(2 * n + 1));
    VCall v(m);
    g_batch = batch_for(bytes * g_size);
    const std::vector<double> t =
        race({[&] { v.native(); }, [&] { v.alltoallv(); }}, reps_for(bytes * g_size, base_reps));
    if (g_rank == 0)
      csv.row("alltoallv", g_size, n * 4, none, none, t[0], t[1], t[1] / t[0], none, none, none, none, none, none, none,
              none, none, none);
  }
}

Matrix traffic(const std::string& kind, std::int64_t big) {
  const auto p = static_cast<std::size_t>(g_size);
  Matrix m(p * p, 0);
  std::mt19937_64 rng(1);
  std::vector<std::size_t> perm(p);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  const std::int64_t small = big / 64;
  for (std::size_t i = 0; i < p; ++i)
    for (std::size_t j = 0; j < p; ++j) {
      std::int64_t& x = m[i * p + j];
      if (kind == "hot_sender") x = i == 0 ? big : small;
      if (kind == "hot_receiver") x = j == 0 ? big : small;
      if (kind == "sparse") x = rng() % 8 == 0 ? big : 0;
      if (kind == "permutation") x = perm[i] == j ? big : 0;
    }
  return m;
}

// The simulator's numbers for the same matrix (bytes): the larger of the
// most bytes one rank sends and receives, and the lockstep alpha-beta time.
struct Volume {
  std::int64_t sent = 0, received = 0;
};
Volume simulated(const Matrix& m, const char* alg) {
  const optcoll::plan::rank_t p = g_size;
  const std::vector<optcoll::plan::BlockLayout> layouts =
      optcoll::plan::exchange_layouts(optcoll::plan::Collective::many_to_many, p, m);
  optcoll::sim::SimOptions opt;
  opt.elem_size = 4;
  opt.track_payload = false;
  const optcoll::plan::Collective op = optcoll::plan::Collective::many_to_many;
  const optcoll::sim::SimResult r =
      optcoll::sim::simulate_exchange(op, p, layouts, optcoll::plan::find_algorithm(op, alg)->make, opt);
  return {r.max_bytes_sent, r.max_bytes_received};
}

void run_many_to_many(Csv& csv, std::int64_t big_bytes, int base_reps) {
  const std::int64_t big = std::max<std::int64_t>(big_bytes / 4, 1);
  for (const char* kind : {"hot_sender", "hot_receiver", "sparse", "permutation"}) {
    const Matrix m = traffic(kind, big);
    VCall v(m);
    g_batch = 1;
    const std::vector<double> t =
        race({[&] { v.native(); }, [&] { v.many("direct"); }, [&] { v.many("two_phase"); }}, base_reps);
    const Volume d = simulated(m, "direct"), w = simulated(m, "two_phase");
    if (g_rank == 0)
      csv.row("many_to_many", g_size, none, kind, big * 4, t[0], none, none, none, none, none, t[1], t[2], t[2] / t[0],
              d.sent, d.received, w.sent, w.received);
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  std::int64_t lo = 8;
  std::int64_t hi = std::int64_t{64} << 10;
  std::int64_t big = std::int64_t{256} << 10;
  int reps = 21;
  std::string which = "all";
  std::string out;
  if (!Args()
           .value("--min", lo)
           .value("--max", hi)
           .value("--big", big)
           .value("--reps", reps)
           .value("--op", which)
           .value("--out", out)
           .parse(argc, argv,
                  "mpi_alltoall [--op alltoall|alltoallv|many_to_many] [--min B] [--max B] [--big B] [--reps R] "
                  "[--out FILE]")) {
    MPI_Finalize();
    return 2;
  }
  Csv csv(out, g_rank == 0);
  if (!csv.ok()) MPI_Abort(MPI_COMM_WORLD, 2);
  csv.begin(fmt::format("Alltoall, Alltoallv (random counts around the block, a quarter empty) and many-to-many "
                        "(large messages of big_bytes, small ones 1/64 of it) against native MPI, MPI_INT; medians "
                        "of {} repetitions ({} for many-to-many) of batches after a barrier, maximum over ranks",
                        reps, std::max(reps / 2, 5)),
            command_line(argc, argv), mpi_meta());
  csv.header({"op", "p", "block_bytes", "traffic", "big_bytes", "native_us", "optcoll_us", "optcoll_over_native",
              "chosen", "shift_us", "bruck_us", "direct_us", "two_phase_us", "two_phase_over_native",
              "direct_max_sent_bytes", "direct_max_received_bytes", "two_phase_max_sent_bytes",
              "two_phase_max_received_bytes"});
  if (which == "all" || which == "alltoall") run_alltoall(csv, lo, hi, reps);
  if (which == "all" || which == "alltoallv") run_alltoallv(csv, lo, hi, reps);
  if (which == "all" || which == "many_to_many") run_many_to_many(csv, big, std::max(reps / 2, 5));
  MPI_Finalize();
  return 0;
}
