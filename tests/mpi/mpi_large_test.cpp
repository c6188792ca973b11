// Counts above 2^31-1 elements for real: bcast and reduce (MPI_BXOR) of
// 2^31+7 MPI_UNSIGNED_CHAR, checked element by element against values
// computed directly (native MPI takes int counts). Messages and
// MPI_Reduce_local calls are chunked (2^30 elements per call).
//
// About 6.3 GiB at np = 2 (bcast: 2 x 2 GiB; reduce: the root 2 GiB in place
// plus 256 MiB of blocks, the other rank 2 GiB input + 2 GiB working copy);
// skipped unless 10 GiB are available (/proc/meminfo).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>

#include "mpi_test_util.hpp"
#include "optcoll/optcoll.hpp"

namespace optcoll::test {
namespace {

constexpr std::int64_t kCount = (std::int64_t{1} << 31) + 7;

// Cheap enough to vectorise (the test touches 2^31 elements several times);
// bit 31 of i enters so that elements 2^31 apart differ.
inline std::uint8_t value(std::int64_t i, int rank) {
  const auto u = static_cast<std::uint32_t>(i);
  const auto hi = static_cast<std::uint32_t>(i >> 31);
  return static_cast<std::uint8_t>((u ^ (u >> 11) ^ (hi * 0x55u)) * 37u + static_cast<std::uint32_t>(rank) * 101u);
}

bool enough_memory() {
  int ok = 0;
  if (world_rank() == 0) {
    std::ifstream in("/proc/meminfo");
    std::string key;
    long long kib = 0;
    std::string unit;
    while (in >> key >> kib >> unit)
      if (key == "MemAvailable:") ok = kib >= (10LL << 20) ? 1 : 0;
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return ok != 0;
}

std::unique_ptr<std::uint8_t[]> filled(int rank) {
  auto b = std::make_unique_for_overwrite<std::uint8_t[]>(static_cast<std::size_t>(kCount));
  for (std::int64_t i = 0; i < kCount; ++i) b[static_cast<std::size_t>(i)] = value(i, rank);
  return b;
}

TEST(MpiLarge, BcastAndReduceAbove2To31Elements) {
  if (!enough_memory()) GTEST_SKIP() << "needs 10 GiB of available memory";
  TestComm comm;
  const int p = world_size();
  const int r = world_rank();
  const int root = p - 1;
  double t = MPI_Wtime();
  const auto phase = [&](const char* what) {
    if (r == 0) std::printf("  %-28s %6.2f s\n", what, MPI_Wtime() - t);
    t = MPI_Wtime();
  };
  {
    auto buf = r == root ? filled(root) : std::make_unique<std::uint8_t[]>(static_cast<std::size_t>(kCount));
    phase("bcast: fill");
    bcast(buf.get(), kCount, MPI_UNSIGNED_CHAR, root, comm);
    phase("bcast: optcoll::bcast");
    std::int64_t bad = 0;
    for (std::int64_t i = 0; i < kCount; ++i) bad += buf[static_cast<std::size_t>(i)] != value(i, root);
    EXPECT_EQ(bad, 0) << "bcast";
    phase("bcast: check");
  }
  // MPI_BXOR: every byte of every contribution shows in the result (MPI_MAX
  // would hide a misplaced chunk of smaller values).
  {
    auto buf = filled(r);
    phase("reduce: fill");
    // In place at the root; 8 blocks keep the root's receive scratch small.
    reduce(r == root ? MPI_IN_PLACE : buf.get(), buf.get(), kCount, MPI_UNSIGNED_CHAR, MPI_BXOR, root, comm,
           Options{"circulant", 8});
    phase("reduce: optcoll::reduce");
    if (r == root) {
      std::int64_t bad = 0;
      for (std::int64_t i = 0; i < kCount; ++i) {
        std::uint8_t want = value(i, 0);
        for (int k = 1; k < p; ++k) want = static_cast<std::uint8_t>(want ^ value(i, k));
        bad += buf[static_cast<std::size_t>(i)] != want;
      }
      EXPECT_EQ(bad, 0) << "reduce";
    }
  }
}

}  // namespace
}  // namespace optcoll::test
