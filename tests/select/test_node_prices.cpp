// The node-aware plans' prices (plan/prices_nodes.cpp) against the
// simulator's two-level clock (sim::SimOptions::nodes): the same rounds and
// time where the pieces divide evenly; and the selection between them and
// the flat plans on a two-level machine, the expected choice from the
// prices written out here.
#include <gtest/gtest.h>

#include <string>

#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/nodes.hpp"
#include "optcoll/select/select.hpp"
#include "optcoll/sim/simulator.hpp"

namespace optcoll::select {
namespace {

using plan::Collective;
using plan::NodeLayout;
using plan::rank_t;

// The SMPI platforms' numbers (bench/smpi/platforms): a node's port 1 us,
// 12.5 GB/s; within a node 0.2 us, 25 GB/s.
const model::TwoLevel kMachine{{0.2e-6, 1 / 25e9}, {1e-6, 1 / 12.5e9}};

Call call_of(Collective op, const NodeLayout& nodes, std::int64_t count) {
  Call c;
  c.op = op;
  c.p = nodes.p();
  c.elem_size = 1;
  c.count = plan::has_rank_groups(op) && op != Collective::allreduce ? count / nodes.p() : count;
  c.nodes = {nodes.nodes(), nodes.lanes(), nodes.largest()};
  return c;
}

TEST(NodePrices, EqualTheSimulatedTwoLevelTime) {
  for (const plan::AlgorithmInfo& a : plan::algorithms()) {
    if (a.node_price == nullptr) continue;
    for (const NodeLayout& nodes : {NodeLayout::equal(16, 4), NodeLayout::equal(64, 8), NodeLayout::equal(64, 16)}) {
      for (const std::int64_t count : {std::int64_t{1} << 10, std::int64_t{1} << 20}) {
        for (const std::int64_t n : {1, 4}) {
          const Call c = call_of(a.op, nodes, count);
          const plan::Shape s = shape_of(c);
          const plan::Price price = a.node_price(s, n, kMachine);
          plan::PlanSpec spec{
              a.op, nodes.p(), 0,
              plan::has_rank_groups(a.op) && a.op != Collective::allreduce ? c.count * nodes.p() : count, price.blocks};
          const plan::PlanSetup setup(spec);
          plan::PlanContext ctx = setup.context();
          ctx.nodes = &nodes;
          sim::SimOptions opt;
          opt.nodes = &nodes;
          opt.two_level = kMachine;
          opt.track_payload = false;
          const sim::SimResult r = sim::simulate(ctx, a.make, opt);
          ASSERT_TRUE(r.ok()) << r.errors.front();
          const std::string where = std::string(plan::to_string(a.op)) + "/" + std::string(a.name) +
                                    " p=" + std::to_string(nodes.p()) + " ppn=" + std::to_string(nodes.largest()) +
                                    " m=" + std::to_string(count) + " n=" + std::to_string(price.blocks);
          EXPECT_EQ(price.rounds, r.rounds) << where;
          EXPECT_NEAR(price.time, r.two_level_time, 1e-9 * r.two_level_time) << where;
        }
      }
    }
  }
}

// The SMPI platform's machine with 16 ranks per node: a flat plan's ranks
// share their node's port (TwoLevel::flat).
TEST(Decide, NodeAwareWhereThePortIsShared) {
  const NodeLayout nodes = NodeLayout::equal(256, 16);
  FixedMachine machine(kMachine.flat(16), 0, {}, kMachine);
  for (const Collective op : {Collective::bcast, Collective::reduce, Collective::allreduce, Collective::allgather,
                              Collective::reduce_scatter, Collective::scan, Collective::exscan}) {
    for (const std::int64_t bytes : {std::int64_t{64} << 10, std::int64_t{1} << 20, std::int64_t{16} << 20}) {
      const Call c = call_of(op, nodes, bytes);
      const Decision d = decide(c, {}, machine, true);
      const std::string where = std::string(plan::to_string(op)) + " " + std::to_string(bytes) + " B";
      // The flat candidates' best price against the node-aware ones'.
      const plan::Shape s = shape_of(c);
      double flat = 1e300, node = 1e300;
      for (const plan::AlgorithmInfo& a : plan::algorithms()) {
        if (a.op != op || a.baseline) continue;
        if (a.price != nullptr && !a.needs_overhead && !a.needs_exact && (a.max_bytes == 0 || bytes <= a.max_bytes))
          flat = std::min(flat, a.price(s, 0, machine.alpha_beta()).time);
        if (a.node_price != nullptr) node = std::min(node, a.node_price(s, 0, kMachine).time);
      }
      ASSERT_LT(node, flat) << where;  // large messages: the port decides
      EXPECT_NE(d.algorithm->node_price, nullptr) << where << ": " << d.algorithm->name;
      EXPECT_NEAR(d.time, node, 1e-9 * node) << where;
    }
  }
}

// A flat machine measured between two ranks at a time (the port's own
// alpha-beta, not shared): the flat plans are still priced with the port
// shared by a node's ranks, so large messages go node-aware all the same.
TEST(Decide, FlatPlansPayTheSharedPort) {
  const NodeLayout nodes = NodeLayout::equal(256, 16);
  FixedMachine machine(kMachine.out, 0, {}, kMachine);
  for (const Collective op : {Collective::bcast, Collective::reduce, Collective::allgather}) {
    const Decision d = decide(call_of(op, nodes, std::int64_t{1} << 20), {}, machine, true);
    EXPECT_NE(d.algorithm->node_price, nullptr) << plan::to_string(op) << ": " << d.algorithm->name;
  }
}

// One rank per node, or one node: nothing node-aware is a candidate.
TEST(Decide, FlatWithoutNodes) {
  FixedMachine machine(kMachine.out, 0, {}, kMachine);
  for (const NodeLayout& nodes : {NodeLayout::equal(64, 1), NodeLayout::equal(16, 16)}) {
    const Decision d = decide(call_of(Collective::bcast, nodes, std::int64_t{1} << 20), {}, machine);
    EXPECT_EQ(d.algorithm->node_price, nullptr) << d.algorithm->name;
  }
  // Nodes known, the machine's levels not: flat.
  FixedMachine flat_only(kMachine.flat(16));
  const Decision d = decide(call_of(Collective::bcast, NodeLayout::equal(256, 16), 1 << 20), {}, flat_only);
  EXPECT_EQ(d.algorithm->node_price, nullptr) << d.algorithm->name;
}

}  // namespace
}  // namespace optcoll::select
