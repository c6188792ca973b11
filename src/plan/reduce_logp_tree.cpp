// reduce "logp_tree": the optimal summation tree of Karp et al. 1993, §5,
// for one operand per rank (the MPI reduction), as a round-based plan.
//
// Lemma 5.1: the communication pattern of an optimal (lazy) summation is the
// time reversal of an optimal broadcast with latency L+1 (a partial sum that
// arrives still has to be added, one time unit) and gap g' = max(g, o+1)
// (logp::summation_parameters). With one operand per processor the lazy
// schedule on all P processors has S_i = t - d_i for node i of label d_i, so
// it ends at t = B(P; L+1, o, g'): the leaves send at time 0.
//
// As a plan: round i is round R-1-i of the broadcast of that tree, every edge
// reversed, the arriving partial combined into the own one. A node receives
// from its children in the reverse of the broadcast's send order (last child
// served first), then sends to its parent: its partial then covers its whole
// subtree, each contribution once (the simulator checks this with exact
// contributor sets, tests/logp/test_plan_tree.cpp).
//
// Operand order (footnote 2). Commutative operator: node v at rank
// (v + root) mod P, combine_before. Otherwise the nodes are renumbered
// (tree_rounds(..., ordered = true)): node v's subtree is the rank interval
// [v, v + size), v first, then its children's intervals in the order their
// partials arrive; v combines every arrival on the right (combine_after), so
// its partial is always x_v (+) x_{v+1} (+) ... over a prefix of its
// interval, and rank 0 ends with x_0 (+) ... (+) x_{P-1}. If the root is not
// rank 0, one more round moves the result there (as reduce_binomial_ordered).
//
// Worked example, P = 4, postal L = 1 (summation parameters L = 2, o = 0,
// g = 1): B(4; 2, 0, 1) has labels 0, 2, 3, 4: the root sends at 0, 1, 2 to
// three leaves. Reversed, with the order of footnote 2: rank 0 receives from
// rank 1 (label 4, last served), rank 2, rank 3 in rounds 0, 1, 2, appending
// each: ((x0 + x1) + x2) + x3.
#include "optcoll/plan/logp_tree.hpp"

namespace optcoll::plan {
namespace {

class ReduceLogpTree final : public RankPlan {
 public:
  ReduceLogpTree(const PlanContext& ctx, rank_t rank)
      : layout_(ctx.spec.count, 1),
        rank_(rank),
        root_(ctx.spec.root),
        combine_(ctx.spec.commutative ? Action::combine_before : Action::combine_after) {
    checked_blocks(ctx.spec);
    if (ctx.spec.count == 0 || ctx.spec.p == 1) return;
    const logp::Params params = logp::summation_parameters(logp::plan_parameters(ctx));
    const bool ordered = !ctx.spec.commutative;
    tree_ = logp::tree_rounds(ctx.spec.p, ordered ? 0 : root_, params, ordered);
    tree_root_ = ordered ? 0 : root_;
    rounds_ = tree_->rounds + (tree_root_ != root_ ? 1 : 0);
  }

  std::int64_t rounds() const noexcept override { return rounds_; }
  const BlockLayout& layout() const noexcept override { return layout_; }

  void step(std::int64_t i, Step& out) const override {
    const std::int64_t R = tree_->rounds;
    if (i == R) {  // the ordered tree's result, from rank 0 to the root
      if (rank_ == tree_root_) out.send_block(root_, 0);
      if (rank_ == root_) out.recv_block(tree_root_, 0, Action::copy);
      return;
    }
    // Broadcast round b, reversed: its reception becomes the send to the
    // parent, its send to child j the reception from child j.
    const std::int64_t b = R - 1 - i;
    const auto r = static_cast<std::size_t>(rank_);
    const std::int64_t got = tree_->recv_round[r];
    if (b == got) out.send_block(tree_->shape.parent[r], 0);
    const std::int64_t j = b - got - 1;
    if (j >= 0 && j < tree_->shape.child_offset[r + 1] - tree_->shape.child_offset[r])
      out.recv_block(tree_->shape.children[static_cast<std::size_t>(tree_->shape.child_offset[r] + j)], 0, combine_);
  }

 private:
  BlockLayout layout_;
  rank_t rank_;
  rank_t root_;
  rank_t tree_root_ = 0;
  Action combine_;
  std::shared_ptr<const logp::TreeRounds> tree_;
  std::int64_t rounds_ = 0;
};

}  // namespace

std::unique_ptr<RankPlan> make_reduce_logp_tree(const PlanContext& ctx, rank_t rank) {
  return std::make_unique<ReduceLogpTree>(ctx, rank);
}

}  // namespace optcoll::plan
