// Counts above 2^31-1 elements for real, one collective of each family:
// Bcast, Reduce, Allreduce, Allgatherv, Gatherv, Alltoallv and Scan of
// 2^31+7 MPI_UNSIGNED_CHAR (native MPI takes int counts), checked element
// by element against values computed directly. Messages and MPI_Reduce_local
// calls are chunked (at most 2^30 elements per call): Allreduce (one block
// per group: 2^30+4 elements combined at once at np 2) and Scan (the
// pipeline in 2 blocks) combine more than one chunk in a single receive.
//
// Each test needs a few GiB per rank (in its comment) and skips itself
// unless that much memory is available (MemAvailable in /proc/meminfo at
// rank 0, for all ranks of the node); when every test skips, CTest reports
// the run as Skipped. Meant for np = 2 (label mpi_large).
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "mpi_test_util.hpp"
#include "optcoll/optcoll.hpp"

namespace optcoll::test {
namespace {

constexpr std::int64_t kCount = (std::int64_t{1} << 31) + 7;
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

// Element i's byte before the rank enters: cheap enough to vectorise (the
// test touches 2^31 elements several times); bit 31 of i enters so that
// elements 2^31 apart differ.
inline std::uint8_t base(std::int64_t i) {
  const auto u = static_cast<std::uint32_t>(i);
  const auto hi = static_cast<std::uint32_t>(i >> 31);
  return static_cast<std::uint8_t>(u ^ (u >> 11) ^ (hi * 0x55u));
}
inline std::uint8_t mixed(std::uint8_t b, int rank) {
  return static_cast<std::uint8_t>(b * 37u + static_cast<std::uint32_t>(rank) * 101u);
}
inline std::uint8_t value(std::int64_t i, int rank) {
  return mixed(base(i), rank);
}

// The XOR of ranks 0..p-1's values (MPI_BXOR over p ranks), by element
// base: a table.
class XorOf {
 public:
  explicit XorOf(int p) {
    for (int b = 0; b < 256; ++b) {
      std::uint8_t x = 0;
      for (int k = 0; k < p; ++k) x = static_cast<std::uint8_t>(x ^ mixed(static_cast<std::uint8_t>(b), k));
      table_[static_cast<std::size_t>(b)] = x;
    }
  }
  std::uint8_t operator()(std::int64_t i) const { return table_[base(i)]; }

 private:
  std::array<std::uint8_t, 256> table_{};
};

// Elements of b[0, n) differing from want(i).
template <class F>
std::int64_t wrong_where(const std::uint8_t* b, std::int64_t n, const F& want) {
  std::int64_t bad = 0;
  for (std::int64_t i = 0; i < n; ++i) bad += b[i] != want(i);
  return bad;
}

// Whether the node has `per_rank` GiB of available memory for every rank
// (the same answer at every rank).
bool enough_memory(double per_rank) {
  int ok = 0;
  if (world_rank() == 0) {
    std::ifstream in("/proc/meminfo");
    std::string key;
    long long kib = 0;
    std::string unit;
    while (in >> key >> kib >> unit)
      if (key == "MemAvailable:") ok = static_cast<double>(kib) * 1024 >= per_rank * world_size() * kGiB ? 1 : 0;
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return ok != 0;
}

#define OPTCOLL_NEED_GIB(g)                                                                                \
  if (!enough_memory(g)) {                                                                                 \
    GTEST_SKIP() << "needs " << (g) << " GiB of available memory per rank (" << world_size() << " ranks)"; \
  }

using Buffer = std::unique_ptr<std::uint8_t[]>;

// n elements: value(first + i, rank), or zeros.
Buffer filled(std::int64_t n, int rank, std::int64_t first = 0) {
  auto b = std::make_unique_for_overwrite<std::uint8_t[]>(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) b[static_cast<std::size_t>(i)] = value(first + i, rank);
  return b;
}
Buffer zeros(std::int64_t n) {
  return std::make_unique<std::uint8_t[]>(static_cast<std::size_t>(n));
}

// Elements of b[0, n) differing from value(first + i, rank).
std::int64_t wrong(const std::uint8_t* b, std::int64_t n, int rank, std::int64_t first = 0) {
  std::int64_t bad = 0;
  for (std::int64_t i = 0; i < n; ++i) bad += b[i] != value(first + i, rank);
  return bad;
}

// Prints the time since the last call (rank 0).
class Phases {
 public:
  void operator()(const char* what) {
    if (world_rank() == 0) std::printf("  %-32s %6.2f s\n", what, MPI_Wtime() - t_);
    t_ = MPI_Wtime();
  }

 private:
  double t_ = MPI_Wtime();
};

// 2 GiB per rank.
TEST(MpiLarge, Bcast) {
  OPTCOLL_NEED_GIB(2.5)
  TestComm comm;
  const int r = world_rank();
  const int root = world_size() - 1;
  Phases phase;
  Buffer buf = r == root ? filled(kCount, root) : zeros(kCount);
  phase("fill");
  bcast(buf.get(), kCount, MPI_UNSIGNED_CHAR, root, comm);
  phase("optcoll::bcast");
  EXPECT_EQ(wrong(buf.get(), kCount, root), 0);
}

// MPI_BXOR: every byte of every contribution shows in the result (MPI_MAX
// would hide a misplaced chunk of smaller values). In place at the root; 8
// blocks keep the root's receive scratch small. The root 2.25 GiB, the
// others 4 GiB (input and working copy).
TEST(MpiLarge, Reduce) {
  OPTCOLL_NEED_GIB(4.5)
  TestComm comm;
  const int p = world_size();
  const int r = world_rank();
  const int root = p - 1;
  Phases phase;
  Buffer buf = filled(kCount, r);
  phase("fill");
  reduce(r == root ? MPI_IN_PLACE : buf.get(), buf.get(), kCount, MPI_UNSIGNED_CHAR, MPI_BXOR, root, comm,
         Options{"circulant", 8});
  phase("optcoll::reduce");
  if (r == root) {
    EXPECT_EQ(wrong_where(buf.get(), kCount, XorOf(p)), 0);
  }
}

// The circulant plan with one block per group: at np 2 each rank combines
// its whole group (2^30+4 elements, two MPI_Reduce_local chunks) at once.
// 2 GiB in place plus a group of receive scratch.
TEST(MpiLarge, Allreduce) {
  OPTCOLL_NEED_GIB(3.5)
  TestComm comm;
  const int p = world_size();
  Phases phase;
  Buffer buf = filled(kCount, world_rank());
  phase("fill");
  allreduce(MPI_IN_PLACE, buf.get(), kCount, MPI_UNSIGNED_CHAR, MPI_BXOR, comm, Options{"circulant", 1});
  phase("optcoll::allreduce");
  EXPECT_EQ(wrong_where(buf.get(), kCount, XorOf(p)), 0);
}

// Rank 0's group has 2^31+7 elements, every other rank's 5; in place.
// 2 GiB per rank.
TEST(MpiLarge, Allgatherv) {
  OPTCOLL_NEED_GIB(2.5)
  TestComm comm;
  const int p = world_size();
  const int r = world_rank();
  std::vector<std::int64_t> counts(static_cast<std::size_t>(p), 5), displs(static_cast<std::size_t>(p));
  counts[0] = kCount;
  for (int g = 1; g < p; ++g) displs[static_cast<std::size_t>(g)] = kCount + 5 * (g - 1);
  const std::int64_t all = kCount + 5 * (p - 1);
  Phases phase;
  Buffer buf = zeros(all);
  const std::int64_t at = displs[static_cast<std::size_t>(r)];
  for (std::int64_t i = 0; i < counts[static_cast<std::size_t>(r)]; ++i)
    buf[static_cast<std::size_t>(at + i)] = value(i, r);
  phase("fill");
  allgatherv(MPI_IN_PLACE, counts[static_cast<std::size_t>(r)], buf.get(), counts, displs, MPI_UNSIGNED_CHAR, comm);
  phase("optcoll::allgatherv");
  std::int64_t bad = 0;
  for (int g = 0; g < p; ++g)
    bad += wrong(buf.get() + displs[static_cast<std::size_t>(g)], counts[static_cast<std::size_t>(g)], g);
  EXPECT_EQ(bad, 0);
}

// Rank 0 sends 2^31+7 elements to root p-1, every other rank 5. Rank 0 and
// the root 2 GiB each.
TEST(MpiLarge, Gatherv) {
  OPTCOLL_NEED_GIB(2.5)
  TestComm comm;
  const int p = world_size();
  const int r = world_rank();
  const int root = p - 1;
  std::vector<std::int64_t> counts(static_cast<std::size_t>(p), 5), displs(static_cast<std::size_t>(p));
  counts[0] = kCount;
  for (int g = 1; g < p; ++g) displs[static_cast<std::size_t>(g)] = kCount + 5 * (g - 1);
  const std::int64_t mine = counts[static_cast<std::size_t>(r)];
  Phases phase;
  Buffer send = filled(mine, r);
  Buffer recv = r == root ? zeros(kCount + 5 * (p - 1)) : nullptr;
  phase("fill");
  gatherv(send.get(), mine, MPI_UNSIGNED_CHAR, recv.get(), r == root ? counts : std::vector<std::int64_t>(),
          r == root ? displs : std::vector<std::int64_t>(), MPI_UNSIGNED_CHAR, root, comm);
  phase("optcoll::gatherv");
  if (r != root) return;
  std::int64_t bad = 0;
  for (int g = 0; g < p; ++g)
    bad += wrong(recv.get() + displs[static_cast<std::size_t>(g)], counts[static_cast<std::size_t>(g)], g);
  EXPECT_EQ(bad, 0);
}

// Rank 0 sends 2^31+7 elements to rank p-1, every other pair 3 (rank i's
// block for j is value(j * 3 + k, i)). Rank 0 and rank p-1 2 GiB each.
TEST(MpiLarge, Alltoallv) {
  OPTCOLL_NEED_GIB(2.5)
  TestComm comm;
  const int p = world_size();
  const int r = world_rank();
  const auto pair = [&](int from, int to) { return from == 0 && to == p - 1 ? kCount : std::int64_t{3}; };
  const auto n = static_cast<std::size_t>(p);
  std::vector<std::int64_t> sc(n), sd(n), rc(n), rd(n);
  std::int64_t st = 0, rt = 0;
  for (int j = 0; j < p; ++j) {
    const auto u = static_cast<std::size_t>(j);
    sc[u] = pair(r, j);
    rc[u] = pair(j, r);
    sd[u] = std::exchange(st, st + sc[u]);
    rd[u] = std::exchange(rt, rt + rc[u]);
  }
  Phases phase;
  Buffer send = zeros(st);
  for (int j = 0; j < p; ++j) {
    const auto u = static_cast<std::size_t>(j);
    for (std::int64_t k = 0; k < sc[u]; ++k) send[static_cast<std::size_t>(sd[u] + k)] = value(j * 3 + k, r);
  }
  Buffer recv = zeros(rt);
  phase("fill");
  alltoallv(send.get(), sc, sd, MPI_UNSIGNED_CHAR, recv.get(), rc, rd, MPI_UNSIGNED_CHAR, comm);
  phase("optcoll::alltoallv");
  std::int64_t bad = 0;
  for (int i = 0; i < p; ++i)
    bad += wrong(recv.get() + rd[static_cast<std::size_t>(i)], rc[static_cast<std::size_t>(i)], i, r * 3);
  EXPECT_EQ(bad, 0);
}

// The pipelined chain in 2 blocks (2^30+4 elements each: two MPI_Reduce_local
// chunks per combination), in place. 2 GiB plus a block of scratch per rank.
TEST(MpiLarge, Scan) {
  OPTCOLL_NEED_GIB(3.5)
  TestComm comm;
  const int r = world_rank();
  Phases phase;
  Buffer buf = filled(kCount, r);
  phase("fill");
  scan(MPI_IN_PLACE, buf.get(), kCount, MPI_UNSIGNED_CHAR, MPI_BXOR, comm, Options{"pipeline", 2});
  phase("optcoll::scan");
  EXPECT_EQ(wrong_where(buf.get(), kCount, XorOf(r + 1)), 0);
}

}  // namespace
}  // namespace optcoll::test
