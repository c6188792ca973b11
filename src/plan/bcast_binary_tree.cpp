// Pipelined binary-tree broadcast, a classic baseline. Virtual ranks form a
// heap-ordered binary tree (children 2v+1, 2v+2). One-ported, a node forwards
// each block twice, so blocks flow one per two rounds: node v receives block j
// in round a(v) + 2j and forwards it to its left child in round a(v)+1+2j and
// to its right child in round a(v)+2+2j, where a(root) = -1 and a child's
// a is its parent's plus 1 (left) or 2 (right). The right send of block j and
// the receive of block j+1 share a round, which one-ported full-duplex allows.
// Rounds: max_v a(v) + 2(n-1) + 1, about 2(n + log2 p).
#include "optcoll/model/baselines.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::plan {
namespace {

// a(v): 1 per left edge, 2 per right edge on the path from the root, minus 1.
std::int64_t arrival(rank_t v) noexcept {
  std::int64_t a = -1;
  for (; v > 0; v = (v - 1) / 2) a += (v % 2 == 1) ? 1 : 2;
  return a;
}

class BcastBinaryTree final : public RankPlan {
 public:
  BcastBinaryTree(const PlanContext& ctx, rank_t rank)
      : layout_(ctx.spec.count, checked_blocks(ctx.spec)), p_(ctx.spec.p), root_(ctx.spec.root) {
    v_ = rank >= root_ ? rank - root_ : rank - root_ + p_;
    a_ = arrival(v_);
    if (ctx.spec.count > 0 && p_ > 1) rounds_ = model::binary_tree_first_arrival(p_) + 2 * (layout_.blocks() - 1) + 1;
  }

  std::int64_t rounds() const noexcept override { return rounds_; }
  const BlockLayout& layout() const noexcept override { return layout_; }

  void step(std::int64_t i, Step& out) const override {
    const std::int64_t n = layout_.blocks();
    const std::int64_t d = i - a_;
    if (v_ > 0 && d >= 0 && d % 2 == 0 && d / 2 < n) out.recv_block(real((v_ - 1) / 2), d / 2, Action::copy);
    // d odd: block (d-1)/2 to the left child; d even: block d/2 - 1 to the right.
    const rank_t child = d % 2 != 0 ? 2 * v_ + 1 : 2 * v_ + 2;
    const std::int64_t j = d % 2 != 0 ? (d - 1) / 2 : d / 2 - 1;
    if (d > 0 && child < p_ && j < n) out.send_block(real(child), j);
  }

 private:
  rank_t real(rank_t v) const noexcept { return v + root_ >= p_ ? v + root_ - p_ : v + root_; }

  BlockLayout layout_;
  rank_t p_;
  rank_t root_;
  rank_t v_ = 0;
  std::int64_t a_ = 0;
  std::int64_t rounds_ = 0;
};

}  // namespace

std::unique_ptr<RankPlan> make_bcast_binary_tree(const PlanContext& ctx, rank_t rank) {
  return std::make_unique<BcastBinaryTree>(ctx, rank);
}

}  // namespace optcoll::plan
