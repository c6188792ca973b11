// Linear, oblivious binomial and adaptive binomial trees: structure, their
// own cost formulas against the evaluator, Proposition 1, the root rules.
#include <gtest/gtest.h>

#include <numeric>
#include <random>

#include "optcoll/trees/block_sizes.hpp"
#include "optcoll/trees/constructions.hpp"
#include "optcoll/trees/evaluate.hpp"
#include "reference.hpp"

namespace optcoll::trees {
namespace {

int ceil_log2(rank_t p) {
  int q = 0;
  while ((rank_t{1} << q) < p) ++q;
  return q;
}

std::vector<rank_t> kids(const Tree& t, rank_t v) {
  return {t.children(v).begin(), t.children(v).end()};
}

TEST(Linear, StarAndBestRoot) {
  std::mt19937_64 rng(1);
  for (int rep = 0; rep < 200; ++rep) {
    const auto p = static_cast<rank_t>(1 + rng() % 30);
    const auto m = testing::random_sizes(rng, p);
    const CostModel model = testing::random_model(rng);
    const TreeResult best = linear(m, model, std::nullopt);
    EXPECT_EQ(best.predicted, best.time);
    EXPECT_TRUE(is_rank_ordered(best.tree));
    double lowest = std::numeric_limits<double>::infinity();
    rank_t arg = -1;
    for (rank_t r = 0; r < p; ++r) {
      const double t = completion_time(linear_tree(p, r), m, model);
      EXPECT_EQ(linear(m, model, r).predicted, t);
      if (t < lowest) lowest = t, arg = r;
    }
    EXPECT_EQ(best.time, lowest);
    EXPECT_EQ(best.tree.root(), arg);
  }
}

TEST(Binomial, WorkedExample) {
  // p = 6, root 2 (tree_binomial.cpp): 1 <- 0, 2 <- 3, 5 <- 4; 2 <- 1; 2 <- 5.
  const Tree t = binomial_tree(6, 2);
  EXPECT_EQ(kids(t, 2), (std::vector<rank_t>{3, 1, 5}));
  EXPECT_EQ(kids(t, 1), (std::vector<rank_t>{0}));
  EXPECT_EQ(kids(t, 5), (std::vector<rank_t>{4}));
  EXPECT_TRUE(is_ordered(t));
}

TEST(Binomial, OrderedWithLogarithmicRootDegree) {
  for (rank_t p = 1; p <= 70; ++p) {
    for (rank_t r = 0; r < p; ++r) {
      const Tree t = binomial_tree(p, r);
      ASSERT_EQ(t.root(), r);
      ASSERT_TRUE(is_ordered(t)) << p << " " << r;
      EXPECT_LE(t.degree(r), ceil_log2(p));
      EXPECT_LE(t.height(), ceil_log2(p));
    }
    // A group without the root is rooted at its last rank, so the root p-1
    // gives the construction's own tree; its degree is q for p = 2^q.
    if ((p & (p - 1)) == 0) {
      EXPECT_EQ(binomial_tree(p, p - 1).degree(p - 1), ceil_log2(p));
      EXPECT_EQ(binomial_tree(p, 0).degree(0), ceil_log2(p));
    }
  }
}

TEST(Binomial, BestRootRule) {
  std::mt19937_64 rng(2);
  for (int rep = 0; rep < 100; ++rep) {
    const auto p = static_cast<rank_t>(1 + rng() % 40);
    const auto m = testing::random_sizes(rng, p);
    const CostModel model = testing::random_model(rng);
    const TreeResult best = binomial(m, model, std::nullopt);
    // The paper's candidates 0, 2^k - 1, p - 1; the lowest of the best.
    double lowest = std::numeric_limits<double>::infinity();
    rank_t arg = -1;
    for (rank_t c = 0; c < p; ++c) {
      if (c != 0 && c != p - 1 && ((c + 1) & c) != 0) continue;
      const double t = completion_time(binomial_tree(p, c), m, model);
      if (t < lowest) lowest = t, arg = c;
    }
    EXPECT_EQ(best.time, lowest);
    EXPECT_EQ(best.tree.root(), arg);
    EXPECT_LE(binomial_exhaustive_root(m, model).time, best.time);
  }
}

TEST(Adaptive, OrderedAndConsistent) {
  std::mt19937_64 rng(3);
  for (int rep = 0; rep < 400; ++rep) {
    const auto p = static_cast<rank_t>(1 + rng() % 80);
    const auto m = testing::random_sizes(rng, p);
    const CostModel model = testing::random_model(rng);
    const TreeResult own = adaptive_binomial(m, model, std::nullopt);
    EXPECT_TRUE(is_ordered(own.tree));
    EXPECT_EQ(own.predicted, own.time);
    EXPECT_LE(own.tree.degree(own.tree.root()), ceil_log2(p));
    const auto r = static_cast<rank_t>(rng() % static_cast<std::uint64_t>(p));
    const TreeResult fixed = adaptive_binomial(m, model, r);
    EXPECT_EQ(fixed.tree.root(), r);
    EXPECT_TRUE(is_ordered(fixed.tree));
    EXPECT_EQ(fixed.predicted, fixed.time);
  }
}

// Proposition 1: with gamma = beta and the construction's own root,
// Time <= ceil(log2 p) alpha + beta sum m_i; equal for p = 2^q (the root then
// receives q messages and never waits, and its port carries every block).
TEST(Adaptive, Proposition1) {
  std::mt19937_64 rng(4);
  for (int rep = 0; rep < 500; ++rep) {
    // p >= 2 (a single rank copies nothing: Time = 0), every other one 2^q.
    const auto p = rep % 2 == 0 ? rank_t{2} << (rng() % 7) : static_cast<rank_t>(2 + rng() % 200);
    std::vector<std::int64_t> m(static_cast<std::size_t>(p));
    const std::uint64_t range = rng() % 2 == 0 ? 10 : 5000;
    for (auto& x : m) x = 1 + static_cast<std::int64_t>(rng() % range);
    const double alpha = static_cast<double>(rng() % 1000), beta = static_cast<double>(1 + rng() % 3);
    const auto model = CostModel::homogeneous(alpha, beta, beta);
    const auto q = ceil_log2(static_cast<rank_t>(m.size()));
    const double sum = static_cast<double>(std::accumulate(m.begin(), m.end(), std::int64_t{0}));
    const TreeResult r = adaptive_binomial(m, model, std::nullopt);
    const double root_port = beta * sum + static_cast<double>(r.tree.degree(r.tree.root())) * alpha;
    EXPECT_GE(r.time, root_port);
    EXPECT_LE(r.time, q * alpha + beta * sum) << "rep " << rep;
    if ((m.size() & (m.size() - 1)) == 0) {
      EXPECT_EQ(r.time, q * alpha + beta * sum) << "rep " << rep;
    }
  }
}

// The paper's sanity check (§5.1): Same sizes, alpha 100, beta = gamma = 1,
// p = 2000: the adaptive tree's own root gives m + 1100.
TEST(Adaptive, SameSizesSanityCheck) {
  const auto m = block_sizes(BlockDistribution::same, 2000, 1000);
  const TreeResult r = adaptive_binomial(m, CostModel::homogeneous(100, 1, 1), std::nullopt);
  EXPECT_EQ(r.time, 2000000 + 1100);
  EXPECT_EQ(r.tree.root(), 1023);
}

TEST(BlockSizes, Distributions) {
  using D = BlockDistribution;
  EXPECT_EQ(block_sizes(D::decreasing, 4, 10), (std::vector<std::int64_t>{21, 16, 11, 6}));
  EXPECT_EQ(block_sizes(D::increasing, 4, 10), (std::vector<std::int64_t>{6, 11, 16, 21}));
  EXPECT_EQ(block_sizes(D::alternating, 4, 11), (std::vector<std::int64_t>{16, 6, 16, 6}));
  EXPECT_EQ(block_sizes(D::skewed, 6, 10, 2), (std::vector<std::int64_t>{30, 30, 1, 1, 1, 1}));
  EXPECT_EQ(block_sizes(D::two_blocks, 4, 10), (std::vector<std::int64_t>{20, 0, 0, 20}));
  // The paper's m for p = 2000, b = 1000 (Tables 1-3).
  const auto sum = [](const std::vector<std::int64_t>& m) {
    return std::accumulate(m.begin(), m.end(), std::int64_t{0});
  };
  EXPECT_EQ(sum(block_sizes(D::decreasing, 2000, 1000)), 2003000);
  EXPECT_EQ(sum(block_sizes(D::skewed, 2000, 1000, 5)), 2001995);
  EXPECT_EQ(sum(block_sizes(D::two_blocks, 2000, 1000)), 2000000);
  // Seeded: the same sizes for the same seed, in range, sorted when asked.
  EXPECT_EQ(block_sizes(D::random, 100, 50, 5, 7), block_sizes(D::random, 100, 50, 5, 7));
  EXPECT_NE(block_sizes(D::random, 100, 50, 5, 7), block_sizes(D::random, 100, 50, 5, 8));
  for (auto x : block_sizes(D::random, 1000, 50, 5, 3)) EXPECT_TRUE(x >= 1 && x <= 100);
  for (auto x : block_sizes(D::bucket, 1000, 50, 5, 3)) EXPECT_TRUE(x >= 26 && x <= 75);
  for (auto x : block_sizes(D::spikes, 1000, 50, 5, 3)) EXPECT_TRUE(x == 1 || x == 250);
  const auto dec = block_sizes(D::random_decreasing, 100, 50, 5, 7);
  EXPECT_TRUE(std::is_sorted(dec.rbegin(), dec.rend()));
  for (D d : all_block_distributions()) EXPECT_EQ(parse_block_distribution(to_string(d)), d);
}

}  // namespace
}  // namespace optcoll::trees
