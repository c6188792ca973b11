// The policy rules of liboptcoll_pmpi.so (src/pmpi/policy.hpp) without MPI
// processes: keywords, the tuning file, the model behind `auto`.
#include <gtest/gtest.h>

#include "optcoll/error.hpp"
#include "policy.hpp"

namespace optcoll::pmpi {
namespace {

using plan::Collective;

TEST(PmpiPolicy, Keywords) {
  EXPECT_EQ(parse_mode(""), Mode::automatic);
  EXPECT_EQ(parse_mode("auto"), Mode::automatic);
  EXPECT_EQ(parse_mode("native"), Mode::native);
  EXPECT_EQ(parse_mode("optcoll"), Mode::optcoll);
  EXPECT_EQ(parse_mode("circulant"), Mode::optcoll);  // an algorithm name implies optcoll
  EXPECT_TRUE(is_policy_keyword("native"));
  EXPECT_FALSE(is_policy_keyword("binomial"));
}

TEST(PmpiPolicy, TuningRoundTrip) {
  Tuning t;
  t.add({Collective::bcast, 8, 1024, 12.5, 9.25});
  t.add({Collective::reduce, 16, 0, 3, 4});
  const Tuning u = Tuning::parse(t.format());
  ASSERT_EQ(u.points().size(), 2U);
  EXPECT_EQ(u.points()[0].op, Collective::bcast);
  EXPECT_EQ(u.points()[0].p, 8);
  EXPECT_EQ(u.points()[0].bytes, 1024);
  EXPECT_DOUBLE_EQ(u.points()[0].native_us, 12.5);
  EXPECT_DOUBLE_EQ(u.points()[0].optcoll_us, 9.25);
  EXPECT_EQ(u.points()[1].op, Collective::reduce);
  EXPECT_TRUE(u.covers(Collective::bcast));
  EXPECT_FALSE(u.covers(Collective::allreduce));
}

TEST(PmpiPolicy, TuningRejectsMalformedLines) {
  EXPECT_NO_THROW(Tuning::parse("# only a comment\n\n  bcast 4 8 1 2  # trailing\n"));
  for (const char* bad :
       {"bcast 4 8 1", "bcast 4 8 1 2 3", "bacst 4 8 1 2", "bcast 0 8 1 2", "bcast 4 -1 1 2", "bcast 4 8 x 2"}) {
    try {
      Tuning::parse(std::string("bcast 2 2 1 1\n") + bad + "\n");
      ADD_FAILURE() << bad;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
    }
  }
}

TEST(PmpiPolicy, TuningNearestPointDecides) {
  // p = 8: optcoll wins from 64 KiB; p = 64: never.
  Tuning t;
  for (std::int64_t b = 16; b <= (std::int64_t{1} << 24); b *= 4) {
    const bool wins = b >= 65536;
    t.add({Collective::bcast, 8, b, wins ? 10.0 : 5.0, wins ? 5.0 : 10.0});
    t.add({Collective::bcast, 64, b, 1, 2});
  }
  EXPECT_FALSE(t.optcoll_wins(Collective::bcast, 8, 1000));
  EXPECT_TRUE(t.optcoll_wins(Collective::bcast, 8, 70000));
  EXPECT_TRUE(t.optcoll_wins(Collective::bcast, 7, 1 << 30));   // beyond the largest size: the largest decides
  EXPECT_TRUE(t.optcoll_wins(Collective::bcast, 17, 1 << 20));  // 17 is nearer 8 than 64 on a log scale
  EXPECT_FALSE(t.optcoll_wins(Collective::bcast, 40, 1 << 20));
  EXPECT_FALSE(t.optcoll_wins(Collective::reduce, 8, 1 << 20));  // no points: false
  // 48 KiB lies between 16 KiB (native) and 64 KiB (optcoll), nearer the latter on a log scale.
  EXPECT_TRUE(t.optcoll_wins(Collective::bcast, 8, 48 << 10));
  EXPECT_FALSE(t.optcoll_wins(Collective::bcast, 8, 20 << 10));
}

}  // namespace
}  // namespace optcoll::pmpi
