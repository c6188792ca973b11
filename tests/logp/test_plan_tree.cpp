// The LogP-optimal tree as a round-based plan ("logp_tree"), run by the plan
// simulator (sim/) with exact data flow, for many p, roots and parameters.
#include <gtest/gtest.h>

#include <algorithm>

#include "optcoll/logp/simulator.hpp"
#include "optcoll/plan/logp_tree.hpp"
#include "optcoll/sim/simulator.hpp"

namespace {

using namespace optcoll;
using plan::Collective;

TEST(PlanTree, BcastAndReduceDataFlowExact) {
  for (const logp::Params& p : {logp::postal(1), logp::postal(3), logp::Params{6, 2, 4, 0}, logp::Params{2, 1, 1, 0}}) {
    logp::set_plan_parameters(p);
    for (plan::rank_t P = 1; P <= 70; ++P)
      for (plan::rank_t root : {plan::rank_t{0}, P / 2, P - 1}) {
        for (const auto& [op, commutative] : {std::pair{Collective::bcast, true}, std::pair{Collective::reduce, true},
                                              std::pair{Collective::reduce, false}}) {
          const plan::PlanSetup setup({op, P, root, 5, 1, commutative});
          const auto make = op == Collective::bcast ? &plan::make_bcast_logp_tree : &plan::make_reduce_logp_tree;
          const sim::SimResult r = sim::simulate(setup.context(), make);
          ASSERT_TRUE(r.ok()) << p.str() << " P=" << P << " root=" << root << ": " << r.errors.front();
          if (P > 1) {  // one message per tree edge, one more to a root other than 0 when ordered
            EXPECT_EQ(r.messages, P - 1 + (!commutative && root != 0 ? 1 : 0));
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

const logp::Params kParams[] = {logp::postal(1),          logp::postal(3),          logp::Params{6, 2, 4, 0},
                                logp::Params{2, 1, 1, 0}, logp::Params{5, 2, 4, 0}, logp::Params{1, 0, 3, 0},
                                logp::Params{9, 1, 2, 0}};

// The broadcast plan through the plan simulator's LogGP clock (G = 0, one
// byte) ends at the logp library's B(P) for the same parameters: the round
// order of the plan loses nothing against the LogP times of the tree. (The
// clock also runs out a sender's gap after its last send, which ends after
// B(P) only when g > L + 2o; then it ends at most g - L - 2o later.)
TEST(PlanTree, BcastLogGPTimeIsOptimalTreeTime) {
  for (const logp::Params& p : kParams)
    for (plan::rank_t P = 1; P <= 90; ++P)
      for (plan::rank_t root : {plan::rank_t{0}, P / 3, P - 1}) {
        const plan::PlanSetup setup({Collective::bcast, P, root, 1, 1, true});
        plan::PlanContext ctx = setup.context();
        ctx.logp = &p;
        sim::SimOptions opt;
        opt.loggp = {static_cast<double>(p.L), static_cast<double>(p.o), static_cast<double>(p.g), 0.0};
        const sim::SimResult r = sim::simulate(ctx, &plan::make_bcast_logp_tree, opt);
        ASSERT_TRUE(r.ok()) << r.errors.front();
        const auto B = static_cast<double>(logp::BroadcastTree(P, p).completion());
        if (p.g <= p.hop()) {
          EXPECT_EQ(r.loggp_time, B) << p.str() << " P=" << P << " root=" << root;
        } else {
          EXPECT_GE(r.loggp_time, B) << p.str() << " P=" << P;
          EXPECT_LE(r.loggp_time, B + static_cast<double>(p.g - p.hop())) << p.str() << " P=" << P;
        }
      }
}

// The reduction plan, timed greedily by the LogP rules with one time unit per
// addition (each message arrives as early as its sender is done and the
// receiver's previous arrival allows), then run by the logp library's event
// simulator, which checks every machine rule and that the root's value holds
// each rank's operand exactly once (in rank order when not commutative). Its
// completion is the optimal summation time for one operand per processor,
// B(P; L+1, o, g') (Lemma 5.1), which the timing never sees.
logp::SimReport time_reduce_plan(plan::rank_t P, plan::rank_t root, bool commutative, const logp::Params& p) {
  const plan::PlanSetup setup({Collective::reduce, P, root, 1, 1, commutative});
  plan::PlanContext ctx = setup.context();
  ctx.logp = &p;
  std::vector<std::unique_ptr<plan::RankPlan>> plans;
  for (plan::rank_t r = 0; r < P; ++r) plans.push_back(plan::make_reduce_logp_tree(ctx, r));
  const std::int64_t gap = std::max(p.g, p.o + 1);  // receptions: overhead plus one addition
  std::vector<std::int64_t> ready(static_cast<std::size_t>(P), 0), last(static_cast<std::size_t>(P), -1);
  logp::Schedule s;
  s.params = p;
  s.P = P;
  s.payload = logp::Payload::sums;
  s.operands = P;
  s.combine_cost = 1;
  s.commutative = commutative;
  s.result_procs = {root};
  for (plan::rank_t r = 0; r < P; ++r) s.origins.push_back({r, 0, r, 1});
  plan::Step step;
  for (std::int64_t i = 0; i < plans.front()->rounds(); ++i) {
    std::vector<std::pair<plan::rank_t, plan::rank_t>> msgs;
    for (plan::rank_t r = 0; r < P; ++r) {
      step.clear();
      plans[static_cast<std::size_t>(r)]->step(i, step);
      if (step.send_to >= 0) msgs.emplace_back(r, step.send_to);
    }
    for (const auto& [c, v] : msgs) {
      const auto cu = static_cast<std::size_t>(c), vu = static_cast<std::size_t>(v);
      std::int64_t arrival = ready[cu] + p.o + p.L;
      if (last[vu] >= 0) arrival = std::max(arrival, last[vu] + gap);
      const bool copy = !commutative && root != 0 && i + 1 == plans.front()->rounds();
      s.messages.push_back({arrival - p.o - p.L, c, v, -1, 1, copy});
      last[vu] = arrival;
      ready[vu] = std::max(ready[vu], arrival + p.o + (copy ? 0 : 1));
    }
  }
  s.lower_bound = logp::BroadcastTree(P, logp::summation_parameters(p)).completion();
  return logp::simulate(s);
}

TEST(PlanTree, ReduceIsTheOptimalSummationTree) {
  for (const logp::Params& p : kParams)
    for (plan::rank_t P = 2; P <= 90; ++P)
      for (const bool commutative : {true, false})
        for (plan::rank_t root : {plan::rank_t{0}, P / 3, P - 1}) {
          const logp::SimReport rep = time_reduce_plan(P, root, commutative, p);
          ASSERT_TRUE(rep.ok()) << p.str() << " P=" << P << " root=" << root << " commutative=" << commutative << ": "
                                << rep.errors.front();
          EXPECT_EQ(rep.operands_summed, P);
          // Ordered with another root: one more message, L + 2o later, plus the
          // unit the library's simulator charges for taking over a value.
          const std::int64_t extra = !commutative && root != 0 ? p.L + 2 * p.o + 1 : 0;
          EXPECT_EQ(rep.completion, rep.lower_bound + extra)
              << p.str() << " P=" << P << " root=" << root << " commutative=" << commutative;
        }
}

// The rank order of footnote 2: every subtree of the ordered tree is the
// rank interval [v, v + size), and the plan simulator's interval check
// accepts the non-commutative reduction (above); here the intervals directly.
TEST(PlanTree, OrderedTreeSubtreesAreIntervals) {
  for (const logp::Params& p : kParams)
    for (plan::rank_t P = 1; P <= 200; P += (P < 40 ? 1 : 7)) {
      const auto t = logp::tree_rounds(P, 0, logp::summation_parameters(p), true);
      std::vector<plan::rank_t> size(static_cast<std::size_t>(P), 1);
      for (plan::rank_t v = P - 1; v > 0; --v) {
        const plan::rank_t par = t->shape.parent[static_cast<std::size_t>(v)];
        ASSERT_LT(par, v);  // preorder: parents first
        size[static_cast<std::size_t>(par)] += size[static_cast<std::size_t>(v)];
      }
      for (plan::rank_t v = 0; v < P; ++v) {
        // Children, from the last served to the first, tile (v, v + size).
        plan::rank_t next = v + 1;
        const auto vu = static_cast<std::size_t>(v);
        for (plan::rank_t j = t->shape.child_offset[vu + 1] - 1; j >= t->shape.child_offset[vu]; --j) {
          const plan::rank_t c = t->shape.children[static_cast<std::size_t>(j)];
          EXPECT_EQ(c, next) << p.str() << " P=" << P << " v=" << v;
          next = c + size[static_cast<std::size_t>(c)];
        }
        EXPECT_EQ(next, v + size[vu]);
      }
    }
}

}  // namespace
