// optcoll::allmerge against a brute-force oracle (native MPI_Allgatherv of
// every run, then std::sort): the three algorithms, run lengths from the
// distributions of mpi_test_util.hpp (zeros, degenerate, spikes), keys int,
// double and a struct with a custom comparator, and the C API with its
// capacity check.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "mpi_test_util.hpp"
#include "optcoll/optcoll.h"
#include "optcoll/optcoll.hpp"

namespace optcoll::test {
namespace {

const char* const kAlgorithms[] = {"circulant", "bruck", "allgatherv"};

// The sorted union by brute force.
template <class T, class Compare>
std::vector<T> oracle(const std::vector<T>& mine, MPI_Comm comm, Compare cmp) {
  const int p = world_size();
  const int n = static_cast<int>(mine.size() * sizeof(T));
  std::vector<int> counts(static_cast<std::size_t>(p));
  MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
  std::vector<int> displs(static_cast<std::size_t>(p), 0);
  for (std::size_t i = 1; i < displs.size(); ++i) displs[i] = displs[i - 1] + counts[i - 1];
  std::vector<T> all(static_cast<std::size_t>(displs.back() + counts.back()) / sizeof(T));
  MPI_Allgatherv(mine.data(), n, MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE, comm);
  std::stable_sort(all.begin(), all.end(), cmp);
  return all;
}

template <class T, class Make, class Compare = std::less<T>>
void check_all(MPI_Comm comm, Make make, Compare cmp = {}) {
  const int p = world_size();
  const int r = world_rank();
  for (Dist dist : kDists) {
    for (int m : {1, 7, 500}) {
      const int n = counts_of(dist, p, m)[static_cast<std::size_t>(r)];
      std::mt19937_64 g(seed_of({r, m, static_cast<std::int64_t>(dist)}));
      std::vector<T> mine(static_cast<std::size_t>(n));
      for (T& x : mine) x = make(g);
      std::sort(mine.begin(), mine.end(), cmp);
      const std::vector<T> expect = oracle(mine, comm, cmp);
      for (const char* a : kAlgorithms) {
        SCOPED_TRACE(std::string("dist=") + name(dist) + " m=" + std::to_string(m) + " algorithm=" + a);
        const std::vector<T> got = allmerge(std::span<const T>(mine), comm, cmp, a);
        ASSERT_EQ(got.size(), expect.size());
        // Equal as sequences of keys: neither orders the other anywhere.
        for (std::size_t i = 0; i < got.size(); ++i)
          ASSERT_FALSE(cmp(got[i], expect[i]) || cmp(expect[i], got[i])) << "i=" << i;
      }
    }
  }
}

struct Record {
  std::int32_t key;
  std::int16_t tag;  // two bytes of padding follow
  bool operator==(const Record&) const = default;
};

TEST(MpiAllmerge, IntKeys) {
  TestComm comm;
  check_all<int>(comm, [](std::mt19937_64& g) { return static_cast<int>(g() % 1000); });
}

TEST(MpiAllmerge, DoubleKeysDescending) {
  TestComm comm;
  check_all<double>(
      comm, [](std::mt19937_64& g) { return static_cast<double>(g() % 100000) / 7.0; }, std::greater<double>());
}

TEST(MpiAllmerge, StructKeysWithComparator) {
  TestComm comm;
  check_all<Record>(
      comm,
      [](std::mt19937_64& g) {
        Record x{};  // zero padding
        x.key = static_cast<std::int32_t>(g() % 50);
        x.tag = static_cast<std::int16_t>(world_rank());
        return x;
      },
      [](const Record& a, const Record& b) { return a.key != b.key ? a.key < b.key : a.tag < b.tag; });
}

// Keys that compare equal but differ in their bytes (+0.0 and -0.0; records
// compared by key only, tagged with the rank): every rank ends with exactly
// the oracle's bytes, ties in the order of their bytes, for every algorithm.
template <class T, class Compare>
void check_ties(MPI_Comm comm, std::vector<T> mine, Compare cmp) {
  std::sort(mine.begin(), mine.end(), cmp);
  std::vector<T> expect = oracle(mine, comm, [&](const T& a, const T& b) {
    return cmp(a, b) || (!cmp(b, a) && std::memcmp(&a, &b, sizeof(T)) < 0);
  });
  for (const char* a : kAlgorithms) {
    SCOPED_TRACE(std::string("algorithm=") + a);
    const std::vector<T> got = allmerge(std::span<const T>(mine), comm, cmp, a);
    ASSERT_EQ(got.size(), expect.size());
    EXPECT_EQ(std::memcmp(got.data(), expect.data(), got.size() * sizeof(T)), 0);
  }
}

TEST(MpiAllmerge, TiesInTheSameOrderOnEveryRank) {
  TestComm comm;
  const int r = world_rank();
  std::vector<double> zeros;
  for (int i = 0; i < 40; ++i) zeros.push_back((i + r) % 3 == 0 ? -0.0 : (i + r) % 3 == 1 ? 0.0 : 1.0);
  check_ties(comm, zeros, std::less<double>());
  std::vector<Record> records(30);
  for (std::size_t i = 0; i < records.size(); ++i) {
    records[i] = Record{};  // zero padding
    records[i].key = static_cast<std::int32_t>(i % 4);
    records[i].tag = static_cast<std::int16_t>(r * 100 + static_cast<int>(i));
  }
  check_ties(comm, records, [](const Record& a, const Record& b) { return a.key < b.key; });
}

TEST(MpiAllmerge, CApi) {
  TestComm comm;
  const int p = world_size();
  const int r = world_rank();
  std::vector<long long> mine{static_cast<long long>(r), static_cast<long long>(r) + p, 1000LL};
  std::vector<long long> got(static_cast<std::size_t>(3 * p));
  int n = -1;
  ASSERT_EQ(OPTCOLL_Allmerge_long_long(mine.data(), 3, got.data(), static_cast<int>(got.size()), &n, comm),
            MPI_SUCCESS);
  ASSERT_EQ(n, 3 * p);
  for (int i = 0; i < 2 * p; ++i) EXPECT_EQ(got[static_cast<std::size_t>(i)], i);
  for (int i = 2 * p; i < 3 * p; ++i) EXPECT_EQ(got[static_cast<std::size_t>(i)], 1000);
  // Too small a buffer: MPI_ERR_TRUNCATE, and the length is still reported.
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  const int rc = OPTCOLL_Allmerge_long_long(mine.data(), 3, got.data(), 3 * p - 1, &n, comm);
  int cls = MPI_SUCCESS;
  MPI_Error_class(rc, &cls);
  EXPECT_EQ(cls, MPI_ERR_TRUNCATE);
  EXPECT_EQ(n, 3 * p);
}

}  // namespace
}  // namespace optcoll::test
