#include "optcoll/schedule/all_roots.hpp"

#include <gtest/gtest.h>

namespace optcoll::schedule {
namespace {

TEST(AllRoots, BaseblockListingMatchesAlgorithm3) {
  for (rank_t p = 1; p <= 3000; ++p) {
    const Circulant g(p);
    const auto listed = list_baseblocks(g);
    ASSERT_EQ(listed.size(), static_cast<std::size_t>(p));
    for (rank_t r = 0; r < p; ++r)
      ASSERT_EQ(listed[static_cast<std::size_t>(r)], g.baseblock(r)) << "p=" << p << " r=" << r;
  }
}

TEST(AllRoots, PaperListingExample) {
  // Proof of Lemma 3, skips 1, 2, 3, 6, 11: 0 -> 10 -> 201 -> 301201 -> 40120130120.
  const Circulant g(11);
  const auto b = list_baseblocks(g);
  const std::vector<std::int8_t> expected{4, 0, 1, 2, 0, 1, 3, 0, 1, 2, 0};
  EXPECT_EQ(b, expected);
}

TEST(AllRoots, SchedulesEqualPerRankComputation) {
  for (rank_t p : {1, 2, 3, 7, 17, 18, 100, 1000, 4097}) {
    const Circulant g(p);
    const AllRootsSchedule all(g);
    for (rank_t v = 0; v < p; ++v) {
      const RankSchedule s = make_rank_schedule(g, v);
      ASSERT_EQ(all.baseblock(v), s.baseblock);
      for (int k = 0; k < g.q(); ++k) {
        ASSERT_EQ(all.recv(v)[static_cast<std::size_t>(k)], s.recv[static_cast<std::size_t>(k)]) << p << " " << v;
        ASSERT_EQ(all.send(v, k), s.send[static_cast<std::size_t>(k)]) << p << " " << v;
      }
    }
  }
}

}  // namespace
}  // namespace optcoll::schedule
