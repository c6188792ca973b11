// §4's example: ordered and non-ordered optimal trees differ. The PARTITION
// instance m = [2, 3, 3, 3, 4, 4, 4, 6, 6, 13] (p = 10, m = 48), in the
// integral form of Theorem 7's proof: alpha = 1, beta = gamma = 1, blocks
// p m_i + 1 and the two large blocks pm/2 = 240 and pm/2 + p = 250. A
// solution of PARTITION gives a non-ordered tree of cost 2pm + 2p + 2 = 982
// (Figure 8); the best ordered tree costs 983.
#include <gtest/gtest.h>

#include <numeric>

#include "optcoll/trees/constructions.hpp"
#include "optcoll/trees/evaluate.hpp"

namespace optcoll::trees {
namespace {

TEST(Partition, OrderedAndNonOrderedOptimaDiffer) {
  const std::vector<std::int64_t> part{2, 3, 3, 3, 4, 4, 4, 6, 6, 13};
  const std::int64_t p = 10, sum = std::accumulate(part.begin(), part.end(), std::int64_t{0});
  ASSERT_EQ(sum, 48);
  std::vector<std::int64_t> m;
  for (std::int64_t x : part) m.push_back(p * x + 1);
  m.push_back(p * sum / 2);      // rank 10: 240
  m.push_back(p * sum / 2 + p);  // rank 11: 250
  const auto model = CostModel::homogeneous(1, 1, 1);

  const TreeResult unordered = optimal_unordered_tree(m, model, std::nullopt);
  EXPECT_EQ(unordered.time, 2 * p * sum + 2 * p + 2);  // 982
  EXPECT_EQ(unordered.time, 982);
  EXPECT_EQ(completion_time(unordered.tree, m, model), 982);
  EXPECT_FALSE(unordered.tree.interval_subtrees());  // it mixes ranks
  // As in Figure 8, rank 11 (250) copies its block while two subtrees
  // gather, and each holds half of the PARTITION instance: the tree is a
  // solution (24 + 24). Unlike Figure 8, the search's tree need not root the
  // second half at rank 10 (240): here 10 may be a leaf of that half; the
  // cost is the same.
  const Tree& t = unordered.tree;
  ASSERT_EQ(t.root(), 11);
  ASSERT_EQ(t.degree(11), 2);
  for (rank_t half : t.children(11)) {
    std::int64_t s = 0;
    std::vector<rank_t> todo{half};
    while (!todo.empty()) {
      const rank_t v = todo.back();
      todo.pop_back();
      if (v < 10) s += part[static_cast<std::size_t>(v)];
      for (rank_t c : t.children(v)) todo.push_back(c);
    }
    EXPECT_EQ(s, sum / 2);
  }

  const TreeResult ordered = optimal_tree(m, model, std::nullopt);
  EXPECT_EQ(ordered.time, 983);
  EXPECT_TRUE(is_ordered(ordered.tree));
  EXPECT_EQ(completion_time(ordered.tree, m, model), 983);
  // The exhaustive search agrees that no ordered tree reaches 982: its best
  // tree is not ordered, and every root's ordered optimum is above it.
  for (rank_t r = 0; r < 12; ++r) EXPECT_GE(optimal_tree(m, model, r).time, 983);
}

}  // namespace
}  // namespace optcoll::trees
