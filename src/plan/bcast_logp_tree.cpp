// bcast "logp_tree": the whole buffer along the LogP-optimal tree B(P)
// (Karp et al. 1993, Theorem 2.1), one send per round, children in order of
// decreasing subtree height; reduce "logp_tree": the same reversed. See
// logp/plan_tree.hpp. Rounds: max over ranks of the round of their
// reception, plus one; for the postal model with L = 1 that is the binomial
// tree's ceil(log2 p).
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "optcoll/logp/plan_tree.hpp"
#include "optcoll/plan/reversed.hpp"

namespace optcoll::logp {
namespace {

std::mutex g_mu;

Params initial_parameters() {
  Params p = postal(1);
  if (const char* env = std::getenv("OPTCOLL_LOGP")) {
    long long L = 0, o = 0, g = 0;
    if (std::sscanf(env, "%lld,%lld,%lld", &L, &o, &g) == 3) {
      const Params q{L, o, g, 0};
      try {
        validate(q);
        p = q;
      } catch (const std::exception&) {
        // an invalid setting keeps the default
      }
    }
  }
  return p;
}

Params& current() {
  static Params p = initial_parameters();
  return p;
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

std::shared_ptr<const TreeRounds> tree_rounds(proc_t P, proc_t root, const Params& p) {
  using Key = std::tuple<proc_t, proc_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t>;
  static std::mutex mu;
  static std::map<Key, std::shared_ptr<const TreeRounds>> cache;
  const Key key{P, root, p.L, p.o, p.g, p.G};
  {
    const std::lock_guard<std::mutex> lock(mu);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
  }
  auto t = std::make_shared<TreeRounds>();
  t->shape = tree_shape(BroadcastTree(P, p), root);
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
      tree_ = logp::tree_rounds(ctx.spec.p, ctx.spec.root, logp::plan_parameters());
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

std::unique_ptr<RankPlan> make_reduce_logp_tree(const PlanContext& ctx, rank_t rank) {
  return std::make_unique<ReversedPlan>(make_bcast_logp_tree(ctx, rank), Action::combine_before);
}

}  // namespace optcoll::plan
