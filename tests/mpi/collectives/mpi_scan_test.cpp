// optcoll::scan / exscan and OPTCOLL_Scan / OPTCOLL_Exscan against native
// MPI_Scan / MPI_Exscan on random data, word for word: every registry
// algorithm (doubling, pipeline, linear) forced by Options and by OPTCOLL_SCAN /
// OPTCOLL_EXSCAN, block counts 1, 3 and count, MPI_IN_PLACE, counts 0, 1,
// q-1, q+1, 1000 and 100000; MPI_SUM and MPI_MAX on MPI_INT and MPI_DOUBLE,
// a commutative user op on MPI_INT and a strided type (whose holes must keep
// their sentinel), and the non-commutative 2x2 matrix product (rank order).
// Exscan must leave rank 0's recvbuf exactly as it was. The model picks
// doubling for short vectors and the pipeline for long ones, and the linear
// plan for short ones where the per-message overhead is small.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "mpi/comm/choose.hpp"
#include "mpi_test_util.hpp"
#include "optcoll/optcoll.h"
#include "optcoll/optcoll.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::test {
namespace {

using plan::Collective;

std::vector<Variant> variants(Collective op, std::int64_t count) {
  return registry_variants(op, count, true, {{"", 0, false}, {"", 0, true}},
                           {{"", 1, false}, {"", 3, true}, {"", kCountBlocks, false}});
}

std::vector<OpCase> op_cases() {
  return {{Kind::int32, MPI_SUM, "MPI_SUM"},        {Kind::int32, MPI_MAX, "MPI_MAX"},
          {Kind::int32, Ops::get().ring, "ring"},   {Kind::float64, MPI_SUM, "MPI_SUM"},
          {Kind::strided, Ops::get().ring, "ring"}, {Kind::matrix, Ops::get().matrix, "matrix"}};
}

const char* name(Collective op) {
  return op == Collective::scan ? "scan" : "exscan";
}

void run_optcoll(Collective op, const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op mop,
                 MPI_Comm comm, const Options& o) {
  if (op == Collective::scan)
    scan(sendbuf, recvbuf, count, type, mop, comm, o);
  else
    exscan(sendbuf, recvbuf, count, type, mop, comm, o);
}

void check_scan(Collective op, MPI_Comm comm, const OpCase& c, std::int64_t count, const std::vector<Variant>& vs) {
  const int p = world_size();
  const int r = world_rank();
  const bool exclusive = op == Collective::exscan;
  Buffer send(c.kind, count);
  send.fill(seed_of({r, count, static_cast<std::int64_t>(c.kind), 7}));
  Buffer expect(c.kind, count);
  if (count > 0) {
    const int n = static_cast<int>(count);
    const int rc = exclusive ? MPI_Exscan(send.data(), expect.data(), n, send.type(), c.op, comm)
                             : MPI_Scan(send.data(), expect.data(), n, send.type(), c.op, comm);
    ASSERT_EQ(rc, MPI_SUCCESS);
  }
  const Buffer original = send;
  for (const Variant& v : vs) {
    SCOPED_TRACE(std::string(name(op)) + " " + where(p, 0, count, c.kind, v.algorithm, v.blocks) + " op=" + c.name +
                 (v.in_place ? " MPI_IN_PLACE" : ""));
    Buffer got(c.kind, count);
    const void* sendbuf = send.data();
    if (v.in_place) {
      got = send;
      sendbuf = MPI_IN_PLACE;
    } else {
      got.fill(seed_of({r, 99}));
    }
    const Buffer before = got;
    run_optcoll(op, sendbuf, got.data(), count, send.type(), c.op, comm, Options{v.algorithm, v.blocks});
    if (exclusive && r == 0)
      EXPECT_EQ(first_difference(got, before), -1) << "rank 0's recvbuf written";
    else
      EXPECT_EQ(first_difference(got, expect), -1);
    EXPECT_EQ(first_difference(send, original), -1) << "sendbuf modified";
  }
}

TEST(MpiScan, AllAlgorithmsMatchNative) {
  TestComm comm;
  for (Collective op : {Collective::scan, Collective::exscan})
    for (const OpCase& c : op_cases())
      for (std::int64_t count : test_counts(world_size())) check_scan(op, comm, c, count, variants(op, count));
}

TEST(MpiScan, LargeVectors) {
  TestComm comm;
  for (Collective op : {Collective::scan, Collective::exscan}) {
    check_scan(op, comm, {Kind::int32, MPI_SUM, "MPI_SUM"}, 100000,
               {{"", 0, false}, {"pipeline", 0, true}, {"pipeline", 0, false}, {"doubling", 0, false}});
    check_scan(op, comm, {Kind::matrix, Ops::get().matrix, "matrix"}, 20000, {{"pipeline", 0, false}});
  }
}

// Every algorithm forced through the environment (rank 0's value, read when
// a communicator's cache is built), with the non-commutative product.
TEST(MpiScan, ForcedByEnvironment) {
  for (Collective op : {Collective::scan, Collective::exscan}) {
    const std::string var = op == Collective::scan ? "OPTCOLL_SCAN" : "OPTCOLL_EXSCAN";
    for (const char* alg : {"doubling", "pipeline", "linear"}) {
      setenv(var.c_str(), alg, 1);
      TestComm comm;
      EXPECT_EQ(mpi::describe(comm, op, 5000, MPI_INT, MPI_SUM).algorithm, alg);
      check_scan(op, comm, {Kind::matrix, Ops::get().matrix, "matrix"}, 777, {{"", 0, false}, {"", 0, true}});
      unsetenv(var.c_str());
    }
  }
}

// Messages cut into chunks of 7 elements (OPTCOLL_MAX_CHUNK_ELEMS): the
// doubling plan's round that sends a partial while combining into it sends
// the untouched input in chunks too.
TEST(MpiScan, SmallChunks) {
  setenv("OPTCOLL_MAX_CHUNK_ELEMS", "7", 1);
  TestComm comm;
  for (Collective op : {Collective::scan, Collective::exscan}) {
    check_scan(op, comm, {Kind::int32, MPI_SUM, "MPI_SUM"}, 100,
               {{"doubling", 0, false}, {"doubling", 0, true}, {"pipeline", 3, false}});
    check_scan(op, comm, {Kind::strided, Ops::get().ring, "ring"}, 50,
               {{"doubling", 0, false}, {"linear", 0, false}, {"linear", 0, true}});
  }
  unsetenv("OPTCOLL_MAX_CHUNK_ELEMS");
}

// The model: doubling for short vectors, the pipeline for long ones (p >= 3;
// with two ranks both are one message), alpha and beta fixed, o unknown
// (at p = 3 the linear plan, never slower whatever o); with a small o
// (OPTCOLL_OVERHEAD) the linear plan for short vectors, and never beyond
// kLinearScanMaxBytes.
TEST(MpiScan, ModelChoosesBySize) {
  const int p = world_size();
  if (p < 3) GTEST_SKIP() << "the pipeline equals doubling below p = 3";
  if (std::getenv("OPTCOLL_BLOCK_BYTES") != nullptr || std::getenv("OPTCOLL_SCAN") != nullptr ||
      std::getenv("OPTCOLL_EXSCAN") != nullptr)
    GTEST_SKIP() << "the environment overrides the model";
  setenv("OPTCOLL_ALPHA", "1e-6", 1);
  setenv("OPTCOLL_BETA", "1e-9", 1);
  TestComm comm;
  for (Collective op : {Collective::scan, Collective::exscan}) {
    const auto d = [&](std::int64_t count) { return mpi::describe(comm, op, count, MPI_INT, MPI_SUM); };
    const std::string shortest = p == 3 ? "linear" : "doubling";
    EXPECT_EQ(d(1).algorithm, shortest);
    EXPECT_EQ(d(100).algorithm, shortest);
    const auto big = d(std::int64_t{1} << 24);
    EXPECT_EQ(big.algorithm, "pipeline");
    EXPECT_GT(big.blocks, 1);
    // A block count asked for is kept when the model picks the pipeline.
    const auto fixed = mpi::describe(comm, op, std::int64_t{1} << 24, MPI_INT, MPI_SUM, Options{"", 8});
    EXPECT_EQ(fixed.algorithm, "pipeline");
    EXPECT_EQ(fixed.blocks, 8);
  }
  setenv("OPTCOLL_OVERHEAD", "1e-8", 1);
  TestComm streamed;
  for (Collective op : {Collective::scan, Collective::exscan}) {
    const auto d = [&](std::int64_t count) { return mpi::describe(streamed, op, count, MPI_INT, MPI_SUM); };
    EXPECT_EQ(d(1).algorithm, "linear");
    EXPECT_EQ(d(64).algorithm, "linear");
    EXPECT_NE(d(model::kLinearScanMaxBytes / 4 + 1).algorithm, "linear");
  }
  unsetenv("OPTCOLL_OVERHEAD");
  unsetenv("OPTCOLL_ALPHA");
  unsetenv("OPTCOLL_BETA");
}

TEST(MpiScan, CApiAndSpans) {
  TestComm comm;
  const int r = world_rank();
  std::vector<long long> v(1001);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<long long>(i) * (r + 1);
  std::vector<long long> got(v.size(), -5);
  ASSERT_EQ(OPTCOLL_Scan(v.data(), got.data(), static_cast<int>(v.size()), MPI_LONG_LONG, MPI_SUM, comm), MPI_SUCCESS);
  const long long upto = static_cast<long long>(r + 1) * (r + 2) / 2;  // 1 + ... + (r+1)
  for (std::size_t i = 0; i < v.size(); ++i) ASSERT_EQ(got[i], static_cast<long long>(i) * upto) << "i=" << i;
  std::fill(got.begin(), got.end(), -5);
  ASSERT_EQ(OPTCOLL_Exscan(v.data(), got.data(), static_cast<int>(v.size()), MPI_LONG_LONG, MPI_SUM, comm),
            MPI_SUCCESS);
  const long long below = static_cast<long long>(r) * (r + 1) / 2;
  for (std::size_t i = 0; i < v.size(); ++i)
    ASSERT_EQ(got[i], r == 0 ? -5 : static_cast<long long>(i) * below) << "i=" << i;
  std::vector<long long> w = v;
  scan(std::span<const long long>(v), std::span<long long>(w), MPI_MAX, comm);  // in place: same span
  for (std::size_t i = 0; i < v.size(); ++i) ASSERT_EQ(w[i], static_cast<long long>(i) * (r + 1)) << "i=" << i;
  // Argument errors: the class through the C API, MpiError in C++.
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  int cls = MPI_SUCCESS;
  MPI_Error_class(OPTCOLL_Scan(v.data(), got.data(), -1, MPI_LONG_LONG, MPI_SUM, comm), &cls);
  EXPECT_EQ(cls, MPI_ERR_COUNT);
  MPI_Error_class(OPTCOLL_Exscan(v.data(), got.data(), 3, MPI_LONG_LONG, MPI_OP_NULL, comm), &cls);
  EXPECT_EQ(cls, MPI_ERR_OP);
  EXPECT_THROW(scan(v.data(), got.data(), 3, MPI_LONG_LONG, MPI_SUM, comm, Options{"circulant", 0}), MpiError);
}

}  // namespace
}  // namespace optcoll::test
