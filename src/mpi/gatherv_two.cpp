// TWO_Gatherv / TWO_Scatterv (Traff 2018, Lemma 2 and §5.2): blocks of two
// sizes x < y. Lemma 2: with one y-block at rank r and
// ceil(log2(p-1)) alpha + beta (p-1) x <= beta y, gathering the x-blocks by
// a binomial tree of their own while r copies its y-block, then sending
// them to r in one message, costs alpha + beta m, less than any binomial
// tree's ceil(log2 p) alpha + beta m. §5.2 uses the same shape for any
// number of y-blocks (Spikes, Skewed): two concurrent regular gathers, one
// per size class, and one message between their roots.
//
// Classes: Y = ranks holding y, X = the others, each in rank order; the
// MPI root's class is gathered at the MPI root, the other class at its last
// member, which sends the whole class to the MPI root in the last round
// (after both class trees: round max(q_X, q_Y), q_C = ceil(log2 |C|)).
// The tree is not ordered (a class is not a rank interval), so the root
// numbers its groups by *position*: its own class first, then the other,
// each in rank order; every subtree is then an interval of positions
// (TreeArgs::order maps positions to the caller's groups). Non-roots work in
// bytes and only need positions to order their own packed buffers.
//
// Information: the root decides and broadcasts {x, y, r} (one y-block) or,
// for several y-blocks, also a bitmap of Y (p bits): a rank must know its
// class partners.
#include <algorithm>

#include "optcoll/trees/constructions.hpp"
#include "optcoll/trees/evaluate.hpp"
#include "tree_build.hpp"

namespace optcoll::mpi {
namespace {

std::int64_t ceil_log2(plan::rank_t n) {
  std::int64_t q = 0;
  while ((plan::rank_t{1} << q) < n) ++q;
  return q;
}

// Class membership: count, index of a rank in its class, i-th member.
class Classes {
 public:
  Classes(const TwoSizes& t, plan::rank_t p) : t_(t), p_(p) {
    if (t.single >= 0) return;
    for (plan::rank_t r = 0; r < p; ++r) members_[t.is_large(r) ? 1U : 0U].push_back(r);
  }
  int of(plan::rank_t r) const noexcept { return t_.is_large(r) ? 1 : 0; }
  plan::rank_t count(int c) const noexcept {
    if (t_.single >= 0) return c == 1 ? 1 : p_ - 1;
    return static_cast<plan::rank_t>(members_[static_cast<std::size_t>(c)].size());
  }
  plan::rank_t index(plan::rank_t r) const {
    if (t_.single >= 0) return of(r) == 1 ? 0 : r - (r > t_.single ? 1 : 0);
    const std::vector<plan::rank_t>& m = members_[static_cast<std::size_t>(of(r))];
    return std::lower_bound(m.begin(), m.end(), r) - m.begin();
  }
  plan::rank_t member(int c, plan::rank_t i) const noexcept {
    if (t_.single >= 0) return c == 1 ? t_.single : i + (i >= t_.single ? 1 : 0);
    return members_[static_cast<std::size_t>(c)][static_cast<std::size_t>(i)];
  }

 private:
  const TwoSizes& t_;
  plan::rank_t p_;
  std::array<std::vector<plan::rank_t>, 2> members_;
};

TwoSizes sizes_of(std::span<const std::int64_t> m, std::int64_t x, std::int64_t y) {
  TwoSizes t;
  t.x = x;
  t.y = y;
  t.large.assign((m.size() + 7) / 8, 0);
  for (std::size_t i = 0; i < m.size(); ++i)
    if (m[i] == y) t.large[i / 8] = static_cast<std::uint8_t>(t.large[i / 8] | (1U << (i % 8)));
  return t;
}

// keep_empty: also the links of empty subtrees (the whole tree, for its
// model time).
RankTree build(const TwoSizes& two, plan::rank_t p, plan::rank_t rank, plan::rank_t root,
               std::vector<plan::rank_t>* order, bool keep_empty) {
  const Classes cls(two, p);
  const int cr = cls.of(root), co = 1 - cr;
  const auto offset = [&](int c) { return c == cr ? 0 : cls.count(cr); };
  const auto size = [&](int c) { return c == 1 ? two.y : two.x; };
  const auto class_root = [&](int c) { return c == cr ? cls.index(root) : cls.count(c) - 1; };
  const std::int64_t rounds = std::max(ceil_log2(cls.count(0)), ceil_log2(cls.count(1))) + 1;

  const int c = cls.of(rank);
  const plan::rank_t vi = cls.index(rank);
  const plan::TreeRankView bv = plan::binomial_view(cls.count(c), class_root(c), vi);
  RankTree t;
  t.view.rounds = rounds;
  t.self = offset(c) + vi;
  const auto link = [&](const plan::TreeLink& l) {
    return plan::TreeLink{cls.member(c, l.peer), l.round, l.lo + offset(c), l.hi + offset(c)};
  };
  if (size(c) > 0 || keep_empty) {
    for (const plan::TreeLink& l : bv.down) {
      t.view.down.push_back(link(l));
      t.down_bytes.push_back(size(c) * (l.hi - l.lo + 1));
    }
    if (bv.up.peer >= 0) {
      t.view.up = link(bv.up);
      t.up_bytes = size(c) * (bv.up.hi - bv.up.lo + 1);
    }
  }
  // The other class, in one message from its root to the MPI root.
  const std::int64_t other_bytes = size(co) * cls.count(co);
  const plan::TreeLink whole{-1, rounds - 1, offset(co), offset(co) + cls.count(co) - 1};
  if ((other_bytes > 0 || keep_empty) && c == co && vi == class_root(co)) {
    t.view.up = whole;
    t.view.up.peer = root;
    t.up_bytes = other_bytes;
  }
  if (rank == root) {
    if (other_bytes > 0 || keep_empty) {
      t.view.down.push_back(whole);
      t.view.down.back().peer = cls.member(co, class_root(co));
      t.down_bytes.push_back(other_bytes);
    }
    if (order != nullptr) {
      order->clear();
      for (const int k : {cr, co})
        for (plan::rank_t i = 0; i < cls.count(k); ++i) order->push_back(cls.member(k, i));
    }
  }
  return t;
}

}  // namespace

RankTree two_rank_tree(const TwoSizes& two, plan::rank_t p, plan::rank_t rank, plan::rank_t root,
                       std::vector<plan::rank_t>* order) {
  return build(two, p, rank, root, order, false);
}

double two_time(std::span<const std::int64_t> m, plan::rank_t root, const model::AlphaBeta& ab) {
  const auto p = static_cast<plan::rank_t>(m.size());
  const auto [lo, hi] = std::minmax_element(m.begin(), m.end());
  const TwoSizes two = sizes_of(m, *lo, *hi);
  trees::TreeBuilder b(p);
  for (plan::rank_t v = 0; v < p; ++v)
    for (const plan::TreeLink& l : build(two, p, v, root, nullptr, true).view.down) b.add_child(v, l.peer);
  const trees::Tree t = std::move(b).build(root, trees::CopyRule::first);
  return trees::completion_time(t, m, trees::CostModel::homogeneous(ab.alpha, ab.beta, 0));
}

std::array<std::int64_t, 4> decide_two(std::span<const std::int64_t> m, plan::rank_t root, const model::AlphaBeta& ab,
                                       bool force) {
  const auto [lo, hi] = std::minmax_element(m.begin(), m.end());
  const std::int64_t x = *lo, y = *hi;
  if (x == y || std::any_of(m.begin(), m.end(), [&](std::int64_t v) { return v != x && v != y; })) return {0, 0, 0, 0};
  if (!force) {
    const trees::CostModel cm = trees::CostModel::homogeneous(ab.alpha, ab.beta, 0);
    if (two_time(m, root, ab) >= trees::adaptive_binomial(m, cm, root).time) return {0, 0, 0, 0};
  }
  const auto large = std::count(m.begin(), m.end(), y);
  const std::int64_t single = large == 1 ? std::find(m.begin(), m.end(), y) - m.begin() : -1;
  return {1, x, y, single};
}

}  // namespace optcoll::mpi
