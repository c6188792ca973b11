// bcast "logp_tree": the whole buffer along the LogP-optimal tree B(P)
// (Karp et al. 1993, Theorem 2.1), one send per round, children in order of
// decreasing subtree height (see logp/plan_tree.hpp; the reduction is in
// reduce_logp_tree.cpp). Rounds: max over ranks of the round of their
// reception, plus one; for the postal model with L = 1 that is the binomial
// tree's ceil(log2 p).
//
// Invariant (tests/logp/test_plan_tree.cpp): the plan simulator's LogGP
// clock with G = 0 ends at exactly B(P; L, o, g): node v holding the datum
// at its label t sends to child i at t + i*g, and that child holds it at
// t + i*g + L + 2o, its label (Definition 2.3).
#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "optcoll/error.hpp"
#include "optcoll/logp/plan_tree.hpp"

namespace optcoll::logp {
namespace {

std::mutex g_mu;

// The process default: the postal model with L = 1 until someone sets it
// (the CLI from OPTCOLL_LOGP; the MPI layer passes its own in the context).
Params& current() {
  static Params p = postal(1);
  return p;
}

// Footnote 2's renumbering for one operand per node: a preorder in which v
// comes first and its children follow from the last one served to the first
// (in the reversed tree, the order their partial results reach v). Then the
// subtree of the node at rank r is [r, r + size) and v's value, combined on
// the right with each arriving partial, stays the ordered product of an
// interval. Iterative: B(P) can be deep (a chain for large L/g).
TreeShape rank_ordered(const TreeShape& s) {
  const proc_t P = s.size();
  std::vector<proc_t> pos(static_cast<std::size_t>(P), -1);
  std::vector<proc_t> stack{s.root};
  proc_t next = 0;
  while (!stack.empty()) {
    const proc_t v = stack.back();
    stack.pop_back();
    pos[static_cast<std::size_t>(v)] = next++;
    // Pushed first to last, so the last child served is visited first.
    for (proc_t j = s.child_offset[static_cast<std::size_t>(v)]; j < s.child_offset[static_cast<std::size_t>(v) + 1];
         ++j)
      stack.push_back(s.children[static_cast<std::size_t>(j)]);
  }
  TreeShape t;
  t.root = 0;
  t.parent.assign(static_cast<std::size_t>(P), -1);
  t.child_offset.assign(static_cast<std::size_t>(P) + 1, 0);
  t.children.resize(s.children.size());
  for (proc_t v = 0; v < P; ++v) {
    const auto pv = static_cast<std::size_t>(pos[static_cast<std::size_t>(v)]);
    const proc_t par = s.parent[static_cast<std::size_t>(v)];
    t.parent[pv] = par < 0 ? -1 : pos[static_cast<std::size_t>(par)];
    t.child_offset[pv + 1] =
        s.child_offset[static_cast<std::size_t>(v) + 1] - s.child_offset[static_cast<std::size_t>(v)];
  }
  for (std::size_t v = 0; v < static_cast<std::size_t>(P); ++v) t.child_offset[v + 1] += t.child_offset[v];
  for (proc_t v = 0; v < P; ++v) {
    const auto pv = static_cast<std::size_t>(pos[static_cast<std::size_t>(v)]);
    proc_t out = t.child_offset[pv];
    for (proc_t j = s.child_offset[static_cast<std::size_t>(v)]; j < s.child_offset[static_cast<std::size_t>(v) + 1];
         ++j)
      t.children[static_cast<std::size_t>(out++)] =
          pos[static_cast<std::size_t>(s.children[static_cast<std::size_t>(j)])];
  }
  return t;
}

}  // namespace

Params plan_parameters() {
  const std::lock_guard<std::mutex> lock(g_mu);
  return current();
}

void set_plan_parameters(const Params& p) {
  validate(p);
  const std::lock_guard<std::mutex> lock(g_mu);
  current() = p;
}

Params summation_parameters(const Params& p) {
  return Params{p.L + 1, p.o, std::max(p.g, p.o + 1), 0};
}

Params plan_parameters(const plan::PlanContext& ctx) {
  return ctx.logp != nullptr ? *ctx.logp : plan_parameters();
}

std::shared_ptr<const TreeRounds> tree_rounds(proc_t P, proc_t root, const Params& p, bool ordered) {
  using Key = std::tuple<proc_t, proc_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t, bool>;
  static std::mutex mu;
  static std::map<Key, std::shared_ptr<const TreeRounds>> cache;
  if (ordered && root != 0) throw Error(Errc::invalid_root, "logp::tree_rounds: the ordered tree has root 0");
  const Key key{P, root, p.L, p.o, p.g, p.G, ordered};
  {
    const std::lock_guard<std::mutex> lock(mu);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
  }
  auto t = std::make_shared<TreeRounds>();
  t->shape = tree_shape(BroadcastTree(P, p), root);
  if (ordered) t->shape = rank_ordered(t->shape);
  t->recv_round.assign(static_cast<std::size_t>(P), -1);
  // Parents before children: walk from the root in BFS order.
  std::vector<proc_t> queue{root};
  for (std::size_t i = 0; i < queue.size(); ++i) {
    const auto v = static_cast<std::size_t>(queue[i]);
    for (proc_t j = t->shape.child_offset[v]; j < t->shape.child_offset[v + 1]; ++j) {
      const proc_t c = t->shape.children[static_cast<std::size_t>(j)];
      t->recv_round[static_cast<std::size_t>(c)] = t->recv_round[v] + 1 + (j - t->shape.child_offset[v]);
      t->rounds = std::max(t->rounds, t->recv_round[static_cast<std::size_t>(c)] + 1);
      queue.push_back(c);
    }
  }
  const std::lock_guard<std::mutex> lock(mu);
  if (cache.size() > 64) cache.clear();
  return cache.emplace(key, std::move(t)).first->second;
}

}  // namespace optcoll::logp

namespace optcoll::plan {
namespace {

class BcastLogpTree final : public RankPlan {
 public:
  BcastLogpTree(const PlanContext& ctx, rank_t rank) : layout_(ctx.spec.count, 1), rank_(rank) {
    checked_blocks(ctx.spec);
    if (ctx.spec.count > 0 && ctx.spec.p > 1) {
      tree_ = logp::tree_rounds(ctx.spec.p, ctx.spec.root, logp::plan_parameters(ctx));
      rounds_ = tree_->rounds;
    }
  }

  std::int64_t rounds() const noexcept override { return rounds_; }
  const BlockLayout& layout() const noexcept override { return layout_; }

  void step(std::int64_t i, Step& out) const override {
    const auto r = static_cast<std::size_t>(rank_);
    const std::int64_t got = tree_->recv_round[r];
    if (i == got) out.recv_block(tree_->shape.parent[r], 0, Action::copy);
    const std::int64_t j = i - got - 1;  // index of the child served in round i
    if (j >= 0 && j < tree_->shape.child_offset[r + 1] - tree_->shape.child_offset[r])
      out.send_block(tree_->shape.children[static_cast<std::size_t>(tree_->shape.child_offset[r] + j)], 0);
  }

 private:
  BlockLayout layout_;
  rank_t rank_;
  std::shared_ptr<const logp::TreeRounds> tree_;
  std::int64_t rounds_ = 0;
};

}  // namespace

std::unique_ptr<RankPlan> make_bcast_logp_tree(const PlanContext& ctx, rank_t rank) {
  return std::make_unique<BcastLogpTree>(ctx, rank);
}

}  // namespace optcoll::plan
