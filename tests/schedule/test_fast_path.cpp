// The fast receive path (from-neighbours' send entries, see circulant.cpp)
// against the search of Algorithms 4-5, the fused schedule() against the
// separate calls, and the closed-form Observation 2 of AllRootsSchedule
// against per-rank computation.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "optcoll/schedule/all_roots.hpp"
#include "optcoll/schedule/circulant.hpp"

namespace optcoll::schedule {
namespace {

// Checks one rank: recv_schedule == recv_schedule_search, schedule() ==
// baseblock + recv_schedule + send_schedule, and the counted variants agree.
void expect_rank_agrees(const Circulant& g, rank_t r) {
  const auto q = static_cast<std::size_t>(g.q());
  int search[kMaxQ];
  int fast[kMaxQ];
  int send[kMaxQ];
  int fused_recv[kMaxQ];
  int fused_send[kMaxQ];
  int counted_send[kMaxQ];
  const int b = g.baseblock(r);
  g.recv_schedule_search(r, b, std::span<int>(search, q));
  g.recv_schedule(r, b, std::span<int>(fast, q));
  g.send_schedule(r, b, std::span<int>(send, q));
  ScheduleWork fused_work;
  ScheduleWork send_work;
  ASSERT_EQ(g.schedule(r, std::span<int>(fused_recv, q), std::span<int>(fused_send, q), fused_work), b)
      << "p=" << g.p() << " r=" << r;
  g.send_schedule(r, b, std::span<int>(counted_send, q), send_work);
  EXPECT_EQ(fused_work.violations, send_work.violations) << "p=" << g.p() << " r=" << r;
  for (std::size_t k = 0; k < q; ++k) {
    ASSERT_EQ(fast[k], search[k]) << "p=" << g.p() << " r=" << r << " k=" << k;
    ASSERT_EQ(fused_recv[k], search[k]) << "p=" << g.p() << " r=" << r << " k=" << k;
    ASSERT_EQ(fused_send[k], send[k]) << "p=" << g.p() << " r=" << r << " k=" << k;
    ASSERT_EQ(counted_send[k], send[k]) << "p=" << g.p() << " r=" << r << " k=" << k;
  }
}

TEST(FastPath, EqualsSearchForEveryRankUpTo1500) {
  for (rank_t p = 1; p <= 1500; ++p) {
    const Circulant g(p);
    for (rank_t r = 0; r < p; ++r) expect_rank_agrees(g, r);
  }
}

TEST(FastPath, EqualsSearchOnSampledRanksOfLargeP) {
  std::mt19937_64 rng(2024);
  std::vector<rank_t> ps;
  for (int k = 11; k <= 31; ++k)
    for (rank_t d : {-1, 0, 1})
      if ((rank_t{1} << k) + d <= kMaxP) ps.push_back((rank_t{1} << k) + d);
  // p far from powers of two, where violations and odd entries are common.
  for (rank_t p : {rank_t{700001}, rank_t{786433}, rank_t{3 << 20}, rank_t{1048000}, rank_t{2097005}, kMaxP - 2})
    ps.push_back(p);
  for (rank_t p : ps) {
    const Circulant g(p);
    std::uniform_int_distribution<rank_t> dist(0, p - 1);
    for (rank_t r : {rank_t{0}, rank_t{1}, rank_t{2}, p / 2, p - 2, p - 1}) expect_rank_agrees(g, r);
    for (int i = 0; i < 300; ++i) expect_rank_agrees(g, dist(rng));
  }
}

TEST(FastPath, FiveViolationRanks) {
  // Theorem 3's bound fails here (docs/schedules.md): the fast path must still
  // agree with the search, for the ranks and for their to-neighbours.
  const struct {
    rank_t p;
    rank_t r;
  } cases[] = {{268435457, 201326592}, {268435457, 234881024}, {536870913, 469762049}, {1073741825, 1006632962}};
  for (const auto& c : cases) {
    const Circulant g(c.p);
    ScheduleWork w;
    int recv[kMaxQ];
    int send[kMaxQ];
    g.schedule(c.r, std::span<int>(recv, static_cast<std::size_t>(g.q())),
               std::span<int>(send, static_cast<std::size_t>(g.q())), w);
    EXPECT_EQ(w.violations, 5) << "p=" << c.p << " r=" << c.r;
    expect_rank_agrees(g, c.r);
    for (int k = 0; k < g.q(); ++k) {
      expect_rank_agrees(g, g.to(c.r, k));
      expect_rank_agrees(g, g.from(c.r, k));
    }
  }
}

TEST(FastPath, TableEntriesEqualSearchedEntries) {
  // schedule() reading the few searched entries from AllRootsSchedule.
  for (rank_t p : {rank_t{17}, rank_t{300}, rank_t{4097}, rank_t{16001}, rank_t{3} << 12}) {
    const Circulant g(p);
    const AllRootsSchedule all(g);
    const auto q = static_cast<std::size_t>(g.q());
    int recv[kMaxQ];
    int send[kMaxQ];
    int recv_t[kMaxQ];
    int send_t[kMaxQ];
    for (rank_t r = 0; r < p; ++r) {
      ScheduleWork w1;
      ScheduleWork w2;
      const int b1 = g.schedule(r, std::span<int>(recv, q), std::span<int>(send, q), w1);
      const int b2 = g.schedule(r, std::span<int>(recv_t, q), std::span<int>(send_t, q), all.recv_all(), w2);
      ASSERT_EQ(b1, b2);
      EXPECT_EQ(w1.violations, w2.violations);
      EXPECT_EQ(w1.fallbacks, w2.fallbacks);
      for (std::size_t k = 0; k < q; ++k) {
        ASSERT_EQ(recv[k], recv_t[k]) << "p=" << p << " r=" << r << " k=" << k;
        ASSERT_EQ(send[k], send_t[k]) << "p=" << p << " r=" << r << " k=" << k;
      }
    }
  }
}

TEST(FastPath, AllRootsClosedFormObservation2) {
  // Even p use the doubling of Observation 2 from the odd part m.
  for (rank_t p : {rank_t{2}, rank_t{4}, rank_t{6}, rank_t{12}, rank_t{64}, rank_t{96}, rank_t{1000}, rank_t{1024},
                   rank_t{2310}, rank_t{3072}, rank_t{4096}, rank_t{6144}, rank_t{8190}}) {
    const Circulant g(p);
    const AllRootsSchedule all(g);
    const auto q = static_cast<std::size_t>(g.q());
    int search[kMaxQ];
    for (rank_t v = 0; v < p; ++v) {
      g.recv_schedule_search(v, g.baseblock(v), std::span<int>(search, q));
      for (std::size_t k = 0; k < q; ++k) ASSERT_EQ(all.recv(v)[k], search[k]) << "p=" << p << " v=" << v << " k=" << k;
    }
  }
  // Sampled ranks of large powers of two and their multiples.
  std::mt19937_64 rng(7);
  for (rank_t p : {rank_t{1} << 20, rank_t{3} << 18, rank_t{1048000}}) {
    const Circulant g(p);
    const AllRootsSchedule all(g);
    const auto q = static_cast<std::size_t>(g.q());
    int search[kMaxQ];
    std::uniform_int_distribution<rank_t> dist(0, p - 1);
    for (int i = 0; i < 2000; ++i) {
      const rank_t v = i < 3 ? (i == 0 ? 0 : i == 1 ? p / 2 : p - 1) : dist(rng);
      g.recv_schedule_search(v, g.baseblock(v), std::span<int>(search, q));
      for (std::size_t k = 0; k < q; ++k) ASSERT_EQ(all.recv(v)[k], search[k]) << "p=" << p << " v=" << v << " k=" << k;
    }
  }
}

}  // namespace
}  // namespace optcoll::schedule
