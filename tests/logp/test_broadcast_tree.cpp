// B(P), P(t), f_i against brute force and Figure 1 (Karp et al. 1993, §2).
#include <gtest/gtest.h>

#include <queue>

#include "optcoll/error.hpp"
#include "optcoll/logp/broadcast_tree.hpp"
#include "optcoll/logp/fibonacci.hpp"
#include "optcoll/logp/simulator.hpp"

namespace {

using namespace optcoll::logp;

// The P smallest labels of the universal tree by a priority queue over
// (label of the next child of some node): an independent enumeration.
std::vector<std::int64_t> smallest_labels(std::int64_t P, const Params& p) {
  std::priority_queue<std::int64_t, std::vector<std::int64_t>, std::greater<>> next;  // candidate labels
  std::vector<std::int64_t> out{0};
  // Each node labelled x contributes the arithmetic sequence x + d + i g; a
  // candidate stands for "the i-th child", its successor is pushed when popped.
  std::priority_queue<std::pair<std::int64_t, std::int64_t>, std::vector<std::pair<std::int64_t, std::int64_t>>,
                      std::greater<>>
      q;  // (label, parent label)
  q.push({p.hop(), 0});
  while (static_cast<std::int64_t>(out.size()) < P) {
    auto [x, parent] = q.top();
    q.pop();
    out.push_back(x);
    q.push({x + p.hop(), x});   // its first child
    q.push({x + p.g, parent});  // its next sibling
  }
  (void)next;
  std::sort(out.begin(), out.end());
  return out;
}

// Counts labels <= t by brute-force recursion.
std::int64_t count_labels(std::int64_t t, const Params& p) {
  if (t < 0) return 0;
  std::int64_t n = 1;
  for (std::int64_t c = p.hop(); c <= t; c += p.g) n += count_labels(t - c, p);
  return n;
}

TEST(Fibonacci, PostalRecurrenceAndFact21) {
  for (std::int64_t L = 1; L <= 9; ++L) {
    const auto f = postal_fib_sequence(L, 60);
    ASSERT_EQ(f.size(), 61u);
    std::int64_t sum = 1;
    for (std::int64_t t = 0; t <= 40; ++t) {
      // Definition 2.5 directly.
      const std::int64_t expect = t < L ? 1 : f[static_cast<std::size_t>(t - 1)] + f[static_cast<std::size_t>(t - L)];
      EXPECT_EQ(f[static_cast<std::size_t>(t)], expect);
      EXPECT_EQ(postal_fib(L, t), expect);
      // Fact 2.1: 1 + f_0 + ... + f_t = f_{t+L}.
      sum += f[static_cast<std::size_t>(t)];
      EXPECT_EQ(sum, f[static_cast<std::size_t>(t + L)]) << "L=" << L << " t=" << t;
    }
  }
}

TEST(Fibonacci, Theorem22PostalReachIsFib) {
  for (std::int64_t L = 1; L <= 6; ++L)
    for (std::int64_t t = 0; t <= 24; ++t) {
      EXPECT_EQ(reachable(t, postal(L)), postal_fib(L, t)) << "L=" << L << " t=" << t;
      EXPECT_EQ(*reachable(t, postal(L)), count_labels(t, postal(L)));
    }
}

TEST(Fibonacci, OverflowIsDetected) {
  // f_92 (L=1... no: L=2 is Fibonacci) F_93 > 2^63: f_i = F_{i+1}.
  EXPECT_EQ(postal_fib(2, 91), 7540113804746346429);  // F_92
  EXPECT_FALSE(postal_fib(2, 92).has_value());        // F_93 overflows int64
  EXPECT_EQ(postal_fib(1, 62), std::int64_t{1} << 62);
  EXPECT_FALSE(postal_fib(1, 63).has_value());
  EXPECT_EQ(postal_fib_sequence(1, 100).size(), 63u);
  EXPECT_FALSE(reachable(70, postal(1)).has_value());
  EXPECT_EQ(reachable(62, postal(1)), std::int64_t{1} << 62);
  EXPECT_FALSE(reachable(1000, Params{6, 2, 4, 0}).has_value());
}

TEST(Fibonacci, GeneralReachMatchesBruteForce) {
  for (const Params& p : {Params{6, 2, 4, 0}, Params{5, 0, 3, 0}, Params{2, 1, 1, 0}, Params{3, 1, 2, 0},
                          Params{1, 0, 5, 0}, Params{7, 3, 3, 0}})
    for (std::int64_t t = -1; t <= 45; ++t) EXPECT_EQ(*reachable(t, p), count_labels(t, p)) << p.str() << " t=" << t;
}

TEST(BroadcastTree, Figure1) {
  const Params p{6, 2, 4, 0};
  const BroadcastTree tree(8, p);
  const std::vector<std::int64_t> label{0, 10, 14, 18, 22, 20, 24, 24};
  const std::vector<proc_t> parent{-1, 0, 0, 0, 0, 1, 1, 2};
  ASSERT_EQ(tree.size(), 8);
  for (proc_t v = 0; v < 8; ++v) {
    EXPECT_EQ(tree.delay(v), label[static_cast<std::size_t>(v)]) << v;
    EXPECT_EQ(tree.parent(v), parent[static_cast<std::size_t>(v)]) << v;
  }
  EXPECT_EQ(tree.completion(), 24);
  EXPECT_EQ(broadcast_time(8, p), 24);
  const SimReport r = simulate(broadcast_schedule(tree));
  EXPECT_TRUE(r.ok()) << r.errors.front();
  EXPECT_EQ(r.completion, 24);
  EXPECT_TRUE(r.meets_bound());
}

TEST(BroadcastTree, LabelsAreThePSmallestAndSimulatorAgrees) {
  for (const Params& p : {Params{6, 2, 4, 0}, Params{1, 0, 1, 0}, Params{3, 0, 1, 0}, Params{5, 1, 3, 0},
                          Params{2, 2, 2, 0}, Params{10, 0, 7, 0}, Params{4, 1, 1, 0}})
    for (std::int64_t P = 1; P <= 300; P += (P < 40 ? 1 : 17)) {
      const BroadcastTree tree(P, p);
      std::vector<std::int64_t> got;
      for (proc_t v = 0; v < P; ++v) {
        got.push_back(tree.delay(v));
        if (v > 0) {
          EXPECT_EQ(tree.delay(v), tree.delay(tree.parent(v)) + p.hop() + tree.child_index(v) * p.g);
          EXPECT_LT(tree.parent(v), v);
        }
      }
      std::sort(got.begin(), got.end());
      ASSERT_EQ(got, smallest_labels(P, p)) << p.str() << " P=" << P;
      EXPECT_EQ(tree.completion(), got.back());
      EXPECT_EQ(broadcast_time(P, p), got.back());
      const SimReport r = simulate(broadcast_schedule(tree));
      ASSERT_TRUE(r.ok()) << p.str() << " P=" << P << ": " << r.errors.front();
      EXPECT_EQ(r.completion, tree.completion());
    }
}

TEST(BroadcastTree, InvalidInput) {
  EXPECT_THROW(BroadcastTree(0, postal(2)), optcoll::Error);
  EXPECT_THROW(BroadcastTree(5, Params{0, 0, 1, 0}), optcoll::Error);
  EXPECT_THROW(BroadcastTree(5, Params{3, 2, 1, 0}), optcoll::Error);  // o > g
}

TEST(BroadcastTree, ShapeSendsLargestSubtreeFirst) {
  const BroadcastTree tree(100, Params{3, 1, 2, 0});
  const auto h = tree.subtree_height();
  const TreeShape s = tree_shape(tree, 7);
  ASSERT_EQ(s.size(), 100);
  EXPECT_EQ(s.parent[7], -1);
  for (proc_t r = 0; r < 100; ++r)
    for (proc_t j = s.child_offset[static_cast<std::size_t>(r)];
         j + 1 < s.child_offset[static_cast<std::size_t>(r) + 1]; ++j) {
      const proc_t a = (s.children[static_cast<std::size_t>(j)] - 7 + 100) % 100;
      const proc_t b = (s.children[static_cast<std::size_t>(j) + 1] - 7 + 100) % 100;
      EXPECT_GE(h[static_cast<std::size_t>(a)], h[static_cast<std::size_t>(b)]);
      EXPECT_EQ(s.parent[static_cast<std::size_t>(s.children[static_cast<std::size_t>(j)])], r);
    }
}

}  // namespace
