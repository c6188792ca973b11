// The one selection (select/select.hpp), without MPI: the registry's prices
// against the simulator, the automatic choices against formulas written
// here, the overrides, and that the machine is asked only when needed.
#include "optcoll/select/select.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "optcoll/error.hpp"
#include "optcoll/sim/simulator.hpp"

namespace optcoll::select {
namespace {

using plan::Collective;
using plan::rank_t;

// Counts what decide() asks.
class CountingMachine final : public Machine {
 public:
  explicit CountingMachine(model::AlphaBeta ab, std::int64_t cap = 0) : ab_(ab), cap_(cap) {}
  model::AlphaBeta alpha_beta() override {
    ++asked;
    return ab_;
  }
  std::int64_t max_block_bytes() override {
    ++asked;
    return cap_;
  }
  std::optional<Logp> logp() override {
    ++asked;
    return std::nullopt;
  }
  int asked = 0;

 private:
  model::AlphaBeta ab_;
  std::int64_t cap_;
};

constexpr model::AlphaBeta kAb{2e-6, 1e-10};

// Every priced registry algorithm of the collectives the simulator runs
// with a default layout: its price's rounds equal the plan's, and its time
// the simulated alpha-beta time, with blocks that divide evenly.
TEST(Prices, MatchTheSimulator) {
  for (const plan::AlgorithmInfo& a : plan::algorithms()) {
    if (a.price == nullptr || plan::is_exchange(a.op)) continue;  // exchanges: tests/alltoall
    for (rank_t p : {2, 3, 5, 8, 13, 64}) {
      for (std::int64_t n : {1, 4}) {
        if (n > 1 && a.blocking != plan::Blocking::n) continue;
        // count: a multiple of p * n (every group and block even), of p*p
        // for scatter_allgather's p blocks.
        const std::int64_t count = 8 * p * p * n;
        plan::PlanSpec spec{a.op, p, 0, count, a.blocking == plan::Blocking::per_rank ? p : n, !a.needs_commutative};
        spec.commutative = true;
        spec.exact = true;
        const plan::PlanSetup setup(spec);
        sim::SimOptions opt;
        opt.alpha_beta = kAb;
        opt.track_payload = false;
        const sim::SimResult r = sim::simulate(setup.context(), a.make, opt);
        ASSERT_TRUE(r.ok()) << a.name;
        Call c{.op = a.op, .p = p, .elem_size = 1, .count = count};
        if (plan::has_rank_groups(a.op) && a.op != Collective::allreduce) c.count = count / p;  // one group
        const plan::Price price = a.price(shape_of(c), spec.blocks, kAb);
        const std::string at = std::string(plan::to_string(a.op)) + "/" + std::string(a.name) +
                               " p=" + std::to_string(p) + " n=" + std::to_string(n);
        EXPECT_EQ(price.rounds, r.rounds) << at;
        EXPECT_EQ(price.blocks, spec.blocks) << at;
        // The ordered reduce-scatter's price bounds its binomial scatter by
        // the root's volume; the gather trees' is exact for powers of two.
        const bool bound = a.name == "ordered" && a.op == Collective::reduce_scatter;
        const bool tree = a.op == Collective::gather || a.op == Collective::scatter;
        if (a.needs_overhead || a.final_messages)  // streamed, not round by round: the rounds bound it
          EXPECT_LE(price.time, r.alpha_beta_time * (1 + 1e-12)) << at;
        else if (bound || (tree && (p & (p - 1)) != 0))
          EXPECT_GE(price.time, r.alpha_beta_time * (1 - 1e-12)) << at;
        else
          EXPECT_NEAR(price.time, r.alpha_beta_time, 1e-12 + 1e-9 * r.alpha_beta_time) << at;
      }
    }
  }
}

// Gather/Scatter's linear plan: priced alpha + max((p - 2) o, beta (m -
// smallest)) (the root's p - 1 messages o apart, hidden behind its link's
// bytes), the classic `linear` priced alike where o is known (so the
// drop-in's `auto` sees MPI's own linear algorithm at that price), never
// chosen by decide(); Gatherv/Scatterv take it where (p - 2) o < 4 T, T
// the 8-byte binomial tree (q alpha where not measured), and o is known
// (v_runs_linear: the smaller of the two plans' worst regrets over the
// unknown bytes). The formulas are written here.
TEST(Decide, LinearGatherPricedWithTheOverheadAndChosenForTheVariants) {
  for (const Collective op : {Collective::gather, Collective::scatter}) {
    for (const rank_t p : {3, 5, 16, 64, 100, 256, 1024}) {
      const double q = std::ceil(std::log2(static_cast<double>(p)));
      for (const std::int64_t b : {std::int64_t{0}, std::int64_t{8}, std::int64_t{4096}, std::int64_t{1} << 20}) {
        for (const double o : {0.0, 1e-7, 3e-7, 1e-6}) {
          const model::AlphaBeta ab{6e-6, 6e-11, o};
          const Call c{.op = op, .p = p, .elem_size = 1, .count = b};
          CountingMachine machine(ab);
          const Decision d = decide(c, {}, machine, true);
          const std::string at = std::string(plan::to_string(op)) + " p=" + std::to_string(p) +
                                 " b=" + std::to_string(b) + " o=" + std::to_string(o);
          EXPECT_NE(d.algorithm->name, "linear") << at;
          const double bytes = ab.beta * static_cast<double>(b * (p - 1));
          const double linear = o > 0 ? ab.alpha + std::max(static_cast<double>(p - 2) * o, bytes)
                                      : static_cast<double>(p - 1) * ab.alpha + bytes;
          const double binomial = q * ab.alpha + bytes;
          EXPECT_EQ(d.classic, linear < binomial ? "linear" : "binomial") << at;
          EXPECT_NEAR(d.classic_time, std::min(linear, binomial), 1e-15) << at;
          EXPECT_NEAR(plan::find_algorithm(op, "linear")->price(shape_of(c), 1, ab).time,
                      o > 0 ? linear : ab.alpha + std::max(static_cast<double>(p - 2) * ab.alpha, bytes), 1e-15)
              << at;
        }
      }
      for (const double o : {0.0, 1e-7, 3e-7, 1e-6, 1e-5}) {
        for (const double tree : {0.0, 1e-5, 4e-5}) {
          const model::AlphaBeta ab{6e-6, 6e-11, o};
          const double oo = std::min(o, ab.alpha);
          const double t = tree > 0 ? tree : q * ab.alpha;
          const bool want = p >= 3 && o > 0 && static_cast<double>(p - 2) * oo < 4 * t;
          EXPECT_EQ(v_runs_linear(p, ab, tree), want) << "p=" << p << " o=" << o << " tree=" << tree;
        }
      }
    }
  }
  // The fat tree of the SMPI benchmark, as calibrated there (o = 0.3 us,
  // alpha 4.4-4.6 us, beta 80 ps/B; the 8-byte tree 17.6, 28.1 and 37.3 us):
  // linear up to p = 256, trees at p = 1024.
  EXPECT_TRUE(v_runs_linear(64, {4.354e-6, 8e-11, 3.006e-7}, 17.62e-6));
  EXPECT_TRUE(v_runs_linear(256, {4.641e-6, 8e-11, 3.006e-7}, 28.07e-6));
  EXPECT_FALSE(v_runs_linear(1024, {4.633e-6, 8e-11, 3.006e-7}, 37.27e-6));
}

// Regular Scatter: the linear plan where round + max((p - 2) o, beta (p - 1)
// block) < tree + beta (p - 1) block (the formula written here), never with
// o, the small round or the tree unknown, nor below p = 3. With the SMPI fat
// tree's calibration at p = 64 (o = 0.3 us, a small round 4.4 us, the
// 8-byte binomial tree 17.6 us, beta 80 ps/B): the tree up to 64 KiB in
// all, the linear plan from 256 KiB; at p = 256 the linear plan at 1 MiB;
// at p = 1024 (tree 37.3 us) the tree at 1 MiB.
TEST(Decide, ScatterRunsLinearWhereTheBytesHideTheOverheads) {
  for (const rank_t p : {2, 3, 5, 16, 64, 256, 1024}) {
    for (const std::int64_t b : {std::int64_t{8}, std::int64_t{1} << 10, std::int64_t{1} << 16}) {
      for (const double o : {0.0, 3e-7, 1e-6}) {
        for (const double round : {0.0, 2e-6, 5e-6}) {
          for (const double tree : {0.0, 1e-5, 4e-5}) {
            const model::AlphaBeta ab{6e-6, 6e-11, o};
            const double bytes = ab.beta * static_cast<double>((p - 1) * b);
            const bool want = p >= 3 && o > 0 && round > 0 && tree > 0 &&
                              round + std::max(static_cast<double>(p - 2) * o, bytes) < tree + bytes;
            EXPECT_EQ(scatter_runs_linear(p, b, ab, round, tree), want)
                << "p=" << p << " b=" << b << " o=" << o << " round=" << round << " tree=" << tree;
          }
        }
      }
    }
  }
  const model::AlphaBeta fat64{4.354e-6, 8e-11, 3.006e-7};
  EXPECT_FALSE(scatter_runs_linear(64, (64 << 10) / 64, fat64, 4.354e-6, 17.62e-6));
  EXPECT_TRUE(scatter_runs_linear(64, (256 << 10) / 64, fat64, 4.354e-6, 17.62e-6));
  EXPECT_TRUE(scatter_runs_linear(64, (1 << 20) / 64, fat64, 4.354e-6, 17.62e-6));
  // p = 256, 1 MiB: the root's bytes (84 us at the links' 80 ps/B) hide its
  // 254 overheads (76 us). With the beta read before the calibration timed
  // each size after its own (52 ps/B) it kept the tree, 1.21x SMPI's.
  EXPECT_TRUE(scatter_runs_linear(256, (1 << 20) / 256, {4.641e-6, 8e-11, 3.006e-7}, 4.641e-6, 28.07e-6));
  EXPECT_FALSE(scatter_runs_linear(256, (1 << 20) / 256, {7.392e-6, 5.228e-11, 3.006e-7}, 7.392e-6, 28.07e-6));
  EXPECT_FALSE(scatter_runs_linear(1024, (1 << 20) / 1024, {4.633e-6, 8e-11, 3.006e-7}, 4.633e-6, 37.27e-6));
}

// The alpha-beta optimum n* = sqrt((q-1) beta m / alpha), rounded to the
// better neighbour: the circulant time (n-1+q)(alpha + beta m/n) at the
// decided n is no worse than at n-1 and n+1.
TEST(Decide, BcastRunsCirculantWithTheModelsBlocks) {
  for (rank_t p : {5, 64, 1000}) {
    for (std::int64_t m : {std::int64_t{1} << 10, std::int64_t{1} << 20, std::int64_t{1} << 24}) {
      CountingMachine machine(kAb);
      const Decision d = decide({.op = Collective::bcast, .p = p, .elem_size = 1, .count = m}, {}, machine);
      ASSERT_EQ(d.algorithm->name, "circulant");
      EXPECT_TRUE(d.automatic);
      const int q = static_cast<int>(std::ceil(std::log2(static_cast<double>(p))));
      const auto t = [&](double n) { return (n - 1 + q) * (kAb.alpha + kAb.beta * static_cast<double>(m) / n); };
      const auto n = static_cast<double>(d.blocks);
      EXPECT_LE(t(n), t(n + 1)) << "p=" << p << " m=" << m;
      if (n > 1) {
        EXPECT_LE(t(n), t(n - 1)) << "p=" << p << " m=" << m;
      }
      EXPECT_NEAR(n, std::sqrt((q - 1) * kAb.beta * static_cast<double>(m) / kAb.alpha), 1.0);
    }
  }
}

// The cache cap: above 64 KiB a Bcast's block is at most the cap; below,
// the cap is not asked for.
TEST(Decide, BlockCap) {
  CountingMachine big(kAb, 256 << 10);
  const std::int64_t m = std::int64_t{16} << 20;
  const Decision d = decide({.op = Collective::bcast, .p = 8, .elem_size = 1, .count = m}, {}, big);
  EXPECT_GE(d.blocks, m / (256 << 10));
  CountingMachine small(kAb, 1);
  const Decision e = decide({.op = Collective::bcast, .p = 8, .elem_size = 1, .count = 1000}, {}, small);
  EXPECT_EQ(e.blocks, 1);
}

// The cap raises the block count of what is chosen; it never changes the
// choice or the predicted time. At a high alpha (an oversubscribed node's)
// a 16 MiB Reduce priced at 128 capped blocks would lose to the whole-vector
// tree (131 (alpha + beta m / 128) > 4 (alpha + beta m)), though the model's
// own block count wins by far.
TEST(Decide, CapDoesNotChangeTheChoice) {
  const model::AlphaBeta slow{1.0e-4, 1.8e-10};
  const std::int64_t m = std::int64_t{16} << 20;
  const Call call{.op = Collective::reduce, .p = 16, .elem_size = 4, .count = m / 4, .exact = true};
  CountingMachine uncapped(slow);
  CountingMachine capped(slow, 128 << 10);
  const Decision a = decide(call, {}, uncapped, true);
  const Decision b = decide(call, {}, capped, true);
  EXPECT_EQ(a.algorithm->name, "circulant");
  EXPECT_EQ(b.algorithm->name, "circulant");
  EXPECT_EQ(b.blocks, m / (128 << 10));
  EXPECT_LT(a.blocks, b.blocks);
  EXPECT_DOUBLE_EQ(a.time, b.time);
  const double q = 4;  // the whole-vector tree, a formula
  EXPECT_LT(a.time, q * (slow.alpha + slow.beta * static_cast<double>(m)));
  EXPECT_GT((static_cast<double>(b.blocks) - 1 + q) * (slow.alpha + slow.beta * static_cast<double>(m / b.blocks)),
            q * (slow.alpha + slow.beta * static_cast<double>(m)));
}

// Allreduce: the whole-vector plan for short vectors (dissemination for an
// exact operator, q (alpha + beta m), else doubling, one round more unless
// p is a power of two; at that tie doubling, for its partners' locality),
// a reduce-scatter + allgather for long ones (2 (q alpha + beta m (p-1)/p)
// at n = 1: recursive halving and doubling at a power of two, circulant
// otherwise), never a whole-vector plan above 64 KiB for a commutative
// operator; doubling for a non-commutative one at any size.
TEST(Decide, AllreduceByOperatorAndSize) {
  const auto pick = [](rank_t p, std::int64_t m, bool commutative, bool exact, model::AlphaBeta ab = kAb) {
    CountingMachine machine(ab);
    return std::string(decide({.op = Collective::allreduce,
                               .p = p,
                               .elem_size = 4,
                               .count = m / 4,
                               .commutative = commutative,
                               .exact = exact},
                              {}, machine)
                           .algorithm->name);
  };
  for (rank_t p : {3, 8, 100}) {
    const std::string exact_short = (p & (p - 1)) == 0 ? "doubling" : "dissemination";
    EXPECT_EQ(pick(p, 64, true, true), exact_short) << p;
    EXPECT_EQ(pick(p, 64, true, false), "doubling") << p;
    EXPECT_EQ(pick(p, 64, false, false), "doubling") << p;
    // Long vectors: recursive halving and doubling at a power of two (the
    // circulant plan's rounds and volume at n = 1, listed first), the
    // circulant plan's fewer rounds and bytes otherwise.
    EXPECT_EQ(pick(p, 16 << 20, true, false), (p & (p - 1)) == 0 ? "rabenseifner" : "circulant") << p;
    EXPECT_EQ(pick(p, 16 << 20, false, false), "doubling") << p;
    // Latency-bound everywhere (alpha = 1 s): still no whole vector above
    // the limit.
    EXPECT_EQ(pick(p, (64 << 10) + 4, true, true, {1, 1e-10}), (p & (p - 1)) == 0 ? "rabenseifner" : "circulant") << p;
    EXPECT_EQ(pick(p, 64 << 10, true, true, {1, 1e-10}), exact_short) << p;
  }
}

// Scan: doubling, q (alpha + beta m), against the chain of depth p-1,
// (n+p-2)(alpha + beta m/n): the chain for long vectors on few ranks.
TEST(Decide, ScanDoublingOrPipeline) {
  CountingMachine machine(kAb);
  EXPECT_EQ(decide({.op = Collective::scan, .p = 8, .elem_size = 1, .count = 100}, {}, machine).algorithm->name,
            "doubling");
  const Decision d = decide({.op = Collective::scan, .p = 4, .elem_size = 1, .count = 64 << 20}, {}, machine);
  EXPECT_EQ(d.algorithm->name, "pipeline");
  EXPECT_GT(d.blocks, 1);
}

// Scan / Exscan, short vectors: the linear plan, alpha + max((p-2) o,
// beta (p-1) m), where it is below doubling's q (alpha + beta m), o known
// (unknown: its p - 1 rounds one after another, never below doubling), and
// never beyond kLinearScanMaxBytes. At p = 3 it is never slower whatever o
// (two messages in flight against two rounds): taken without asking. The
// pipeline's (n+p-2) rounds never win at these sizes. The fat tree of the
// SMPI benchmark (o = 0.3 us): linear at p = 64 and 100, doubling at 256.
TEST(Decide, LinearScanForShortVectorsWhereTheOverheadIsSmall) {
  for (const Collective op : {Collective::scan, Collective::exscan}) {
    for (const rank_t p : {2, 3, 5, 16, 64, 100, 256, 1024}) {
      const double q = std::ceil(std::log2(static_cast<double>(p)));
      for (const std::int64_t m : {std::int64_t{8}, std::int64_t{256}, std::int64_t{4096}, std::int64_t{8192}}) {
        for (const double o : {0.0, 1e-7, 3e-7, 1e-6}) {
          const model::AlphaBeta ab{6e-6, 6e-11, o};
          CountingMachine machine(ab);
          const Decision d = decide({.op = op, .p = p, .elem_size = 1, .count = m}, {}, machine);
          const double linear =
              o > 0 ? ab.alpha + std::max(static_cast<double>(p - 2) * o, ab.beta * static_cast<double>((p - 1) * m))
                    : static_cast<double>(p - 1) * (ab.alpha + ab.beta * static_cast<double>(m));
          const double doubling = q * (ab.alpha + ab.beta * static_cast<double>(m));
          const bool want = m <= model::kLinearScanMaxBytes && (linear < doubling || p == 3);
          EXPECT_EQ(d.algorithm->name, want ? "linear" : "doubling")
              << plan::to_string(op) << " p=" << p << " m=" << m << " o=" << o;
        }
      }
    }
    const auto name = [&](rank_t p, model::AlphaBeta ab) {
      CountingMachine machine(ab);
      return std::string(decide({.op = op, .p = p, .elem_size = 1, .count = 8}, {}, machine).algorithm->name);
    };
    EXPECT_EQ(name(64, {6.459e-6, 4.711e-11, 3.006e-7}), "linear");
    EXPECT_EQ(name(100, {6.758e-6, 1.23e-10, 3.006e-7}), "linear");
    EXPECT_EQ(name(256, {5.919e-6, 5.533e-11, 3.006e-7}), "doubling");
  }
}

// Allgatherv with unequal groups (rank i holds (i mod 3) thousand bytes) at
// p = 64: without the groups' doubling volume the doubling price bounds
// every group by the largest, 2 thousand bytes, and the circulant plan wins;
// with it (about one thousand bytes per group in each aligned range) the
// doubling plan's q rounds move less than the circulant plan's excess.
TEST(Decide, AllgatherDoublingFromTheGroups) {
  CountingMachine machine(kAb);
  std::vector<plan::Segment> groups;
  std::int64_t total = 0;
  for (int i = 0; i < 64; ++i) {
    groups.push_back({total, (i % 3) * 1000});
    total += (i % 3) * 1000;
  }
  Call c{.op = Collective::allgather, .p = 64, .count = 2000, .smallest = 0, .total = total};
  EXPECT_EQ(decide(c, {}, machine).algorithm->name, "circulant");
  c.doubling = plan::doubling_elements(groups);
  // 6 rounds: each the largest aligned range of 2^k groups, 2^k thousand
  // bytes give or take the last group's.
  EXPECT_GE(c.doubling, 63000 - 6 * 1000);
  EXPECT_LE(c.doubling, 63000 + 6 * 2000);
  EXPECT_EQ(decide(c, {}, machine).algorithm->name, "doubling");
  c.op = Collective::reduce_scatter;
  EXPECT_EQ(decide(c, {}, machine).algorithm->name, "halving");
}

// Allreduce of a long vector whose count p does not divide: at a power of
// two recursive halving and doubling, priced with its exact volume, ties
// the circulant plan in rounds and wins on bytes or registry order, on a
// latency-bound and a bandwidth-bound machine; at other p the circulant
// plan's fewer rounds and bytes win.
TEST(Decide, AllreduceHalvingDoublingAtPowersOfTwo) {
  for (const model::AlphaBeta ab : {model::AlphaBeta{1, 1e-10}, model::AlphaBeta{1e-6, 1e-9}}) {
    CountingMachine machine(ab);
    for (const rank_t p : {4, 8, 64, 6, 100}) {
      const Call c{.op = Collective::allreduce, .p = p, .elem_size = 4, .count = 16385, .commutative = true};
      EXPECT_EQ(decide(c, {}, machine).algorithm->name, (p & (p - 1)) == 0 ? "rabenseifner" : "circulant") << p;
    }
  }
}

// Alltoall: Bruck below the crossover block size, the shift schedule above.
TEST(Decide, AlltoallBruckOrShift) {
  CountingMachine machine(kAb);
  EXPECT_EQ(decide({.op = Collective::alltoall, .p = 64, .count = 8}, {}, machine).algorithm->name, "bruck");
  EXPECT_EQ(decide({.op = Collective::alltoall, .p = 64, .count = 1 << 20}, {}, machine).algorithm->name, "shift");
}

// One candidate and no block count to choose: the machine is not asked
// (the MPI layer would calibrate for nothing); likewise a named Blocking::one
// algorithm, and equal groups of an allgather (n = 1) up to the cap's
// threshold.
TEST(Decide, AsksTheMachineOnlyWhenNeeded) {
  CountingMachine machine(kAb);
  decide({.op = Collective::reduce, .p = 9, .count = 1 << 20, .commutative = false}, {}, machine);
  decide({.op = Collective::alltoallv, .p = 9, .count = 1 << 20}, {}, machine);
  decide({.op = Collective::bcast, .p = 9, .count = 1 << 20}, {.algorithm = "binomial"}, machine);
  decide({.op = Collective::allgather, .p = 9, .count = 1000}, {}, machine);
  decide({.op = Collective::bcast, .p = 9, .count = 1 << 20}, {.blocks = 7}, machine);
  EXPECT_EQ(machine.asked, 0);
  decide({.op = Collective::bcast, .p = 9, .count = 1 << 20}, {}, machine);
  EXPECT_GT(machine.asked, 0);
}

TEST(Decide, Overrides) {
  CountingMachine machine(kAb);
  const Call bcast{.op = Collective::bcast, .p = 9, .count = 1000};
  EXPECT_EQ(decide(bcast, {.blocks = 7}, machine).blocks, 7);
  EXPECT_EQ(decide(bcast, {.block_bytes = 300}, machine).blocks, 4);      // ceil(1000 / 300)
  EXPECT_EQ(decide(bcast, {.blocks = 5000}, machine).blocks, 1000);       // at most one element per block
  const Decision named = decide(bcast, {.algorithm = "chain"}, machine);  // a baseline, by name
  EXPECT_EQ(named.algorithm->name, "chain");
  EXPECT_FALSE(named.automatic);
  EXPECT_THROW(decide(bcast, {.algorithm = "nope"}, machine), Error);
  // Invalid for the operator: replaced by the automatic choice.
  const Decision f = decide({.op = Collective::allreduce, .p = 9, .count = 10, .commutative = true, .exact = false},
                            {.algorithm = "dissemination"}, machine);
  EXPECT_TRUE(f.fallback);
  EXPECT_EQ(f.algorithm->name, "doubling");
  const Decision g = decide({.op = Collective::reduce, .p = 9, .count = 10, .commutative = false},
                            {.algorithm = "circulant"}, machine);
  EXPECT_TRUE(g.fallback);
  EXPECT_EQ(g.algorithm->name, "binomial_ordered");
}

// The LogP tree rule on a network (L = 4.4 us, o = g = 0.3 us, L/g about
// 15): a root that posts a send every g reaches p - 1 children in
// (p - 2) g + 2o + L, below the binomial tree's ceil(log2 p) (L + 2o) for
// p = 6, so the rule takes logp_tree for a small Bcast. It gives Reduce the
// tree only under LogpRule::bcast_and_reduce, and nothing when off or
// beyond kLogpMaxBytes.
TEST(Decide, LogpRuleTakesTheTreeForBcastWhereLatencyDominates) {
  const double L = 4.4e-6, o = 0.3e-6, g = 0.3e-6;
  const int p = 6;
  ASSERT_LT((p - 2) * g + 2 * o + L, std::ceil(std::log2(p)) * (L + 2 * o));  // the premise, by formula
  Machine::Logp lp;
  lp.units = {440, 30, 30, 0};
  lp.seconds = {L, o, g, 1e-10};
  FixedMachine machine({L + 2 * o, 1e-10, o}, 0, lp);
  const Call bcast{.op = Collective::bcast, .p = p, .count = 8};
  const Call reduce{.op = Collective::reduce, .p = p, .count = 8, .commutative = true};
  EXPECT_EQ(decide(bcast, {.logp = LogpRule::bcast}, machine).algorithm->name, "logp_tree");
  EXPECT_EQ(decide(bcast, {.logp = LogpRule::bcast_and_reduce}, machine).algorithm->name, "logp_tree");
  EXPECT_NE(decide(bcast, {}, machine).algorithm->name, "logp_tree");  // off
  EXPECT_NE(decide(reduce, {.logp = LogpRule::bcast}, machine).algorithm->name, "logp_tree");
  const Call big{.op = Collective::bcast, .p = p, .count = kLogpMaxBytes + 1};
  EXPECT_NE(decide(big, {.logp = LogpRule::bcast}, machine).algorithm->name, "logp_tree");
  const Call two{.op = Collective::bcast, .p = 2, .count = 8};
  EXPECT_NE(decide(two, {.logp = LogpRule::bcast}, machine).algorithm->name, "logp_tree");
}

// Predicted times: optcoll's plan and the best classic algorithm in the
// same model, from formulas written here. Bcast of 16 MiB on 1000 ranks:
// the circulant broadcast beats every classic one; 8 bytes: a tie with the
// binomial tree (n = 1 is the binomial tree's time).
TEST(Decide, PredictsOptcollAndTheClassicAlgorithm) {
  CountingMachine machine(kAb);
  const Decision big = decide({.op = Collective::bcast, .p = 1000, .count = 16 << 20}, {}, machine, true);
  const int q = 10;
  const auto n = static_cast<double>(big.blocks);
  EXPECT_NEAR(big.time, (n - 1 + q) * (kAb.alpha + kAb.beta * std::ceil((16 << 20) / n)), 1e-9);
  EXPECT_LT(big.time, big.classic_time);
  const Decision small = decide({.op = Collective::bcast, .p = 1000, .count = 8}, {}, machine, true);
  EXPECT_NEAR(small.time, q * (kAb.alpha + 8 * kAb.beta), 1e-12);
  EXPECT_NEAR(small.classic_time, small.time, 1e-12);
  // Allreduce of 1 MiB on 1000 ranks: circulant, 2 ((n-1+q) alpha + beta
  // (m - m/p)) + fill, against Rabenseifner's extra fold rounds at p != 2^k.
  const Decision ar =
      decide({.op = Collective::allreduce, .p = 1000, .elem_size = 4, .count = 1 << 18, .commutative = true}, {},
             machine, true);
  EXPECT_EQ(ar.algorithm->name, "circulant");
  EXPECT_LT(ar.time, ar.classic_time);
}

// What the drop-in's `auto` compares: for large broadcasts the pipeline
// (n-1+q rounds) beats every classic algorithm; for one byte, q rounds
// either way (a tie, which `auto` leaves native); a non-commutative
// reduction runs the rank-ordered tree on both sides.
TEST(Decide, PredictionsBehindAuto) {
  CountingMachine machine({10e-6, 1e-9});
  for (const rank_t p : {5, 8, 17, 1000}) {
    const Decision big = decide({.op = Collective::bcast, .p = p, .count = 64 << 20}, {}, machine, true);
    EXPECT_LT(big.time, big.classic_time) << p;
    const Decision tiny = decide({.op = Collective::bcast, .p = p, .count = 1}, {}, machine, true);
    EXPECT_GE(tiny.time, tiny.classic_time) << p;
  }
  const Decision nc =
      decide({.op = Collective::reduce, .p = 8, .count = 64 << 20, .commutative = false}, {}, machine, true);
  EXPECT_DOUBLE_EQ(nc.time, nc.classic_time);
  const Decision c = decide({.op = Collective::reduce, .p = 8, .count = 64 << 20}, {}, machine, true);
  EXPECT_LT(c.time, c.classic_time);
  for (std::size_t i = 0; i < plan::kCollectives; ++i) {
    const auto op = static_cast<Collective>(i);
    const Decision d =
        decide({.op = op, .p = 12, .count = 1 << 20, .total = op == Collective::many_to_many ? 1 << 20 : -1}, {},
               machine, true);
    EXPECT_GT(d.time, 0) << plan::to_string(op);
    EXPECT_GT(d.classic_time, 0) << plan::to_string(op);
  }
}

// Gatherv's TWO rule against Lemma 2 evaluated here: one rank of y bytes,
// at the root, the others x; TWO iff ceil(log2(p-1)) alpha + beta (p-1) x
// <= beta y. Off the root, with several large ranks or three sizes: never,
// unless named (then whenever there are exactly two sizes).
TEST(ChooseTwo, Lemma2) {
  const model::AlphaBeta ab{1e-6, 1e-9};
  for (const rank_t p : {3, 5, 9, 17}) {
    const double q = std::ceil(std::log2(static_cast<double>(p - 1)));
    for (const std::int64_t x : {8, 1000}) {
      for (const std::int64_t y : {2000, 20000, 2000000}) {
        for (const rank_t root : {0, 2}) {
          std::vector<std::int64_t> m(static_cast<std::size_t>(p), x);
          m[2] = y;  // rank 2 holds the large block
          const bool lemma = root == 2 && q * ab.alpha + ab.beta * static_cast<double>((p - 1) * x) <=
                                              ab.beta * static_cast<double>(y);
          const auto got = choose_two(m, root, ab, false);
          EXPECT_EQ(got.has_value(), lemma) << "p=" << p << " x=" << x << " y=" << y << " root=" << root;
          if (got) {
            EXPECT_EQ(got->x, x);
            EXPECT_EQ(got->y, y);
            EXPECT_EQ(got->single, 2);
          }
          EXPECT_TRUE(choose_two(m, root, ab, true).has_value());
        }
      }
    }
    std::vector<std::int64_t> two_large(static_cast<std::size_t>(p), 8);
    two_large[0] = two_large[1] = 1 << 30;
    EXPECT_FALSE(choose_two(two_large, 0, ab, false).has_value());
    EXPECT_TRUE(choose_two(two_large, 0, ab, true).has_value());
    std::vector<std::int64_t> three(static_cast<std::size_t>(p), 8);
    three[0] = 1 << 30;
    three[1] = 16;
    EXPECT_FALSE(choose_two(three, 0, ab, true).has_value());
  }
}

// The default takes TWO exactly where Lemma 2 applies.
TEST(ChooseTwo, AtTheBoundary) {
  const model::AlphaBeta ab{1e-5, 1e-9};  // y must outweigh ceil(log2(p-1)) * 10^4 bytes
  for (rank_t p : {4, 9, 16, 100}) {
    std::vector<std::int64_t> m(static_cast<std::size_t>(p), 8);
    m[1] = 8 * (p - 1) + 10000 * 7 + 1;
    EXPECT_EQ(choose_two(m, 1, ab, false).has_value(), true) << p;
    EXPECT_EQ(choose_two(m, 1, ab, false)->single, 1) << p;
    EXPECT_EQ(choose_two(m, 0, ab, false).has_value(), false) << p;  // the y-block is not at the root
    EXPECT_EQ(choose_two(m, 0, ab, true).has_value(), true) << p;
    m[1] = 8 * (p - 1) + 1;  // too small to hide the x-tree
    EXPECT_EQ(choose_two(m, 1, ab, false).has_value(), false) << p;
    EXPECT_EQ(choose_two(m, 1, ab, true).has_value(), true) << p;
    m[2] = m[1];  // two y-blocks: only when forced
    EXPECT_EQ(choose_two(m, 1, ab, false).has_value(), false) << p;
    EXPECT_EQ(choose_two(m, 1, ab, true).has_value(), true) << p;
    EXPECT_EQ(choose_two(m, 1, ab, true)->single, -1) << p;
    m[3] = 5;  // three sizes
    EXPECT_EQ(choose_two(m, 1, ab, true).has_value(), false) << p;
  }
}

}  // namespace
}  // namespace optcoll::select
