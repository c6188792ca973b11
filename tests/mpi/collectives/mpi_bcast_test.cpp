// optcoll::bcast against native MPI_Bcast on random data: every registry
// broadcast algorithm, several block counts, roots 0, p-1, p/2, counts 0, 1,
// q-1, q+1, 1000 (and 10^6 for a few), MPI_INT, MPI_DOUBLE and a strided
// type whose holes must stay untouched.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mpi_test_util.hpp"
#include "optcoll/optcoll.h"
#include "optcoll/optcoll.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::test {
namespace {

// The default, then every broadcast algorithm of the registry; pipelined
// ones also with forced block counts.
std::vector<Variant> variants(std::int64_t count) {
  return registry_variants(plan::Collective::bcast, count, false, {{"", 0, false}},
                           {{"", 3, false}, {"", kCountBlocks, false}});
}

// Root fills `seed` data; other ranks hold different data before the call.
Buffer input(Kind k, std::int64_t count, bool is_root, std::uint64_t seed) {
  Buffer b(k, count);
  b.fill(is_root ? seed : seed_of({static_cast<std::int64_t>(seed), world_rank()}));
  return b;
}

void check_bcast(MPI_Comm comm, Kind k, int root, std::int64_t count, const std::vector<Variant>& vs) {
  const int p = world_size();
  const bool is_root = world_rank() == root;
  const std::uint64_t seed = seed_of({count, root, static_cast<std::int64_t>(k)});
  Buffer expect = input(k, count, is_root, seed);
  if (count > 0) {  // (count 0: nothing moves, no oracle needed)
    ASSERT_EQ(MPI_Bcast(expect.data(), static_cast<int>(count), expect.type(), root, comm), MPI_SUCCESS);
  }
  for (const Variant& v : vs) {
    SCOPED_TRACE(where(p, root, count, k, v.algorithm, v.blocks));
    Buffer got = input(k, count, is_root, seed);
    bcast(got.data(), count, got.type(), root, comm, Options{v.algorithm, v.blocks});
    EXPECT_EQ(first_difference(got, expect), -1);
  }
}

TEST(MpiBcast, AllAlgorithmsMatchNative) {
  TestComm comm;
  const int p = world_size();
  for (Kind k : {Kind::int32, Kind::float64, Kind::strided})
    for (int root : test_roots(p))
      for (std::int64_t count : test_counts(p)) check_bcast(comm, k, root, count, variants(count));
}

TEST(MpiBcast, MillionElements) {
  TestComm comm;
  const int p = world_size();
  const std::int64_t m = 1000000;
  check_bcast(comm, Kind::int32, p / 2, m, {{"", 0}, {"circulant", 64}});
  check_bcast(comm, Kind::strided, p - 1, m, {{"", 0}});
}

TEST(MpiBcast, CApiMatchesNative) {
  TestComm comm;
  const int p = world_size();
  for (int root : test_roots(p)) {
    for (std::int64_t count : test_counts(p)) {
      SCOPED_TRACE(where(p, root, count, Kind::strided, "OPTCOLL_Bcast", 0));
      const bool is_root = world_rank() == root;
      Buffer expect = input(Kind::strided, count, is_root, 42);
      Buffer got = input(Kind::strided, count, is_root, 42);
      ASSERT_EQ(MPI_Bcast(expect.data(), static_cast<int>(count), expect.type(), root, comm), MPI_SUCCESS);
      ASSERT_EQ(OPTCOLL_Bcast(got.data(), static_cast<int>(count), got.type(), root, comm), MPI_SUCCESS);
      EXPECT_EQ(first_difference(got, expect), -1);
    }
  }
}

TEST(MpiBcast, TypedSpan) {
  TestComm comm;
  const int root = world_size() - 1;
  std::vector<double> v(777, -1.0);
  if (world_rank() == root)
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = 0.5 * static_cast<double>(i);
  bcast(std::span<double>(v), root, comm);
  for (std::size_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i], 0.5 * static_cast<double>(i)) << "i=" << i;
}

}  // namespace
}  // namespace optcoll::test
