// Measuring the round costs of a communicator, with the pattern the plans
// use (docs/mpi-layer.md, "Calibration", and docs/selection.md for the rule).
//
// In round k of the circulant collectives every rank r sends to
// (r + skip[k]) mod p and receives from (r - skip[k]) mod p, all ranks at
// once. A two-rank ping-pong misses what matters on a shared or
// oversubscribed node: p ranks moving data at the same time, and the wait for
// ranks that are not running. So the calibration times exactly such rounds:
// all q rounds of one phase, 10 repetitions with the sizes interleaved (the
// first a warm-up), median per rank, maximum over ranks (PMPI_Allreduce, so every rank agrees), for
// messages of 8 B, 16 KiB and 64 KiB: t0, t1, t2.
//
// Each timed phase follows an untimed phase of the same size. A rank starts
// a phase when its own previous one ends, so a phase's first rounds wait
// out the skew that the phase before left between the ranks. Timed right
// after a phase of another size, that skew belongs to the other size. After
// a phase of its own size a phase runs as a plan's rounds run, back to back
// (docs/decisions/calibration-warm-phases.md; test smpi_calibration).
//
//  - beta  = (t2 - t1) / (64 KiB - 16 KiB): the per-byte cost where pipelined
//    blocks live (beyond every eager limit).
//  - alpha = max(t0, t1 - beta * 16 KiB): the intercept of that line, i.e.
//    the per-round cost of a block-sized message including its rendezvous
//    handshake (an 8-byte round is cheaper, but only n = 1 sends those).
//  - fill: beta was measured with all p ranks sending at once. When the node
//    runs rho = ranks / cores > 1 ranks per core, those p messages share
//    p / rho cores, so one message alone costs beta / rho per byte. The q - 1
//    extra rounds of a pipelined broadcast are the first ones, in which only
//    about 2^k ranks send (round k): they cost beta * min(1, max(C, 2^k) / p)
//    per byte, C = p / rho. fill is the mean of that factor over
//    k = 0 .. q-2 (1 when the node is not oversubscribed).
//  - l2_bytes: the smallest L2 cache per core over the ranks (sysconf), for
//    the block cap (max_block_bytes_for()).
//  - overhead: LogGP's o at the sender, the price of messages streamed back
//    to back (the linear Gather(v)/Scatter(v)): the time to post a burst of
//    kBurst 8-byte sends to the next rank, whose receives were posted before
//    (a barrier between), per send; median over the repetitions, maximum
//    over ranks.
//  - tree_small: a binomial broadcast of 8 bytes from rank 0, q rounds, as
//    rank 0 times it: the broadcast and the same tree back to rank 0,
//    halved (one clock, so no offset between the ranks' clocks enters).
//    A tree's rounds mostly pair nearby ranks, which cost less than the
//    circulant rounds of round_small (regular Scatter's rule,
//    select::scatter_runs_linear).
// Cost: 60 q rounds, 10 bursts and 20 q tree rounds once per communicator
// (a few ms for 8 ranks on this 2-core box; tens of ms oversubscribed
// under MPICH).
#include <unistd.h>

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "mpi/comm/calibrate_rounds.hpp"
#include "mpi/comm/comm_state.hpp"

namespace optcoll::mpi {
namespace {

using calibration::kSizes;
using calibration::median;
constexpr int kReps = 10;
constexpr int kBurst = 16;

// Seconds per send of a burst of kBurst 8-byte sends to the next rank.
double burst_time(const CommState& s, std::byte* send, std::byte* recv) {
  const int p = s.size;
  std::array<MPI_Request, 2 * kBurst> req{};
  for (int i = 0; i < kBurst; ++i)
    check(PMPI_Irecv(recv + 8 * i, 8, MPI_BYTE, (s.rank - 1 + p) % p, kTag, s.comm, &req[static_cast<std::size_t>(i)]),
          "MPI_Irecv");
  check(PMPI_Barrier(s.comm), "MPI_Barrier");
  const double t0 = PMPI_Wtime();
  for (int i = 0; i < kBurst; ++i)
    check(PMPI_Isend(send, 8, MPI_BYTE, (s.rank + 1) % p, kTag, s.comm, &req[static_cast<std::size_t>(kBurst + i)]),
          "MPI_Isend");
  const double t = (PMPI_Wtime() - t0) / kBurst;
  wait_all(req, s.wait, s.spin);
  return t;
}

// Seconds of a binomial broadcast of 8 bytes from rank 0, at rank 0 (0
// elsewhere): the broadcast, then the same tree back (each rank waits for
// its children, then tells its parent), halved.
double tree_time(const CommState& s, std::byte* send, std::byte* recv) {
  const std::int64_t p = s.size;
  const std::int64_t r = s.rank;
  std::int64_t first = 1;  // r's children are r + c for powers of two c >= first (the smallest above r)
  while (first <= r) first <<= 1;
  const auto exchange = [&](bool sends, std::int64_t peer) {
    MPI_Request req = MPI_REQUEST_NULL;
    const int to = static_cast<int>(peer);
    if (sends)
      check(PMPI_Isend(send, 8, MPI_BYTE, to, kTag, s.comm, &req), "MPI_Isend");
    else
      check(PMPI_Irecv(recv, 8, MPI_BYTE, to, kTag, s.comm, &req), "MPI_Irecv");
    wait_all({&req, 1}, s.wait, s.spin);
  };
  check(PMPI_Barrier(s.comm), "MPI_Barrier");
  const double t0 = PMPI_Wtime();
  if (r > 0) exchange(false, r - first / 2);
  std::int64_t c = first;
  for (; r + c < p; c <<= 1) exchange(true, r + c);
  for (c >>= 1; c >= first; c >>= 1) exchange(false, r + c);
  if (r > 0) exchange(true, r - first / 2);
  const double t = r == 0 ? (PMPI_Wtime() - t0) / 2 : 0.0;
  // The leaves finish long before rank 0: the next measurement must not
  // start with them waiting for it.
  check(PMPI_Barrier(s.comm), "MPI_Barrier");
  return t;
}

// One phase of q circulant rounds with messages of `bytes`: seconds per round.
double phase_time(const CommState& s, std::int64_t bytes, std::byte* send, std::byte* recv) {
  const int p = s.size;
  return calibration::rounds_time(s, s.graph.q(), bytes, send, recv, [&](int k) {
    const int skip = static_cast<int>(s.graph.skip(k));
    return std::pair{(s.rank + skip) % p, (s.rank - skip + p) % p};
  });
}

double fill_factor(int p, int q, double rho) {
  if (q < 2 || rho <= 1) return 1;
  const double cores = p / rho;
  double sum = 0;
  for (int k = 0; k + 1 < q; ++k) sum += std::min(1.0, std::max(cores, static_cast<double>(1 << k)) / p);
  return sum / (q - 1);
}

}  // namespace

Calibration calibrate(const CommState& s) {
  Calibration c;
  if (s.size < 2) return c;
  std::vector<std::byte> send(static_cast<std::size_t>(kSizes.back()), std::byte{1});
  std::vector<std::byte> recv(static_cast<std::size_t>(kSizes.back()));
  // Sizes interleaved within each repetition, so that a burst of machine
  // noise hits all of them alike.
  constexpr std::size_t burst = kSizes.size(), tree = kSizes.size() + 1;
  std::array<std::array<double, kReps>, kSizes.size() + 2> times{};
  check(PMPI_Barrier(s.comm), "MPI_Barrier");
  for (int rep = 0; rep < kReps; ++rep) {
    const auto k = static_cast<std::size_t>(rep);
    for (std::size_t i = 0; i < kSizes.size(); ++i) {
      phase_time(s, kSizes[i], send.data(), recv.data());  // the skew of the last size's phase (above)
      times[i][k] = phase_time(s, kSizes[i], send.data(), recv.data());
    }
    times[burst][k] = burst_time(s, send.data(), recv.data());
    times[tree][k] = tree_time(s, send.data(), recv.data());
  }
  std::array<double, kSizes.size() + 4> t{};
  for (std::size_t i = 0; i <= tree; ++i) t[i] = median(times[i]);
  const std::size_t rho = tree + 1, l2 = tree + 2;
  t[rho] = s.ranks_per_core;
  // Negated, so that the maximum is the smallest cache (and 0, unknown, if
  // any rank does not know its own).
  const long l2_size = sysconf(_SC_LEVEL2_CACHE_SIZE);
  t[l2] = l2_size > 0 ? -static_cast<double>(l2_size) : 0.0;
  check(PMPI_Allreduce(MPI_IN_PLACE, t.data(), static_cast<int>(t.size()), MPI_DOUBLE, MPI_MAX, s.comm),
        "MPI_Allreduce");
  c.round_small = t[0];
  const model::AlphaBeta ab = calibration::line(t.data());
  c.alpha = ab.alpha;
  c.beta = ab.beta;
  c.overhead = std::min(t[burst], c.alpha);
  c.tree_small = t[tree];
  c.ranks_per_core = t[rho];
  c.l2_bytes = -t[l2];
  c.fill = fill_factor(s.size, s.graph.q(), c.ranks_per_core);
  return c;
}

std::int64_t max_block_bytes_for(double l2_bytes) noexcept {
  constexpr std::int64_t kUnknown = 256 << 10;
  if (!(l2_bytes > 0)) return kUnknown;
  return std::clamp(static_cast<std::int64_t>(l2_bytes / 4), kMinBlockCap, std::int64_t{1} << 20);
}

const BlockModel& block_model(CommState& s) {
  if (s.model) return *s.model;
  BlockModel m;
  const Settings& e = s.settings;
  if (e.alpha > 0 && e.beta > 0) {
    // Both overridden: the plain alpha-beta model, nothing measured (o only
    // if OPTCOLL_OVERHEAD says).
    m.ab = {e.alpha, e.beta, e.overhead};
    m.max_block_bytes = std::max<std::int64_t>(e.block_cap, 0);
  } else {
    const Calibration logp = s.measured;  // calibrate_logp()'s part, if measured
    s.measured = calibrate(s);
    s.measured.L = logp.L;
    s.measured.o = logp.o;
    s.measured.g = logp.g;
    s.measured.G = logp.G;
    m.ab = {e.alpha > 0 ? e.alpha : s.measured.alpha, (e.beta > 0 ? e.beta : s.measured.beta) * s.measured.fill,
            e.overhead > 0 ? e.overhead : s.measured.overhead};
    m.max_block_bytes = e.block_cap >= 0 ? e.block_cap : max_block_bytes_for(s.measured.l2_bytes);
  }
  s.model = m;
  return *s.model;
}

}  // namespace optcoll::mpi
