// optcoll::allreduce and OPTCOLL_Allreduce against native MPI_Allreduce on
// random data, word for word: every registry allreduce algorithm (the
// commutative-only ones also asked for with the non-commutative 2x2 matrix
// product: they must fall back to the rank-ordered plan, never answer
// wrongly), block counts, MPI_IN_PLACE, counts 0, 1, q-1, q+1, 1000 and
// 100000; MPI_SUM and MPI_MAX on MPI_INT and MPI_DOUBLE, a user commutative
// op on MPI_INT and a strided type; the model's automatic choice.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "mpi_test_util.hpp"
#include "optcoll/mpi/select.hpp"
#include "optcoll/optcoll.h"
#include "optcoll/optcoll.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::test {
namespace {

std::vector<Variant> variants(std::int64_t count) {
  return registry_variants(plan::Collective::allreduce, count, true, {{"", 0, true}},
                           {{"", 1, false}, {"", 3, false}, {"", kCountBlocks, true}});
}

std::vector<OpCase> op_cases() {
  return {{Kind::int32, MPI_SUM, "MPI_SUM"},        {Kind::int32, MPI_MAX, "MPI_MAX"},
          {Kind::int32, Ops::get().ring, "ring"},   {Kind::float64, MPI_SUM, "MPI_SUM"},
          {Kind::strided, Ops::get().ring, "ring"}, {Kind::matrix, Ops::get().matrix, "matrix"}};
}

void check_allreduce(MPI_Comm comm, const OpCase& c, std::int64_t count, const std::vector<Variant>& vs) {
  const int p = world_size();
  const int r = world_rank();
  Buffer send(c.kind, count);
  send.fill(seed_of({r, count, static_cast<std::int64_t>(c.kind)}));
  Buffer expect(c.kind, count);
  if (count > 0) {
    ASSERT_EQ(MPI_Allreduce(send.data(), expect.data(), static_cast<int>(count), send.type(), c.op, comm), MPI_SUCCESS);
  }
  const Buffer original = send;
  for (const Variant& v : vs) {
    SCOPED_TRACE(where(p, 0, count, c.kind, v.algorithm, v.blocks) + " op=" + c.name +
                 (v.in_place ? " MPI_IN_PLACE" : ""));
    Buffer got(c.kind, count);
    const void* sendbuf = send.data();
    if (v.in_place) {
      got = send;
      sendbuf = MPI_IN_PLACE;
    } else {
      got.fill(seed_of({r, 99}));
    }
    allreduce(sendbuf, got.data(), count, send.type(), c.op, comm, Options{v.algorithm, v.blocks});
    EXPECT_EQ(first_difference(got, expect), -1);
    EXPECT_EQ(first_difference(send, original), -1) << "sendbuf modified";
  }
}

TEST(MpiAllreduce, AllAlgorithmsMatchNative) {
  TestComm comm;
  for (const OpCase& c : op_cases())
    for (std::int64_t count : test_counts(world_size())) check_allreduce(comm, c, count, variants(count));
}

TEST(MpiAllreduce, LargeVectors) {
  TestComm comm;
  check_allreduce(comm, {Kind::int32, MPI_SUM, "MPI_SUM"}, 100000,
                  {{"", 0, false}, {"circulant", 0, true}, {"dissemination", 0, false}});
  check_allreduce(comm, {Kind::matrix, Ops::get().matrix, "matrix"}, 20000, {{"", 0, false}});
}

// The model picks dissemination for short vectors and circulant for long
// ones (p >= 3: with q >= 2 rounds the reduce-scatter + allgather moves
// 2 (p-1)/p m < q m bytes), with alpha and beta fixed by the environment;
// and never dissemination above model::kDisseminationMaxBytes, however
// large alpha is.
TEST(MpiAllreduce, ModelChoosesBySize) {
  const int p = world_size();
  if (p < 3) GTEST_SKIP() << "the circulant allreduce does not win below p = 3";
  if (std::getenv("OPTCOLL_BLOCK_BYTES") != nullptr || std::getenv("OPTCOLL_ALLREDUCE") != nullptr)
    GTEST_SKIP() << "the environment overrides the model";
  const auto decide = [](const char* alpha, const std::vector<std::int64_t>& counts) {
    const ScopedEnv a("OPTCOLL_ALPHA", alpha);  // read when the communicator's cache is built
    const ScopedEnv b("OPTCOLL_BETA", "1e-9");
    TestComm comm;
    std::vector<std::string> out;
    for (const std::int64_t c : counts)
      out.push_back(mpi::describe(comm, plan::Collective::allreduce, c, MPI_INT, MPI_SUM).algorithm);
    return out;
  };
  const std::int64_t cap = model::kDisseminationMaxBytes / 4;
  EXPECT_EQ(decide("1e-6", {1, 100, std::int64_t{1} << 24}),
            (std::vector<std::string>{"dissemination", "dissemination", "circulant"}));
  EXPECT_EQ(decide("1", {100, cap, cap + 1}),
            (std::vector<std::string>{"dissemination", "dissemination", "circulant"}));
}

TEST(MpiAllreduce, CApiAndSpans) {
  TestComm comm;
  const int p = world_size();
  const int r = world_rank();
  std::vector<long long> v(1001);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<long long>(i) * (r + 1);
  std::vector<long long> sum(v.size());
  ASSERT_EQ(OPTCOLL_Allreduce(v.data(), sum.data(), static_cast<int>(v.size()), MPI_LONG_LONG, MPI_SUM, comm),
            MPI_SUCCESS);
  const long long ranks = static_cast<long long>(p) * (p + 1) / 2;
  for (std::size_t i = 0; i < v.size(); ++i) ASSERT_EQ(sum[i], static_cast<long long>(i) * ranks) << "i=" << i;
  allreduce(std::span<long long>(v), MPI_MAX, comm);  // in place
  for (std::size_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i], static_cast<long long>(i) * p) << "i=" << i;
}

}  // namespace
}  // namespace optcoll::test
