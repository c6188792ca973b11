// The LogP-optimal trees over MPI (docs/logp.md): the measured L, o, g
// (positive, finite, equal at every rank, measured once per communicator,
// the second use local), bcast and reduce forced to "logp_tree" (Options,
// OPTCOLL_BCAST / OPTCOLL_REDUCE through the C API) against native MPI for
// roots 0, p-1, p/2, counts 0, 1, 7, 1000, commutative and non-commutative
// operators, and the automatic rule (what it picks is one of the valid
// choices and gives the native result).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "mpi/comm/choose.hpp"
#include "mpi/comm/comm_state.hpp"
#include "mpi_test_util.hpp"
#include "optcoll/optcoll.h"
#include "optcoll/optcoll.hpp"

namespace optcoll::test {
namespace {

// Sets an environment variable at every rank for the scope (read when a
// communicator's cache is built, from rank 0).
const std::vector<std::int64_t> kCounts{0, 1, 7, 1000};

TEST(MpiLogp, MeasurementIsSaneAgreedAndCached) {
  TestComm comm;
  const int p = world_size();
  mpi::CommState& s = mpi::comm_state(comm);
  const logp::Params u = mpi::logp_model(s);
  if (p == 1) return;  // nothing to measure; never needed (no message moves)
  const mpi::Calibration c = s.measured;
  for (const double x : {c.L, c.o, c.g, c.G}) EXPECT_TRUE(std::isfinite(x)) << x;
  EXPECT_GT(c.L, 0);
  EXPECT_GE(c.o, 0);
  EXPECT_GT(c.g, 0);
  EXPECT_GE(c.g, c.o);  // LogP's o <= g
  EXPECT_LT(c.L, 1.0);  // a small message takes less than a second, even oversubscribed
  EXPECT_LT(c.g, 1.0);
  EXPECT_NO_THROW(logp::validate(u));
  EXPECT_EQ(s.logp_measurements, 1);
  // Every rank got rank 0's numbers.
  const double mine[4] = {c.L, c.o, c.g, c.G};
  std::vector<double> all(4 * static_cast<std::size_t>(p));
  MPI_Allgather(mine, 4, MPI_DOUBLE, all.data(), 4, MPI_DOUBLE, comm);
  for (int r = 0; r < p; ++r)
    for (int i = 0; i < 4; ++i) EXPECT_EQ(all[static_cast<std::size_t>(4 * r + i)], mine[i]) << "rank " << r;
  // The second use is local: only the even ranks ask (a collective would
  // hang here), and nothing is measured again.
  if (world_rank() % 2 == 0) {
    const logp::Params again = mpi::logp_model(s);
    EXPECT_EQ(again.L, u.L);
    EXPECT_EQ(again.o, u.o);
    EXPECT_EQ(again.g, u.g);
  }
  MPI_Barrier(comm);
  std::vector<int> buf(3, world_rank() == 0 ? 5 : 0);
  bcast(buf.data(), 3, MPI_INT, 0, comm, Options{"logp_tree", 0});
  EXPECT_EQ(buf, std::vector<int>(3, 5));
  EXPECT_EQ(s.logp_measurements, 1);
  // describe() reports the same parameters.
  const mpi::Decision d =
      mpi::describe(comm, plan::Collective::bcast, 1, MPI_INT, MPI_OP_NULL, Options{"logp_tree", 0});
  EXPECT_EQ(d.logp.L, u.L);
  EXPECT_EQ(d.measured.g, c.g);
  if (world_rank() == 0)
    std::printf("LogP p=%d: L=%.3g s o=%.3g s g=%.3g s G=%.3g s/B -> units of %.0f ns: L=%lld o=%lld g=%lld\n", p, c.L,
                c.o, c.g, c.G, mpi::kLogpUnit * 1e9, static_cast<long long>(u.L), static_cast<long long>(u.o),
                static_cast<long long>(u.g));
}

TEST(MpiLogp, OverrideSkipsTheMeasurement) {
  ScopedEnv env("OPTCOLL_LOGP", "30,5,8");
  TestComm comm;
  mpi::CommState& s = mpi::comm_state(comm);
  const logp::Params u = mpi::logp_model(s);
  EXPECT_EQ(u.L, 30);
  EXPECT_EQ(u.o, 5);
  EXPECT_EQ(u.g, 8);
  EXPECT_EQ(s.logp_measurements, 0);
}

void check_bcast(MPI_Comm comm, Kind k, int root, std::int64_t count, bool c_api) {
  const bool is_root = world_rank() == root;
  const std::uint64_t seed = seed_of({count, root, static_cast<std::int64_t>(k), 7});
  const auto input = [&] {
    Buffer b(k, count);
    b.fill(is_root ? seed : seed_of({static_cast<std::int64_t>(seed), world_rank()}));
    return b;
  };
  Buffer expect = input();
  if (count > 0) {
    ASSERT_EQ(MPI_Bcast(expect.data(), static_cast<int>(count), expect.type(), root, comm), MPI_SUCCESS);
  }
  Buffer got = input();
  if (c_api) {
    ASSERT_EQ(OPTCOLL_Bcast(got.data(), static_cast<int>(count), got.type(), root, comm), MPI_SUCCESS);
  } else {
    bcast(got.data(), count, got.type(), root, comm, Options{"logp_tree", 0});
  }
  EXPECT_EQ(first_difference(got, expect), -1);
}

TEST(MpiLogp, BcastTreeMatchesNative) {
  TestComm comm;
  const int p = world_size();
  if (p > 1) {
    EXPECT_EQ(mpi::describe(comm, plan::Collective::bcast, 1, MPI_INT, MPI_OP_NULL, Options{"logp_tree", 0}).algorithm,
              "logp_tree");
  }
  for (Kind k : {Kind::int32, Kind::float64, Kind::strided})
    for (int root : test_roots(p))
      for (std::int64_t count : kCounts) {
        SCOPED_TRACE(where(p, root, count, k, "logp_tree", 0));
        check_bcast(comm, k, root, count, false);
      }
}

TEST(MpiLogp, BcastTreeThroughCApiAndEnvironment) {
  ScopedEnv env("OPTCOLL_BCAST", "logp_tree");
  TestComm comm;
  const int p = world_size();
  EXPECT_EQ(mpi::describe(comm, plan::Collective::bcast, 1, MPI_INT, MPI_OP_NULL).algorithm, "logp_tree");
  for (int root : test_roots(p))
    for (std::int64_t count : kCounts) {
      SCOPED_TRACE(where(p, root, count, Kind::int32, "OPTCOLL_BCAST=logp_tree", 0));
      check_bcast(comm, Kind::int32, root, count, true);
    }
}

void check_reduce(MPI_Comm comm, const OpCase& c, int root, std::int64_t count, bool c_api, bool in_place) {
  const bool is_root = world_rank() == root;
  Buffer send(c.kind, count);
  send.fill(seed_of({world_rank(), count, static_cast<std::int64_t>(c.kind), 11}));
  Buffer expect(c.kind, count);
  if (count > 0) {  // rank-ordered, like MPI_Reduce
    ASSERT_EQ(MPI_Allreduce(send.data(), expect.data(), static_cast<int>(count), send.type(), c.op, comm), MPI_SUCCESS);
  }
  const Buffer original = send;
  Buffer got(c.kind, count);
  got.fill(seed_of({world_rank(), 99}));
  const void* sendbuf = send.data();
  if (in_place && is_root) {
    got = send;
    sendbuf = MPI_IN_PLACE;
  }
  if (c_api) {
    ASSERT_EQ(OPTCOLL_Reduce(sendbuf, got.data(), static_cast<int>(count), send.type(), c.op, root, comm), MPI_SUCCESS);
  } else {
    reduce(sendbuf, got.data(), count, send.type(), c.op, root, comm, Options{"logp_tree", 0});
  }
  if (is_root) {
    EXPECT_EQ(first_difference(got, expect), -1);
  }
  EXPECT_EQ(first_difference(send, original), -1) << "sendbuf modified";
}

const OpCase kOps[] = {{Kind::int32, MPI_SUM, "MPI_SUM"},
                       {Kind::float64, MPI_MAX, "MPI_MAX"},
                       {Kind::strided, MPI_OP_NULL, "ring"},
                       {Kind::matrix, MPI_OP_NULL, "matrix"}};

OpCase resolved(OpCase c) {
  if (c.op == MPI_OP_NULL) c.op = c.kind == Kind::matrix ? Ops::get().matrix : Ops::get().ring;
  return c;
}

TEST(MpiLogp, ReduceTreeMatchesNative) {
  TestComm comm;
  const int p = world_size();
  for (const OpCase& x : kOps) {
    const OpCase c = resolved(x);
    if (p > 1) {  // no fallback: the tree takes non-commutative operators too
      EXPECT_EQ(
          mpi::describe(comm, plan::Collective::reduce, 1, Buffer(c.kind, 1).type(), c.op, Options{"logp_tree", 0})
              .algorithm,
          "logp_tree");
    }
    for (int root : test_roots(p))
      for (std::int64_t count : kCounts)
        for (bool in_place : {false, true}) {
          SCOPED_TRACE(where(p, root, count, c.kind, "logp_tree", 0) + " op=" + c.name + (in_place ? " in place" : ""));
          check_reduce(comm, c, root, count, false, in_place);
        }
  }
}

TEST(MpiLogp, ReduceTreeThroughCApiAndEnvironment) {
  ScopedEnv env("OPTCOLL_REDUCE", "logp_tree");
  TestComm comm;
  const int p = world_size();
  for (const OpCase& x : kOps) {
    const OpCase c = resolved(x);
    for (int root : test_roots(p))
      for (std::int64_t count : kCounts) {
        SCOPED_TRACE(where(p, root, count, c.kind, "OPTCOLL_REDUCE=logp_tree", 0) + " op=" + c.name);
        check_reduce(comm, c, root, count, true, false);
      }
  }
}

// On one node the rule is off unless OPTCOLL_LOGP_AUTO=1. With it, without Options or
// OPTCOLL_<OP>: whatever the LogP rule picks for small
// messages (logp_tree or the default), the result is the native one, and
// beyond kLogpMaxBytes the rule never picks the tree.
TEST(MpiLogp, AutomaticRuleIsOptIn) {
  TestComm comm;
  for (std::int64_t count : {std::int64_t{1}, std::int64_t{64}}) {
    EXPECT_NE(mpi::describe(comm, plan::Collective::bcast, count, MPI_INT, MPI_OP_NULL).algorithm, "logp_tree");
    EXPECT_NE(mpi::describe(comm, plan::Collective::reduce, count, MPI_INT, MPI_SUM).algorithm, "logp_tree");
  }
}

// Across nodes (a CommState marked as not one node, as on a cluster) the
// parameters come from the alpha-beta model, L = alpha - 2o, o = g, G =
// beta, without the two-rank measurement, and the rule is on for Bcast
// (from 4 ranks L/g about 15 makes the tree cheaper than the binomial one:
// tests/select; on 3 the circulant Bcast is the same star, a tie that
// keeps it), off for Reduce, and OPTCOLL_LOGP_AUTO=0 turns it off.
void mark_across_nodes(MPI_Comm comm) {
  mpi::CommState& s = mpi::comm_state(comm);
  s.one_node = false;
  s.choices = {};
}

TEST(MpiLogp, AcrossNodesFromTheAlphaBetaModel) {
  ScopedEnv alpha("OPTCOLL_ALPHA", "5e-6");
  ScopedEnv beta("OPTCOLL_BETA", "1e-10");
  ScopedEnv overhead("OPTCOLL_OVERHEAD", "3e-7");
  TestComm comm;
  const int p = world_size();
  mark_across_nodes(comm);
  mpi::CommState& s = mpi::comm_state(comm);
  const logp::Params u = mpi::logp_model(s);
  EXPECT_EQ(u.L, 440);  // (5 - 2 x 0.3) us in units of 10 ns
  EXPECT_EQ(u.o, 30);
  EXPECT_EQ(u.g, 30);
  EXPECT_DOUBLE_EQ(s.measured.G, 1e-10);
  EXPECT_EQ(s.logp_measurements, 0);
  const std::string b = mpi::describe(comm, plan::Collective::bcast, 2, MPI_INT, MPI_OP_NULL).algorithm;
  EXPECT_EQ(b == "logp_tree", p >= 4) << b;
  EXPECT_NE(mpi::describe(comm, plan::Collective::reduce, 2, MPI_INT, MPI_SUM).algorithm, "logp_tree");
  for (int root : test_roots(p)) {  // the automatic Bcast against MPI's
    Buffer expect(Kind::int32, 100);
    expect.fill(seed_of({100, root, 5}));
    Buffer got = expect;
    if (world_rank() != root) got.fill(seed_of({world_rank(), 5}));
    ASSERT_EQ(MPI_Bcast(expect.data(), 100, MPI_INT, root, comm), MPI_SUCCESS);
    bcast(got.data(), 100, MPI_INT, root, comm);
    EXPECT_EQ(first_difference(got, expect), -1) << "root " << root;
  }
}

TEST(MpiLogp, AcrossNodesRuleOffWithLogpAutoZero) {
  ScopedEnv off("OPTCOLL_LOGP_AUTO", "0");
  ScopedEnv alpha("OPTCOLL_ALPHA", "5e-6");
  ScopedEnv beta("OPTCOLL_BETA", "1e-10");
  ScopedEnv overhead("OPTCOLL_OVERHEAD", "3e-7");
  TestComm comm;
  mark_across_nodes(comm);
  EXPECT_NE(mpi::describe(comm, plan::Collective::bcast, 2, MPI_INT, MPI_OP_NULL).algorithm, "logp_tree");
}

TEST(MpiLogp, AutomaticChoiceMatchesNative) {
  ScopedEnv on("OPTCOLL_LOGP_AUTO", "1");  // read when the communicator's cache is built
  TestComm comm;
  const int p = world_size();
  for (std::int64_t count : {std::int64_t{1}, std::int64_t{64}, std::int64_t{1024}}) {
    const mpi::Decision d = mpi::describe(comm, plan::Collective::bcast, count, MPI_INT, MPI_OP_NULL);
    if (p <= 2 || count * 4 > select::kLogpMaxBytes) {
      EXPECT_NE(d.algorithm, "logp_tree");
    }
    // describe() is collective (it may calibrate): every rank asks.
    const std::string reduce = mpi::describe(comm, plan::Collective::reduce, count, MPI_INT, MPI_SUM).algorithm;
    if (world_rank() == 0 && count == 1)
      std::printf("automatic p=%d, 4 B: bcast %s, reduce %s\n", p, d.algorithm.c_str(), reduce.c_str());
    for (int root : test_roots(p)) {
      Buffer expect(Kind::int32, count);
      expect.fill(seed_of({count, root}));
      Buffer got = expect;
      if (world_rank() != root) got.fill(seed_of({world_rank(), 3}));
      ASSERT_EQ(MPI_Bcast(expect.data(), static_cast<int>(count), MPI_INT, root, comm), MPI_SUCCESS);
      bcast(got.data(), count, MPI_INT, root, comm);
      EXPECT_EQ(first_difference(got, expect), -1) << "bcast root " << root << " count " << count;
      for (const OpCase& x : kOps)
        if (x.kind != Kind::strided) check_reduce(comm, resolved(x), root, count, true, false);
    }
  }
  const mpi::Decision big = mpi::describe(comm, plan::Collective::bcast, 4096, MPI_INT, MPI_OP_NULL);
  EXPECT_NE(big.algorithm, "logp_tree");
}

}  // namespace
}  // namespace optcoll::test
