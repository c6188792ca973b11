#include "optcoll/schedule/circulant.hpp"

#include <gtest/gtest.h>

#include "optcoll/error.hpp"
#include "paper_tables.hpp"

namespace optcoll::schedule {
namespace {

class PaperTableTest : public ::testing::TestWithParam<test::PaperTable> {};

TEST_P(PaperTableTest, ReproducedCellForCell) {
  const test::PaperTable& t = GetParam();
  const Circulant g(t.p);
  ASSERT_EQ(g.q(), t.q);
  for (rank_t r = 0; r < t.p; ++r) {
    const RankSchedule s = make_rank_schedule(g, r);
    const auto ur = static_cast<std::size_t>(r);
    EXPECT_EQ(s.baseblock, t.b[ur]) << "b for r=" << r;
    for (std::size_t k = 0; k < static_cast<std::size_t>(t.q); ++k) {
      EXPECT_EQ(s.recv[k], t.recv[k][ur]) << "recvblock[" << k << "] r=" << r;
      EXPECT_EQ(s.send[k], t.send[k][ur]) << "sendblock[" << k << "] r=" << r;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Traff2024, PaperTableTest, ::testing::Values(test::kTable1, test::kTable2, test::kTable3),
                         [](const auto& param_info) { return "p" + std::to_string(param_info.param.p); });

TEST(Circulant, SkipsHalveWithRoundingUp) {
  for (rank_t p : {rank_t{1}, rank_t{2}, rank_t{3}, rank_t{17}, rank_t{1000003}, kMaxP}) {
    const Circulant g(p);
    ASSERT_EQ(g.skip(g.q()), p);
    for (int k = g.q(); k > 0; --k) EXPECT_EQ(g.skip(k - 1), (g.skip(k) + 1) / 2) << "p=" << p << " k=" << k;
    if (p > 1) {
      EXPECT_EQ(g.skip(0), 1);
    }
    // q = ceil(log2 p)
    EXPECT_GE(rank_t{1} << g.q(), p);
    if (g.q() > 0) {
      EXPECT_LT(rank_t{1} << (g.q() - 1), p);
    }
  }
}

TEST(Circulant, LargestPHasThirtyOneRoundsAndNoOverflow) {
  const Circulant g(kMaxP);
  EXPECT_EQ(g.q(), 31);
  // Neighbours wrap correctly at the top of the range, where r + skip > 2^31.
  EXPECT_EQ(g.to(kMaxP - 1, 30), kMaxP - 1 + g.skip(30) - kMaxP);
  EXPECT_EQ(g.from(0, 30), kMaxP - g.skip(30));
  const RankSchedule s = make_rank_schedule(g, kMaxP - 1);
  EXPECT_GE(s.baseblock, 0);
  EXPECT_LT(s.baseblock, 31);
}

TEST(Circulant, DegenerateSizes) {
  const Circulant one(1);
  EXPECT_EQ(one.q(), 0);
  EXPECT_EQ(one.baseblock(0), 0);
  const Circulant two(2);
  EXPECT_EQ(two.q(), 1);
  // p = 2: the root sends block 0 in round 0, rank 1 receives it as its baseblock.
  const RankSchedule r0 = make_rank_schedule(two, 0);
  const RankSchedule r1 = make_rank_schedule(two, 1);
  EXPECT_EQ(r0.send[0], 0);
  EXPECT_EQ(r1.baseblock, 0);
  EXPECT_EQ(r1.recv[0], 0);
  const Circulant three(3);
  EXPECT_EQ(three.q(), 2);
  EXPECT_EQ(three.skip(0), 1);
  EXPECT_EQ(three.skip(1), 2);
}

TEST(Circulant, RejectsInvalidP) {
  EXPECT_THROW(Circulant(0), Error);
  EXPECT_THROW(Circulant(-5), Error);
  EXPECT_THROW(Circulant(kMaxP + 1), Error);
  try {
    Circulant g(0);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), Errc::invalid_p);
  }
  EXPECT_THROW(make_rank_schedule(Circulant(5), 5), Error);
  EXPECT_THROW(make_rank_schedule(Circulant(5), -1), Error);
}

}  // namespace
}  // namespace optcoll::schedule
