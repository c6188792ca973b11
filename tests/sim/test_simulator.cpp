// The simulator runs the real plans and checks their data flow exactly; these
// tests assert the plans' invariants through it, and that it catches broken
// plans (double counting, unheld blocks, mismatched messages, rank order).
#include "optcoll/sim/simulator.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <tuple>

#include "optcoll/model/baselines.hpp"
#include "optcoll/plan/logp_tree.hpp"
#include "optcoll/plan/reversed.hpp"

namespace optcoll::sim {
namespace {

using plan::Collective;
using plan::rank_t;

SimResult run(Collective op, rank_t p, rank_t root, std::int64_t count, std::int64_t n, plan::PlanFactory make,
              bool commutative = true, const SimOptions& opt = {}) {
  const plan::PlanSetup setup({op, p, root, count, n, commutative});
  return simulate(setup.context(), make, opt);
}

std::string first_error(const SimResult& r) {
  return r.errors.empty() ? std::string() : r.errors.front();
}

std::vector<rank_t> roots_of(rank_t p) {
  std::vector<rank_t> roots{0, p / 2, p - 1};
  std::sort(roots.begin(), roots.end());
  roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
  return roots;
}

std::vector<std::int64_t> block_counts(int q) {
  std::vector<std::int64_t> ns{1, q - 1, q, q + 1, 2 * q + 3};
  std::erase_if(ns, [](std::int64_t n) { return n < 1; });
  return ns;
}

// Every p <= 512, every root class, n in {1, q-1, q, q+1, 2q+3}: the
// circulant broadcast and reduction take exactly n-1+q rounds, every round
// carries traffic, the data flow is exact, and every non-root receives
// (bcast) or sends (reduce) each element exactly once.
class CirculantExact : public ::testing::TestWithParam<int> {};

TEST_P(CirculantExact, BcastAndReduceUpTo512) {
  const int slice = GetParam();
  for (rank_t p = 1 + slice; p <= 512; p += 8) {
    const int q = schedule::Circulant(p).q();
    for (rank_t root : roots_of(p)) {
      for (std::int64_t n : block_counts(q)) {
        const std::int64_t count = 3 * n + 1;  // uneven blocks
        for (Collective op : {Collective::bcast, Collective::reduce}) {
          const auto make = op == Collective::bcast ? &plan::make_bcast_circulant : &plan::make_reduce_circulant;
          const SimResult r = run(op, p, root, count, n, make);
          const std::string where = "p=" + std::to_string(p) + " root=" + std::to_string(root) +
                                    " n=" + std::to_string(n) + " op=" + std::string(plan::to_string(op));
          ASSERT_TRUE(r.ok()) << where << ": " << first_error(r);
          EXPECT_EQ(r.payload, "exact") << where;
          EXPECT_EQ(r.tracked_blocks, n) << where;
          const std::int64_t rounds = p == 1 ? 0 : n - 1 + q;
          ASSERT_EQ(r.rounds, rounds) << where;
          EXPECT_EQ(r.active_rounds, rounds) << where;
          EXPECT_EQ(r.total_bytes, (p - 1) * count) << where;
          const std::int64_t once = p == 1 ? 0 : count;
          EXPECT_EQ(op == Collective::bcast ? r.max_bytes_received : r.max_bytes_sent, once) << where;
        }
      }
    }
  }
}
INSTANTIATE_TEST_SUITE_P(Slices, CirculantExact, ::testing::Range(0, 8));

// Under alpha-beta every circulant round moves one full block somewhere, so
// the simulated time is the model's (n-1+q)(alpha + beta*m/n) exactly.
TEST(Simulator, CirculantTimeMatchesModel) {
  for (rank_t p : {2, 3, 7, 17, 100, 1000}) {
    const int q = schedule::Circulant(p).q();
    for (std::int64_t n : {1, 4, 25}) {
      const std::int64_t m = n * 1000;
      const model::AlphaBeta ab{3e-6, 2e-10};
      SimOptions opt;
      opt.alpha_beta = ab;
      const SimResult r = run(Collective::bcast, p, 0, m, n, &plan::make_bcast_circulant, true, opt);
      ASSERT_TRUE(r.ok());
      EXPECT_NEAR(r.alpha_beta_time, model::circulant_time(q, m, n, ab), 1e-12) << "p=" << p << " n=" << n;
    }
  }
}

// Large p: the round count is n-1+q and the data flow holds (sampled
// fingerprints for the reduction beyond the exact limit).
TEST(Simulator, RoundCountsUpTo1e5) {
  for (rank_t p : {65536, 65537, 99991, 100000}) {
    const int q = schedule::Circulant(p).q();
    for (std::int64_t n : {1, 10, 37}) {
      for (Collective op : {Collective::bcast, Collective::reduce}) {
        const auto make = op == Collective::bcast ? &plan::make_bcast_circulant : &plan::make_reduce_circulant;
        const SimResult r = run(op, p, p / 3, 4 * n, n, make);
        ASSERT_TRUE(r.ok()) << "p=" << p << " n=" << n << ": " << first_error(r);
        EXPECT_EQ(r.rounds, n - 1 + q);
        EXPECT_EQ(r.active_rounds, n - 1 + q);
        EXPECT_EQ(r.payload, op == Collective::bcast ? "exact" : "fingerprint");
      }
    }
  }
}

TEST(Simulator, DegenerateCases) {
  for (Collective op : {Collective::bcast, Collective::reduce}) {
    const auto make = op == Collective::bcast ? &plan::make_bcast_circulant : &plan::make_reduce_circulant;
    const SimResult one = run(op, 1, 0, 100, 5, make);
    EXPECT_TRUE(one.ok());
    EXPECT_EQ(one.rounds, 0);
    const SimResult empty = run(op, 9, 4, 0, 5, make);
    EXPECT_TRUE(empty.ok());
    EXPECT_EQ(empty.rounds, 0);
    EXPECT_EQ(empty.messages, 0);
    // More blocks than elements: clamped to one element per block.
    const SimResult few = run(op, 9, 4, 3, 50, make);
    EXPECT_TRUE(few.ok()) << first_error(few);
    EXPECT_EQ(few.rounds, 3 - 1 + 4);
  }
}

// Non-commutative operators: the ordered binomial reduction combines
// adjacent rank intervals only, for every p and root.
TEST(Simulator, OrderedReductionKeepsRankOrder) {
  for (rank_t p = 1; p <= 200; ++p) {
    for (rank_t root : roots_of(p)) {
      const SimResult r = run(Collective::reduce, p, root, 10, 1, &plan::make_reduce_binomial_ordered, false);
      ASSERT_TRUE(r.ok()) << "p=" << p << " root=" << root << ": " << first_error(r);
      EXPECT_EQ(r.payload, "interval");
    }
  }
}

// The checker is not vacuous: the circulant reduction does not keep rank
// order, and the interval tracker says so.
TEST(Simulator, DetectsOutOfOrderCombination) {
  const SimResult r = run(Collective::reduce, 5, 0, 10, 2, &plan::make_reduce_circulant, false);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(first_error(r).find("out of rank order"), std::string::npos) << first_error(r);
}

// A broadcast that delivers block 0 to rank 1 twice (binomial tree plus one
// more round from the root): reversed, rank 1's contribution is counted twice.
class DeliverTwice final : public plan::RankPlan {
 public:
  DeliverTwice(const plan::PlanContext& ctx, rank_t rank) : inner_(plan::make_bcast_binomial(ctx, rank)), rank_(rank) {}
  std::int64_t rounds() const noexcept override { return inner_->rounds() + 1; }
  const plan::BlockLayout& layout() const noexcept override { return inner_->layout(); }
  void step(std::int64_t i, plan::Step& out) const override {
    if (i < inner_->rounds()) return inner_->step(i, out);
    if (rank_ == 0) out.send_block(1, 0);
    if (rank_ == 1) out.recv_block(0, 0, plan::Action::copy);
  }

 private:
  std::unique_ptr<plan::RankPlan> inner_;
  rank_t rank_;
};

std::unique_ptr<plan::RankPlan> make_twice(const plan::PlanContext& ctx, rank_t rank) {
  return std::make_unique<DeliverTwice>(ctx, rank);
}
std::unique_ptr<plan::RankPlan> make_twice_reversed(const plan::PlanContext& ctx, rank_t rank) {
  return std::make_unique<plan::ReversedPlan>(make_twice(ctx, rank), plan::Action::combine_before);
}

TEST(Simulator, DetectsDoubleCounting) {
  const SimResult bc = run(Collective::bcast, 6, 0, 10, 1, &make_twice);
  EXPECT_TRUE(bc.ok()) << "a redundant broadcast delivery is harmless";
  const SimResult exact = run(Collective::reduce, 6, 0, 10, 1, &make_twice_reversed);
  ASSERT_FALSE(exact.ok());
  EXPECT_NE(first_error(exact).find("counts the contribution of rank 1 twice"), std::string::npos)
      << first_error(exact);
  SimOptions fp;
  fp.exact_limit = 4;  // force the fingerprint tracker
  const SimResult hashed = run(Collective::reduce, 6, 0, 10, 1, &make_twice_reversed, true, fp);
  EXPECT_EQ(hashed.payload, "fingerprint");
  EXPECT_FALSE(hashed.ok());
}

// A chain broadcast that forwards a block in the round it arrives (`eager`),
// or that names the wrong block at one end (`!eager`).
template <bool eager>
class BrokenChain final : public plan::RankPlan {
 public:
  BrokenChain(const plan::PlanContext& ctx, rank_t rank) : layout_(ctx.spec.count, 2), p_(ctx.spec.p), v_(rank) {}
  std::int64_t rounds() const noexcept override { return p_ - 1; }
  const plan::BlockLayout& layout() const noexcept override { return layout_; }
  void step(std::int64_t i, plan::Step& out) const override {
    if (v_ == i + 1 || (eager && v_ == i + 2)) out.recv_block(v_ - 1, 0, plan::Action::copy);
    if ((v_ == i || (eager && v_ == i + 1)) && v_ + 1 < p_) out.send_block(v_ + 1, !eager && v_ == 2 ? 1 : 0);
  }

 private:
  plan::BlockLayout layout_;
  rank_t p_;
  rank_t v_;
};

template <bool eager>
std::unique_ptr<plan::RankPlan> make_broken_chain(const plan::PlanContext& ctx, rank_t rank) {
  return std::make_unique<BrokenChain<eager>>(ctx, rank);
}

TEST(Simulator, DetectsUnheldAndUnmatchedSends) {
  const SimResult unheld = run(Collective::bcast, 5, 0, 10, 1, &make_broken_chain<true>);
  ASSERT_FALSE(unheld.ok());
  EXPECT_NE(first_error(unheld).find("round 0: rank 1 sends a block it does not hold"), std::string::npos)
      << first_error(unheld);
  const SimResult unmatched = run(Collective::bcast, 5, 0, 10, 1, &make_broken_chain<false>);
  ASSERT_FALSE(unmatched.ok());
  EXPECT_NE(first_error(unmatched).find("round 2: rank 2 sends to 3, which does not expect"), std::string::npos)
      << first_error(unmatched);
}

// Every registry algorithm, on non-powers of two and several roots: exact
// data flow, no idle trailing rounds, and for the baselines the simulated
// alpha-beta time equals the closed form when the blocks divide evenly.
TEST(Simulator, EveryRegistryAlgorithm) {
  for (const plan::AlgorithmInfo& alg : plan::algorithms()) {
    if (plan::is_exchange(alg.op)) continue;  // per-rank layouts: tests/alltoall/
    for (rank_t p : {1, 2, 3, 5, 6, 7, 9, 17, 31, 64, 100}) {
      const int q = schedule::Circulant(p).q();
      for (rank_t root : roots_of(p)) {
        for (std::int64_t n : {1, 3, 8}) {
          const std::int64_t count = n * p * 4;
          const bool commutative = alg.op == Collective::bcast || alg.needs_commutative;
          const SimResult r = run(alg.op, p, root, count, n, alg.make, commutative);
          const std::string where = std::string(plan::to_string(alg.op)) + "/" + std::string(alg.name) +
                                    " p=" + std::to_string(p) + " root=" + std::to_string(root) +
                                    " n=" + std::to_string(n);
          ASSERT_TRUE(r.ok()) << where << ": " << first_error(r);
          EXPECT_EQ(r.last_active_round, r.rounds - 1) << where;
          if (alg.op == Collective::reduce && alg.name == "logp_tree") {
            // The summation tree (L+1) in footnote 2's order, rooted at rank
            // 0, plus the move to another root (tests/logp checks its times).
            const auto t = logp::tree_rounds(p, 0, logp::summation_parameters(logp::plan_parameters()), true);
            EXPECT_EQ(r.rounds, p == 1 ? 0 : t->rounds + (root != 0 ? 1 : 0)) << where;
          } else if (alg.node_price != nullptr) {
            // Node-aware: their rounds on node layouts in test_node_aware.cpp.
          } else if (alg.blocking == plan::Blocking::one && !alg.baseline) {
            const int extra = alg.name == "binomial_ordered" && root != 0 ? 1 : 0;
            const bool pow2 = (p & (p - 1)) == 0;
            const bool folds =
                alg.name == "halving" ||
                (alg.name == "doubling" && (alg.op == Collective::allreduce || alg.op == Collective::allgather));
            if (alg.name == "linear")  // the star: one round per non-root
              EXPECT_EQ(r.rounds, p == 1 ? 0 : p - 1) << where;
            else if (alg.name == "rabenseifner")  // halving, then doubling, with a fold and an unfold
              EXPECT_EQ(r.rounds, p == 1 ? 0 : 2 * q) << where;
            else if (folds)  // fold and unfold rounds
              EXPECT_EQ(r.rounds, p == 1 ? 0 : q + (pow2 ? 0 : 1)) << where;
            else
              EXPECT_EQ(r.rounds, p == 1 ? 0 : (alg.name == "ordered" ? 2 * q : q + extra)) << where;
          } else if (plan::has_rank_groups(alg.op)) {
            EXPECT_EQ(r.rounds, p == 1 ? 0 : (alg.op == Collective::allreduce ? 2 : 1) * (n - 1 + q)) << where;
          }
          if (!alg.baseline || p == 1) continue;
          const model::AlphaBeta ab;
          model::BaselinePrice price;
          if (alg.name == "binomial") price = model::price_binomial(p, count, ab);
          if (alg.name == "chain") price = model::price_chain_n(p, count, n, ab);
          if (alg.name == "binary_tree") price = model::price_binary_tree_n(p, count, n, ab);
          if (alg.name == "scatter_allgather") price = model::price_scatter_allgather(p, count, ab);
          EXPECT_EQ(r.rounds, price.rounds) << where;
          EXPECT_NEAR(r.alpha_beta_time, price.time, 1e-12) << where;
        }
      }
    }
  }
}

// The binary tree's closed-form depth against a brute-force walk.
TEST(Simulator, BinaryTreeFirstArrival) {
  for (rank_t p = 2; p <= 3000; ++p) {
    std::int64_t most = -1;
    for (rank_t v = 1; v < p; ++v) {
      std::int64_t a = -1;
      for (rank_t u = v; u > 0; u = (u - 1) / 2) a += u % 2 == 1 ? 1 : 2;
      most = std::max(most, a);
    }
    ASSERT_EQ(model::binary_tree_first_arrival(p), most) << "p=" << p;
  }
}

// The simulator target set for the circulant broadcast: alpha = 2 us, beta = 0.1 ns/B, p = 1024,
// m = 16 MiB: the circulant broadcast at most 0.65x the best classic one.
TEST(Simulator, CirculantBeatsClassicAtClusterScale) {
  const rank_t p = 1024;
  const std::int64_t m = std::int64_t{16} << 20;
  const model::AlphaBeta ab{2e-6, 1e-10};
  const schedule::Circulant g(p);
  const std::int64_t n = model::choose_blocks(g.q(), m, m, ab);
  SimOptions opt;
  opt.alpha_beta = ab;
  const SimResult r = run(Collective::bcast, p, 0, m, n, &plan::make_bcast_circulant, true, opt);
  ASSERT_TRUE(r.ok());
  double best = 1e300;
  for (const auto& b : model::price_baselines(p, m, m, ab)) best = std::min(best, b.time);
  EXPECT_LE(r.alpha_beta_time, 0.65 * best) << r.alpha_beta_time << " vs " << best;
}

}  // namespace
}  // namespace optcoll::sim

namespace optcoll::sim {
namespace {

// Prefix reductions in ceil(log2 p) rounds, rank order kept (intervals) and
// every contribution once (exact sets), for every p up to 300.
TEST(Simulator, ScanAndExscan) {
  for (rank_t p = 1; p <= 300; ++p) {
    const int q = schedule::Circulant(p).q();
    for (bool commutative : {false, true}) {
      for (auto [op, make] : {std::pair{Collective::scan, &plan::make_scan_doubling},
                              std::pair{Collective::exscan, &plan::make_exscan_doubling}}) {
        const SimResult r = run(op, p, 0, 5, 1, make, commutative);
        ASSERT_TRUE(r.ok()) << plan::to_string(op) << " p=" << p << ": " << first_error(r);
        EXPECT_EQ(r.rounds, q);
        EXPECT_EQ(r.payload, commutative ? "exact" : "interval");
      }
    }
  }
}

// The prefix checks can fail: a plain scan's results are not the exclusive
// prefixes.
TEST(Simulator, ScanIsNotExscan) {
  const SimResult r = run(Collective::exscan, 6, 0, 5, 1, &plan::make_scan_doubling, false);
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(run(Collective::exscan, 6, 0, 5, 1, &plan::make_scan_linear, false).ok());
  EXPECT_FALSE(run(Collective::scan, 6, 0, 5, 1, &plan::make_exscan_linear, true).ok());
}

// The linear scans (scan_linear.cpp): rank order kept (intervals) and every
// contribution once (exact sets), p - 1 rounds, the last rank receiving
// p - 1 messages and the first sending as many, (p - 1)(alpha + beta m)
// round by round. p = 1 and count 0 take no rounds.
TEST(Simulator, ScanLinear) {
  const model::AlphaBeta ab;
  for (rank_t p : {1, 2, 3, 5, 6, 7, 9, 17, 64}) {
    for (bool commutative : {false, true}) {
      for (auto [op, make] : {std::pair{Collective::scan, &plan::make_scan_linear},
                              std::pair{Collective::exscan, &plan::make_exscan_linear}}) {
        const std::int64_t count = 6;
        const SimResult r = run(op, p, 0, count, 1, make, commutative);
        const std::string where = std::string(plan::to_string(op)) + " p=" + std::to_string(p);
        ASSERT_TRUE(r.ok()) << where << ": " << first_error(r);
        EXPECT_EQ(r.rounds, p - 1) << where;
        EXPECT_EQ(r.payload, commutative ? "exact" : "interval") << where;
        EXPECT_EQ(r.messages, std::int64_t{p} * (p - 1) / 2) << where;
        EXPECT_NEAR(r.alpha_beta_time, static_cast<double>(p - 1) * (ab.alpha + ab.beta * count), 1e-12) << where;
      }
    }
    EXPECT_EQ(run(Collective::scan, p, 0, 0, 1, &plan::make_scan_linear).rounds, 0);
  }
}

}  // namespace
}  // namespace optcoll::sim

namespace optcoll::sim {
namespace {

// The pipelined chain (scan_pipeline.cpp): exact prefixes (intervals for a
// non-commutative operator, exact sets for a commutative one), n + p - 2
// rounds, and its alpha-beta time (n + p - 2)(alpha + beta m/n) when n
// divides the count. p = 1 and count 0 take no rounds.
TEST(Simulator, ScanPipeline) {
  const model::AlphaBeta ab;
  for (rank_t p : {1, 2, 3, 5, 6, 7, 9, 17, 33, 100}) {
    for (std::int64_t n : {1, 2, 5, 12}) {
      for (bool commutative : {false, true}) {
        for (auto [op, make] : {std::pair{Collective::scan, &plan::make_scan_pipeline},
                                std::pair{Collective::exscan, &plan::make_exscan_pipeline}}) {
          const std::int64_t count = 60 * 7;  // every n divides it
          const SimResult r = run(op, p, 0, count, n, make, commutative);
          const std::string where = std::string(plan::to_string(op)) + " p=" + std::to_string(p) +
                                    " n=" + std::to_string(n) + (commutative ? " commutative" : "");
          ASSERT_TRUE(r.ok()) << where << ": " << first_error(r);
          const std::int64_t rounds = p == 1 ? 0 : n + p - 2;
          EXPECT_EQ(r.rounds, rounds) << where;
          EXPECT_EQ(r.active_rounds, rounds) << where;
          EXPECT_NEAR(r.alpha_beta_time,
                      static_cast<double>(rounds) * (ab.alpha + ab.beta * static_cast<double>(count / n)), 1e-12)
              << where;
        }
      }
    }
    EXPECT_EQ(run(Collective::scan, p, 0, 0, 3, &plan::make_scan_pipeline).rounds, 0);
  }
}

// Large p: both scans at p = 3000 (intervals) and p = 1500 (exact sets and,
// beyond exact_limit, fingerprints) keep every contribution exactly once.
TEST(Simulator, ScansAtLargeP) {
  for (auto [op, make, rounds] : {std::tuple{Collective::scan, &plan::make_scan_doubling, 12},
                                  std::tuple{Collective::exscan, &plan::make_exscan_doubling, 12},
                                  std::tuple{Collective::scan, &plan::make_scan_pipeline, 3000 + 4 - 2},
                                  std::tuple{Collective::exscan, &plan::make_exscan_pipeline, 3000 + 4 - 2}}) {
    const SimResult r = run(op, 3000, 0, 8, 4, make, false);
    ASSERT_TRUE(r.ok()) << plan::to_string(op) << ": " << first_error(r);
    EXPECT_EQ(r.rounds, rounds);
    const SimResult c = run(op, 1500, 0, 8, 4, make, true);
    ASSERT_TRUE(c.ok()) << plan::to_string(op) << ": " << first_error(c);
    EXPECT_EQ(c.payload, "fingerprint");
  }
}

// The checks can fail: the inclusive pipeline does not compute exclusive
// prefixes, nor the exclusive one inclusive prefixes.
TEST(Simulator, ScanPipelineIsNotExscan) {
  EXPECT_FALSE(run(Collective::exscan, 6, 0, 6, 3, &plan::make_scan_pipeline, false).ok());
  EXPECT_FALSE(run(Collective::scan, 6, 0, 6, 3, &plan::make_exscan_pipeline, true).ok());
}

// The LogGP clock on a two-level network: recursive doubling on 4 ranks in
// groups of 2 exchanges inside the groups first (L), then across (L_far).
TEST(Simulator, TwoLevelLatency) {
  SimOptions opt;
  opt.loggp = {1.0, 0.0, 0.0, 0.0};
  const auto time = [&](rank_t group, double far) {
    opt.latency_group = group;
    opt.far_latency = far;
    const SimResult r = run(Collective::allreduce, 4, 0, 4, 1, &plan::make_allreduce_doubling, true, opt);
    EXPECT_TRUE(r.ok()) << first_error(r);
    return r.loggp_time;
  };
  EXPECT_EQ(time(0, 5.0), 2.0);   // one level: L twice
  EXPECT_EQ(time(2, 5.0), 6.0);   // L, then L_far
  EXPECT_EQ(time(4, 5.0), 2.0);   // one group
  EXPECT_EQ(time(1, 5.0), 10.0);  // every rank its own group
}

}  // namespace
}  // namespace optcoll::sim
