// The LogP-optimal tree as a round-based plan ("logp_tree"), run by the plan
// simulator (sim/) with exact data flow, for many p, roots and parameters.
#include <gtest/gtest.h>

#include "optcoll/logp/plan_tree.hpp"
#include "optcoll/sim/simulator.hpp"

namespace {

using namespace optcoll;
using plan::Collective;

TEST(PlanTree, BcastAndReduceDataFlowExact) {
  for (const logp::Params& p : {logp::postal(1), logp::postal(3), logp::Params{6, 2, 4, 0}, logp::Params{2, 1, 1, 0}}) {
    logp::set_plan_parameters(p);
    for (plan::rank_t P = 1; P <= 70; ++P)
      for (plan::rank_t root : {plan::rank_t{0}, P / 2, P - 1}) {
        for (Collective op : {Collective::bcast, Collective::reduce}) {
          const plan::PlanSetup setup({op, P, root, 5, 1, true});
          const auto make = op == Collective::bcast ? &plan::make_bcast_logp_tree : &plan::make_reduce_logp_tree;
          const sim::SimResult r = sim::simulate(setup.context(), make);
          ASSERT_TRUE(r.ok()) << p.str() << " P=" << P << " root=" << root << ": " << r.errors.front();
          if (P > 1) {
            EXPECT_EQ(r.messages, P - 1);
          }
        }
      }
  }
  logp::set_plan_parameters(logp::postal(1));
}

TEST(PlanTree, PostalL1IsBinomialDepth) {
  logp::set_plan_parameters(logp::postal(1));
  for (plan::rank_t P = 2; P <= 300; ++P) {
    const auto t = logp::tree_rounds(P, 0, logp::postal(1));
    std::int64_t q = 0;
    while ((std::int64_t{1} << q) < P) ++q;
    EXPECT_EQ(t->rounds, q) << P;  // B(P) with L = 1: ceil(log2 P) rounds
  }
}

TEST(PlanTree, RegisteredAndSendOrderFollowsSubtreeHeight) {
  EXPECT_NE(plan::find_algorithm(Collective::bcast, "logp_tree"), nullptr);
  EXPECT_NE(plan::find_algorithm(Collective::reduce, "logp_tree"), nullptr);
  const logp::Params p{6, 2, 4, 0};
  const auto t = logp::tree_rounds(8, 3, p);
  // Figure 1 relabelled from root 3: the root sends to 4, 5, 6, 7 in rounds
  // 0..3; node 4 (Figure 1's P1) to 0 and 1 in rounds 1, 2.
  EXPECT_EQ(t->recv_round[3], -1);
  EXPECT_EQ(t->recv_round[4], 0);
  EXPECT_EQ(t->recv_round[7], 3);
  EXPECT_EQ(t->recv_round[0], 1);
  EXPECT_EQ(t->recv_round[1], 2);
  EXPECT_EQ(t->rounds, 4);
}

}  // namespace
