// The LogP-optimal broadcast tree B(P) (Karp et al. 1993, §2) as a
// round-based plan (plan/): "logp_tree" broadcasts one block along B(P) for
// the plan parameters, every node sending to its children in order of
// decreasing subtree height, one per round after its reception; the
// reduction is that broadcast reversed (plan/reversed.hpp), for commutative
// operators. The plan layer runs one send and one receive per rank and round,
// so the LogP times of B(P) become an order of sends; the MPI layer (issue 7,
// item 7) is to measure L, o, g and call set_plan_parameters().
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "optcoll/logp/broadcast_tree.hpp"
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/plan.hpp"

namespace optcoll::logp {

// The parameters the plans use. Default: OPTCOLL_LOGP="L,o,g" from the
// environment when set (integers, any common unit), else the postal model
// with L = 1, where B(P) is the binomial tree. Thread-safe.
Params plan_parameters();
void set_plan_parameters(const Params& p);

// B(P) on ranks with root `root`: shape and the round in which every rank
// receives (-1 at the root); child j of v receives in round recv_round(v)+1+j.
struct TreeRounds {
  TreeShape shape;
  std::vector<std::int64_t> recv_round;
  std::int64_t rounds = 0;
};
// Cached per (P, root, parameters); O(P) on a miss.
std::shared_ptr<const TreeRounds> tree_rounds(proc_t P, proc_t root, const Params& p);

}  // namespace optcoll::logp

namespace optcoll::plan {

std::unique_ptr<RankPlan> make_bcast_logp_tree(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_reduce_logp_tree(const PlanContext& ctx, rank_t rank);

}  // namespace optcoll::plan
