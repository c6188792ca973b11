// Gather and scatter plans from a rank's view of a tree (tree_plan.hpp), and
// the tree algorithms: "binomial" (O(log p) per rank), "tree" (any tree with
// its rounds, PlanContext::tree; without one, binomial), and the star
// ("linear", not in the registry: a baseline without a closed-form price).
#include <algorithm>
#include <string>

#include "optcoll/error.hpp"
#include "optcoll/model/log2.hpp"
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/tree_plan.hpp"
#include "optcoll/trees/schedule.hpp"

namespace optcoll::plan {
namespace {

class TreePlan final : public RankPlan {
 public:
  TreePlan(Collective op, TreeRankView v, const BlockLayout& layout) : op_(op), view_(std::move(v)), layout_(layout) {
    if (op != Collective::gather && op != Collective::scatter)
      throw Error(Errc::internal, "tree plans are for gather and scatter");
    std::int64_t last = -1;
    for (const TreeLink& l : view_.down) {
      if (l.round <= last) throw Error(Errc::internal, "tree view: receives must be in increasing rounds");
      last = l.round;
    }
    if (view_.up.peer >= 0 && view_.up.round <= last)
      throw Error(Errc::internal, "tree view: the send must follow every receive");
    if (last >= view_.rounds || view_.up.round >= view_.rounds)
      throw Error(Errc::internal, "tree view: round too late");
  }

  std::int64_t rounds() const noexcept override { return view_.rounds; }
  const BlockLayout& layout() const noexcept override { return layout_; }

  void step(std::int64_t i, Step& out) const override {
    const std::int64_t g = op_ == Collective::gather ? i : view_.rounds - 1 - i;  // the gather round
    const bool gather = op_ == Collective::gather;
    if (view_.up.peer >= 0 && view_.up.round == g) {
      if (gather) {
        out.send_to = view_.up.peer;
        runs(view_.up, out.send);
      } else {
        out.recv_from = view_.up.peer;
        out.on_recv = Action::copy;
        runs(view_.up, out.recv);
      }
    }
    const auto it = std::lower_bound(view_.down.begin(), view_.down.end(), g,
                                     [](const TreeLink& l, std::int64_t r) { return l.round < r; });
    if (it == view_.down.end() || it->round != g) return;
    if (gather) {
      out.recv_from = it->peer;
      out.on_recv = Action::copy;
      runs(*it, out.recv);
    } else {
      out.send_to = it->peer;
      runs(*it, out.send);
    }
  }

 private:
  // Groups [lo, hi] as block runs: one if the layout keeps groups adjacent.
  void runs(const TreeLink& l, std::vector<BlockRun>& out) const {
    const std::int64_t n = layout_.blocks_per_group();
    if (view_.order != nullptr) {
      for (rank_t pos = l.lo; pos <= l.hi; ++pos) out.push_back({(*view_.order)[static_cast<std::size_t>(pos)] * n, n});
      return;
    }
    if (layout_.dense()) {
      out.push_back({l.lo * n, (l.hi - l.lo + 1) * n});
      return;
    }
    for (rank_t g = l.lo; g <= l.hi; ++g) out.push_back({g * n, n});
  }

  Collective op_;
  TreeRankView view_;
  const BlockLayout& layout_;
};

std::int64_t group_sum(const BlockLayout& layout, rank_t lo, rank_t hi) {
  std::int64_t s = 0;
  for (rank_t g = lo; g <= hi; ++g) s += layout.group(g).count;
  return s;
}

void check_tree(const PlanContext& ctx) {
  if (ctx.tree->tree().size() != ctx.spec.p || ctx.tree->tree().root() != ctx.spec.root)
    throw Error(Errc::invalid_root, "the context's tree has another p or root");
}

const BlockLayout& rank_groups(const PlanContext& ctx) {
  if (ctx.layout == nullptr || ctx.layout->data_groups() != ctx.spec.p)
    throw Error(Errc::internal, "gather/scatter plans need the context's layout, one group per rank");
  return *ctx.layout;
}

}  // namespace

std::unique_ptr<RankPlan> make_tree_plan(Collective op, TreeRankView view, const BlockLayout& layout) {
  return std::make_unique<TreePlan>(op, std::move(view), layout);
}

// Level k merges the aligned groups L = [a, a+2^k) and R = [a+2^k, a+2^(k+1)) ∩ [0, p)
// (trees::binomial_tree()); `rank` takes part in level k only as the root of
// its group, which it stays until it sends. `keep(lo, hi)` says whether the
// groups [lo, hi] carry data (a link without data is left out).
namespace {
template <class Keep>
TreeRankView binomial_levels(rank_t p, rank_t root, rank_t rank, Keep keep) {
  TreeRankView v;
  const std::int64_t q = model::ceil_log2(p);
  v.rounds = q;
  for (std::int64_t k = 0; k < q; ++k) {
    const rank_t w = rank_t{1} << k;
    const rank_t a = rank / (2 * w) * (2 * w);
    if (a + w >= p) continue;  // no right group at this level
    const rank_t end = std::min(a + 2 * w, p);
    const bool root_left = root >= a && root < a + w, root_right = root >= a + w && root < end;
    const rank_t x = root_left ? root : a + w - 1, y = root_right ? root : end - 1;
    const bool left_receives = root_left;
    const rank_t receiver = left_receives ? x : y, sender = left_receives ? y : x;
    const rank_t slo = left_receives ? a + w : a, shi = left_receives ? end - 1 : a + w - 1;
    if (rank == receiver) {
      if (keep(slo, shi)) v.down.push_back({sender, k, slo, shi});
    } else if (rank == sender) {
      if (keep(slo, shi)) v.up = {receiver, k, slo, shi};
      break;
    }
  }
  return v;
}
}  // namespace

TreeRankView binomial_view(rank_t p, rank_t root, rank_t rank, const BlockLayout& layout) {
  return binomial_levels(p, root, rank, [&](rank_t lo, rank_t hi) { return group_sum(layout, lo, hi) > 0; });
}
TreeRankView binomial_view(rank_t p, rank_t root, rank_t rank) {
  return binomial_levels(p, root, rank, [](rank_t, rank_t) { return true; });
}

std::unique_ptr<RankPlan> make_gather_binomial(const PlanContext& ctx, rank_t rank) {
  checked_blocks(ctx.spec);
  const BlockLayout& lay = rank_groups(ctx);
  return make_tree_plan(Collective::gather, binomial_view(ctx.spec.p, ctx.spec.root, rank, lay), lay);
}
std::unique_ptr<RankPlan> make_scatter_binomial(const PlanContext& ctx, rank_t rank) {
  checked_blocks(ctx.spec);
  const BlockLayout& lay = rank_groups(ctx);
  return make_tree_plan(Collective::scatter, binomial_view(ctx.spec.p, ctx.spec.root, rank, lay), lay);
}

TreeRankView schedule_view(const trees::TreeSchedule& s, rank_t v) {
  // A subtree is empty exactly when it sends in no round (send_round -1).
  const trees::Tree& t = s.tree();
  TreeRankView w;
  w.rounds = s.rounds();
  if (v != t.root() && s.send_round(v) >= 0) w.up = {t.parent(v), s.send_round(v), t.lo(v), t.hi(v)};
  for (rank_t c : t.children(v))
    if (s.send_round(c) >= 0) w.down.push_back({c, s.send_round(c), t.lo(c), t.hi(c)});
  return w;
}

TreeRankView linear_view(rank_t p, rank_t root, rank_t rank, const std::function<std::int64_t(rank_t)>& count) {
  TreeRankView v;
  v.rounds = p - 1;
  const auto round_of = [&](rank_t i) { return i - (i > root ? 1 : 0); };
  if (rank == root) {
    for (rank_t i = 0; i < p; ++i)
      if (i != root && count(i) > 0) v.down.push_back({i, round_of(i), i, i});
  } else if (count(rank) > 0) {
    v.up = {root, round_of(rank), rank, rank};
  }
  return v;
}

namespace {
TreeRankView star_view(rank_t p, rank_t root, rank_t rank, const BlockLayout& layout) {
  return linear_view(p, root, rank, [&](rank_t i) { return layout.group(i).count; });
}
}  // namespace

std::unique_ptr<RankPlan> make_gather_linear(const PlanContext& ctx, rank_t rank) {
  checked_blocks(ctx.spec);
  const BlockLayout& lay = rank_groups(ctx);
  return make_tree_plan(Collective::gather, star_view(ctx.spec.p, ctx.spec.root, rank, lay), lay);
}
std::unique_ptr<RankPlan> make_scatter_linear(const PlanContext& ctx, rank_t rank) {
  checked_blocks(ctx.spec);
  const BlockLayout& lay = rank_groups(ctx);
  return make_tree_plan(Collective::scatter, star_view(ctx.spec.p, ctx.spec.root, rank, lay), lay);
}

std::unique_ptr<RankPlan> make_gather_tree(const PlanContext& ctx, rank_t rank) {
  checked_blocks(ctx.spec);
  const BlockLayout& lay = rank_groups(ctx);
  if (ctx.tree == nullptr)
    return make_tree_plan(Collective::gather, binomial_view(ctx.spec.p, ctx.spec.root, rank, lay), lay);
  check_tree(ctx);
  return make_tree_plan(Collective::gather, schedule_view(*ctx.tree, rank), lay);
}
std::unique_ptr<RankPlan> make_scatter_tree(const PlanContext& ctx, rank_t rank) {
  checked_blocks(ctx.spec);
  const BlockLayout& lay = rank_groups(ctx);
  if (ctx.tree == nullptr)
    return make_tree_plan(Collective::scatter, binomial_view(ctx.spec.p, ctx.spec.root, rank, lay), lay);
  check_tree(ctx);
  return make_tree_plan(Collective::scatter, schedule_view(*ctx.tree, rank), lay);
}

}  // namespace optcoll::plan
