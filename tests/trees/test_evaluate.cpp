// The evaluator (Definition 2) on trees whose completion times are worked
// out by hand, and its symmetries.
#include <gtest/gtest.h>

#include <random>

#include "optcoll/error.hpp"
#include "optcoll/trees/constructions.hpp"
#include "optcoll/trees/evaluate.hpp"
#include "reference.hpp"

namespace optcoll::trees {
namespace {

Tree build(rank_t p, rank_t root, const std::vector<std::pair<rank_t, rank_t>>& edges, CopyRule rule) {
  TreeBuilder b(p);
  for (const auto& [u, v] : edges) b.add_child(u, v);
  return std::move(b).build(root, rule);
}

TEST(Evaluate, TwoRanksEqs5And6) {
  const auto model = CostModel::homogeneous(10, 1, 2);  // comm(m) = 10 + m, copy 2m
  const std::vector<std::int64_t> m{5, 7};
  // Root 0, child on the right: copy first, overlapping (Eq. 5): max(10, 0) + 17.
  EXPECT_EQ(completion_time(build(2, 0, {{0, 1}}, CopyRule::ordered), m, model), 27);
  // Root 1, child on the left: copy after (Eq. 6): 0 + 15 + 14.
  EXPECT_EQ(completion_time(build(2, 1, {{1, 0}}, CopyRule::ordered), m, model), 29);
  // Copy first at root 1 (non-ordered rule): max(14, 0) + 15.
  EXPECT_EQ(completion_time(build(2, 1, {{1, 0}}, CopyRule::first), m, model), 29);
}

TEST(Evaluate, WaitingAndOverlap) {
  // 0 <- 1 <- 2 (a chain) and 0 <- 3: m = [1, 4, 6, 2], alpha 3, beta 1, gamma 1.
  // Time(1) = Time(0 + [2] after copy of 4, 2 right of 1: copy first):
  //   max(4, 0) + (3 + 6) = 13.
  // Root 0 receives 1 ([1,2], 10 units) then 3 (2 units), copy first (1):
  //   max(1, 13) + 13 = 26, then max(26, 0) + 5 = 31.
  const auto model = CostModel::homogeneous(3, 1, 1);
  const std::vector<std::int64_t> m{1, 4, 6, 2};
  const Tree t = build(4, 0, {{1, 2}, {0, 1}, {0, 3}}, CopyRule::ordered);
  EXPECT_TRUE(is_ordered(t));
  const auto times = subtree_times(t, m, model);
  EXPECT_EQ(times[2], 0);
  EXPECT_EQ(times[1], 13);
  EXPECT_EQ(times[0], 31);
  EXPECT_EQ(times[3], 0);
}

TEST(Evaluate, EmptySubtreesCostNothing) {
  // comm(0) = 0: a child without data adds no start-up, but an inner node
  // still copies its own block (the paper's Two blocks rows rely on both).
  const auto model = CostModel::homogeneous(100, 1, 1);
  const std::vector<std::int64_t> m{0, 0, 50, 0};
  const Tree star = linear_tree(4, 0);
  EXPECT_EQ(completion_time(star, m, model), 150);
  const Tree chain = build(4, 0, {{0, 1}, {1, 2}, {2, 3}}, CopyRule::ordered);
  // 2 copies its 50 (50; its child 3 sends nothing), sends them to 1 (200),
  // 1 forwards them to 0 (350).
  EXPECT_EQ(completion_time(chain, m, model), 350);
}

TEST(Evaluate, GatherAndScatterAgreeOnHomogeneousCosts) {
  std::mt19937_64 rng(1);
  for (int rep = 0; rep < 200; ++rep) {
    const auto p = static_cast<rank_t>(1 + rng() % 40);
    const auto m = testing::random_sizes(rng, p);
    const CostModel model = testing::random_model(rng);
    const Tree t = adaptive_binomial(m, model, std::nullopt).tree;
    EXPECT_EQ(completion_time(t, m, model, Direction::gather), completion_time(t, m, model, Direction::scatter));
  }
}

TEST(Evaluate, PairwiseCostsTakeTheEdgeDirection) {
  // alpha(0 -> 1) = 1, alpha(1 -> 0) = 100: gathering to 0 pays 100,
  // scattering from 0 pays 1.
  const auto model = CostModel::pairwise(2, {0, 1, 100, 0}, {1, 1, 1, 1}, {0, 0});
  const std::vector<std::int64_t> m{3, 4};
  const Tree t = build(2, 0, {{0, 1}}, CopyRule::ordered);
  EXPECT_EQ(completion_time(t, m, model, Direction::gather), 104);
  EXPECT_EQ(completion_time(t, m, model, Direction::scatter), 5);
}

TEST(Tree, RejectsNonTrees) {
  TreeBuilder cycle(3);
  cycle.add_child(1, 2);
  cycle.add_child(2, 1);
  EXPECT_THROW(std::move(cycle).build(0, CopyRule::ordered), Error);
  TreeBuilder two_parents(3);
  two_parents.add_child(0, 2);
  two_parents.add_child(1, 2);
  EXPECT_THROW(std::move(two_parents).build(0, CopyRule::ordered), Error);
  TreeBuilder self(2);
  EXPECT_THROW(self.add_child(1, 1), Error);
}

TEST(Tree, StructureChecks) {
  // 2 <- 0 (left first: copy after it), 2 <- 3, 3 <- 4; 0 <- 1.
  const Tree t = build(5, 2, {{0, 1}, {2, 0}, {2, 3}, {3, 4}}, CopyRule::ordered);
  EXPECT_TRUE(t.interval_subtrees());
  EXPECT_TRUE(is_ordered(t));
  EXPECT_EQ(t.copy_after(2), 1);
  EXPECT_EQ(t.lo(0), 0);
  EXPECT_EQ(t.hi(0), 1);
  EXPECT_EQ(t.height(), 2);
  // [3, 4] rooted at 4 is adjacent to [0, 2] as well; 4 copies after 3.
  const Tree right_root = build(5, 2, {{0, 1}, {2, 0}, {2, 4}, {4, 3}}, CopyRule::ordered);
  EXPECT_TRUE(is_ordered(right_root));
  EXPECT_EQ(right_root.copy_after(4), 1);
  const Tree skip = build(4, 0, {{0, 2}, {0, 1}, {0, 3}}, CopyRule::ordered);
  EXPECT_FALSE(is_ordered(skip));  // 2 before 1 leaves a hole
  EXPECT_FALSE(is_rank_ordered(skip));
  EXPECT_TRUE(is_rank_ordered(linear_tree(4, 2)));
  const Tree holes = build(3, 0,
                           {
                               {0, 2},
                               {2, 1},
                           },
                           CopyRule::ordered);
  EXPECT_TRUE(holes.interval_subtrees());  // [1, 2] rooted at 2
  const Tree apart = build(3, 1, {{1, 2}, {2, 0}}, CopyRule::ordered);
  EXPECT_FALSE(apart.interval_subtrees());  // 2's subtree {0, 2}
  EXPECT_FALSE(is_ordered(apart));
}

}  // namespace
}  // namespace optcoll::trees
