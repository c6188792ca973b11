// Measuring the LogP parameters of a communicator (Karp et al. 1993, §1:
// latency L, overhead o, gap g; LogGP's G per byte), for the LogP-optimal
// tree plans (plan/bcast_logp_tree.cpp, reduce_logp_tree.cpp). The alpha-beta
// calibration (calibrate.cpp) times all ranks at once; these parameters
// describe one message, so two ranks measure them, rank 0 (A) and rank p-1
// (B), while the others wait for the result (point-to-point, waiting as the
// executor does, so that on an oversubscribed node they do not spin in a
// collective and steal the cores the two need). With 8-byte messages:
//
//  - round trip: A sends, B answers; RTT = 2 (L + 2o) in LogP;
//  - send overhead: A's time to post a send and complete it locally (eager);
//  - receive overhead: A's time to receive a message already there (after
//    PMPI_Iprobe sees it); o = the mean of the two;
//  - gap, by the burst test: A sends k messages back to back and B answers
//    once after the k-th; T(k) - T(1) = (k-1) g, so g = (T(K) - T(1)) / (K-1)
//    without the round trip's latency. The same with 4 KiB messages gives
//    the per-message gap of 4 KiB, and G = (g_4K - g) / (4096 - 8).
//  - L = RTT/2 - 2o, at least one unit; g at least o (the model's o <= g).
//
// Medians over the repetitions (the first a warm-up). Rank 0 sends the
// four numbers to every rank, so all agree. Cost, once per communicator:
// 3 x 10 round trips and 6 x 4 bursts (of 1 or 32 messages), each ending in
// a round trip: 1 ms for two ranks on this 2-core box; with 8 and 16 ranks
// at a load average of 15, where a round trip waits for the scheduler
// (RTT of milliseconds), 1.2 and 2.5 s with the 16 and 8 repetitions
// used at first, hence these smaller counts.
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "mpi/comm/calibrate_rounds.hpp"
#include "mpi/comm/comm_state.hpp"

namespace optcoll::mpi {
namespace {

constexpr int kReps = 10;
constexpr int kBurstReps = 6;
constexpr int kBurst = 32;
constexpr int kSmall = 8;
constexpr int kLarge = 4096;

struct Link {
  const CommState& s;
  int peer;
  void send(const std::byte* buf, int bytes) const {
    std::array<MPI_Request, 1> r{MPI_REQUEST_NULL};
    check(PMPI_Isend(buf, bytes, MPI_BYTE, peer, kTag, s.comm, r.data()), "MPI_Isend");
    wait_all(r, s.wait, s.spin);
  }
  void recv(std::byte* buf, int bytes) const {
    std::array<MPI_Request, 1> r{MPI_REQUEST_NULL};
    check(PMPI_Irecv(buf, bytes, MPI_BYTE, peer, kTag, s.comm, r.data()), "MPI_Irecv");
    wait_all(r, s.wait, s.spin);
  }
};

using calibration::median;  // of the repetitions after the warm-up

// A's side of a burst of k messages of `bytes` and B's one-byte answer.
double burst(const Link& a, int k, int bytes, std::vector<std::byte>& buf) {
  std::vector<MPI_Request> req(static_cast<std::size_t>(k), MPI_REQUEST_NULL);
  const double t0 = PMPI_Wtime();
  for (int i = 0; i < k; ++i)
    check(PMPI_Isend(buf.data(), bytes, MPI_BYTE, a.peer, kTag, a.s.comm, &req[static_cast<std::size_t>(i)]),
          "MPI_Isend");
  wait_all(req, a.s.wait, a.s.spin);
  a.recv(buf.data() + kLarge, 1);
  return PMPI_Wtime() - t0;
}

void answer_burst(const Link& b, int k, int bytes, std::vector<std::byte>& buf) {
  std::vector<MPI_Request> req(static_cast<std::size_t>(k), MPI_REQUEST_NULL);
  for (int i = 0; i < k; ++i)
    check(PMPI_Irecv(buf.data() + static_cast<std::ptrdiff_t>(i) * bytes, bytes, MPI_BYTE, b.peer, kTag, b.s.comm,
                     &req[static_cast<std::size_t>(i)]),
          "MPI_Irecv");
  wait_all(req, b.s.wait, b.s.spin);
  b.send(buf.data(), 1);
}

// A's measurements: {RTT, o_send, o_recv, T(1), T(K), T_4K(1), T_4K(K)}.
std::array<double, 7> measure_a(const Link& a) {
  std::vector<std::byte> buf(static_cast<std::size_t>(kLarge) + 8, std::byte{1});
  std::array<double, kReps> rtt{}, os{}, orecv{};
  for (std::size_t i = 0; i < kReps; ++i) {
    const double t0 = PMPI_Wtime();
    a.send(buf.data(), kSmall);
    a.recv(buf.data(), kSmall);
    rtt[i] = PMPI_Wtime() - t0;
  }
  for (std::size_t i = 0; i < kReps; ++i) {
    const double t0 = PMPI_Wtime();
    a.send(buf.data(), kSmall);  // eager: completes locally
    os[i] = PMPI_Wtime() - t0;
    a.recv(buf.data(), 1);  // B's acknowledgement, so sends do not pile up
  }
  for (std::size_t i = 0; i < kReps; ++i) {
    a.send(buf.data(), 1);  // "send now"
    int flag = 0;
    while (flag == 0) check(PMPI_Iprobe(a.peer, kTag, a.s.comm, &flag, MPI_STATUS_IGNORE), "MPI_Iprobe");
    const double t0 = PMPI_Wtime();
    check(PMPI_Recv(buf.data(), kSmall, MPI_BYTE, a.peer, kTag, a.s.comm, MPI_STATUS_IGNORE), "MPI_Recv");
    orecv[i] = PMPI_Wtime() - t0;
  }
  std::vector<std::byte> big(static_cast<std::size_t>(kLarge) * kBurst + kLarge + 8, std::byte{1});
  std::array<std::array<double, kBurstReps>, 4> b{};
  for (std::size_t i = 0; i < kBurstReps; ++i) {
    b[0][i] = burst(a, 1, kSmall, big);
    b[1][i] = burst(a, kBurst, kSmall, big);
    b[2][i] = burst(a, 1, kLarge, big);
    b[3][i] = burst(a, kBurst, kLarge, big);
  }
  return {median(rtt), median(os), median(orecv), median(b[0]), median(b[1]), median(b[2]), median(b[3])};
}

void measure_b(const Link& b) {
  std::vector<std::byte> buf(static_cast<std::size_t>(kLarge) + 8, std::byte{1});
  for (int i = 0; i < kReps; ++i) {
    b.recv(buf.data(), kSmall);
    b.send(buf.data(), kSmall);
  }
  for (int i = 0; i < kReps; ++i) {
    b.recv(buf.data(), kSmall);
    b.send(buf.data(), 1);
  }
  for (int i = 0; i < kReps; ++i) {
    b.recv(buf.data(), 1);
    b.send(buf.data(), kSmall);
  }
  std::vector<std::byte> big(static_cast<std::size_t>(kLarge) * kBurst + 8);
  for (int i = 0; i < kBurstReps; ++i) {
    answer_burst(b, 1, kSmall, big);
    answer_burst(b, kBurst, kSmall, big);
    answer_burst(b, 1, kLarge, big);
    answer_burst(b, kBurst, kLarge, big);
  }
}

}  // namespace

Calibration calibrate_logp(const CommState& s) {
  Calibration c;
  if (s.size < 2) return c;
  const int last = s.size - 1;
  std::array<double, 4> v{};  // L, o, g, G
  check(PMPI_Barrier(s.comm), "MPI_Barrier");
  if (s.rank == 0) {
    const std::array<double, 7> m = measure_a(Link{s, last});
    const double o = std::max(0.5 * (m[1] + m[2]), 0.0);
    const double g = std::max((m[4] - m[3]) / (kBurst - 1), o);
    const double g_large = std::max((m[6] - m[5]) / (kBurst - 1), g);
    v = {std::max(m[0] / 2 - 2 * o, kLogpUnit), o, std::max(g, kLogpUnit), (g_large - g) / (kLarge - kSmall)};
    std::vector<MPI_Request> req(static_cast<std::size_t>(last), MPI_REQUEST_NULL);
    for (int r = 1; r <= last; ++r)
      check(PMPI_Isend(v.data(), 4, MPI_DOUBLE, r, kTag, s.comm, &req[static_cast<std::size_t>(r - 1)]), "MPI_Isend");
    wait_all(req, s.wait, s.spin);
  } else {
    if (s.rank == last) measure_b(Link{s, 0});
    Link{s, 0}.recv(reinterpret_cast<std::byte*>(v.data()), static_cast<int>(sizeof(v)));
  }
  c.L = v[0];
  c.o = v[1];
  c.g = v[2];
  c.G = v[3];
  return c;
}

namespace {
// The LogP parameters of s: across nodes from the alpha-beta model, where
// it knows the per-message overhead o; otherwise measured (calibrate_logp).
//
// Across nodes a small message takes alpha = o + L + o from send to
// receive (Karp et al. 1993, §1), the sender can post one every o (the
// calibration's burst, model::AlphaBeta::o), and every further byte costs
// beta: so L = alpha - 2o, g = o, G = beta. The two-rank measurement reads
// the same quantities off one pair, but its receive overhead (a receive of
// a message that has arrived) is not what a tree's receives cost where the
// transport starts a transfer only once the receive is posted
// (docs/decisions/logp-rule-across-nodes.md).
Calibration logp_of_network(CommState& s) {
  if (!s.one_node) {
    const model::AlphaBeta ab = block_model(s).ab;  // (collective at its first call, like the measurement)
    if (ab.o > 0 && ab.alpha > 0) {
      Calibration c;
      c.o = ab.o;
      c.g = ab.o;
      c.L = std::max(ab.alpha - 2 * ab.o, kLogpUnit);
      c.G = ab.beta;
      return c;
    }
  }
  ++s.logp_measurements;
  return calibrate_logp(s);
}
}  // namespace

const logp::Params& logp_model(CommState& s) {
  if (s.logp) return *s.logp;
  const auto& e = s.settings.logp;
  if (e[0] > 0) {
    s.logp = logp::Params{e[0], e[1], e[2], 0};
    return *s.logp;
  }
  const Calibration c = logp_of_network(s);
  s.measured.L = c.L;
  s.measured.o = c.o;
  s.measured.g = c.g;
  s.measured.G = c.G;
  // To integers in kLogpUnit, keeping L >= 1, g >= 1 and o <= g.
  const auto units = [](double t) { return static_cast<std::int64_t>(std::llround(t / kLogpUnit)); };
  logp::Params p;
  p.L = std::max<std::int64_t>(1, units(c.L));
  p.o = std::max<std::int64_t>(0, units(c.o));
  p.g = std::max({std::int64_t{1}, p.o, units(c.g)});
  p.G = 0;
  logp::validate(p);
  s.logp = p;
  return *s.logp;
}

}  // namespace optcoll::mpi
