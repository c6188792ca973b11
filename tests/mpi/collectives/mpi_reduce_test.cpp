// optcoll::reduce against native MPI_Reduce on random data: every registry
// reduction algorithm (commutative-only ones also asked for with the
// non-commutative op: they must fall back, never answer wrongly), several
// block counts, roots 0, p-1, p/2, counts 0, 1, q-1, q+1, 1000 (and 10^6 for
// a few); MPI_SUM and MPI_MAX on MPI_INT and MPI_DOUBLE, a user commutative
// op on MPI_INT and a strided type, and the non-commutative 2x2 matrix
// product, for which native MPI is the oracle of rank order (MPI_Allreduce,
// which orders like MPI_Reduce and serves all roots with one call; the
// C API test uses MPI_Reduce itself).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mpi_test_util.hpp"
#include "optcoll/optcoll.h"
#include "optcoll/optcoll.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::test {
namespace {

std::vector<Variant> variants(std::int64_t count) {
  return registry_variants(plan::Collective::reduce, count, true, {{"", 0, false}},
                           {{"", 3, false}, {"", kCountBlocks, true}});
}

std::vector<OpCase> op_cases() {
  return {{Kind::int32, MPI_SUM, "MPI_SUM"},          {Kind::int32, MPI_MAX, "MPI_MAX"},
          {Kind::int32, Ops::get().ring, "ring"},     {Kind::float64, MPI_SUM, "MPI_SUM"},
          {Kind::float64, MPI_MAX, "MPI_MAX"},        {Kind::strided, Ops::get().ring, "ring"},
          {Kind::matrix, Ops::get().matrix, "matrix"}};
}

// The native result, every rank: MPI_Allreduce (rank-ordered for a
// non-commutative op, like MPI_Reduce, and the same for every root, so one
// native call serves all roots). Count 0 needs no oracle.
Buffer native_result(MPI_Comm comm, const OpCase& c, const Buffer& send) {
  Buffer expect(c.kind, send.count);
  if (send.count > 0) {
    EXPECT_EQ(MPI_Allreduce(send.data(), expect.data(), static_cast<int>(send.count), send.type(), c.op, comm),
              MPI_SUCCESS);
  }
  return expect;
}

Buffer input(const OpCase& c, std::int64_t count) {
  Buffer send(c.kind, count);
  send.fill(seed_of({world_rank(), count, static_cast<std::int64_t>(c.kind)}));
  return send;
}

void check_reduce(MPI_Comm comm, const OpCase& c, const Buffer& send, const Buffer& expect, int root,
                  const std::vector<Variant>& vs) {
  const int p = world_size();
  const std::int64_t count = send.count;
  const bool is_root = world_rank() == root;
  const Buffer original = send;
  for (const Variant& v : vs) {
    SCOPED_TRACE(where(p, root, count, c.kind, v.algorithm, v.blocks) + " op=" + c.name +
                 (v.in_place ? " MPI_IN_PLACE" : ""));
    Buffer got(c.kind, count);
    got.fill(seed_of({world_rank(), 99}));  // garbage that must be overwritten at the root
    const void* sendbuf = send.data();
    if (v.in_place && is_root) {
      got = send;
      sendbuf = MPI_IN_PLACE;
    }
    reduce(sendbuf, got.data(), count, send.type(), c.op, root, comm, Options{v.algorithm, v.blocks});
    if (is_root) {
      EXPECT_EQ(first_difference(got, expect), -1);
    }
    EXPECT_EQ(first_difference(send, original), -1) << "sendbuf modified";
  }
}

TEST(MpiReduce, AllAlgorithmsMatchNative) {
  TestComm comm;
  const int p = world_size();
  for (const OpCase& c : op_cases()) {
    for (std::int64_t count : test_counts(p)) {
      const Buffer send = input(c, count);
      const Buffer expect = native_result(comm, c, send);
      for (int root : test_roots(p)) check_reduce(comm, c, send, expect, root, variants(count));
    }
  }
}

TEST(MpiReduce, MillionElements) {
  TestComm comm;
  const int p = world_size();
  const struct {
    OpCase c;
    std::int64_t count;
    int root;
    std::vector<Variant> vs;
  } cases[] = {
      {{Kind::int32, MPI_SUM, "MPI_SUM"}, 1000000, p / 2, {{"", 0, false}, {"circulant", 64, true}}},
      {{Kind::strided, Ops::get().ring, "ring"}, 1000000, p - 1, {{"", 0, false}}},
      {{Kind::matrix, Ops::get().matrix, "matrix"}, 100000, 0, {{"", 0, false}}},
  };
  for (const auto& x : cases) {
    const Buffer send = input(x.c, x.count);
    check_reduce(comm, x.c, send, native_result(comm, x.c, send), x.root, x.vs);
  }
}

TEST(MpiReduce, CApiMatchesNative) {
  TestComm comm;
  const int p = world_size();
  for (const OpCase& c : op_cases()) {
    for (int root : test_roots(p)) {
      const std::int64_t count = 1000;
      SCOPED_TRACE(where(p, root, count, c.kind, "OPTCOLL_Reduce", 0) + " op=" + c.name);
      Buffer send(c.kind, count);
      send.fill(static_cast<std::uint64_t>(world_rank() * 3 + root));
      Buffer expect(c.kind, count);
      Buffer got(c.kind, count);
      ASSERT_EQ(MPI_Reduce(send.data(), expect.data(), static_cast<int>(count), send.type(), c.op, root, comm),
                MPI_SUCCESS);
      ASSERT_EQ(OPTCOLL_Reduce(send.data(), got.data(), static_cast<int>(count), send.type(), c.op, root, comm),
                MPI_SUCCESS);
      if (world_rank() == root) {
        EXPECT_EQ(first_difference(got, expect), -1);
      }
    }
  }
}

TEST(MpiReduce, TypedSpanInPlace) {
  TestComm comm;
  const int p = world_size();
  const int root = p / 2;
  std::vector<long long> v(1001);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<long long>(i) * (world_rank() + 1);
  if (world_rank() == root) {
    reduce(std::span<const long long>(v), std::span<long long>(v), MPI_SUM, root, comm);  // in place
    const long long ranks = static_cast<long long>(p) * (p + 1) / 2;
    for (std::size_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i], static_cast<long long>(i) * ranks) << "i=" << i;
  } else {
    reduce(std::span<const long long>(v), std::span<long long>(), MPI_SUM, root, comm);
  }
}

}  // namespace
}  // namespace optcoll::test
