// k-item broadcast: bounds (Theorems 3.1, 3.7) and single-sending schedules
// from block-cyclic continuous broadcast (Karp et al. 1993, §3.4).
#include "optcoll/logp/kitem.hpp"

#include <algorithm>

#include "compose.hpp"
#include "optcoll/error.hpp"
#include "optcoll/logp/broadcast_tree.hpp"
#include "optcoll/logp/continuous.hpp"
#include "optcoll/logp/fibonacci.hpp"
#include "text.hpp"

namespace optcoll::logp {
namespace {

constexpr std::int64_t kSearchBudget = std::int64_t{1} << 18;
constexpr proc_t kSearchLimit = 4096;  // direct search on B(N) up to this N

// B(N) as the tree T(t) restricted to delays < t plus `keep` of the nodes
// at delay t, chosen by `rule`: 0 the first in BFS order, 1 the last,
// 2 evenly spread.
PostalTree bn_variant(proc_t N, std::int64_t L, int rule) {
  const std::int64_t t = broadcast_time(N, postal(L));
  const PostalTree full = PostalTree::full(L, t);
  std::vector<proc_t> last;  // nodes at delay t, BFS order
  for (proc_t v = 0; v < full.size(); ++v)
    if (full.delay(v) == t) last.push_back(v);
  const auto keep = static_cast<std::size_t>(N - (full.size() - static_cast<proc_t>(last.size())));
  std::vector<char> kept(static_cast<std::size_t>(full.size()), 1);
  for (std::size_t i = 0; i < last.size(); ++i) {
    bool k = false;
    if (rule == 0) k = i < keep;
    if (rule == 1) k = i >= last.size() - keep;
    if (rule == 2) k = (i * keep) / last.size() != ((i + 1) * keep) / last.size();
    kept[static_cast<std::size_t>(last[i])] = k ? 1 : 0;
  }
  std::vector<proc_t> counts;
  std::vector<proc_t> queue{0};
  for (std::size_t i = 0; i < queue.size(); ++i) {
    const proc_t v = queue[i];
    proc_t c = 0;
    for (proc_t x = full.first_child(v); x < full.first_child(v) + full.children(v); ++x)
      if (kept[static_cast<std::size_t>(x)]) queue.push_back(x), ++c;
    counts.push_back(c);
  }
  return PostalTree::from_child_counts(L, counts);
}

// B(N) of the postal model with latency L + w, as a tree for latency L in
// which every node waits w steps before sending: deeper than B(N), with
// other letters, for the slack of Theorem 3.7.
PostalTree slow_variant(proc_t N, std::int64_t L, std::int64_t w) {
  const BroadcastTree b(N, postal(L + w));
  std::vector<proc_t> counts(static_cast<std::size_t>(N));
  for (proc_t v = 0; v < N; ++v) counts[static_cast<std::size_t>(v)] = b.num_children(v);
  return PostalTree::from_child_counts(L, counts, std::vector<std::int64_t>(static_cast<std::size_t>(N), w));
}

// T(d) with the last x children (leaves, x <= L) removed from every node with
// at least y children, and the last remaining one from the first nodes with
// y - 1 children until N nodes remain; nullopt if N cannot be hit. For L = 2,
// d = t + 1, x = 2, y = 4 this is Theorem 3.5's pruning of the nodes with
// >= 4 children; generally it gives deeper trees with fewer deep leaves.
std::optional<PostalTree> trimmed_variant(proc_t N, std::int64_t L, std::int64_t d, std::int64_t x, std::int64_t y) {
  const PostalTree full = PostalTree::full(L, d);
  std::vector<proc_t> keep(static_cast<std::size_t>(full.size()));
  proc_t total = 1;
  for (proc_t v = 0; v < full.size(); ++v) {
    const proc_t c = full.children(v);
    keep[static_cast<std::size_t>(v)] = c >= y ? c - std::min<proc_t>(x, c) : c;
  }
  // Count the nodes that remain (children of removed nodes go with them).
  std::vector<char> alive(static_cast<std::size_t>(full.size()), 0);
  alive[0] = 1;
  for (proc_t v = 0; v < full.size(); ++v)
    if (alive[static_cast<std::size_t>(v)])
      for (proc_t k = 0; k < keep[static_cast<std::size_t>(v)]; ++k)
        alive[static_cast<std::size_t>(full.first_child(v) + k)] = 1, ++total;
  for (proc_t v = 0; v < full.size() && total > N; ++v) {
    const auto uv = static_cast<std::size_t>(v);
    if (!alive[uv] || full.children(v) != y - 1 || keep[uv] == 0) continue;
    const proc_t last = full.first_child(v) + keep[uv] - 1;
    if (full.children(last) > 0) continue;  // only leaves
    alive[static_cast<std::size_t>(last)] = 0;
    --keep[uv];
    --total;
  }
  if (total != N) return std::nullopt;
  std::vector<proc_t> counts;
  std::vector<proc_t> queue{0};
  for (std::size_t i = 0; i < queue.size(); ++i) {
    const proc_t v = queue[i];
    counts.push_back(keep[static_cast<std::size_t>(v)]);
    for (proc_t k = 0; k < keep[static_cast<std::size_t>(v)]; ++k) queue.push_back(full.first_child(v) + k);
  }
  return PostalTree::from_child_counts(L, counts);
}

// B hung below A's receive-only leaf (or below A's root if A is one node):
// that leaf's processor becomes a period-1 block, B's root its only child.
BlockCyclic cascade(const BlockCyclic& A, const BlockCyclic& B) {
  const PostalTree& ta = A.tree;
  const PostalTree& tb = B.tree;
  const Block* ro = nullptr;
  for (const Block& k : A.blocks)
    if (k.node < 0) ro = &k;
  // The receive-only processor takes the last slot of its delay, matched with
  // the last leaf of that delay in BFS order (block_cyclic_schedule).
  proc_t host = 0;
  if (ro != nullptr) {
    host = -1;
    for (proc_t v = 1; v < ta.size(); ++v)
      if (ta.children(v) == 0 && ta.delay(v) == ro->word[0]) host = v;
  } else if (ta.size() != 1) {
    throw Error(Errc::internal, "cascade: first part has no receive-only processor");
  }
  // Children lists of the union, then BFS.
  const proc_t na = ta.size();
  std::vector<std::vector<proc_t>> kids(static_cast<std::size_t>(na + tb.size()));
  for (proc_t v = 1; v < na; ++v) kids[static_cast<std::size_t>(ta.parent(v))].push_back(v);
  for (proc_t v = 1; v < tb.size(); ++v) kids[static_cast<std::size_t>(na + tb.parent(v))].push_back(na + v);
  kids[static_cast<std::size_t>(host)].push_back(na);
  std::vector<proc_t> order{0}, index(kids.size(), -1), counts;
  std::vector<std::int64_t> waits;
  index[0] = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const auto& ks = kids[static_cast<std::size_t>(order[i])];
    counts.push_back(static_cast<proc_t>(ks.size()));
    waits.push_back(order[i] < na ? ta.wait(order[i]) : tb.wait(order[i] - na));
    for (proc_t c : ks) index[static_cast<std::size_t>(c)] = static_cast<proc_t>(order.size()), order.push_back(c);
  }
  BlockCyclic C;
  C.tree = PostalTree::from_child_counts(ta.L(), counts, waits);
  const std::int64_t shift = ta.delay(host) + ta.L();
  proc_t next = 1;
  for (const Block& k : A.blocks) {
    if (k.node < 0) continue;
    C.blocks.push_back({index[static_cast<std::size_t>(k.node)], k.period, k.word, next});
    next += k.period;
  }
  if (ro != nullptr) C.blocks.push_back({index[static_cast<std::size_t>(host)], 1, {}, next++});
  for (const Block& k : B.blocks) {
    Block x = k;
    if (x.node >= 0) x.node = index[static_cast<std::size_t>(na + x.node)];
    for (auto& d : x.word) d += shift;
    if (tb.size() == 1) x = Block{-1, 1, {shift}, 0};  // B is one leaf: a receive-only processor
    x.first_proc = next;
    next += x.period;
    C.blocks.push_back(std::move(x));
  }
  if (ro == nullptr) {  // A was a single node served by its own period-1 block
    for (auto& k : C.blocks)
      if (k.node == 0) k.period = 1;
  }
  return C;
}

// A solution of depth <= maxdepth for N receivers, or nullopt:
//  1. N = f_t: the continuous broadcast;
//  2. A (+) B with A = S(u) (exact root, §3.3), f_u < N, and B a solution for
//     N - f_u of depth <= depth(A) + 1 - L, found recursively (for L = 1, A
//     is the binomial tree: its words a...a are exact with c0 = a);
//  3. the search on B(N).
std::optional<BlockCyclicCase> solve(proc_t N, std::int64_t L, std::int64_t maxdepth, std::string& how) {
  if (N == 1) {
    how = "one receiver";
    BlockCyclicCase c;
    c.tree = PostalTree::from_child_counts(L, {0});
    c.words = {{}};
    return c;
  }
  const std::int64_t t = broadcast_time(N, postal(L));
  if (t > maxdepth) return std::nullopt;
  if (*postal_fib(L, t) == N)
    if (auto c = continuous_broadcast(N + 1, L); c && c->solution.tree.depth() <= maxdepth) {
      how = "continuous broadcast: " + c->method;
      return detail::to_case(c->solution);
    }
  for (std::int64_t u = t; u >= 0; --u) {
    const std::int64_t f = *postal_fib(L, u);
    if (f >= N) continue;
    std::int64_t frame = u;
    std::shared_ptr<const BlockCyclicCase> A;
    if (L == 1) {
      auto c = std::make_shared<BlockCyclicCase>(detail::to_case(continuous_broadcast(f + 1, 1)->solution));
      c->c0 = 0;
      A = c;
    } else {
      A = detail::inductive_solution(L, u, &frame);
    }
    if (!A) {
      // Any continuous solution for f_u, its root word re-solved after (+).
      auto c = continuous_broadcast(f + 1, L);
      if (!c || c->solution.tree.depth() + 1 > maxdepth || c->solution.tree.wait(0) != 0) continue;
      std::string rest;
      if (auto B = solve(N - f, L, c->solution.tree.depth() + 1 - L, rest))
        if (auto C = detail::compose_any(detail::to_case(c->solution), *B, L)) {
          how = detail::format("[{}] (+) [{} receivers: {}], root word re-solved", c->method, N - f, rest);
          return C;
        }
      break;
    }
    if (frame + 1 > maxdepth) continue;
    std::string rest;
    if (auto B = solve(N - f, L, frame + 1 - L, rest)) {
      how = detail::format("S({}) (+) [{} receivers: {}]", u, N - f, rest);
      return detail::compose(*A, frame, *B, L);
    }
    break;  // smaller u cannot fit the rest (see kitem.hpp)
  }
  if (N <= kSearchLimit && t <= maxdepth)
    for (int rule = 0; rule < 3; ++rule)
      if (auto s = search_block_cyclic(bn_variant(N, L, rule), kSearchBudget)) {
        how = detail::format("search on B(N) (last label kept by rule {})", rule);
        return detail::to_case(*s);
      }
  if (L == 2 && N <= kSearchLimit && t + 1 <= maxdepth)
    for (const PostalTree& tree : detail::pruned_l2_trees(t, N))
      if (auto s = search_block_cyclic(tree, kSearchBudget)) {
        how = "search on T(t+1) pruned as in Theorem 3.5";
        return detail::to_case(*s);
      }
  for (std::int64_t d = t + 1; N <= kSearchLimit && d <= maxdepth; ++d)
    for (std::int64_t x = 1; x <= std::min<std::int64_t>(L, 3); ++x)
      for (std::int64_t y = 2; y <= d - L + 1; ++y)
        if (auto tree = trimmed_variant(N, L, d, x, y))
          if (auto s = search_block_cyclic(*tree, kSearchBudget)) {
            how = detail::format("search on T({}) trimmed by {} leaves at nodes with >= {} children", d, x, y);
            return detail::to_case(*s);
          }
  for (std::int64_t w = 1; N <= kSearchLimit && w < L + 2; ++w) {
    const PostalTree tree = slow_variant(N, L, w);
    if (tree.depth() > maxdepth) break;
    if (auto s = search_block_cyclic(tree, kSearchBudget)) {
      how = detail::format("search on B(N) for latency L+{}, sends delayed by {}", w, w);
      return detail::to_case(*s);
    }
  }
  return std::nullopt;
}

}  // namespace

KItemBounds kitem_bounds(proc_t P, std::int64_t L, std::int64_t k) {
  if (P < 2) throw Error(Errc::invalid_p, detail::format("k-item broadcast needs P >= 2, got {}", P));
  if (k < 1) throw Error(Errc::invalid_count, detail::format("k-item broadcast needs k >= 1, got {}", k));
  KItemBounds b;
  b.N = P - 1;
  b.B = broadcast_time(b.N, postal(L));
  if (b.N >= 2) {
    const std::int64_t n = b.B - 1;
    const auto f = postal_fib(L, n + L);  // 1 + f_0 + ... + f_n (Fact 2.1)
    if (!f) throw Error(Errc::invalid_count, "k*: f_{n+L} overflows");
    b.kstar = (*f - 1) / b.N;
  }
  b.single = b.B + L + k - 1;
  b.theorem37 = b.B + 2 * L + k - 2;
  b.lower = std::max({b.B + L + (k - 1) - b.kstar, broadcast_time(P, postal(L)), L + k - 1});
  return b;
}

BlockCyclic single_sending_solution(proc_t N, std::int64_t L, std::string* method) {
  if (N < 1) throw Error(Errc::invalid_p, detail::format("need N >= 1 receivers, got {}", N));
  const std::int64_t t = broadcast_time(N, postal(L));
  std::string how;
  for (std::int64_t depth = t; depth <= t + std::max<std::int64_t>(L - 1, 0); ++depth)
    if (auto c = solve(N, L, depth, how)) {
      if (method != nullptr) *method = how;
      return detail::to_block_cyclic(*c);
    }
  // Cascade: the largest f_u < N with a continuous solution (f_0 = 1 always
  // has one), then the rest.
  for (std::int64_t u = t; u >= 0; --u) {
    const std::int64_t f = *postal_fib(L, u);
    if (f >= N) continue;
    if (auto c = continuous_broadcast(f + 1, L)) {
      std::string rest;
      BlockCyclic b = single_sending_solution(N - f, L, &rest);
      if (method != nullptr) *method = detail::format("cascade: f_{} = {} receivers, then {} ({})", u, f, N - f, rest);
      return cascade(c->solution, b);
    }
  }
  throw Error(Errc::internal, detail::format("no single-sending schedule for N={} L={}", N, L));
}

KItemPlan kitem_single_sending(proc_t P, std::int64_t L, std::int64_t k) {
  KItemPlan plan;
  plan.bounds = kitem_bounds(P, L, k);
  plan.solution = single_sending_solution(P - 1, L, &plan.method);
  if (const std::string why = check(plan.solution); !why.empty())
    throw Error(Errc::internal, detail::format("k-item P={} L={}: {}", P, L, why));
  plan.schedule = block_cyclic_schedule(plan.solution, k);
  plan.schedule.name = detail::format("k-item broadcast P={} L={} k={} (single-sending)", P, L, k);
  plan.schedule.lower_bound = plan.bounds.lower;
  plan.completion = k - 1 + plan.solution.delay();
  return plan;
}

}  // namespace optcoll::logp
