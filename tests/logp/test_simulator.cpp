// The LogP/LogGP simulator catches each rule it checks, on hand-made
// schedules, and times LogGP messages as o + (m-1)G + L + o.
#include <gtest/gtest.h>

#include "optcoll/logp/simulator.hpp"

namespace {

using namespace optcoll::logp;

Schedule two_items(const Params& p) {
  Schedule s;
  s.params = p;
  s.P = 3;
  s.items = 2;
  s.origins = {{0, 0, 0, 1}, {0, 0, 1, 1}};
  return s;
}

bool has(const SimReport& r, const std::string& what) {
  for (const auto& e : r.errors)
    if (e.find(what) != std::string::npos) return true;
  return false;
}

TEST(LogpSimulator, ValidScheduleAndTiming) {
  Schedule s = two_items(Params{5, 1, 3, 0});
  s.messages = {{0, 0, 1, 0, 1}, {3, 0, 2, 0, 1}, {6, 0, 1, 1, 1}, {9, 0, 2, 1, 1}};
  const SimReport r = simulate(s, {true});
  ASSERT_TRUE(r.ok()) << r.errors.front();
  EXPECT_EQ(r.completion, 9 + 5 + 2);  // last send + L + 2o
  EXPECT_EQ(r.timeline.size(), 8u);
  EXPECT_EQ(r.max_in_transit, 2);  // ceil(5/3) = 2: sends at 0 and 3 overlap in the network
}

TEST(LogpSimulator, GapOverheadCapacity) {
  Schedule s = two_items(Params{5, 1, 3, 0});
  s.messages = {{0, 0, 1, 0, 1}, {2, 0, 2, 0, 1}};  // sends 2 apart, g = 3
  EXPECT_TRUE(has(simulate(s), "gap"));
  // L = 5, o = 2, g = 2: P1 receives item 0 during [7, 9) and item 1 during [9, 11).
  s = two_items(Params{5, 2, 2, 0});
  s.messages = {{0, 0, 1, 0, 1}, {2, 0, 1, 1, 1}, {4, 1, 2, 0, 1}};  // forwards item 0 before it arrives
  EXPECT_TRUE(has(simulate(s), "data"));
  s.messages = {{0, 0, 1, 0, 1}, {2, 0, 1, 1, 1}, {9, 1, 2, 0, 1}};  // send overhead [9, 11) over a receive
  EXPECT_TRUE(has(simulate(s), "overhead"));
  // ceil(L/g) = 3 for L = 6, g = 2: a sixth send at time 0 puts four messages in
  // transit from P0 at once (and breaks the gap).
  Schedule c = two_items(Params{6, 0, 2, 0});
  c.P = 6;
  c.single_reception = false;
  c.targets = {1};
  for (int i = 0; i < 5; ++i) c.messages.push_back({2 * i, 0, 1 + i, 0, 1});
  c.messages.push_back({0, 0, 1, 1, 1});
  const SimReport rc = simulate(c);
  EXPECT_TRUE(has(rc, "gap"));
  EXPECT_TRUE(has(rc, "capacity"));
}

TEST(LogpSimulator, DeliveryAndDuplicates) {
  Schedule s = two_items(postal(2));
  s.messages = {{0, 0, 1, 0, 1}, {1, 0, 2, 0, 1}, {2, 0, 1, 1, 1}};  // item 1 never reaches P2
  EXPECT_TRUE(has(simulate(s), "never reaches"));
  s.messages.push_back({4, 1, 2, 1, 1});  // P1 has item 1 from 2 + L = 4 on
  EXPECT_TRUE(simulate(s).ok());
  s.messages.push_back({5, 0, 2, 1, 1});  // a second copy
  const SimReport r = simulate(s);
  EXPECT_TRUE(has(r, "duplicate"));
  EXPECT_EQ(r.duplicate_receptions, 1);
  s.single_reception = false;
  EXPECT_TRUE(simulate(s).ok());
}

TEST(LogGP, LongMessages) {
  // m = 11 bytes, G = 2: usable o + 10G + L + o after the send; the next
  // send g + 10G later; the next arrival g + (m'-1)G after the last byte.
  Schedule s = two_items(Params{4, 1, 3, 2});
  s.P = 2;
  s.messages = {{0, 0, 1, 0, 11}, {23, 0, 1, 1, 1}};
  const SimReport r = simulate(s);
  ASSERT_TRUE(r.ok()) << r.errors.front();
  EXPECT_EQ(r.completion, 23 + 1 + 4 + 1);  // item 0 at 0 + 1 + 20 + 4 + 1 = 26 before
  s.messages[1].start = 22;                 // the link is busy until 0 + 10G + g = 23
  EXPECT_TRUE(has(simulate(s), "gap"));
  s.messages = {{0, 0, 1, 0, 1}, {3, 0, 1, 1, 11}};  // second arrival 3 + 1 + 20 + 4 = 28: first byte at 8
  EXPECT_TRUE(simulate(s).ok());
  s.messages[1] = {1, 0, 1, 1, 11};  // gap to the first send violated (3 needed)
  EXPECT_TRUE(has(simulate(s), "gap"));
}

}  // namespace
