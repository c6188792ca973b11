// Renumbering ranks for locality (plan/locality.hpp): the permutation, the
// rounds that stay inside groups (counted by walking the plans), exact data
// flow of renumbered plans in the simulator, and the two-level LogGP time.
#include <gtest/gtest.h>

#include <set>

#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/locality.hpp"
#include "optcoll/sim/simulator.hpp"

namespace optcoll::plan {
namespace {

// The test's own statement of the placement: virtual rank v on group
// v mod K, position v / K in it.
rank_t placed(rank_t v, rank_t k, rank_t g) {
  return (v % k) * g + v / k;
}

TEST(Locality, APermutationPlacingVirtualRanksRoundRobin) {
  for (rank_t p = 1; p <= 64; ++p)
    for (rank_t g = 0; g <= p + 1; ++g) {
      const RankOrder o = locality_order(p, g);
      const bool applies = g > 1 && g < p && p % g == 0;
      EXPECT_EQ(o.identity(), !applies) << "p=" << p << " g=" << g;
      std::set<rank_t> seen;
      for (rank_t v = 0; v < p; ++v) {
        const rank_t r = o.physical(v);
        EXPECT_EQ(r, applies ? placed(v, p / g, g) : v);
        EXPECT_EQ(o.virtual_of(r), v);
        seen.insert(r);
      }
      EXPECT_EQ(static_cast<rank_t>(seen.size()), p);
    }
}

// Rounds of the renumbered plan in which every message stays inside a group
// of g consecutive ranks.
int local_rounds(const AlgorithmInfo& a, rank_t p, rank_t g, bool renumber) {
  const PlanSetup setup({a.op, p, 0, 4 * p, 1, true});
  const RankOrder o = renumber ? locality_order(p, g) : RankOrder{p, 1, p};
  std::vector<std::unique_ptr<RankPlan>> plans;
  for (rank_t r = 0; r < p; ++r) plans.push_back(renumbered(a.make(setup.context(), o.virtual_of(r)), o));
  int local = 0;
  Step s;
  for (std::int64_t i = 0; i < plans[0]->rounds(); ++i) {
    bool all_inside = true;
    for (rank_t r = 0; r < p; ++r) {
      s.clear();
      plans[static_cast<std::size_t>(r)]->step(i, s);
      if (s.send_to >= 0 && s.send_to / g != r / g) all_inside = false;
    }
    local += all_inside ? 1 : 0;
  }
  return local;
}

TEST(Locality, TheLongSkipsStayInsideGroups) {
  // The allgather (every rank sends in every round). p = K * 2^j: j rounds
  // inside groups (skips p/2 .. p/2^j are multiples of K), none in rank
  // order; p = 96 = 3 * 32: the skips 48, 24, 12, 6, 3.
  const AlgorithmInfo* a = find_algorithm(Collective::allgather, "circulant");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(local_rounds(*a, 1024, 32, true), 5);
  EXPECT_EQ(local_rounds(*a, 1024, 32, false), 0);
  EXPECT_EQ(local_rounds(*a, 64, 8, true), 3);
  EXPECT_EQ(local_rounds(*a, 96, 32, true), 5);
  EXPECT_EQ(local_rounds(*a, 96, 32, false), 0);
}

// A renumbered registry plan as a factory for the simulator (the order in
// a global: factories are plain functions).
RankOrder g_order;
const AlgorithmInfo* g_alg = nullptr;
std::unique_ptr<RankPlan> make_renumbered(const PlanContext& ctx, rank_t r) {
  PlanContext v = ctx;
  v.spec.root = g_order.virtual_of(ctx.spec.root);
  return renumbered(g_alg->make(v, g_order.virtual_of(r)), g_order);
}

TEST(Locality, RenumberedPlansKeepExactDataFlowAndSaveFarRounds) {
  // Bcast and Reduce (any root), Allreduce: the data semantics do not name
  // groups by rank, so the simulator checks the renumbered plan as is.
  for (Collective op : {Collective::bcast, Collective::reduce, Collective::allreduce}) {
    g_alg = find_algorithm(op, "circulant");
    ASSERT_NE(g_alg, nullptr);
    for (const auto& [p, g] : std::vector<std::pair<rank_t, rank_t>>{{8, 2}, {12, 4}, {64, 8}, {96, 32}}) {
      for (rank_t root : {rank_t{0}, p - 1}) {
        for (std::int64_t n : {1, 3}) {
          SCOPED_TRACE(std::string(to_string(op)) + " p=" + std::to_string(p) + " g=" + std::to_string(g) +
                       " root=" + std::to_string(root) + " n=" + std::to_string(n));
          const PlanSetup setup({op, p, root, 8 * p, n, true});
          sim::SimOptions opt;
          opt.latency_group = g;
          opt.far_latency = 10 * opt.loggp.L;
          g_order = locality_order(p, g);
          const sim::SimResult renum = sim::simulate(setup.context(), &make_renumbered, opt);
          ASSERT_TRUE(renum.ok()) << renum.errors.front();
          const sim::SimResult plain = sim::simulate(setup.context(), g_alg->make, opt);
          ASSERT_TRUE(plain.ok());
          EXPECT_EQ(renum.rounds, plain.rounds);
          EXPECT_EQ(renum.total_bytes, plain.total_bytes);
          // A one-block Bcast or Reduce is a tree whose first rounds have
          // few senders, local in rank order too; where every rank sends
          // (Allreduce, pipelines) the renumbered plan is faster.
          EXPECT_LE(renum.loggp_time, plain.loggp_time * (1 + 1e-12)) << renum.loggp_time - plain.loggp_time;
          if (op == Collective::allreduce || n > 1) {
            EXPECT_LT(renum.loggp_time, plain.loggp_time);
          }
        }
      }
    }
  }
}

TEST(Locality, RenumberedLayoutNamesEachRanksOwnGroup) {
  const BlockLayout ranks = BlockLayout::split(20, 6, 2);
  const RankOrder o = locality_order(6, 2);
  const BlockLayout v = renumbered_layout(ranks, o);
  ASSERT_EQ(v.groups(), 6);
  for (rank_t u = 0; u < 6; ++u) EXPECT_EQ(v.group(u), ranks.group(placed(u, 3, 2)));
  EXPECT_EQ(v.blocks_per_group(), 2);
}

}  // namespace
}  // namespace optcoll::plan
