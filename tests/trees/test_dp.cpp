// The tree DPs against independent oracles: exhaustive enumeration of every
// tree (scored by the evaluator) for p <= 6, the plain recursion over
// (range, root) on >= 10^4 random instances, and each other.
#include <gtest/gtest.h>

#include <random>

#include "optcoll/error.hpp"
#include "optcoll/trees/constructions.hpp"
#include "optcoll/trees/evaluate.hpp"
#include "reference.hpp"

namespace optcoll::trees {
namespace {

using testing::all_trees;
using testing::best_time;
using testing::naive_ordered;
using testing::random_model;
using testing::random_sizes;

// Every DP tree: its own table value is its evaluated completion time.
void expect_consistent(const TreeResult& r, const std::vector<std::int64_t>& m, const CostModel& model,
                       Direction d = Direction::gather) {
  EXPECT_EQ(r.predicted, r.time);
  EXPECT_EQ(completion_time(r.tree, m, model, d), r.time);
}

TEST(OptimalTree, SmallExample) {
  // Proposition 1's bound 2 alpha + sum m is optimal here: no tree with one
  // message into the root can hide the others' 8 units.
  const std::vector<std::int64_t> m{2, 3, 3, 3};
  const auto model = CostModel::homogeneous(1, 1, 1);
  const TreeResult r = optimal_tree(m, model, std::nullopt);
  EXPECT_EQ(r.time, 13);
  EXPECT_TRUE(is_ordered(r.tree));
  EXPECT_EQ(best_time(all_trees(4, CopyRule::ordered, is_ordered), m, model, std::nullopt), 13);
}

TEST(OptimalTree, MatchesExhaustiveOrderedSearch) {
  std::mt19937_64 rng(11);
  for (rank_t p = 1; p <= 6; ++p) {
    const std::vector<Tree> trees = all_trees(p, CopyRule::ordered, is_ordered);
    for (int rep = 0; rep < (p <= 4 ? 200 : 40); ++rep) {
      const auto m = random_sizes(rng, p);
      const CostModel model = random_model(rng);
      const OptimalTrees dp(m, model);
      const TreeResult best = dp.best();
      ASSERT_EQ(best.time, best_time(trees, m, model, std::nullopt)) << "p=" << p << " rep=" << rep;
      EXPECT_TRUE(is_ordered(best.tree));
      expect_consistent(best, m, model);
      for (rank_t r = 0; r < p; ++r) {
        const TreeResult fixed = dp.rooted(r);
        ASSERT_EQ(fixed.time, best_time(trees, m, model, r)) << "p=" << p << " root=" << r;
        EXPECT_EQ(fixed.tree.root(), r);
        EXPECT_TRUE(is_ordered(fixed.tree));
        expect_consistent(fixed, m, model);
      }
    }
  }
}

// The fast DP (tiles, vectorized minima, packed tables, reconstruction by
// re-scanning) against the plain recursion on 10^4 random instances, best
// root and a fixed one, and on larger p where the tiles and vectors matter.
TEST(OptimalTree, MatchesNaiveRecursionOnRandomInstances) {
  std::mt19937_64 rng(2018);
  int checked = 0;
  for (int rep = 0; rep < 10000; ++rep) {
    const auto p = static_cast<rank_t>(1 + rng() % 12);
    const auto m = random_sizes(rng, p);
    const CostModel model = random_model(rng);
    const auto r = static_cast<rank_t>(rng() % static_cast<std::uint64_t>(p));
    const OptimalTrees dp(m, model);
    const TreeResult best = dp.best(), fixed = dp.rooted(r);
    ASSERT_EQ(best.time, naive_ordered(m, model, std::nullopt)) << "rep " << rep;
    ASSERT_EQ(fixed.time, naive_ordered(m, model, r)) << "rep " << rep;
    ASSERT_EQ(best.predicted, best.time);
    ASSERT_EQ(fixed.predicted, fixed.time);
    ++checked;
  }
  for (rank_t p : {17, 23, 33, 40, 47}) {
    for (int rep = 0; rep < 3; ++rep) {
      const auto m = random_sizes(rng, p);
      const CostModel model = random_model(rng);
      const OptimalTrees dp(m, model);
      ASSERT_EQ(dp.best().time, naive_ordered(m, model, std::nullopt)) << "p=" << p;
      for (rank_t r : {rank_t{0}, p / 3, p - 1}) ASSERT_EQ(dp.rooted(r).time, naive_ordered(m, model, r)) << "p=" << p;
      ++checked;
    }
  }
  EXPECT_GE(checked, 10000);
}

TEST(OptimalTree, NeverWorseThanTheOtherOrderedTrees) {
  std::mt19937_64 rng(5);
  for (int rep = 0; rep < 300; ++rep) {
    const auto p = static_cast<rank_t>(1 + rng() % 70);
    const auto m = random_sizes(rng, p);
    const CostModel model = random_model(rng);
    const double opt = optimal_tree(m, model, std::nullopt).time;
    EXPECT_LE(opt, adaptive_binomial(m, model, std::nullopt).time);
    EXPECT_LE(opt, binomial(m, model, std::nullopt).time);
    EXPECT_LE(opt, optimal_binary_tree(m, model, std::nullopt).time);
    const rank_t r = p / 2;
    const double fixed = optimal_tree(m, model, r).time;
    EXPECT_LE(fixed, adaptive_binomial(m, model, r).time);
    EXPECT_LE(fixed, binomial(m, model, r).time);
    EXPECT_LE(fixed, linear(m, model, r).time);
    EXPECT_LE(opt, fixed);
  }
}

// Figure 7: the best binary tree whose children come in rank order with the
// copy in rank position, by enumeration; with a fixed root, the best such
// tree with that root (§3.3's last-step rule gives exactly that).
TEST(BinaryTree, MatchesExhaustiveSearch) {
  std::mt19937_64 rng(7);
  const auto keep = [](const Tree& t) { return is_binary(t) && is_rank_ordered(t); };
  for (rank_t p = 1; p <= 6; ++p) {
    const std::vector<Tree> trees = all_trees(p, CopyRule::rank_order, keep);
    for (int rep = 0; rep < 60; ++rep) {
      const auto m = random_sizes(rng, p);
      const CostModel model = random_model(rng);
      const OptimalBinaryTrees dp(m, model);
      const TreeResult best = dp.best();
      ASSERT_EQ(best.time, best_time(trees, m, model, std::nullopt)) << "p=" << p << " rep=" << rep;
      EXPECT_TRUE(keep(best.tree));
      expect_consistent(best, m, model);
      for (rank_t r = 0; r < p; ++r) {
        const TreeResult fixed = dp.rooted(r);
        ASSERT_EQ(fixed.time, best_time(trees, m, model, r)) << "p=" << p << " root=" << r;
        EXPECT_EQ(fixed.tree.root(), r);
        expect_consistent(fixed, m, model);
      }
    }
  }
}

CostModel random_pairwise(std::mt19937_64& rng, rank_t p) {
  const auto n = static_cast<std::size_t>(p);
  std::vector<double> a(n * n), b(n * n), g(n);
  for (auto& x : a) x = static_cast<double>(rng() % 50);
  for (auto& x : b) x = static_cast<double>(1 + rng() % 4);
  for (auto& x : g) x = static_cast<double>(rng() % 3);
  return CostModel::pairwise(p, a, b, g);
}

TEST(PairwiseDp, EqualsTheHomogeneousDpOnHomogeneousCosts) {
  std::mt19937_64 rng(3);
  for (int rep = 0; rep < 200; ++rep) {
    const auto p = static_cast<rank_t>(1 + rng() % 24);
    const auto m = random_sizes(rng, p);
    const CostModel h = random_model(rng);
    const auto n = static_cast<std::size_t>(p);
    const CostModel pw =
        CostModel::pairwise(p, std::vector<double>(n * n, h.alpha(0, 0)), std::vector<double>(n * n, h.beta(0, 0)),
                            std::vector<double>(n, h.gamma(0)));
    const TreeResult a = optimal_tree_pairwise(m, pw, std::nullopt);
    EXPECT_EQ(a.time, optimal_tree(m, h, std::nullopt).time) << "rep " << rep;
    expect_consistent(a, m, pw);
    const auto r = static_cast<rank_t>(rng() % n);
    EXPECT_EQ(optimal_tree_pairwise(m, pw, r).time, optimal_tree(m, h, r).time);
  }
}

TEST(PairwiseDp, MatchesNaiveRecursionAndExhaustiveSearch) {
  std::mt19937_64 rng(4);
  for (int rep = 0; rep < 400; ++rep) {
    const auto p = static_cast<rank_t>(1 + rng() % 9);
    const auto m = random_sizes(rng, p);
    const CostModel model = random_pairwise(rng, p);
    for (Direction d : {Direction::gather, Direction::scatter}) {
      const TreeResult best = optimal_tree_pairwise(m, model, std::nullopt, d);
      ASSERT_EQ(best.time, naive_ordered(m, model, std::nullopt, d)) << "rep " << rep;
      EXPECT_TRUE(is_ordered(best.tree));
      expect_consistent(best, m, model, d);
      const auto r = static_cast<rank_t>(rng() % static_cast<std::uint64_t>(p));
      const TreeResult fixed = optimal_tree_pairwise(m, model, r, d);
      ASSERT_EQ(fixed.time, naive_ordered(m, model, r, d));
      EXPECT_EQ(fixed.tree.root(), r);
      expect_consistent(fixed, m, model, d);
    }
  }
  for (rank_t p = 1; p <= 5; ++p) {
    const std::vector<Tree> trees = all_trees(p, CopyRule::ordered, is_ordered);
    for (int rep = 0; rep < 30; ++rep) {
      const auto m = random_sizes(rng, p);
      const CostModel model = random_pairwise(rng, p);
      for (Direction d : {Direction::gather, Direction::scatter})
        ASSERT_EQ(optimal_tree_pairwise(m, model, std::nullopt, d).time, best_time(trees, m, model, std::nullopt, d));
    }
  }
}

// Proposition 2: over all trees and all copy positions, the optimum copies
// first; the exhaustive solver finds it. Ordered trees are a subset.
TEST(UnorderedTree, MatchesEveryTreeWithEveryCopyPosition) {
  std::mt19937_64 rng(9);
  for (rank_t p = 1; p <= 5; ++p) {
    for (int rep = 0; rep < 25; ++rep) {
      const auto m = random_sizes(rng, p);
      const CostModel model = random_model(rng);
      double best = std::numeric_limits<double>::infinity();
      testing::for_each_tree(p, [&](rank_t root, const std::vector<std::vector<rank_t>>& kids) {
        // Every copy position at every node (odometer).
        std::vector<std::int64_t> pos(kids.size(), 0);
        while (true) {
          TreeBuilder b(p);
          for (std::size_t v = 0; v < kids.size(); ++v)
            for (rank_t c : kids[v]) b.add_child(static_cast<rank_t>(v), c);
          best = std::min(best, completion_time(std::move(b).build(root, pos), m, model));
          std::size_t v = 0;
          for (; v < kids.size(); ++v) {
            if (++pos[v] <= static_cast<std::int64_t>(kids[v].size())) break;
            pos[v] = 0;
          }
          if (v == kids.size()) break;
        }
      });
      const TreeResult r = optimal_unordered_tree(m, model, std::nullopt);
      ASSERT_EQ(r.time, best) << "p=" << p << " rep=" << rep;
      expect_consistent(r, m, model);
      EXPECT_LE(r.time, optimal_tree(m, model, std::nullopt).time);
    }
  }
}

TEST(Dp, RejectsBadInput) {
  const auto h = CostModel::homogeneous(1, 1, 1);
  const std::vector<std::int64_t> m{1, 2, 3};
  EXPECT_THROW(optimal_tree({}, h, std::nullopt), Error);
  EXPECT_THROW(optimal_tree(m, h, 3), Error);
  EXPECT_THROW(optimal_tree(std::vector<std::int64_t>{1, -1}, h, std::nullopt), Error);
  EXPECT_THROW(
      optimal_tree(
          m, CostModel::pairwise(3, std::vector<double>(9, 1), std::vector<double>(9, 1), std::vector<double>(3, 1)),
          std::nullopt),
      Error);
  EXPECT_THROW(optimal_unordered_tree(std::vector<std::int64_t>(15, 1), h, std::nullopt), Error);
  EXPECT_THROW(CostModel::homogeneous(-1, 1, 1), Error);
}

}  // namespace
}  // namespace optcoll::trees
