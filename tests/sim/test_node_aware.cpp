// The node-aware plans (plan/nodes.hpp, plan/composed.hpp; registry names
// "lanes" and "leaders") in the simulator: exact data flow on regular and
// uneven node layouts (nodes of equal size, the last one smaller, sizes
// that differ everywhere, a node of one rank, one node, one rank per node,
// p = 1), for every root of the rooted ones, counts from 0 to several
// blocks per piece, commutative and (where the plan takes them)
// non-commutative operators; reductions give every rank the same bits.
// The layouts themselves against a brute-force walk, and the leaders'
// gather tree (plan::LeadersTree) link by link.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "optcoll/error.hpp"
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/nodes.hpp"
#include "optcoll/plan/tree_plan.hpp"
#include "optcoll/sim/simulator.hpp"

namespace optcoll::sim {
namespace {

using plan::Collective;
using plan::NodeLayout;
using plan::rank_t;

std::vector<std::pair<std::string, NodeLayout>> layouts() {
  return {{"3x4", NodeLayout::equal(12, 4)},
          {"4x3", NodeLayout::equal(12, 3)},
          {"2x8", NodeLayout::equal(16, 8)},
          {"4,4,4,4,1", NodeLayout::equal(17, 4)},
          {"3,5,2,4", NodeLayout::of_sizes({3, 5, 2, 4})},
          {"1,4,4", NodeLayout::of_sizes({1, 4, 4})},
          {"one node of 7", NodeLayout::equal(7, 7)},
          {"9 nodes of 1", NodeLayout::equal(9, 1)},
          {"3,3,3", NodeLayout::of_sizes({3, 3, 3})},
          {"4,2,3", NodeLayout::of_sizes({4, 2, 3})},
          {"1,5", NodeLayout::of_sizes({1, 5})},
          {"p=1", NodeLayout::equal(1, 1)}};
}

// Brute force: walk the ranks node by node.
TEST(NodeLayout, QueriesMatchAWalk) {
  for (const auto& [name, nodes] : layouts()) {
    rank_t rank = 0;
    rank_t smallest = nodes.p(), largest = 0;
    for (rank_t k = 0; k < nodes.nodes(); ++k) {
      ASSERT_EQ(nodes.first(k), rank) << name;
      for (rank_t i = 0; i < nodes.size(k); ++i, ++rank) {
        ASSERT_EQ(nodes.node_of(rank), k) << name << " rank " << rank;
        ASSERT_EQ(nodes.local(rank), i) << name << " rank " << rank;
      }
      smallest = std::min(smallest, nodes.size(k));
      largest = std::max(largest, nodes.size(k));
    }
    EXPECT_EQ(rank, nodes.p()) << name;
    EXPECT_EQ(nodes.lanes(), smallest) << name;
    EXPECT_EQ(nodes.largest(), largest) << name;
  }
  EXPECT_EQ(NodeLayout::of_sizes({4, 4, 4, 1}), NodeLayout::equal(13, 4));
  EXPECT_THROW(NodeLayout::of_sizes({2, 0}), optcoll::Error);
}

bool node_aware(const plan::AlgorithmInfo& a) {
  return a.name == "lanes" || a.name == "leaders";
}

TEST(NodeAware, ExactDataFlowOnEveryLayoutAndRoot) {
  int plans = 0;
  for (const plan::AlgorithmInfo& alg : plan::algorithms()) {
    if (!node_aware(alg)) continue;
    ++plans;
    for (const auto& [name, nodes] : layouts()) {
      const rank_t p = nodes.p();
      for (rank_t root = 0; root < p; ++root) {
        const bool rooted = alg.op == Collective::bcast || alg.op == Collective::reduce ||
                            alg.op == Collective::gather || alg.op == Collective::scatter;
        if (root > 0 && !rooted) break;
        for (const auto& [count, n] :
             std::vector<std::pair<std::int64_t, std::int64_t>>{{0, 1}, {1, 1}, {5, 1}, {37, 1}, {37, 3}, {200, 4}}) {
          for (const bool commutative : {true, false}) {
            if (!commutative && (alg.needs_commutative || !plan::is_reduction(alg.op))) continue;
            const plan::PlanSetup setup({alg.op, p, root, count, n, commutative});
            plan::PlanContext ctx = setup.context();
            ctx.nodes = &nodes;
            const SimResult r = simulate(ctx, alg.make);
            const std::string where = std::string(plan::to_string(alg.op)) + "/" + std::string(alg.name) + " nodes " +
                                      name + " root=" + std::to_string(root) + " count=" + std::to_string(count) +
                                      " n=" + std::to_string(n) + (commutative ? "" : " non-commutative");
            ASSERT_TRUE(r.ok()) << where << ": " << r.errors.front();
            if (plan::is_reduction(alg.op) && !alg.needs_exact) {
              EXPECT_TRUE(r.identical) << where;
            }
          }
        }
      }
    }
  }
  EXPECT_GE(plans, 1);
}

// The leaders' gather tree, walked link by link at every rank: each rank
// sends its subtree once, which its parent receives in the same round; the
// positions are a permutation with every subtree an interval holding its
// root; only leaders cross nodes, at most
// one message each way through a node's port per round; the root ends
// with every position.
TEST(LeadersTree, OneMessagePerPortAndRoundAndEveryBlockOnce) {
  for (const auto& [name, nodes] : layouts()) {
    const rank_t p = nodes.p();
    for (rank_t root = 0; root < p; ++root) {
      const std::string where = name + " root=" + std::to_string(root);
      const plan::LeadersTree tree(nodes, root);
      const std::vector<rank_t> order = tree.order();
      std::vector<int> seen(static_cast<std::size_t>(p), 0);
      for (const rank_t r : order) ++seen[static_cast<std::size_t>(r)];
      ASSERT_EQ(std::count(seen.begin(), seen.end(), 1), p) << where;
      ASSERT_EQ(order[0], root) << where;
      std::map<std::pair<std::int64_t, rank_t>, int> out, in;  // (round, node) -> messages
      std::int64_t received = 0;                               // positions that reach the root
      for (rank_t r = 0; r < p; ++r) {
        const plan::TreeRankView v = tree.view(r);
        EXPECT_EQ(v.rounds, tree.view(root).rounds) << where;
        if (r == root) {
          EXPECT_LT(v.up.peer, 0) << where;
          for (const plan::TreeLink& l : v.down) received += l.hi - l.lo + 1;
          continue;
        }
        ASSERT_GE(v.up.peer, 0) << where << " rank " << r;
        EXPECT_TRUE(v.up.lo <= tree.position(r) && tree.position(r) <= v.up.hi)
            << where << ": a subtree holds its root";
        EXPECT_EQ(order[static_cast<std::size_t>(tree.position(r))], r) << where;
        const plan::TreeRankView parent = tree.view(v.up.peer);
        const auto match = std::count_if(parent.down.begin(), parent.down.end(), [&](const plan::TreeLink& l) {
          return l.peer == r && l.round == v.up.round && l.lo == v.up.lo && l.hi == v.up.hi;
        });
        EXPECT_EQ(match, 1) << where << " rank " << r;
        if (nodes.node_of(r) != nodes.node_of(v.up.peer)) {
          ++out[{v.up.round, nodes.node_of(r)}];
          ++in[{v.up.round, nodes.node_of(v.up.peer)}];
        }
      }
      EXPECT_EQ(received, p - 1) << where;
      for (const auto& m : {out, in})
        for (const auto& [at, messages] : m) EXPECT_LE(messages, 1) << where << " round " << at.first;
    }
  }
}

}  // namespace
}  // namespace optcoll::sim
