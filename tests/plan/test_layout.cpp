#include <gtest/gtest.h>

#include "optcoll/error.hpp"
#include "optcoll/plan/plan.hpp"

namespace optcoll::plan {
namespace {

// Blocks tile each group exactly, in order, sizes differing by at most one.
TEST(BlockLayout, BlocksTileEveryGroup) {
  const std::vector<Segment> groups{{0, 10}, {10, 0}, {12, 7}, {40, 3}};
  for (std::int64_t n : {1, 2, 3, 7, 11}) {
    const BlockLayout lay(groups, n);
    ASSERT_EQ(lay.blocks(), 4 * n);
    EXPECT_EQ(lay.extent(), 43);
    for (std::int64_t g = 0; g < 4; ++g) {
      std::int64_t at = groups[static_cast<std::size_t>(g)].offset;
      std::int64_t lo = INT64_MAX, hi = 0;
      for (std::int64_t j = 0; j < n; ++j) {
        const Segment s = lay.block(g * n + j);
        EXPECT_EQ(s.offset, at);
        at += s.count;
        lo = std::min(lo, s.count);
        hi = std::max(hi, s.count);
      }
      EXPECT_EQ(at, groups[static_cast<std::size_t>(g)].offset + groups[static_cast<std::size_t>(g)].count);
      EXPECT_LE(hi - lo, 1);
      const Segment whole = lay.run({g * n, n});
      EXPECT_EQ(whole.offset, groups[static_cast<std::size_t>(g)].offset);
      EXPECT_EQ(whole.count, groups[static_cast<std::size_t>(g)].count);
    }
    EXPECT_EQ(lay.largest_block(), (10 + n - 1) / n);
  }
}

TEST(BlockLayout, LargeCounts) {
  const std::int64_t count = (std::int64_t{1} << 40) + 3;
  const BlockLayout lay(count, 1000);
  const Segment last = lay.block(999);
  EXPECT_EQ(last.offset + last.count, count);
  EXPECT_EQ(lay.largest_block(), count / 1000 + 1);
}

TEST(BlockLayout, RejectsBadInput) {
  EXPECT_THROW(BlockLayout(10, 0), Error);
  EXPECT_THROW(BlockLayout(std::vector<Segment>{{0, -1}}, 1), Error);
  PlanSpec spec;
  spec.p = 4;
  spec.root = 4;
  EXPECT_THROW(checked_blocks(spec), Error);
  spec.root = 0;
  spec.count = 10;
  spec.blocks = 30;
  EXPECT_EQ(checked_blocks(spec), 10);
  spec.count = 0;
  EXPECT_EQ(checked_blocks(spec), 1);
}

}  // namespace
}  // namespace optcoll::plan
