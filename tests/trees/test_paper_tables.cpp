// Traff 2018's Tables 1-3, deterministic rows, number for number, through
// compare_trees() (the code behind `optcoll trees`).
//
// One difference, in all three tables: Increasing, gamma = 0, Optimal with
// the root chosen by the algorithm. Our optimum is one unit below the paper's
// (2001999, 2001009, 2011712 against 2002000, 2001010, 2011713), with root
// 1999 instead of 1998. The test shows our tree and its cost by the
// evaluator, and the same tree rooted at 1998 (1998 and 1999 swapped). Why:
// m_1998 = 2000 < m_1999 = 2001, and with gamma = 0 rooting a pair [i, i+1]
// at i+1 costs comm(m_i), at i comm(m_{i+1}). Figure 6's C[i,i+1] has both
// lines; a DP that only roots a pair at i (the first line) gives exactly the
// paper's three numbers, which the last test confirms.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "optcoll/trees/compare.hpp"
#include "optcoll/trees/constructions.hpp"
#include "optcoll/trees/evaluate.hpp"
#include "paper_tables.hpp"

namespace optcoll::trees {
namespace {

constexpr rank_t kP = 2000;
constexpr rank_t kRoot = kP / 2;

bool is_known_difference(const paper::Row& row) {
  return row.dist == BlockDistribution::increasing && row.gamma == 0;
}

// The tree `t` with ranks a and b exchanged in their roles (a's children
// become b's and so on); both must lie in the same interval structure.
Tree swap_roles(const Tree& t, rank_t a, rank_t b) {
  const auto sw = [&](rank_t v) { return v == a ? b : v == b ? a : v; };
  TreeBuilder builder(t.size());
  for (rank_t v : t.top_down())
    for (rank_t c : t.children(sw(v))) builder.add_child(v, sw(c));
  return std::move(builder).build(sw(t.root()), CopyRule::ordered);
}

class PaperTable : public ::testing::TestWithParam<std::pair<double, double>> {};

TEST_P(PaperTable, DeterministicRows) {
  const auto [alpha, gamma] = GetParam();
  const CostModel model = CostModel::homogeneous(alpha, 1, gamma);
  int rows = 0;
  for (const paper::Row& row : paper::kTables) {
    if (row.alpha != alpha || row.gamma != gamma) continue;
    ++rows;
    SCOPED_TRACE(std::string(to_string(row.dist)));
    const std::vector<std::int64_t> m = block_sizes(row.dist, kP, 1000, 5);
    const TableRows t = compare_trees(m, model, kRoot, true);
    EXPECT_EQ(t.m, row.m);
    const TableEntry fixed[5] = {t.fixed->linear, t.fixed->binary, t.fixed->oblivious, t.fixed->adaptive,
                                 t.fixed->optimal};
    const TableEntry best[5] = {t.best->linear, t.best->binary, t.best->oblivious, t.best->adaptive, t.best->optimal};
    for (int c = 0; c < 5; ++c) {
      EXPECT_EQ(fixed[c].time, row.fixed[c]) << "fixed root, column " << c;
      EXPECT_EQ(fixed[c].root, kRoot);
      if (c == 4 && is_known_difference(row)) continue;
      EXPECT_EQ(best[c].time, row.best[c].time) << "best root, column " << c;
      EXPECT_EQ(best[c].root, row.best[c].root) << "best root, column " << c;
    }
    if (!is_known_difference(row)) continue;
    // Ours: one unit better, rooted at 1999, whose first child is the leaf
    // 1998 (received first, then the free copy).
    const TreeResult ours = optimal_tree(m, model, std::nullopt);
    EXPECT_EQ(best[4].time, row.best[4].time - 1);
    EXPECT_EQ(ours.time, row.best[4].time - 1);
    EXPECT_EQ(ours.tree.root(), kP - 1);
    EXPECT_EQ(ours.tree.children(kP - 1)[0], kP - 2);
    EXPECT_EQ(ours.tree.degree(kP - 2), 0);
    // Rooted at the paper's 1998: our tree with the roles of 1998 and 1999
    // swapped, which is also the best tree with that root. For alpha 100 and
    // 1 it costs exactly the paper's value; for alpha 1000 the unit is
    // absorbed by waiting elsewhere, so even root 1998 beats the paper's
    // 2011713 by one (its DP loses the unit at a pair further down).
    const Tree theirs = swap_roles(ours.tree, kP - 2, kP - 1);
    EXPECT_TRUE(is_ordered(theirs));
    EXPECT_EQ(theirs.root(), row.best[4].root);
    const double swapped = completion_time(theirs, m, model);
    EXPECT_EQ(swapped, optimal_tree(m, model, row.best[4].root).time);
    EXPECT_EQ(swapped, row.best[4].time - (row.alpha == 1000 ? 1 : 0));
  }
  EXPECT_EQ(rows, 6);
}

std::string table_name(const ::testing::TestParamInfo<std::pair<double, double>>& p) {
  return "alpha" + std::to_string(static_cast<int>(p.param.first)) + "_gamma" +
         std::to_string(static_cast<int>(p.param.second));
}

INSTANTIATE_TEST_SUITE_P(Tables123, PaperTable,
                         ::testing::Values(std::pair{100.0, 1.0}, std::pair{100.0, 0.0}, std::pair{1.0, 1.0},
                                           std::pair{1.0, 0.0}, std::pair{1000.0, 1.0}, std::pair{1000.0, 0.0}),
                         table_name);

// Figure 6 with C[i,i+1] restricted to its first line (root i), the rest as
// printed: min over i+1 <= k < j of max(C[i,k], C[k+1,j]) + min(comm, comm).
// A plain triple loop; it reproduces the paper's three Increasing values.
double figure6_pairs_rooted_left(const std::vector<std::int64_t>& m, double alpha, double gamma) {
  const auto p = static_cast<rank_t>(m.size());
  const auto n = static_cast<std::size_t>(p);
  std::vector<double> C(n * n, 0.0), P(n + 1, 0.0);
  for (std::size_t x = 0; x < n; ++x) P[x + 1] = P[x] + static_cast<double>(m[x]);
  const auto comm = [&](double s) { return s > 0 ? alpha + s : 0.0; };
  for (rank_t i = p - 1; i >= 0; --i) {
    const auto iu = static_cast<std::size_t>(i);
    if (i + 1 < p) C[iu * n + iu + 1] = gamma * static_cast<double>(m[iu]) + comm(static_cast<double>(m[iu + 1]));
    for (rank_t j = i + 2; j < p; ++j) {
      const auto ju = static_cast<std::size_t>(j);
      double best = std::numeric_limits<double>::infinity();
      for (std::size_t k = iu + 1; k < ju; ++k)
        best = std::min(best, std::max(C[iu * n + k], C[(k + 1) * n + ju]) +
                                  std::min(comm(P[k + 1] - P[iu]), comm(P[ju + 1] - P[k + 1])));
      C[iu * n + ju] = best;
    }
  }
  return C[n - 1];
}

TEST(PaperTables, IncreasingGamma0ComesFromPairsRootedLeft) {
  const std::vector<std::int64_t> m = block_sizes(BlockDistribution::increasing, kP, 1000, 5);
  int rows = 0;
  for (const paper::Row& row : paper::kTables) {
    if (!is_known_difference(row)) continue;
    EXPECT_EQ(figure6_pairs_rooted_left(m, row.alpha, 0), row.best[4].time);
    ++rows;
  }
  EXPECT_EQ(rows, 3);
}

}  // namespace
}  // namespace optcoll::trees
