// Scan and Exscan through one rank per node (plan/scan_leaders.cpp) on even
// and uneven nodes, one node, one rank per node and p = 1, counts 0 to
// several elements: the simulator's data flow (rank intervals joined in
// order for a non-commutative operator), and the plans run on values by a
// small executor of this file whose operator is string concatenation, the
// result compared with the concatenation of the ranks' inputs in rank order
// computed here. Also: a node's port carries at most one message each way
// per round, and a forced node-aware plan differs from the flat one.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/nodes.hpp"
#include "optcoll/sim/simulator.hpp"

namespace optcoll::sim {
namespace {

using plan::Action;
using plan::BlockRun;
using plan::Collective;
using plan::NodeLayout;
using plan::rank_t;

std::vector<std::pair<std::string, NodeLayout>> layouts() {
  return {{"3,3,3", NodeLayout::of_sizes({3, 3, 3})},
          {"4,2,3", NodeLayout::of_sizes({4, 2, 3})},
          {"1,5", NodeLayout::of_sizes({1, 5})},
          {"5,1,1", NodeLayout::of_sizes({5, 1, 1})},
          {"2,1,3,1", NodeLayout::of_sizes({2, 1, 3, 1})},
          {"4,4,4,4,1", NodeLayout::equal(17, 4)},
          {"2x8", NodeLayout::equal(16, 8)},
          {"one node of 6", NodeLayout::equal(6, 6)},
          {"5 nodes of 1", NodeLayout::equal(5, 1)},
          {"p=1", NodeLayout::equal(1, 1)}};
}

const std::vector<std::int64_t> kCounts{0, 1, 2, 7, 37};

template <class V>
auto& at(V& v, std::int64_t i) {
  return v[static_cast<std::size_t>(i)];
}

// An element's input at rank r: a token no other (rank, element) has.
std::string token(rank_t r, std::int64_t e) {
  std::string t(1, '<');
  t += std::to_string(r);
  t += '.';
  t += std::to_string(e);
  t += '>';
  return t;
}

// Every rank's plan run on strings, round by round as the executors do:
// every send reads its sender's buffer before the round's receives, then
// each receive copies or concatenates (combine_before: in + own), then the
// local steps in order. Scratch starts as "?" so that a combination with a
// block never written shows. Records the messages crossing nodes.
struct ValueRun {
  std::vector<std::vector<std::string>> buffers;
  std::vector<std::string> errors;
  // Most messages one node's port sent, or received, in one round.
  int port_load = 0;
};

std::string apply(Action a, const std::string& own, const std::string& in) {
  return a == Action::copy ? in : a == Action::combine_before ? in + own : own + in;
}

ValueRun run_values(const plan::PlanContext& ctx, plan::PlanFactory make, const NodeLayout& nodes) {
  const rank_t p = ctx.spec.p;
  std::vector<std::unique_ptr<plan::RankPlan>> plans;
  for (rank_t r = 0; r < p; ++r) plans.push_back(make(ctx, r));
  const plan::BlockLayout& layout = plans[0]->layout();
  ValueRun out;
  out.buffers.assign(static_cast<std::size_t>(p),
                     std::vector<std::string>(static_cast<std::size_t>(layout.extent()), "?"));
  for (rank_t r = 0; r < p; ++r)
    for (std::int64_t e = 0; e < ctx.spec.count; ++e) at(at(out.buffers, r), e) = token(r, e);
  // The elements of runs, in order.
  const auto elements = [&](const std::vector<BlockRun>& runs, std::vector<std::int64_t>& to) {
    to.clear();
    for (const BlockRun& run : runs) {
      if (!layout.valid(run)) {
        out.errors.push_back("invalid run");
        continue;
      }
      const plan::Segment s = layout.run(run);
      for (std::int64_t e = s.offset; e < s.offset + s.count; ++e) to.push_back(e);
    }
  };
  std::vector<plan::Step> steps(static_cast<std::size_t>(p));
  std::vector<std::vector<std::string>> sent(static_cast<std::size_t>(p));
  std::vector<std::int64_t> is, is2;
  for (std::int64_t i = 0; i < plans[0]->rounds(); ++i) {
    std::vector<int> port_out(static_cast<std::size_t>(nodes.nodes()), 0), port_in(port_out);
    for (rank_t r = 0; r < p; ++r) {
      plan::Step& s = at(steps, r);
      s.clear();
      at(plans, r)->step(i, s);
      at(sent, r).clear();
      if (s.send_to < 0) continue;
      elements(s.send, is);
      for (const std::int64_t e : is) at(sent, r).push_back(at(at(out.buffers, r), e));
      if (nodes.node_of(r) != nodes.node_of(s.send_to)) {
        ++at(port_out, nodes.node_of(r));
        ++at(port_in, nodes.node_of(s.send_to));
      }
    }
    for (rank_t k = 0; k < nodes.nodes(); ++k)
      out.port_load = std::max({out.port_load, at(port_out, k), at(port_in, k)});
    for (rank_t r = 0; r < p; ++r) {
      const plan::Step& s = at(steps, r);
      if (s.recv_from < 0) continue;
      if (at(steps, s.recv_from).send_to != r) {
        out.errors.push_back("round " + std::to_string(i) + ": rank " + std::to_string(r) + " receives no send");
        continue;
      }
      elements(s.recv, is);
      const std::vector<std::string>& in = at(sent, s.recv_from);
      if (in.size() != is.size()) {
        out.errors.push_back("round " + std::to_string(i) + ": message sizes differ at rank " + std::to_string(r));
        continue;
      }
      std::vector<std::string>& buf = at(out.buffers, r);
      for (std::size_t j = 0; j < is.size(); ++j) at(buf, is[j]) = apply(s.on_recv, at(buf, is[j]), in[j]);
    }
    for (rank_t r = 0; r < p; ++r) {
      std::vector<std::string>& buf = at(out.buffers, r);
      for (const plan::LocalOp& op : at(steps, r).local) {
        elements({op.from}, is);
        elements({op.to}, is2);
        if (is.size() != is2.size()) {
          out.errors.push_back("a local step's sides differ in size");
          continue;
        }
        for (std::size_t j = 0; j < is.size(); ++j) at(buf, is2[j]) = apply(op.action, at(buf, is2[j]), at(buf, is[j]));
      }
    }
  }
  return out;
}

TEST(ScanLeaders, ConcatenatesInRankOrderOnEveryLayout) {
  for (const Collective op : {Collective::scan, Collective::exscan}) {
    const plan::AlgorithmInfo& alg = *plan::find_algorithm(op, "leaders");
    for (const auto& [name, nodes] : layouts())
      for (const std::int64_t count : kCounts) {
        const rank_t p = nodes.p();
        const std::string where =
            std::string(plan::to_string(op)) + " nodes " + name + " count=" + std::to_string(count);
        const plan::PlanSetup setup({op, p, 0, count, 3, false});
        plan::PlanContext ctx = setup.context();
        ctx.nodes = &nodes;
        const ValueRun v = run_values(ctx, alg.make, nodes);
        ASSERT_TRUE(v.errors.empty()) << where << ": " << v.errors.front();
        for (rank_t r = op == Collective::exscan ? 1 : 0; r < p; ++r)
          for (std::int64_t e = 0; e < count; ++e) {
            std::string want;
            for (rank_t j = 0; j < (op == Collective::scan ? r + 1 : r); ++j) want += token(j, e);
            ASSERT_EQ(at(at(v.buffers, r), e), want) << where << " rank " << r << " element " << e;
          }
        // One rank per node talks across nodes: a message each way per round
        // at most, where a flat doubling scan sends up to ppn.
        EXPECT_LE(v.port_load, 1) << where;
      }
  }
}

TEST(ScanLeaders, SimulatorProvesTheDataFlow) {
  for (const Collective op : {Collective::scan, Collective::exscan}) {
    const plan::AlgorithmInfo& alg = *plan::find_algorithm(op, "leaders");
    for (const auto& [name, nodes] : layouts())
      for (const std::int64_t count : kCounts)
        for (const bool commutative : {true, false}) {
          const plan::PlanSetup setup({op, nodes.p(), 0, count, 2, commutative});
          plan::PlanContext ctx = setup.context();
          ctx.nodes = &nodes;
          const SimResult r = simulate(ctx, alg.make);
          ASSERT_TRUE(r.ok()) << plan::to_string(op) << " nodes " << name << " count=" << count
                              << (commutative ? "" : " non-commutative") << ": " << r.errors.front();
        }
  }
}

// The composition's rounds: 2 ceil(log2 ppn) within nodes and ceil(log2 N)
// across; the flat doubling scan sends several messages through a port in
// a round (so the port check above can fail).
TEST(ScanLeaders, RoundsAndPortLoadAgainstTheFlatPlan) {
  const NodeLayout nodes = NodeLayout::equal(12, 4);
  for (const Collective op : {Collective::scan, Collective::exscan}) {
    const plan::PlanSetup setup({op, 12, 0, 10, 1, false});
    plan::PlanContext ctx = setup.context();
    const std::unique_ptr<plan::RankPlan> flat = plan::find_algorithm(op, "doubling")->make(ctx, 5);
    ctx.nodes = &nodes;
    const std::unique_ptr<plan::RankPlan> leaders = plan::find_algorithm(op, "leaders")->make(ctx, 5);
    EXPECT_EQ(leaders->rounds(), 2 + 2 + 2);
    EXPECT_EQ(flat->rounds(), 4);
    const ValueRun v = run_values(ctx, plan::find_algorithm(op, "doubling")->make, nodes);
    EXPECT_GT(v.port_load, 1) << "the flat plan's port load";
  }
}

}  // namespace
}  // namespace optcoll::sim
