// The node layout of a communicator (mpi/comm/comm_state.hpp): nodes
// imposed with OPTCOLL_NODE_SIZE; the nodes' numbering (exclusive_sum);
// the agreement on block placement from a split into nodes (equal nodes,
// uneven nodes, round-robin placement and one rank per node: no layout);
// one host without an imposed size: flat; the two-level machine
// (OPTCOLL_TWO_LEVEL, none on one host, the calibration's numbers sane
// and equal at every rank), and the automatic choice on a two-level
// machine whose port is the bottleneck.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "mpi/comm/choose.hpp"
#include "mpi/comm/comm_state.hpp"
#include "mpi_test_util.hpp"
#include "optcoll/optcoll.hpp"

namespace optcoll::test {
namespace {

// The sizes of a layout's nodes, in order.
std::vector<plan::rank_t> sizes_of(const plan::NodeLayout& l) {
  std::vector<plan::rank_t> s;
  for (plan::rank_t k = 0; k < l.nodes(); ++k) {
    s.push_back(l.size(k));
    EXPECT_EQ(l.first(k) + l.size(k), k + 1 < l.nodes() ? l.first(k + 1) : l.p());
  }
  return s;
}

// node_layout() with `color` as the split into nodes.
std::optional<plan::NodeLayout> layout_for(MPI_Comm comm, int color) {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split(comm, color, 0, &node);
  std::optional<plan::NodeLayout> l = mpi::node_layout(comm, node);
  MPI_Comm_free(&node);
  return l;
}

TEST(MpiNodes, ImposedNodeSize) {
  const int p = world_size();
  for (const int k : {1, 2, 3, 4}) {
    SCOPED_TRACE("OPTCOLL_NODE_SIZE=" + std::to_string(k));
    ScopedEnv env("OPTCOLL_NODE_SIZE", std::to_string(k).c_str());
    TestComm comm;
    const mpi::CommState& s = mpi::comm_state(comm);
    if (k == 1 || p <= k) {  // one rank per node, or one node: flat
      EXPECT_FALSE(s.nodes.has_value());
      continue;
    }
    ASSERT_TRUE(s.nodes.has_value());
    std::vector<plan::rank_t> want(static_cast<std::size_t>(p / k), k);
    if (p % k != 0) want.push_back(p % k);
    EXPECT_EQ(sizes_of(*s.nodes), want);
    EXPECT_EQ(s.nodes->node_of(world_rank()), world_rank() / k);
    // One host: no port to spare, the node-aware plans are not automatic.
    if (s.one_node) {
      EXPECT_FALSE(mpi::CommMachine(const_cast<mpi::CommState&>(s)).two_level().has_value());
    }
  }
}

TEST(MpiNodes, DetectedOnOneHostIsFlat) {
  TestComm comm;
  const mpi::CommState& s = mpi::comm_state(comm);
  if (!s.one_node) GTEST_SKIP() << "ranks on several hosts";
  EXPECT_FALSE(s.nodes.has_value());
}

// The nodes' numbering: the sum over the ranks below (log2 p rounds, not
// MPI_Exscan), 0 at rank 0, on p that is and is not a power of two.
TEST(MpiNodes, ExclusiveSum) {
  TestComm comm;
  const std::int64_t r = world_rank();
  EXPECT_EQ(mpi::exclusive_sum(comm, r + 1), r * (r + 1) / 2);
  EXPECT_EQ(mpi::exclusive_sum(comm, r % 2 == 0 ? 1 : 0), (r + 1) / 2);  // the leaders of nodes of 2
  EXPECT_EQ(mpi::exclusive_sum(comm, 0), 0);
}

TEST(MpiNodes, BlockPlacementAgreed) {
  TestComm comm;
  const int p = world_size(), r = world_rank();
  // Equal nodes of 3, the last one smaller.
  const std::optional<plan::NodeLayout> equal = layout_for(comm, r / 3);
  if (p > 3) {
    ASSERT_TRUE(equal.has_value());
    std::vector<plan::rank_t> want(static_cast<std::size_t>(p / 3), 3);
    if (p % 3 != 0) want.push_back(p % 3);
    EXPECT_EQ(sizes_of(*equal), want);
  } else {
    EXPECT_FALSE(equal.has_value());  // one node
  }
  // Uneven nodes: 2, 3, then the rest.
  const std::optional<plan::NodeLayout> uneven = layout_for(comm, r < 2 ? 0 : r < 5 ? 1 : 2);
  if (p > 2) {
    ASSERT_TRUE(uneven.has_value());
    std::vector<plan::rank_t> want{2, std::min(3, p - 2)};
    if (p > 5) want.push_back(p - 5);
    EXPECT_EQ(sizes_of(*uneven), want);
    EXPECT_EQ(uneven->node_of(r), r < 2 ? 0 : r < 5 ? 1 : 2);
    EXPECT_EQ(uneven->lanes(), p > 5 ? std::min(2, p - 5) : 2);
  } else {
    EXPECT_FALSE(uneven.has_value());
  }
  // Round-robin: not block placement (p >= 3), or one rank per node.
  EXPECT_FALSE(layout_for(comm, r % 2).has_value());
  // One rank per node, and one node.
  EXPECT_FALSE(layout_for(comm, r).has_value());
  EXPECT_FALSE(layout_for(comm, 0).has_value());
  // Block placement but for one rank swapped between two nodes.
  // (Collective: every rank calls it.)
  const std::optional<plan::NodeLayout> swapped = layout_for(comm, r == 1 ? 1 : r == 2 ? 0 : r / 2);
  if (p >= 4) {
    EXPECT_FALSE(swapped.has_value());
  }
}

TEST(MpiNodes, TwoLevelFromTheSetting) {
  ScopedEnv size_env("OPTCOLL_NODE_SIZE", "2");
  ScopedEnv two_env("OPTCOLL_TWO_LEVEL", "2e-7,1e-10,4e-6,2e-9");
  TestComm comm;
  mpi::CommState& s = mpi::comm_state(comm);
  if (!s.nodes) GTEST_SKIP() << "one node";
  const std::optional<model::TwoLevel> tl = mpi::CommMachine(s).two_level();
  ASSERT_TRUE(tl.has_value());
  EXPECT_EQ(tl->in.alpha, 2e-7);
  EXPECT_EQ(tl->in.beta, 1e-10);
  EXPECT_EQ(tl->out.alpha, 4e-6);
  EXPECT_EQ(tl->out.beta, 2e-9);
}

// A port far slower than the node's memory, and the flat plans' machine as
// that port shared by the node's ranks (OPTCOLL_ALPHA/BETA =
// TwoLevel::flat(2)): a long Allreduce and a long Bcast then choose a
// node-aware plan, the prices say it wins against the classic algorithms
// (the drop-in's `auto` compares those), and the call matches native MPI.
TEST(MpiNodes, AutomaticChoiceOnATwoLevelMachine) {
  ScopedEnv size_env("OPTCOLL_NODE_SIZE", "2");
  ScopedEnv two_env("OPTCOLL_TWO_LEVEL", "2e-7,1e-11,5e-6,1e-9");
  ScopedEnv alpha_env("OPTCOLL_ALPHA", "5e-6");
  ScopedEnv beta_env("OPTCOLL_BETA", "2e-9");
  TestComm comm;
  mpi::CommState& s = mpi::comm_state(comm);
  if (!s.nodes) GTEST_SKIP() << "one node";
  const std::int64_t n = 1 << 18;
  for (const plan::Collective op : {plan::Collective::allreduce, plan::Collective::bcast}) {
    const bool reduction = op == plan::Collective::allreduce;
    select::Call call{.op = op, .p = world_size(), .elem_size = 8, .count = n};
    const mpi::Choice c = mpi::choose(s, call, {}, true);
    const std::string alg(c.algorithm->name);
    EXPECT_TRUE(alg == "lanes" || alg == "leaders") << plan::to_string(op) << ": " << alg;
    EXPECT_GT(c.time, 0);
    EXPECT_LT(c.time, c.classic_time) << c.classic;
    EXPECT_EQ(mpi::describe(comm, op, n, MPI_DOUBLE, reduction ? MPI_SUM : MPI_OP_NULL).algorithm, alg);
  }
  std::vector<double> send(static_cast<std::size_t>(n)), got(send.size()), expect(send.size());
  std::iota(send.begin(), send.end(), static_cast<double>(world_rank()));
  MPI_Allreduce(send.data(), expect.data(), static_cast<int>(n), MPI_DOUBLE, MPI_SUM, comm);
  allreduce(send.data(), got.data(), n, MPI_DOUBLE, MPI_SUM, comm);
  EXPECT_EQ(got, expect);
}

// Both levels measured on imposed nodes (what a communicator across hosts
// runs at its first automatic call): finite, positive, equal at every rank.
TEST(MpiNodes, TwoLevelCalibration) {
  ScopedEnv size_env("OPTCOLL_NODE_SIZE", "2");
  TestComm comm;
  mpi::CommState& s = mpi::comm_state(comm);
  if (!s.nodes) GTEST_SKIP() << "one node";
  const model::TwoLevel m = mpi::calibrate_two_level(s);
  const double mine[4] = {m.in.alpha, m.in.beta, m.out.alpha, m.out.beta};
  for (const double x : mine) {
    EXPECT_TRUE(std::isfinite(x));
    EXPECT_GT(x, 0);
    EXPECT_LT(x, 1.0);
  }
  double root[4];
  std::copy(mine, mine + 4, root);
  MPI_Bcast(root, 4, MPI_DOUBLE, 0, comm);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(mine[i], root[i]) << i;
}

// A call's communicator as every entry sees it (mpi::look_up): size and rank
// against MPI's, an intercommunicator refused at every call (its answer is
// kept on it after the first), a freed communicator's handle reused by one
// of another size answered afresh, and a communicator that gets optcoll's
// state answered from it.
TEST(MpiCommLookup, AnswersOncePerCommunicatorAndAfresh) {
  const int p = world_size();
  const int r = world_rank();
  MPI_Comm half = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, r % 2, r, &half);
  int half_size = 0, half_rank = 0;
  MPI_Comm_size(half, &half_size);
  MPI_Comm_rank(half, &half_rank);
  for (int call = 0; call < 3; ++call) {
    const mpi::CommLookup l = mpi::look_up(half);
    EXPECT_EQ(l.bad, nullptr);
    EXPECT_EQ(l.size, half_size);
    EXPECT_EQ(l.rank, half_rank);
  }
  if (p >= 2) {
    MPI_Comm inter = MPI_COMM_NULL;
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, r % 2 == 0 ? 1 : 0, 78, &inter);
    for (int call = 0; call < 3; ++call) {
      const mpi::CommLookup l = mpi::look_up(inter);
      ASSERT_NE(l.bad, nullptr);
      EXPECT_STREQ(l.bad, "intercommunicator");
    }
    MPI_Comm_free(&inter);
  }
  MPI_Comm_free(&half);
  // The handle may come back for this one: its own size, not half's.
  MPI_Comm all = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &all);
  mpi::CommLookup l = mpi::look_up(all);
  EXPECT_EQ(l.bad, nullptr);
  EXPECT_EQ(l.size, p);
  EXPECT_EQ(l.rank, r);
  EXPECT_EQ(l.state, nullptr);
  std::vector<int> v(4, r), sum(4, 0);
  optcoll::allreduce(v.data(), sum.data(), 4, MPI_INT, MPI_SUM, all);  // builds optcoll's state (p > 1)
  EXPECT_EQ(sum[0], p * (p - 1) / 2);
  l = mpi::look_up(all);
  EXPECT_EQ(l.size, p);
  EXPECT_EQ(l.rank, r);
  EXPECT_EQ(l.state, mpi::find_comm_state(all));
  if (p > 1) {
    EXPECT_NE(l.state, nullptr);
  }
  EXPECT_EQ(mpi::look_up(MPI_COMM_NULL).bad, std::string("invalid communicator"));
  MPI_Comm_free(&all);
}

}  // namespace
}  // namespace optcoll::test
