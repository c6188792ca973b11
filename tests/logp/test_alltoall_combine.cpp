// All-to-all broadcast (§4.1) and combining broadcast (§4.2), run through the
// simulator against the lower bounds.
#include <gtest/gtest.h>

#include "optcoll/logp/alltoall.hpp"
#include "optcoll/logp/fibonacci.hpp"
#include "optcoll/logp/simulator.hpp"

namespace {

using namespace optcoll::logp;

TEST(AllToAll, MeetsTheBoundWhenOverheadsInterleave) {
  for (const Params& p : {postal(1), postal(4), Params{5, 1, 3, 0}, Params{2, 1, 4, 0}, Params{9, 2, 5, 0}})
    for (proc_t P : {2, 3, 5, 8, 13})
      for (std::int64_t k : {1, 2, 3}) {
        const AllToAll a = alltoall_broadcast(P, k, p);
        const SimReport r = simulate(a.schedule);
        ASSERT_TRUE(r.ok()) << p.str() << " P=" << P << " k=" << k << ": " << r.errors.front();
        EXPECT_EQ(r.completion, a.completion);
        EXPECT_EQ(a.paper_bound, p.L + 2 * p.o + p.g * (k * (P - 1) - 1));
        if (a.gap == p.g) {
          EXPECT_TRUE(r.meets_bound()) << p.str() << " P=" << P;
        }
      }
}

TEST(AllToAll, PaperGapClashesForFigure1Parameters) {
  // L=6, o=2, g=4: the receive overhead of round r overlaps the send overhead
  // of round r+2 (8 lies in (6, 10)), so the paper's schedule is not valid
  // LogP; the construction stretches the gap to 5.
  const Params p{6, 2, 4, 0};
  const AllToAll a = alltoall_broadcast(5, 1, p);
  EXPECT_EQ(a.gap, 5);
  EXPECT_TRUE(simulate(a.schedule).ok());
  Schedule paper = a.schedule;
  for (auto& m : paper.messages) m.start = m.start / 5 * 4;
  const SimReport r = simulate(paper);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors.front().find("overhead"), std::string::npos) << r.errors.front();
  EXPECT_EQ(r.completion, a.paper_bound);  // the data would be on time
}

TEST(Combining, FibonacciSizesAreOptimal) {
  for (std::int64_t L = 1; L <= 5; ++L)
    for (std::int64_t T = 0; T <= 12; ++T) {
      if (T > 0 && T < L) continue;  // f_T = 1 = f_0 there
      const proc_t P = *postal_fib(L, T);
      if (P > 400) break;
      const Combining c = combining_broadcast(P, L, CombineMode::exact);
      EXPECT_EQ(c.method, "fibonacci");
      EXPECT_EQ(c.time, T);
      const SimReport r = simulate(c.schedule);
      ASSERT_TRUE(r.ok()) << "L=" << L << " P=" << P << ": " << r.errors.front();
      EXPECT_EQ(r.completion, T);
      EXPECT_TRUE(r.meets_bound());
    }
}

TEST(Combining, AnyP) {
  for (std::int64_t L = 1; L <= 4; ++L)
    for (proc_t P = 1; P <= 70; ++P) {
      const Combining w = combining_broadcast(P, L, CombineMode::idempotent);
      const SimReport rw = simulate(w.schedule);
      ASSERT_TRUE(rw.ok()) << "L=" << L << " P=" << P << ": " << rw.errors.front();
      EXPECT_EQ(rw.completion, w.lower_bound);  // optimal for idempotent operators
      const Combining e = combining_broadcast(P, L, CombineMode::exact);
      const SimReport re = simulate(e.schedule);
      ASSERT_TRUE(re.ok()) << "L=" << L << " P=" << P << ": " << re.errors.front();
      EXPECT_EQ(re.completion, e.time);
      EXPECT_LE(e.time, e.lower_bound - 1 + 2 * L);
      // The wrapped schedule counts some values twice: not valid for sums.
      if (w.method == "fibonacci-wrap") {
        Schedule strict = w.schedule;
        strict.idempotent = false;
        EXPECT_FALSE(simulate(strict).ok()) << "L=" << L << " P=" << P;
      }
    }
}

}  // namespace
