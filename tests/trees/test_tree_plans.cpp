// Gather/scatter tree plans through the simulator: exact data flow (every
// block of rank g ends at the root, or the root's group g at rank g), and
// the alpha-beta clock equals the evaluator's completion time of the tree,
// with gamma charged as local work where tree_plan.hpp says the copy falls.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "optcoll/error.hpp"
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/tree_plan.hpp"
#include "optcoll/sim/simulator.hpp"
#include "optcoll/trees/block_sizes.hpp"
#include "optcoll/trees/constructions.hpp"
#include "optcoll/trees/evaluate.hpp"
#include "optcoll/trees/schedule.hpp"
#include "reference.hpp"

namespace optcoll::trees {
namespace {

using plan::Collective;

constexpr double kAlpha = 3, kBeta = 1;

int ceil_log2(rank_t p) {
  int q = 0;
  while ((rank_t{1} << q) < p) ++q;
  return q;
}

// One group per rank: packed in rank order (dense), or in reverse order with
// gaps (runs must then stay inside a group).
plan::BlockLayout layout_of(const std::vector<std::int64_t>& m, bool dense) {
  std::vector<plan::Segment> g(m.size());
  std::int64_t at = 0;
  if (dense) {
    for (std::size_t i = 0; i < m.size(); ++i) g[i] = {at, m[i]}, at += m[i];
  } else {
    for (std::size_t i = m.size(); i-- > 0;) g[i] = {at, m[i]}, at += m[i] + 2;
  }
  return plan::BlockLayout(std::move(g), 1);
}

// Simulates `make` (a registry factory) or, with `sched`, the "tree" algorithm.
sim::SimResult simulate(Collective op, const std::vector<std::int64_t>& m, rank_t root, plan::PlanFactory make,
                        const TreeSchedule* sched = nullptr, double gamma = 0, bool dense = true) {
  const auto p = static_cast<rank_t>(m.size());
  const plan::PlanSetup setup({op, p, root, 0, 1, true}, layout_of(m, dense));
  plan::PlanContext ctx = setup.context();
  ctx.tree = sched;
  sim::SimOptions opt;
  opt.alpha_beta = {kAlpha, kBeta};
  if (sched != nullptr && gamma > 0) {
    const Direction d = op == Collective::gather ? Direction::gather : Direction::scatter;
    for (rank_t v = 0; v < p; ++v)
      if (const std::int64_t r = sched->copy_round(v, d); r >= 0)
        opt.local_work.push_back({v, r, gamma * static_cast<double>(m[static_cast<std::size_t>(v)])});
  }
  return sim::simulate(ctx, make, opt);
}

std::vector<std::vector<std::int64_t>> instances(rank_t p, std::mt19937_64& rng) {
  std::vector<std::vector<std::int64_t>> out;
  out.emplace_back(static_cast<std::size_t>(p), 5);                        // regular
  out.emplace_back(static_cast<std::size_t>(p), 0);                        // nothing at all
  out.push_back(testing::random_sizes(rng, p));                            // zeros, spikes, ...
  out.push_back(block_sizes(BlockDistribution::two_blocks, p, 10));        // two large, rest empty
  out.push_back(block_sizes(BlockDistribution::spikes, p, 10, 4, rng()));  // spikes
  out.push_back(block_sizes(BlockDistribution::increasing, p, 10));
  return out;
}

std::vector<rank_t> roots(rank_t p) {
  std::vector<rank_t> r{0, p / 2, p - 1, p * 7 / 11};
  std::sort(r.begin(), r.end());
  r.erase(std::unique(r.begin(), r.end()), r.end());
  return r;
}

std::vector<rank_t> sizes() {
  std::vector<rank_t> ps;
  for (rank_t p = 1; p <= 33; ++p) ps.push_back(p);
  for (rank_t p : {63, 64, 65, 100, 127, 128, 129, 250}) ps.push_back(p);
  return ps;
}

// The registry's binomial and adaptive binomial plans and the star: data
// flow, and the clock equals the evaluator on the matching tree (gamma = 0:
// the plans do no local copies).
TEST(TreePlans, RegistryAlgorithmsMatchTheEvaluator) {
  std::mt19937_64 rng(1);
  const auto model = CostModel::homogeneous(kAlpha, kBeta, 0);
  for (rank_t p : sizes()) {
    for (const auto& m : instances(p, rng)) {
      for (rank_t root : roots(p)) {
        SCOPED_TRACE("p=" + std::to_string(p) + " root=" + std::to_string(root));
        const double t_bin = completion_time(binomial_tree(p, root), m, model);
        const double t_lin = completion_time(linear_tree(p, root), m, model);
        // The registry's adaptive tree: the size rule, i.e. gamma = 0.
        const Tree ada_tree = adaptive_binomial(m, CostModel::homogeneous(1, 1, 0), root).tree;
        const double t_ada = completion_time(ada_tree, m, model);
        for (Collective op : {Collective::gather, Collective::scatter}) {
          const bool g = op == Collective::gather;
          const auto bin = simulate(op, m, root, g ? &plan::make_gather_binomial : &plan::make_scatter_binomial);
          ASSERT_TRUE(bin.ok()) << bin.errors.front();
          EXPECT_EQ(bin.rounds, ceil_log2(p));
          EXPECT_EQ(bin.alpha_beta_clock_time, t_bin);
          const auto lin = simulate(op, m, root, g ? &plan::make_gather_linear : &plan::make_scatter_linear);
          ASSERT_TRUE(lin.ok()) << lin.errors.front();
          EXPECT_EQ(lin.alpha_beta_clock_time, t_lin);
          const auto ada =
              simulate(op, m, root, g ? &plan::make_gather_adaptive_binomial : &plan::make_scatter_adaptive_binomial);
          ASSERT_TRUE(ada.ok()) << ada.errors.front();
          EXPECT_EQ(ada.rounds, ceil_log2(p));  // one round per level
          EXPECT_EQ(ada.alpha_beta_clock_time, t_ada);
        }
      }
    }
  }
}

// TWO (Lemma 2, §5.2): two size classes, positions instead of ranks. Data
// flow, rounds max(q_X, q_Y) + 1, and the clock equals the evaluator on the
// same tree (gamma = 0; the tree is not ordered, every node copies first).
// Lemma 2's instance (one y-block, beta y large enough) costs alpha + beta m
// with the copy charged (gamma = beta) and the y-rank as root.
TEST(TreePlans, TwoMatchesTheEvaluator) {
  std::mt19937_64 rng(3);
  const auto model = CostModel::homogeneous(kAlpha, kBeta, 0);
  for (rank_t p : sizes()) {
    if (p < 2) continue;
    std::vector<std::vector<std::int64_t>> ms;
    ms.push_back(block_sizes(BlockDistribution::two_blocks, p, 10));
    ms.push_back(block_sizes(BlockDistribution::skewed, p, 10));
    ms.push_back(block_sizes(BlockDistribution::spikes, p, 10, 4, rng()));
    std::vector<std::int64_t> lemma(static_cast<std::size_t>(p), 2);
    lemma[static_cast<std::size_t>(p / 2)] = 1000 * p;
    ms.push_back(lemma);
    for (const auto& m : ms) {
      const std::optional<plan::TwoSizes> two = plan::TwoSizes::of(m);
      if (!two) continue;  // (a spikes draw with one size only)
      for (rank_t root : roots(p)) {
        SCOPED_TRACE("p=" + std::to_string(p) + " root=" + std::to_string(root));
        TreeBuilder b(p);
        std::int64_t q = 0;
        for (rank_t v = 0; v < p; ++v) {
          const plan::TreeRankView w = plan::two_view(*two, p, root, v, true);
          q = w.rounds;
          for (const plan::TreeLink& l : w.down) b.add_child(v, l.peer);
        }
        const double expect = completion_time(std::move(b).build(root, CopyRule::first), m, model);
        for (Collective op : {Collective::gather, Collective::scatter}) {
          const auto r =
              simulate(op, m, root, op == Collective::gather ? &plan::make_gather_two : &plan::make_scatter_two);
          ASSERT_TRUE(r.ok()) << r.errors.front();
          EXPECT_EQ(r.rounds, q);
          EXPECT_EQ(r.alpha_beta_clock_time, expect);
        }
      }
    }
    // Lemma 2 with the copy: rooted at the y-rank r, alpha + beta m.
    const rank_t r = p / 2;
    if (p >= 3 && kBeta * static_cast<double>(lemma[static_cast<std::size_t>(r)]) >=
                      static_cast<double>(ceil_log2(p - 1)) * kAlpha + kBeta * 2.0 * static_cast<double>(p - 1)) {
      const plan::TwoSizes two = *plan::TwoSizes::of(lemma);
      TreeBuilder b(p);
      for (rank_t v = 0; v < p; ++v)
        for (const plan::TreeLink& l : plan::two_view(two, p, r, v, true).down) b.add_child(v, l.peer);
      double m = 0;
      for (std::int64_t x : lemma) m += static_cast<double>(x);
      EXPECT_EQ(
          completion_time(std::move(b).build(r, CopyRule::first), lemma, CostModel::homogeneous(kAlpha, kBeta, kBeta)),
          kAlpha + kBeta * m)
          << "p=" << p;
    }
  }
}

// Any tree through PlanContext::tree: the optimal ordered tree (fixed and
// best root), the optimal binary tree and the adaptive tree with gamma > 0.
// The simulator's clock, with the copies as local work, is the DP's value.
TEST(TreePlans, TreeAlgorithmMatchesTheDp) {
  std::mt19937_64 rng(2);
  for (rank_t p : sizes()) {
    if (p > 130) continue;
    for (const auto& m : instances(p, rng)) {
      for (double gamma : {0.0, 1.0, 2.0}) {
        const auto model = CostModel::homogeneous(kAlpha, kBeta, gamma);
        std::vector<TreeResult> trees;
        trees.push_back(optimal_tree(m, model, std::nullopt));
        trees.push_back(optimal_tree(m, model, p / 3));
        trees.push_back(optimal_binary_tree(m, model, std::nullopt));
        trees.push_back(adaptive_binomial(m, model, std::nullopt));
        trees.push_back(linear(m, model, p - 1));
        for (TreeResult& t : trees) {
          SCOPED_TRACE("p=" + std::to_string(p) + " gamma=" + std::to_string(gamma));
          const rank_t root = t.tree.root();
          const TreeSchedule sched(t.tree, m);
          for (Collective op : {Collective::gather, Collective::scatter}) {
            for (bool dense : {true, false}) {
              const bool g = op == Collective::gather;
              const auto r =
                  simulate(op, m, root, g ? &plan::make_gather_tree : &plan::make_scatter_tree, &sched, gamma, dense);
              ASSERT_TRUE(r.ok()) << r.errors.front();
              EXPECT_EQ(r.alpha_beta_clock_time, t.predicted);
              EXPECT_EQ(r.rounds, sched.rounds());
            }
          }
        }
      }
    }
  }
}

TEST(TreePlans, ViewsMustKeepTheRoundsInvariant) {
  const plan::BlockLayout lay = layout_of({1, 1, 1}, true);
  plan::TreeRankView bad{3, {}, {{1, 1, 1, 1}, {2, 1, 2, 2}}, nullptr};  // two receives in round 1
  EXPECT_THROW(plan::make_tree_plan(Collective::gather, bad, lay), Error);
  plan::TreeRankView late{3, {0, 0, 1, 2}, {{2, 1, 2, 2}}, nullptr};  // sends before its receive
  EXPECT_THROW(plan::make_tree_plan(Collective::gather, late, lay), Error);
}

TEST(TreePlans, ScheduleRounds) {
  // Chain 0 <- 1 <- 2 <- 3: one round per edge; star: p - 1 rounds; empty
  // subtrees take none.
  TreeBuilder b(4);
  b.add_child(0, 1);
  b.add_child(1, 2);
  b.add_child(2, 3);
  const Tree chain = std::move(b).build(0, CopyRule::ordered);
  const TreeSchedule s(chain, std::vector<std::int64_t>{1, 1, 1, 1});
  EXPECT_EQ(s.rounds(), 3);
  EXPECT_EQ(s.send_round(3), 0);
  EXPECT_EQ(s.send_round(1), 2);
  EXPECT_EQ(TreeSchedule(linear_tree(5, 2), std::vector<std::int64_t>(5, 1)).rounds(), 4);
  EXPECT_EQ(TreeSchedule(linear_tree(5, 2), std::vector<std::int64_t>{0, 3, 0, 0, 1}).rounds(), 2);
  EXPECT_EQ(TreeSchedule(binomial_tree(64, 17), std::vector<std::int64_t>(64, 1)).rounds(), 6);
}

}  // namespace
}  // namespace optcoll::trees
