// optcoll::reduce_scatter_block and OPTCOLL_Reduce_scatter against native
// MPI_Reduce_scatter_block and MPI_Reduce_scatter on random data, word for
// word: every registry reduce-scatter algorithm (the commutative-only ones
// also asked for with the non-commutative 2x2 matrix product: they must fall
// back to the rank-ordered plan, never answer wrongly), block counts,
// MPI_IN_PLACE, counts 0, 1, q+1, 300; MPI_SUM on MPI_INT and MPI_DOUBLE, a
// user commutative op on MPI_INT and a strided type; the v-variant over the
// distributions of mpi_test_util.hpp.
#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

#include "mpi_test_util.hpp"
#include "optcoll/optcoll.h"
#include "optcoll/optcoll.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::test {
namespace {

std::vector<Variant> variants(std::int64_t count) {
  return registry_variants(plan::Collective::reduce_scatter, count, true, {{"", 0, false}},
                           {{"", 3, true}, {"", kCountBlocks, false}});
}

std::vector<OpCase> op_cases() {
  return {{Kind::int32, MPI_SUM, "MPI_SUM"},
          {Kind::int32, Ops::get().ring, "ring"},
          {Kind::float64, MPI_SUM, "MPI_SUM"},
          {Kind::strided, Ops::get().ring, "ring"},
          {Kind::matrix, Ops::get().matrix, "matrix"}};
}

// Copies elements [from, from + n) of src to the start of a new buffer.
Buffer slice(const Buffer& src, std::int64_t from, std::int64_t n) {
  Buffer b(src.kind, n);
  const auto w = static_cast<std::size_t>(n * src.stride());
  const auto at = static_cast<std::size_t>(from * src.stride());
  for (std::size_t i = 0; i < w; ++i) b.words[i] = src.words[at + i];
  return b;
}

TEST(MpiReduceScatterBlock, AllAlgorithmsMatchNative) {
  TestComm comm;
  const int p = world_size();
  const int r = world_rank();
  for (const OpCase& c : op_cases()) {
    for (std::int64_t count : {std::int64_t{0}, std::int64_t{1}, std::int64_t{ceil_log2(p) + 1}, std::int64_t{300}}) {
      Buffer send(c.kind, p * count);
      send.fill(seed_of({r, count, static_cast<std::int64_t>(c.kind)}));
      Buffer expect(c.kind, count);
      ASSERT_EQ(MPI_Reduce_scatter_block(send.data(), expect.data(), static_cast<int>(count), send.type(), c.op, comm),
                MPI_SUCCESS);
      const Buffer original = send;
      for (const Variant& v : variants(count)) {
        SCOPED_TRACE(where(p, 0, count, c.kind, v.algorithm, v.blocks) + " op=" + c.name +
                     (v.in_place ? " MPI_IN_PLACE" : ""));
        Buffer got(c.kind, v.in_place ? p * count : count);
        const void* sendbuf = send.data();
        if (v.in_place) {
          got = send;
          sendbuf = MPI_IN_PLACE;
        } else {
          got.fill(seed_of({r, 99}));
        }
        reduce_scatter_block(sendbuf, got.data(), count, send.type(), c.op, comm, Options{v.algorithm, v.blocks});
        EXPECT_EQ(first_difference(slice(got, 0, count), expect), -1);
        EXPECT_EQ(first_difference(send, original), -1) << "sendbuf modified";
      }
    }
  }
}

TEST(MpiReduceScatter, DistributionsMatchNative) {
  TestComm comm;
  const int p = world_size();
  const int r = world_rank();
  for (const OpCase& c : op_cases()) {
    if (c.kind == Kind::float64) continue;
    for (Dist dist : kDists) {
      for (int m : {1, 40}) {
        const std::vector<int> counts = counts_of(dist, p, m);
        const int total = std::accumulate(counts.begin(), counts.end(), 0);
        const int mine = counts[static_cast<std::size_t>(r)];
        Buffer send(c.kind, total);
        send.fill(seed_of({r, m, static_cast<std::int64_t>(dist), static_cast<std::int64_t>(c.kind)}));
        Buffer expect(c.kind, mine);
        ASSERT_EQ(MPI_Reduce_scatter(send.data(), expect.data(), counts.data(), send.type(), c.op, comm), MPI_SUCCESS);
        for (bool in_place : {false, true}) {
          SCOPED_TRACE(std::string("dist=") + name(dist) + " m=" + std::to_string(m) + " type=" + name(c.kind) +
                       " op=" + c.name + (in_place ? " MPI_IN_PLACE" : ""));
          Buffer got = in_place ? send : Buffer(c.kind, mine);
          ASSERT_EQ(OPTCOLL_Reduce_scatter(in_place ? MPI_IN_PLACE : send.data(), got.data(), counts.data(),
                                           send.type(), c.op, comm),
                    MPI_SUCCESS);
          EXPECT_EQ(first_difference(slice(got, 0, mine), expect), -1);
        }
      }
    }
  }
}

TEST(MpiReduceScatterBlock, CApiMatchesNative) {
  TestComm comm;
  const int p = world_size();
  const int count = 1000;
  Buffer send(Kind::int32, std::int64_t{p} * count);
  send.fill(seed_of({world_rank(), 5}));
  Buffer expect(Kind::int32, count);
  Buffer got(Kind::int32, count);
  ASSERT_EQ(MPI_Reduce_scatter_block(send.data(), expect.data(), count, MPI_INT, MPI_SUM, comm), MPI_SUCCESS);
  ASSERT_EQ(OPTCOLL_Reduce_scatter_block(send.data(), got.data(), count, MPI_INT, MPI_SUM, comm), MPI_SUCCESS);
  EXPECT_EQ(first_difference(got, expect), -1);
}

}  // namespace
}  // namespace optcoll::test
