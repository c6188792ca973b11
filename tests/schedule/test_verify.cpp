#include "optcoll/schedule/verify.hpp"

#include <gtest/gtest.h>

namespace optcoll::schedule {
namespace {

std::string first(const VerifyReport& r) {
  return r.messages.empty() ? std::string() : r.messages.front();
}

// Every p <= 2000: conditions 1-4, the work bounds, and Algorithm 1 simulated
// for n = 1, q-1, q, q+1, 4q+1. Split in slices so ctest can run them in parallel.
class ExhaustiveSlice : public ::testing::TestWithParam<int> {};

TEST_P(ExhaustiveSlice, AllConditionsBoundsAndBroadcasts) {
  const rank_t lo = GetParam() * 250 + 1;
  VerifyReport total;
  for (rank_t p = lo; p < lo + 250; ++p) {
    const VerifyReport r = verify_exhaustive(p, default_block_counts(Circulant(p)));
    EXPECT_TRUE(r.ok()) << first(r);
    EXPECT_EQ(r.ranks_checked, p);
    total.merge(r);
  }
  EXPECT_LE(total.max_violations, 4);  // 4 is reached first at p = 2049
  EXPECT_GT(total.broadcast_rounds_simulated, 0);
}

INSTANTIATE_TEST_SUITE_P(UpTo2000, ExhaustiveSlice, ::testing::Range(0, 8));

TEST(Verify, BoundsAreTightWhereThePaperSaysSo) {
  // Table 1 has violations (r = 3, k = 2 and r = 8, k = 3), so a p = 17 run
  // must report some; the verifier counting nothing would be a broken check.
  const VerifyReport r = verify_exhaustive(17, {});
  EXPECT_TRUE(r.ok());
  EXPECT_GE(r.max_violations, 1);
  EXPECT_GE(r.max_descents, 1);
}

TEST(Verify, SampledPowersOfTwoAndNeighboursUpToMaxP) {
  for (int k = 1; k <= 31; ++k) {
    for (rank_t d : {-1, 0, 1}) {
      const rank_t p = (rank_t{1} << k) + d;
      if (p < 1 || p > kMaxP) continue;
      const Circulant g(p);
      const VerifyReport r = verify_ranks(p, sample_ranks(g, 64, static_cast<std::uint64_t>(p)));
      EXPECT_TRUE(r.ok()) << first(r);
      EXPECT_GT(r.ranks_checked, 0);
    }
  }
}

TEST(Verify, SampledLargestP) {
  const Circulant g(kMaxP);
  const VerifyReport r = verify_ranks(kMaxP, sample_ranks(g, 2000, 7));
  EXPECT_TRUE(r.ok()) << first(r);
  EXPECT_GE(r.ranks_checked, 2000);
  EXPECT_LE(r.max_violations, 5);
  EXPECT_LE(r.max_descents, g.q() - 1);
}

TEST(Verify, DetectsCorruptedSchedules) {
  // The checks must be able to fail: corrupt single entries of correct
  // schedules and expect the matching condition to be reported.
  const Circulant g(17);
  const auto q = static_cast<std::size_t>(g.q());
  std::vector<std::int8_t> base(17);
  std::vector<std::int8_t> recv(17 * q);
  std::vector<std::int8_t> send(17 * q);
  for (rank_t r = 0; r < 17; ++r) {
    const RankSchedule s = make_rank_schedule(g, r);
    base[static_cast<std::size_t>(r)] = static_cast<std::int8_t>(s.baseblock);
    for (std::size_t k = 0; k < q; ++k) {
      recv[static_cast<std::size_t>(r) * q + k] = static_cast<std::int8_t>(s.recv[k]);
      send[static_cast<std::size_t>(r) * q + k] = static_cast<std::int8_t>(s.send[k]);
    }
  }
  VerifyReport clean;
  check_conditions(g, base, recv, send, clean);
  EXPECT_TRUE(clean.ok()) << first(clean);

  auto corrupted = [&](std::vector<std::int8_t>& v, std::size_t i, std::int8_t value) {
    const std::int8_t old = v[i];
    v[i] = value;
    VerifyReport rep;
    check_conditions(g, base, recv, send, rep);
    v[i] = old;
    return rep;
  };
  // Rank 3's send in round 2 (a Table 1 violation entry, -4): claim block -1.
  EXPECT_FALSE(corrupted(send, 3 * q + 2, -1).ok());
  // Rank 9 receives its baseblock 4 in round 4; make it receive it twice.
  EXPECT_FALSE(corrupted(recv, 9 * q + 3, 4).ok());
  // Sending a block never received (condition 4 alone: also patch the receiver).
  VerifyReport c4 = corrupted(send, 1 * q + 0, 0);
  EXPECT_FALSE(c4.ok());
}

}  // namespace
}  // namespace optcoll::schedule
