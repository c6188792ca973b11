// The personalized exchanges as plans, run by the simulator: exact data flow
// (every piece of every message ends at its destination, send buffers never
// written), one-portedness and message matching for many p, the round
// counts and alpha-beta times against model/alltoall.hpp, the piece split,
// and the two-phase routing's balance on skewed traffic.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "optcoll/error.hpp"
#include "optcoll/model/alltoall.hpp"
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/alltoall.hpp"
#include "optcoll/sim/simulator.hpp"

namespace optcoll {
namespace {

using plan::Collective;
using plan::rank_t;

int ceil_log2(rank_t p) {
  int q = 0;
  while ((rank_t{1} << q) < p) ++q;
  return q;
}

// Runs algorithm `name` of op with rank r's layout layouts[r].
sim::SimResult run(Collective op, std::string_view name, rank_t p, const std::vector<plan::BlockLayout>& layouts,
                   const sim::SimOptions& opt = {}) {
  const plan::AlgorithmInfo* a = plan::find_algorithm(op, name);
  EXPECT_NE(a, nullptr) << name;
  return sim::simulate_exchange(op, p, layouts, a->make, opt);
}

std::vector<std::int64_t> regular(rank_t p, std::int64_t count) {
  return std::vector<std::int64_t>(static_cast<std::size_t>(p * p), count);
}

TEST(AlltoallPlans, ShiftAndBruckMoveEveryBlockForManyP) {
  for (const rank_t p : {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 17, 31, 32, 33, 63, 64, 65, 100}) {
    for (const std::int64_t count : {0, 1, 3}) {
      const auto layouts = plan::exchange_layouts(Collective::alltoall, p, regular(p, count));
      for (const char* name : {"shift", "bruck"}) {
        sim::SimOptions opt;
        opt.alpha_beta = {1e-6, 1e-9};
        const sim::SimResult r = run(Collective::alltoall, name, p, layouts, opt);
        ASSERT_TRUE(r.ok()) << name << " p=" << p << " count=" << count << ": " << r.errors[0];
        EXPECT_EQ(r.payload, "exact");
        const bool shift = std::string_view(name) == "shift";
        EXPECT_EQ(r.rounds, p == 1 ? 1 : (shift ? p - 1 : ceil_log2(p))) << name << " p=" << p;
        if (count == 0) {
          EXPECT_EQ(r.messages, 0);
          continue;
        }
        // Lockstep alpha-beta time = the model's price (all blocks equal).
        const double want = shift ? model::alltoall_shift_time(p, count, opt.alpha_beta)
                                  : model::alltoall_bruck_time(p, count, opt.alpha_beta);
        EXPECT_NEAR(r.alpha_beta_time, want, 1e-12) << name << " p=" << p;
        if (shift) {
          EXPECT_EQ(r.total_bytes, p * (p - 1) * count);
        }
      }
    }
  }
}

// With o known the shift schedule is priced as the MPI executor streams it
// (model/alltoall.hpp): the longest of 2(p-1) overheads (the first
// latency hidden behind them) and one latency followed by the longest of
// (p-2) overheads, (p-1) blocks through the port and one latency per
// further window of kRoundsInFlight rounds. Written out here for a few
// cases; the crossover is the first block size at which Bruck stops
// winning.
TEST(AlltoallPlans, StreamedShiftPriceAndCrossover) {
  model::AlphaBeta ab{6e-6, 5e-11};
  ab.o = 3e-7;
  const std::int64_t w = model::kRoundsInFlight;
  // p = 64: 63 rounds, within one window; overheads 2 * 63 * 0.3 us, above
  // one latency and 62 overheads.
  EXPECT_NEAR(model::alltoall_shift_time(64, 8, ab), 2 * 63 * 3e-7, 1e-15);
  EXPECT_NEAR(model::alltoall_shift_time(64, 1 << 20, ab), 6e-6 + 63 * 5e-11 * (1 << 20), 1e-15);
  // p = 5: a latency and 3 overheads, above 2 * 4 overheads.
  EXPECT_NEAR(model::alltoall_shift_time(5, 8, ab), 6e-6 + 3 * 3e-7, 1e-15);
  // p = 8 w + 1: 8 windows, the last seven a latency each, above 2 (p-1) o.
  ab.o = 1e-8;
  EXPECT_NEAR(model::alltoall_shift_time(8 * w + 1, 8, ab), 6e-6 + 7 * 6e-6, 1e-15);
  ab.o = 3e-7;
  // p = 5: 2 * 4 overheads cost less than Bruck's two extra latencies.
  EXPECT_EQ(model::alltoall_crossover_bytes(5, ab), 0);
  for (const rank_t p : {64, 256, 1024}) {
    const double x = model::alltoall_crossover_bytes(p, ab);
    ASSERT_GT(x, 1) << "p=" << p;
    const auto b = static_cast<std::int64_t>(x);
    EXPECT_TRUE(model::alltoall_prefers_bruck(p, b - 1, ab)) << "p=" << p;
    EXPECT_FALSE(model::alltoall_prefers_bruck(p, b, ab)) << "p=" << p;
  }
  // Unknown o: in lockstep, the closed form.
  ab.o = 0;
  EXPECT_NEAR(model::alltoall_shift_time(64, 100, ab), 63 * (6e-6 + 5e-11 * 100), 1e-15);
}

// The simulator's streamed LogGP clock (SimOptions::streamed) on the shift
// schedule, p = 8, 100-byte blocks, L = 10, o = 1, g = 2, G = 0.01: a rank
// posts its seven sends s = max(o + 99 G, g) = 2 apart, round k's message
// arrives at (k-1) s + o + 99 G + L and completes o later, so the last
// receive ends at 6 s + 2 o + 99 G + L = 24.99. In lockstep each round
// waits for its receive: 7 (L + 2 o + 99 G) = 90.93.
TEST(AlltoallPlans, StreamedClockPostsSendsBackToBack) {
  const rank_t p = 8;
  const std::vector<plan::BlockLayout> layouts = plan::exchange_layouts(Collective::alltoall, p, regular(p, 100));
  sim::SimOptions opt;
  opt.loggp = {10.0, 1.0, 2.0, 0.01};
  opt.track_payload = false;
  const sim::SimResult lockstep = run(Collective::alltoall, "shift", p, layouts, opt);
  opt.streamed = true;
  const sim::SimResult streamed = run(Collective::alltoall, "shift", p, layouts, opt);
  ASSERT_TRUE(lockstep.ok() && streamed.ok());
  EXPECT_NEAR(streamed.loggp_time, 6 * 2.0 + 2 * 1.0 + 99 * 0.01 + 10.0, 1e-9);
  EXPECT_NEAR(lockstep.loggp_time, 7 * (10.0 + 2 * 1.0 + 99 * 0.01), 1e-9);
  EXPECT_EQ(streamed.alpha_beta_time, lockstep.alpha_beta_time);  // the lockstep clock is unchanged
}

TEST(AlltoallPlans, LargeP) {
  // Exact tracking at p = 1500 (4p blocks per rank), matching and costs
  // without payload beyond the memory budget.
  for (const rank_t p : {1024, 1500}) {
    const auto layouts = plan::exchange_layouts(Collective::alltoall, p, regular(p, 2));
    const sim::SimResult b = run(Collective::alltoall, "bruck", p, layouts);
    ASSERT_TRUE(b.ok()) << b.errors[0];
    EXPECT_EQ(b.payload, "exact");
    EXPECT_EQ(b.rounds, ceil_log2(p));
  }
  const rank_t p = 1000;
  const auto layouts = plan::exchange_layouts(Collective::alltoall, p, regular(p, 1));
  const sim::SimResult s = run(Collective::alltoall, "shift", p, layouts);
  ASSERT_TRUE(s.ok()) << s.errors[0];
  EXPECT_EQ(s.rounds, p - 1);
  EXPECT_EQ(s.max_bytes_sent, p - 1);
  sim::SimOptions tight;
  tight.max_tracked_bytes = 1 << 20;
  const rank_t big = 3000;
  const auto big_layouts = plan::exchange_layouts(Collective::alltoall, big, regular(big, 1));
  const sim::SimResult u = run(Collective::alltoall, "bruck", big, big_layouts, tight);
  ASSERT_TRUE(u.ok()) << u.errors[0];
  EXPECT_EQ(u.payload, "none");
  EXPECT_NEAR(u.alpha_beta_time, model::alltoall_bruck_time(big, 1, tight.alpha_beta), 1e-12);
}

TEST(AlltoallPlans, ShiftAlltoallvRandomCountsWithZeros) {
  std::mt19937_64 rng(17);
  for (const rank_t p : {1, 2, 3, 5, 6, 7, 9, 17, 40}) {
    for (int trial = 0; trial < 4; ++trial) {
      std::vector<std::int64_t> counts(static_cast<std::size_t>(p * p));
      for (auto& c : counts) c = rng() % 3 == 0 ? 0 : static_cast<std::int64_t>(rng() % 50);
      const auto layouts = plan::exchange_layouts(Collective::alltoallv, p, counts);
      const sim::SimResult r = run(Collective::alltoallv, "shift", p, layouts);
      ASSERT_TRUE(r.ok()) << "p=" << p << ": " << r.errors[0];
      std::int64_t off_diagonal = 0, nonempty = 0;
      for (rank_t i = 0; i < p; ++i)
        for (rank_t j = 0; j < p; ++j)
          if (i != j) {
            off_diagonal += counts[static_cast<std::size_t>(i * p + j)];
            nonempty += counts[static_cast<std::size_t>(i * p + j)] > 0 ? 1 : 0;
          }
      EXPECT_EQ(r.total_bytes, off_diagonal);
      EXPECT_EQ(r.messages, nonempty);  // empty messages are skipped
    }
  }
}

TEST(AlltoallPlans, BruckRejectsUnequalCounts) {
  auto counts = regular(4, 2);
  counts[5] = 3;
  const auto layouts = plan::exchange_layouts(Collective::alltoall, 4, counts);
  EXPECT_THROW(run(Collective::alltoall, "bruck", 4, layouts), Error);
}

// A plan that receives one block into the wrong place: the simulator must
// notice (a lacking receive piece), as it must a write into a send buffer.
class Misroute final : public plan::RankPlan {
 public:
  Misroute(std::unique_ptr<plan::RankPlan> inner, bool into_send) : in_(std::move(inner)), into_send_(into_send) {}
  std::int64_t rounds() const noexcept override { return in_->rounds(); }
  const plan::BlockLayout& layout() const noexcept override { return in_->layout(); }
  void step(std::int64_t i, plan::Step& out) const override {
    in_->step(i, out);
    if (i == 0 && !out.recv.empty()) {
      const rank_t p = layout().data_groups() / 2;
      const std::int64_t g = out.recv[0].first;
      out.recv[0].first = into_send_ ? p + g % p : (g + 1) % p;
    }
  }

 private:
  std::unique_ptr<plan::RankPlan> in_;
  bool into_send_;
};
template <bool IntoSend>
std::unique_ptr<plan::RankPlan> make_misroute(const plan::PlanContext& ctx, rank_t rank) {
  return std::make_unique<Misroute>(plan::make_alltoall_shift(ctx, rank), IntoSend);
}

TEST(AlltoallPlans, SimulatorRejectsMisroutedBlocks) {
  const rank_t p = 5;
  const auto layouts = plan::exchange_layouts(Collective::alltoall, p, regular(p, 2));
  const sim::SimResult wrong = sim::simulate_exchange(Collective::alltoall, p, layouts, &make_misroute<false>);
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.errors[0].find("lacks receive piece"), std::string::npos) << wrong.errors[0];
  const sim::SimResult overwrite = sim::simulate_exchange(Collective::alltoall, p, layouts, &make_misroute<true>);
  ASSERT_FALSE(overwrite.ok());
  EXPECT_NE(overwrite.errors[0].find("writes into its send buffer"), std::string::npos) << overwrite.errors[0];
}

TEST(AlltoallPlans, PieceSplitIsBalancedAndRotated) {
  std::mt19937_64 rng(3);
  for (const rank_t p : {1, 2, 3, 5, 8, 13}) {
    for (int trial = 0; trial < 50; ++trial) {
      const std::int64_t n = static_cast<std::int64_t>(rng() % 100);
      const rank_t i = static_cast<rank_t>(rng() % static_cast<std::uint64_t>(p));
      const rank_t j = static_cast<rank_t>(rng() % static_cast<std::uint64_t>(p));
      std::int64_t at = 0;
      for (rank_t x = 0; x < p; ++x) {
        const plan::Segment s = plan::piece(n, p, i, j, x);
        EXPECT_EQ(s.offset, at) << "n=" << n << " p=" << p << " x=" << x;
        EXPECT_TRUE(s.count == n / p || s.count == n / p + 1);
        // The extra elements start at piece (i + j) mod p.
        EXPECT_EQ(s.count == n / p + 1, ((x - i - j) % p + p) % p < n % p);
        at += s.count;
      }
      EXPECT_EQ(at, n);
    }
  }
}

// Skewed traffic (notes §9): the two-phase routing moves every byte twice
// but bounds every rank's per-round message by about S/p + R/p, so its
// lockstep time beats the direct schedule's when one rank is hot.
std::vector<std::int64_t> skewed(const std::string& kind, rank_t p, std::int64_t big, std::int64_t small) {
  std::vector<std::int64_t> c(static_cast<std::size_t>(p * p), small);
  std::mt19937_64 rng(11);
  for (rank_t i = 0; i < p; ++i)
    for (rank_t j = 0; j < p; ++j) {
      auto& v = c[static_cast<std::size_t>(i * p + j)];
      if (kind == "hot_sender" && i == 0 && j != 0) v = big;
      if (kind == "hot_receiver" && j == 0 && i != 0) v = big;
      if (kind == "sparse") v = rng() % 8 == 0 ? big : 0;
    }
  return c;
}

TEST(ManyToMany, TwoPhaseAndDirectDeliverEverything) {
  for (const rank_t p : {1, 2, 3, 5, 6, 7, 9, 16, 17}) {
    for (const char* kind : {"hot_sender", "hot_receiver", "sparse"}) {
      const auto counts = skewed(kind, p, 1000, 3);
      const auto layouts = plan::exchange_layouts(Collective::many_to_many, p, counts);
      for (const char* name : {"two_phase", "direct"}) {
        const sim::SimResult r = run(Collective::many_to_many, name, p, layouts);
        ASSERT_TRUE(r.ok()) << name << " " << kind << " p=" << p << ": " << r.errors[0];
        EXPECT_EQ(r.payload, "exact");
      }
    }
  }
}

TEST(ManyToMany, TwoPhaseBoundsEveryMessage) {
  // A hot sender or receiver: the direct schedule sends the hot rank's
  // messages whole; two-phase routing cuts every message to at most S/p + p
  // (phase 1) or R/p + p (phase 2), S and R the largest send and receive
  // volumes. The hot rank's own volume cannot shrink (it must cross its
  // port): with one hot rank, two-phase routing only adds a second pass.
  const rank_t p = 16;
  const std::int64_t big = 1 << 20, small = 16;
  for (const char* kind : {"hot_sender", "hot_receiver"}) {
    const auto counts = skewed(kind, p, big, small);
    const auto layouts = plan::exchange_layouts(Collective::many_to_many, p, counts);
    const sim::SimResult two = run(Collective::many_to_many, "two_phase", p, layouts);
    const sim::SimResult direct = run(Collective::many_to_many, "direct", p, layouts);
    ASSERT_TRUE(two.ok() && direct.ok());
    EXPECT_EQ(direct.max_message_bytes, big);
    const std::int64_t hot = (p - 1) * big + small;
    EXPECT_LE(two.max_message_bytes, hot / p + p);
    EXPECT_EQ(std::max(direct.max_bytes_sent, direct.max_bytes_received), (p - 1) * big);
    EXPECT_GE(std::max(two.max_bytes_sent, two.max_bytes_received), (p - 1) * big * (p - 1) / p);
  }
}

TEST(ManyToMany, TwoPhaseWinsOnSparsePermutationTraffic) {
  // Every rank sends one big message, to a random permutation of the ranks:
  // S = R = big, but the direct schedule's rounds each carry some big
  // message (rounds in lockstep: one per distinct shift), two-phase routing
  // about 2 (p-1) messages of big / p.
  const rank_t p = 16;
  const std::int64_t big = 1 << 20;
  std::vector<rank_t> perm(static_cast<std::size_t>(p));
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), std::mt19937_64(5));
  std::vector<std::int64_t> counts(static_cast<std::size_t>(p * p), 0);
  std::vector<bool> shift(static_cast<std::size_t>(p), false);
  for (rank_t i = 0; i < p; ++i) {
    counts[static_cast<std::size_t>(i * p + perm[static_cast<std::size_t>(i)])] = big;
    shift[static_cast<std::size_t>((perm[static_cast<std::size_t>(i)] - i + p) % p)] = true;
  }
  const auto layouts = plan::exchange_layouts(Collective::many_to_many, p, counts);
  sim::SimOptions opt;
  opt.alpha_beta = {2e-6, 1e-9};
  const sim::SimResult two = run(Collective::many_to_many, "two_phase", p, layouts, opt);
  const sim::SimResult direct = run(Collective::many_to_many, "direct", p, layouts, opt);
  ASSERT_TRUE(two.ok() && direct.ok());
  const auto shifts = std::count(shift.begin() + 1, shift.end(), true);
  EXPECT_NEAR(direct.alpha_beta_time, static_cast<double>(shifts) * (opt.alpha_beta.alpha + big * 1e-9), 1e-9);
  EXPECT_LE(two.alpha_beta_time, model::many_to_many_two_phase_time(p, big, big, opt.alpha_beta) * 1.0001);
  EXPECT_LT(two.alpha_beta_time, direct.alpha_beta_time / 2);
}

}  // namespace
}  // namespace optcoll
