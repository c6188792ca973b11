// Optimal summation (§5): Figure 6 and the simulator's verdict for many
// (t, P, L, o, g), commutative and not.
#include <gtest/gtest.h>

#include "optcoll/logp/simulator.hpp"
#include "optcoll/logp/summation.hpp"

namespace {

using namespace optcoll::logp;

TEST(Summation, Figure6) {
  const Params p{5, 2, 4, 0};
  const Summation s = optimal_summation(28, 8, p);
  ASSERT_EQ(s.procs.size(), 8u);
  // The communication tree is Figure 1's (broadcast with L+1 = 6) reversed.
  const std::vector<std::int64_t> send{28, 18, 14, 10, 6, 8, 4, 4};
  const std::vector<proc_t> parent{-1, 0, 0, 0, 0, 1, 1, 2};
  for (std::size_t v = 0; v < 8; ++v) {
    EXPECT_EQ(s.procs[v].send, send[v]) << v;
    EXPECT_EQ(s.procs[v].parent, parent[v]) << v;
  }
  // The root receives from the processors sending at 6, 10, 14, 18: overheads
  // start at 13, 17, 21, 25 = 28 - 3 - 4j (R_j = S - (o+1) - (k-j)g).
  EXPECT_EQ(s.procs[0].arrive, (std::vector<std::int64_t>{13, 17, 21, 25}));
  EXPECT_EQ(s.procs[0].own_operands, 17);  // 13 + 3 additions, plus the first operand
  EXPECT_EQ(s.procs[7].own_operands, 5);   // a leaf sending at 4
  EXPECT_EQ(s.operands, 79);               // sum S_i - o(P-1) + 1 = 92 - 14 + 1
  EXPECT_EQ(max_operands(28, 8, p), 79);
  for (bool commutative : {true, false}) {
    const Summation t = optimal_summation(28, 8, p, commutative);
    const SimReport r = simulate(t.schedule());
    ASSERT_TRUE(r.ok()) << r.errors.front();
    EXPECT_EQ(r.completion, 28);
    EXPECT_EQ(r.operands_summed, 79);
    EXPECT_TRUE(r.meets_bound());
  }
}

TEST(Summation, ManyParametersSimulateExactly) {
  for (const Params& p : {Params{5, 2, 4, 0}, postal(1), postal(3), Params{2, 1, 1, 0}, Params{4, 1, 2, 0},
                          Params{3, 3, 3, 0}, Params{8, 0, 5, 0}})
    for (proc_t P : {1, 2, 3, 5, 8, 17, 40})
      for (std::int64_t t : {0, 1, 5, 12, 20, 33, 50}) {
        const Summation s = optimal_summation(t, P, p, (t + P) % 2 == 0);
        const SimReport r = simulate(s.schedule());
        ASSERT_TRUE(r.ok()) << p.str() << " P=" << P << " t=" << t << ": " << r.errors.front();
        EXPECT_EQ(r.operands_summed, s.operands);
        EXPECT_LE(r.completion, t);
        // More time never hurts; one processor sums t+1 operands.
        EXPECT_GE(s.operands, t + 1);
        EXPECT_GE(max_operands(t + 1, P, p), s.operands);
      }
}

TEST(Summation, ExactOperandCountsInMinimalTime) {
  const Params p{5, 2, 4, 0};
  for (proc_t P : {1, 3, 8})
    for (std::int64_t n = 1; n <= 160; n += 7) {
      const std::int64_t t = summation_time(n, P, p);
      EXPECT_GE(max_operands(t, P, p), n);
      if (t > 0) {
        EXPECT_LT(max_operands(t - 1, P, p), n);
      }
      const Summation s = summation_of(n, P, p, false);
      EXPECT_EQ(s.operands, n);
      const SimReport r = simulate(s.schedule());
      ASSERT_TRUE(r.ok()) << "n=" << n << " P=" << P << ": " << r.errors.front();
      EXPECT_LE(r.completion, t);
    }
}

TEST(Summation, SimulatorCatchesWrongOrderAndDoubleCounting) {
  Summation s = optimal_summation(28, 8, Params{5, 2, 4, 0}, false);
  Schedule bad = s.schedule();
  std::swap(bad.origins[6].first, bad.origins[7].first);  // two single operands out of order
  EXPECT_FALSE(simulate(bad).ok());
  bad.commutative = true;  // but still every operand once
  EXPECT_TRUE(simulate(bad).ok());
  Schedule twice = s.schedule();
  twice.messages.push_back(twice.messages.back());
  twice.messages.back().start += 1;  // same value sent again a cycle later
  EXPECT_FALSE(simulate(twice).ok());
}

}  // namespace
