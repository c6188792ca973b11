// The LogP-optimal broadcast tree B(P) (Karp et al. 1993, §2) as a
// round-based plan (plan/): bcast "logp_tree" sends one block along B(P),
// every node sending to its children in order of decreasing subtree height,
// one per round after its reception. reduce "logp_tree" is the summation
// tree of §5 for one operand per rank: the time reversal of B(P) for the
// summation parameters (Lemma 5.1: latency L+1, the +1 being the addition
// after a reception; gap g' = max(g, o+1)). For a commutative operator node
// v sits at rank (v + root) mod P; for any other operator the nodes are
// renumbered as footnote 2 says, so that every subtree is a rank interval
// starting at its root, the children's intervals in the order their partial
// results arrive, and the tree's root is rank 0 (one more round moves the
// result to another root). The plan layer runs one send and one receive per
// rank and round, so the LogP times of B(P) become an order of sends.
// Parameters: PlanContext::logp (the MPI layer's measured L, o, g), else
// plan_parameters().
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "optcoll/logp/broadcast_tree.hpp"
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/plan.hpp"

namespace optcoll::logp {

// The parameters the plans use when the context gives none: the postal
// model with L = 1, where B(P) is the binomial tree, until
// set_plan_parameters() replaces it (the CLI does, from OPTCOLL_LOGP="L,o,g":
// integers, any common unit; plan/ reads no environment). Thread-safe.
Params plan_parameters();
void set_plan_parameters(const Params& p);

// B(P) on ranks with root `root`: shape and the round in which every rank
// receives (-1 at the root); child j of v receives in round recv_round(v)+1+j.
struct TreeRounds {
  TreeShape shape;
  std::vector<std::int64_t> recv_round;
  std::int64_t rounds = 0;
};
// Cached per (P, root, parameters, ordered); O(P) on a miss (O(P log P)
// worst case, tree_shape's sort). ordered: the footnote-2 numbering (root
// must be 0): every subtree is the rank interval [v, v + size), v first,
// then the children's intervals from the last child served to the first.
std::shared_ptr<const TreeRounds> tree_rounds(proc_t P, proc_t root, const Params& p, bool ordered = false);

// The parameters of the summation tree for those of the machine (Lemma 5.1):
// {L + 1, o, max(g, o + 1)}, in the same unit (one addition = 1).
Params summation_parameters(const Params& p);

// ctx.logp if set, else plan_parameters().
Params plan_parameters(const plan::PlanContext& ctx);

}  // namespace optcoll::logp

namespace optcoll::plan {

std::unique_ptr<RankPlan> make_bcast_logp_tree(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_reduce_logp_tree(const PlanContext& ctx, rank_t rank);

}  // namespace optcoll::plan
