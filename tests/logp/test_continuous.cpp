// Continuous broadcast (§3.1-3.3): the word condition against the paper's
// automaton example, Lemma 3.1's words, the base cases found by the search
// program, the induction, and every schedule through the simulator.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "optcoll/logp/continuous.hpp"
#include "optcoll/logp/fibonacci.hpp"
#include "optcoll/logp/simulator.hpp"
#include "optcoll/logp/word_search.hpp"

namespace {

using namespace optcoll::logp;

// Letters to delays for T(t): a = t, b = t-1, ...
std::vector<std::int64_t> delays(const std::string& w, std::int64_t t) {
  std::vector<std::int64_t> d;
  for (char ch : w) d.push_back(t - (ch - 'a'));
  return d;
}

TEST(Words, H5BlockOfFigure2MatchesTheAutomaton) {
  // §3.2: for L = 3, P-1 = 9, the words of the H5 block (the root, delay 0,
  // five children) over {a, b, c} allowed by the correctness requirement are
  // exactly {cccc, acab, abca, abbb}.
  std::vector<std::string> valid;
  for (int x = 0; x < 81; ++x) {
    std::string w;
    for (int k = 0, y = x; k < 4; ++k, y /= 3) w.push_back(static_cast<char>('a' + y % 3));
    if (word_valid(0, delays(w, 7))) valid.push_back(w);
  }
  std::sort(valid.begin(), valid.end());
  EXPECT_EQ(valid, (std::vector<std::string>{"abbb", "abca", "acab", "cccc"}));
  // E2 (delay 3, two children): the word "a"; D1: empty.
  EXPECT_TRUE(word_valid(3, delays("a", 7)));
  EXPECT_FALSE(word_valid(3, delays("b", 7)));
}

TEST(Words, Lemma31WordsAreLegal) {
  // In T(t) a block of r children has active delay t - L + 1 - r.
  for (std::int64_t L = 3; L <= 10; ++L)
    for (std::int64_t r = L; r <= L + 12; ++r) {
      const std::int64_t t = 40, s = t - L + 1 - r;
      for (std::int64_t m = 0; L - 2 + 2 * m <= r - 1; ++m) {  // a^{L-2} (ca)^m b^n
        std::string w(static_cast<std::size_t>(L - 2), 'a');
        for (std::int64_t i = 0; i < m; ++i) w += "ca";
        w.resize(static_cast<std::size_t>(r - 1), 'b');
        EXPECT_TRUE(word_valid(s, delays(w, t))) << "L=" << L << " r=" << r << " " << w;
      }
      for (std::int64_t x = 1; x <= L - 2 && L - 2 - x <= r - 1; ++x) {  // x^{L-2-x} (x+1)^*
        std::string w(static_cast<std::size_t>(L - 2 - x), static_cast<char>('a' + x));
        w.resize(static_cast<std::size_t>(r - 1), static_cast<char>('a' + x + 1));
        EXPECT_TRUE(word_valid(s, delays(w, t))) << "L=" << L << " r=" << r << " " << w;
      }
    }
}

TEST(Continuous, Figure2AssignmentAndReceivingPattern) {
  const BlockCyclic b = figure2_assignment(false);
  ASSERT_EQ(check(b), "");
  // T_9 for L = 3: delays 0, 3, 4, 5, 6, 6, 7, 7, 7.
  std::vector<std::int64_t> d;
  for (proc_t v = 0; v < b.tree.size(); ++v) d.push_back(b.tree.delay(v));
  std::sort(d.begin(), d.end());
  EXPECT_EQ(d, (std::vector<std::int64_t>{0, 3, 4, 5, 6, 6, 7, 7, 7}));
  // S_7 = {a, a, a, b, b, c, D1, E2, H5}: at every step in the steady state
  // the nine receptions are of items with delays 7,7,7,6,6,5 (leaves) and
  // 4,3,0 (the D1, E2 and H5 nodes).
  const Schedule s = block_cyclic_schedule(b, 30);
  const SimReport r = simulate(s);
  ASSERT_TRUE(r.ok()) << r.errors.front();
  for (std::int64_t x = 3 + 7; x < 30; ++x) {
    std::vector<std::int64_t> got;
    for (const Message& m : s.messages)
      if (m.start + 3 == x) got.push_back(x - 3 - m.item);
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, (std::vector<std::int64_t>{0, 3, 4, 5, 6, 6, 7, 7, 7})) << "time " << x;
  }
  EXPECT_EQ(r.completion, 29 + 3 + 7);  // delay L + B(P-1) = 10 per item
}

TEST(Continuous, BaseCasesFoundByTheSearch) {
  for (std::int64_t L = 2; L <= 10; ++L) {
    const BaseCases& bc = base_cases(L);
    ASSERT_GE(bc.t0, 0) << "L=" << L;
    EXPECT_LE(bc.t0, 3 * L + 2) << "L=" << L;  // "the values t(L) ... are small"
    ASSERT_EQ(static_cast<std::int64_t>(bc.cases.size()), L);
    for (std::size_t i = 0; i < bc.cases.size(); ++i) {
      const BlockCyclicCase& c = bc.cases[i];
      EXPECT_EQ(c.t, bc.t0 + static_cast<std::int64_t>(i));
      EXPECT_EQ(c.tree.size(), *postal_fib(L, c.t));
      EXPECT_EQ(c.tree.depth(), c.t + (L == 2 ? 1 : 0));
      ASSERT_EQ(c.receive_only.size(), 1u);
      EXPECT_EQ(c.receive_only[0], c.tree.depth() - bc.c0);  // the letter c0 (b for L >= 3)
      EXPECT_EQ(check(assemble(c.tree, c.words, c.receive_only)), "") << "L=" << L << " t=" << c.t;
    }
  }
  // The paper's remark: for L = 4, t = 8 no block-cyclic schedule has delay
  // L + t (all blocks have <= 12 children, where the search is complete).
  const BaseCases& b4 = base_cases(4);
  EXPECT_NE(std::find(b4.not_found.begin(), b4.not_found.end(), 8), b4.not_found.end());
  EXPECT_FALSE(continuous_broadcast(*postal_fib(4, 8) + 1, 4).has_value());
}

TEST(Continuous, InductionAppendsTheExtensionLetterToTheRoot) {
  for (std::int64_t L : {2, 3, 5}) {
    const BaseCases& bc = base_cases(L);
    const std::int64_t t = bc.t0 + L + 2;
    const auto a = continuous_broadcast(*postal_fib(L, t) + 1, L);
    const auto b = continuous_broadcast(*postal_fib(L, t - 1) + 1, L);
    ASSERT_TRUE(a && b);
    // I(t) = I(t-1) U I(t-L), the root block one larger: block sizes as multisets.
    std::map<std::int64_t, std::int64_t> sizes, expect;
    for (const Block& k : a->solution.blocks) ++sizes[k.period];
    const auto c = continuous_broadcast(*postal_fib(L, t - L) + 1, L);
    for (const auto* x : {&b->solution, &c->solution})
      for (const Block& k : x->blocks) ++expect[k.period];
    const std::int64_t root_before = b->solution.blocks.front().period;
    --expect[root_before], ++expect[root_before + 1], --expect[1];  // one receive-only fewer
    for (auto it = expect.begin(); it != expect.end();) it = it->second == 0 ? expect.erase(it) : std::next(it);
    EXPECT_EQ(sizes, expect) << "L=" << L;
    // The root word of I(t) is that of I(t-1), one step later, plus the letter c0.
    std::vector<std::int64_t> w = b->solution.blocks.front().word;
    for (auto& x : w) ++x;
    w.push_back(a->solution.tree.depth() - bc.c0);
    EXPECT_EQ(a->solution.blocks.front().word, w) << "L=" << L;
  }
}

TEST(Continuous, SchedulesSimulateWithOptimalDelay) {
  for (std::int64_t L = 1; L <= 10; ++L) {
    int built = 0;
    for (std::int64_t t = 0; t <= 60; ++t) {
      const std::int64_t N = *postal_fib(L, t);
      if ((t > 0 && t < L) || N > 1500) continue;
      const auto plan = continuous_broadcast(N + 1, L);
      if (!plan) {
        // Only below the base cases (and never for L = 1).
        EXPECT_NE(L, 1);
        if (L >= 2) {
          EXPECT_LT(t, base_cases(L).t0) << "L=" << L << " t=" << t;
        }
        continue;
      }
      ++built;
      EXPECT_EQ(check(plan->solution), "");
      // Optimal delay L + B(P-1), except L = 2 (Theorem 3.5: one more) from t = 7.
      EXPECT_EQ(plan->optimal_delay, L + t);
      if (L == 2 && t >= 7) {
        EXPECT_EQ(plan->delay, L + t + 1) << "t=" << t;
      } else if (L != 2) {
        EXPECT_EQ(plan->delay, L + t) << "L=" << L << " t=" << t;
      }
      const std::int64_t k = plan->solution.tree.depth() + 4;
      const SimReport r = simulate(block_cyclic_schedule(plan->solution, k));
      ASSERT_TRUE(r.ok()) << "L=" << L << " t=" << t << ": " << r.errors.front();
      EXPECT_EQ(r.completion, k - 1 + plan->delay);
      EXPECT_EQ(r.duplicate_receptions, 0);
    }
    EXPECT_GE(built, 4) << "L=" << L;
  }
}

TEST(Continuous, LargeInstanceByInduction) {
  // P - 1 = f_30 for L = 4 (about 3e3 processors), a few items.
  const std::int64_t N = *postal_fib(4, 30);
  const auto plan = continuous_broadcast(N + 1, 4);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->delay, 4 + 30);
  const SimReport r = simulate(block_cyclic_schedule(plan->solution, 40));
  ASSERT_TRUE(r.ok()) << r.errors.front();
  EXPECT_EQ(r.completion, 39 + 34);
}

TEST(Continuous, CheckRejectsBrokenAssignments) {
  BlockCyclic b = figure2_assignment(false);
  b.blocks[0].word = {7, 7, 5, 6};  // aacb: a twice in a row at H5 repeats an item
  EXPECT_NE(check(b), "");
  b = figure2_assignment(false);
  b.blocks.back().word = {7};  // receive-only takes a instead of b: letters unbalanced
  EXPECT_NE(check(b), "");
}

}  // namespace
