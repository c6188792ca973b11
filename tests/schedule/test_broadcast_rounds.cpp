#include "optcoll/schedule/broadcast_rounds.hpp"

#include <gtest/gtest.h>

#include "optcoll/error.hpp"
#include "optcoll/schedule/verify.hpp"

namespace optcoll::schedule {
namespace {

// The per-round view delivers every block to every rank in exactly n-1+q
// rounds, for non-powers of two, p = 1, several roots and block counts.
TEST(BroadcastRounds, DeliversAllBlocksForAnyRoot) {
  for (rank_t p : {1, 2, 3, 5, 6, 7, 9, 17, 18, 31, 33, 100}) {
    const Circulant g(p);
    const std::int64_t q = g.q();
    for (rank_t root : {rank_t{0}, p / 2, p - 1}) {
      for (std::int64_t n : {std::int64_t{0}, std::int64_t{1}, q - 1, q, q + 1, 2 * q + 3, std::int64_t{70}}) {
        if (n < 0) continue;
        const VerifyReport rep = simulate_broadcast(p, root, n);
        EXPECT_TRUE(rep.ok()) << (rep.messages.empty() ? "" : rep.messages.front());
        EXPECT_EQ(rep.broadcast_rounds_simulated, (n == 0 || p == 1) ? 0 : n - 1 + q) << "p=" << p << " n=" << n;
      }
    }
  }
}

TEST(BroadcastRounds, VirtualRoundsAndCapping) {
  // p = 17, q = 5, n = 3: x = (5 - 2 % 5) % 5 = 3 virtual rounds, 7 rounds.
  const Circulant g(17);
  const BroadcastRounds root(g, 0, 0, 3);
  EXPECT_EQ(root.virtual_rounds(), 3);
  EXPECT_EQ(root.rounds(), 7);
  // Round 0 is the paper's round 3 (k = 3): the root's raw send block is
  // sendblock[3] - x = 3 - 3 = 0, sent to skip[3] = 5.
  RoundStep s = root.step(0);
  EXPECT_EQ(s.to, 5);
  EXPECT_EQ(s.send_block, 0);
  EXPECT_EQ(s.from, -1);  // the root never receives
  // Round 6 is the paper's round 9 (k = 4, phase 1): raw 4 - 3 + 5 = 6 > n-1 = 2, capped.
  s = root.step(6);
  EXPECT_EQ(root.raw_send_block(6), 6);
  EXPECT_EQ(s.send_block, 2);
  EXPECT_EQ(s.to, 9);
  // No rank sends to the root: rank 16 sends to 0 in k = 0 rounds.
  const BroadcastRounds r16(g, 0, 16, 3);
  for (std::int64_t i = 0; i < r16.rounds(); ++i) {
    if (r16.round_k(i) == 0) {
      EXPECT_EQ(r16.step(i).to, -1);
    }
  }
}

TEST(BroadcastRounds, RootShiftsRanks) {
  // With root 4 of p = 9, real rank 4 behaves as virtual rank 0.
  const Circulant g(9);
  const BroadcastRounds v(g, 4, 4, 5);
  EXPECT_EQ(v.vrank(), 0);
  const BroadcastRounds w(g, 4, 3, 5);
  EXPECT_EQ(w.vrank(), 8);
  const RoundStep s = v.step(0);
  EXPECT_EQ(s.from, -1);
  EXPECT_GE(s.to, 0);
}

TEST(BroadcastRounds, RejectsBadArguments) {
  const Circulant g(5);
  EXPECT_THROW(BroadcastRounds(g, 5, 0, 1), Error);
  EXPECT_THROW(BroadcastRounds(g, -1, 0, 1), Error);
  EXPECT_THROW(BroadcastRounds(g, 0, 7, 1), Error);
  EXPECT_THROW(BroadcastRounds(g, 0, 0, -1), Error);
}

}  // namespace
}  // namespace optcoll::schedule
