// TWO_Gatherv / TWO_Scatterv (Traff 2018, Lemma 2 and §5.2) as a tree view.
//
// Lemma 2: blocks x < y, y at one rank r only, and ceil(log2(p-1)) alpha +
// beta (p-1) x <= beta y: gathering the x-blocks by a binomial tree of their
// own while r copies its y-block, then sending them to r in one message,
// costs alpha + beta m, less than any binomial tree's ceil(log2 p) alpha +
// beta m. §5.2 applies the same shape to any number of y-blocks (Spikes,
// Skewed): two concurrent regular gathers, one per size class, and one
// message between their roots.
//
// Here: class C (X: size x, Y: size y) in rank order, |C| members, virtual
// rank = index in C. The root's class is gathered at the root by
// binomial_view(|C|, index of root, .); the other class at its last member
// (the oblivious binomial tree's own root for "no root inside"), which sends
// the class to the root in round max(q_X, q_Y), after both class trees. The
// tree is not ordered, so links carry positions: the root's class at
// [0, |C_root|), the other class after it, each in rank order; every
// subtree is an interval of positions (view.order maps them to groups).
#include <algorithm>

#include "optcoll/error.hpp"
#include "optcoll/model/log2.hpp"
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/tree_plan.hpp"

namespace optcoll::plan {

using model::ceil_log2;
namespace {

// Class membership: 1 = Y, 0 = X.
class Classes {
 public:
  Classes(const TwoSizes& t, rank_t p) : t_(t), p_(p) {
    if (t.single >= 0) return;
    for (rank_t r = 0; r < p; ++r) members_[t.is_large(r) ? 1U : 0U].push_back(r);
  }
  int of(rank_t r) const noexcept { return t_.is_large(r) ? 1 : 0; }
  rank_t count(int c) const noexcept {
    if (t_.single >= 0) return c == 1 ? 1 : p_ - 1;
    return static_cast<rank_t>(members_[static_cast<std::size_t>(c)].size());
  }
  rank_t index(rank_t r) const {
    if (t_.single >= 0) return of(r) == 1 ? 0 : r - (r > t_.single ? 1 : 0);
    const std::vector<rank_t>& m = members_[static_cast<std::size_t>(of(r))];
    return std::lower_bound(m.begin(), m.end(), r) - m.begin();
  }
  rank_t member(int c, rank_t i) const noexcept {
    if (t_.single >= 0) return c == 1 ? t_.single : i + (i >= t_.single ? 1 : 0);
    return members_[static_cast<std::size_t>(c)][static_cast<std::size_t>(i)];
  }

 private:
  const TwoSizes& t_;
  rank_t p_;
  std::array<std::vector<rank_t>, 2> members_;
};

}  // namespace

std::optional<TwoSizes> TwoSizes::of(std::span<const std::int64_t> m) {
  if (m.empty()) return std::nullopt;
  const auto [lo, hi] = std::minmax_element(m.begin(), m.end());
  TwoSizes t;
  t.x = *lo;
  t.y = *hi;
  if (t.x == t.y || std::any_of(m.begin(), m.end(), [&](std::int64_t v) { return v != t.x && v != t.y; }))
    return std::nullopt;
  if (std::count(m.begin(), m.end(), t.y) == 1) {
    t.single = std::find(m.begin(), m.end(), t.y) - m.begin();
    return t;
  }
  t.large.assign((m.size() + 7) / 8, 0);
  for (std::size_t i = 0; i < m.size(); ++i)
    if (m[i] == t.y) t.large[i / 8] = static_cast<std::uint8_t>(t.large[i / 8] | (1U << (i % 8)));
  return t;
}

TreeRankView two_view(const TwoSizes& two, rank_t p, rank_t root, rank_t rank, bool keep_empty) {
  const Classes cls(two, p);
  const int cr = cls.of(root), co = 1 - cr;
  const auto offset = [&](int c) { return c == cr ? 0 : cls.count(cr); };
  const auto size = [&](int c) { return c == 1 ? two.y : two.x; };
  const auto class_root = [&](int c) { return c == cr ? cls.index(root) : cls.count(c) - 1; };

  const int c = cls.of(rank);
  const TreeRankView in_class = binomial_view(cls.count(c), class_root(c), cls.index(rank));
  TreeRankView v;
  v.rounds = std::max(ceil_log2(cls.count(0)), ceil_log2(cls.count(1))) + 1;
  const auto placed = [&](const TreeLink& l) {
    return TreeLink{cls.member(c, l.peer), l.round, l.lo + offset(c), l.hi + offset(c)};
  };
  if (size(c) > 0 || keep_empty) {
    for (const TreeLink& l : in_class.down) v.down.push_back(placed(l));
    if (in_class.up.peer >= 0) v.up = placed(in_class.up);
  }
  // The other class, in one message from its class root to the root.
  if (size(co) > 0 || keep_empty) {
    const TreeLink whole{-1, v.rounds - 1, offset(co), offset(co) + cls.count(co) - 1};
    if (c == co && cls.index(rank) == class_root(co)) {
      v.up = whole;
      v.up.peer = root;
    }
    if (rank == root) {
      v.down.push_back(whole);
      v.down.back().peer = cls.member(co, class_root(co));
    }
  }
  return v;
}

std::vector<rank_t> two_order(const TwoSizes& two, rank_t p, rank_t root) {
  const Classes cls(two, p);
  std::vector<rank_t> order;
  order.reserve(static_cast<std::size_t>(p));
  for (const int c : {cls.of(root), 1 - cls.of(root)})
    for (rank_t i = 0; i < cls.count(c); ++i) order.push_back(cls.member(c, i));
  return order;
}

namespace {

std::unique_ptr<RankPlan> make(Collective op, const PlanContext& ctx, rank_t rank) {
  checked_blocks(ctx.spec);
  if (ctx.layout == nullptr || ctx.layout->data_groups() != ctx.spec.p)
    throw Error(Errc::internal, "gather/scatter plans need the context's layout, one group per rank");
  const rank_t p = ctx.spec.p;
  std::vector<std::int64_t> m(static_cast<std::size_t>(p));
  for (rank_t g = 0; g < p; ++g) m[static_cast<std::size_t>(g)] = ctx.layout->group(g).count;
  const std::optional<TwoSizes> two = TwoSizes::of(m);
  if (!two) return make_tree_plan(op, adaptive_binomial_view(m, ctx.spec.root, rank), *ctx.layout);
  TreeRankView v = two_view(*two, p, ctx.spec.root, rank);
  v.order = std::make_shared<const std::vector<rank_t>>(two_order(*two, p, ctx.spec.root));
  return make_tree_plan(op, std::move(v), *ctx.layout);
}

}  // namespace

std::unique_ptr<RankPlan> make_gather_two(const PlanContext& ctx, rank_t rank) {
  return make(Collective::gather, ctx, rank);
}
std::unique_ptr<RankPlan> make_scatter_two(const PlanContext& ctx, rank_t rank) {
  return make(Collective::scatter, ctx, rank);
}

}  // namespace optcoll::plan
