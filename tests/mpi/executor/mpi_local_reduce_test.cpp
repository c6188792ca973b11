// optcoll's own loop for predefined operators (mpi/executor/local_reduce.hpp)
// against MPI_Reduce_local, the oracle: every operator and type it takes,
// on random data with the extremes of each type mixed in (wrapping sums and
// products, negative operands), lengths 0 to 40, bit for bit; and the pairs
// it must leave to MPI.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "mpi/executor/local_reduce.hpp"
#include "mpi_test_util.hpp"

namespace optcoll::test {
namespace {

using mpi::local_reduce;
using mpi::LocalReduce;

struct Op {
  MPI_Op op;
  const char* name;
};
const Op kIntegerOps[] = {{MPI_SUM, "SUM"},   {MPI_PROD, "PROD"}, {MPI_MIN, "MIN"},   {MPI_MAX, "MAX"},
                          {MPI_BAND, "BAND"}, {MPI_BOR, "BOR"},   {MPI_BXOR, "BXOR"}, {MPI_LAND, "LAND"},
                          {MPI_LOR, "LOR"},   {MPI_LXOR, "LXOR"}};
// MIN, MAX: left to MPI on unsigned types (below).
const Op kUnsignedOps[] = {{MPI_SUM, "SUM"},   {MPI_PROD, "PROD"}, {MPI_BAND, "BAND"}, {MPI_BOR, "BOR"},
                           {MPI_BXOR, "BXOR"}, {MPI_LAND, "LAND"}, {MPI_LOR, "LOR"},   {MPI_LXOR, "LXOR"}};
const Op kFloatingOps[] = {{MPI_SUM, "SUM"}, {MPI_PROD, "PROD"}};

template <class T>
std::vector<T> values(std::mt19937_64& rng, std::size_t n) {
  std::vector<T> v(n);
  const T special[] = {std::numeric_limits<T>::max(), std::numeric_limits<T>::lowest(), T(0), T(1), T(-1), T(3)};
  for (std::size_t i = 0; i < n; ++i) {
    if (rng() % 4 == 0) {
      v[i] = special[rng() % std::size(special)];
    } else if constexpr (std::is_integral_v<T>) {
      v[i] = static_cast<T>(rng());
    } else {
      v[i] = static_cast<T>(std::uniform_real_distribution<double>(-1e6, 1e6)(rng));
    }
  }
  return v;
}

template <class T>
void equals_reduce_local(MPI_Datatype type, const char* type_name, std::span<const Op> ops) {
  std::mt19937_64 rng(42);
  for (const Op& o : ops) {
    const LocalReduce f = local_reduce(type, o.op);
    ASSERT_NE(f, nullptr) << type_name << " " << o.name;
    for (std::size_t n = 0; n <= 40; ++n) {
      SCOPED_TRACE(std::string(type_name) + " " + o.name + " n=" + std::to_string(n));
      const std::vector<T> a = values<T>(rng, n), b = values<T>(rng, n);
      std::vector<T> expect = b;  // MPI: expect = a (op) b
      if (n > 0) {
        ASSERT_EQ(MPI_Reduce_local(a.data(), expect.data(), static_cast<int>(n), type, o.op), MPI_SUCCESS);
      }
      std::vector<T> got(n + 1, T(7));
      f(a.data(), b.data(), got.data(), static_cast<std::int64_t>(n));
      EXPECT_EQ(std::memcmp(got.data(), expect.data(), n * sizeof(T)), 0);
      EXPECT_EQ(got[n], T(7));      // nothing written beyond n
      std::vector<T> in_place = b;  // dst == b, the executor's combine_before
      f(a.data(), in_place.data(), in_place.data(), static_cast<std::int64_t>(n));
      EXPECT_EQ(std::memcmp(in_place.data(), expect.data(), n * sizeof(T)), 0);
    }
  }
}

TEST(LocalReduce, EqualsReduceLocal) {
  equals_reduce_local<int>(MPI_INT, "MPI_INT", kIntegerOps);
  equals_reduce_local<std::int32_t>(MPI_INT32_T, "MPI_INT32_T", kIntegerOps);
  equals_reduce_local<unsigned>(MPI_UNSIGNED, "MPI_UNSIGNED", kUnsignedOps);
  equals_reduce_local<std::uint32_t>(MPI_UINT32_T, "MPI_UINT32_T", kUnsignedOps);
  equals_reduce_local<long>(MPI_LONG, "MPI_LONG", kIntegerOps);
  equals_reduce_local<unsigned long>(MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", kUnsignedOps);
  equals_reduce_local<long long>(MPI_LONG_LONG, "MPI_LONG_LONG", kIntegerOps);
  equals_reduce_local<std::int64_t>(MPI_INT64_T, "MPI_INT64_T", kIntegerOps);
  equals_reduce_local<unsigned long long>(MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG", kUnsignedOps);
  equals_reduce_local<std::uint64_t>(MPI_UINT64_T, "MPI_UINT64_T", kUnsignedOps);
  equals_reduce_local<float>(MPI_FLOAT, "MPI_FLOAT", kFloatingOps);
  equals_reduce_local<double>(MPI_DOUBLE, "MPI_DOUBLE", kFloatingOps);
}

// MIN and MAX on floating point (NaN and -0.0 are the library's to order)
// and on unsigned types (Open MPI 4.1.4 and MPICH 4.0.2 order some of them
// as signed), types it does not list, pair types and user operators stay
// with MPI.
TEST(LocalReduce, LeavesTheRestToMpi) {
  EXPECT_EQ(local_reduce(MPI_DOUBLE, MPI_MAX), nullptr);
  EXPECT_EQ(local_reduce(MPI_UNSIGNED_LONG, MPI_MAX), nullptr);
  EXPECT_EQ(local_reduce(MPI_UNSIGNED_LONG, MPI_MIN), nullptr);
  EXPECT_EQ(local_reduce(MPI_UNSIGNED, MPI_MAX), nullptr);
  EXPECT_EQ(local_reduce(MPI_UINT64_T, MPI_MIN), nullptr);
  EXPECT_EQ(local_reduce(MPI_FLOAT, MPI_MIN), nullptr);
  EXPECT_EQ(local_reduce(MPI_CHAR, MPI_SUM), nullptr);
  EXPECT_EQ(local_reduce(MPI_SHORT, MPI_SUM), nullptr);
  EXPECT_EQ(local_reduce(MPI_2INT, MPI_MAXLOC), nullptr);
  EXPECT_EQ(local_reduce(MPI_INT, MPI_MAXLOC), nullptr);
  EXPECT_EQ(local_reduce(MPI_INT, MPI_REPLACE), nullptr);
  MPI_Op user = MPI_OP_NULL;
  ASSERT_EQ(MPI_Op_create([](void*, void*, int*, MPI_Datatype*) {}, 1, &user), MPI_SUCCESS);
  EXPECT_EQ(local_reduce(MPI_INT, user), nullptr);
  MPI_Op_free(&user);
}

}  // namespace
}  // namespace optcoll::test
