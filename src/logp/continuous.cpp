// Continuous broadcast: base cases by search, the induction of §3.3, L = 1
// and L = 2 (Karp et al. 1993, Theorems 3.3, 3.5).
#include "optcoll/logp/continuous.hpp"

#include <algorithm>
#include <map>
#include <mutex>

#include "compose.hpp"
#include "optcoll/error.hpp"
#include "optcoll/logp/fibonacci.hpp"
#include "optcoll/logp/word_search.hpp"
#include "text.hpp"

namespace optcoll::logp {
namespace {

using detail::to_block_cyclic;

constexpr std::int64_t kBaseBudget = std::int64_t{1} << 21;
constexpr std::int64_t kMaxL = 16;

bool internal(const PostalTree& t, proc_t v) {
  return v == 0 || t.children(v) > 0;
}

// The word problem of a tree: one block per internal node (root first).
WordProblem problem_of(const PostalTree& t, std::int64_t frame, std::vector<proc_t>& nodes) {
  WordProblem pb;
  pb.frame = frame;
  std::int64_t periods = 0;
  for (proc_t v = 0; v < t.size(); ++v) {
    if (internal(t, v)) {
      nodes.push_back(v);
      const std::int64_t r = std::max<proc_t>(1, t.children(v));
      pb.blocks.push_back({r, t.delay(v)});
      periods += r;
    } else {
      pb.leaves.push_back(t.delay(v));
    }
  }
  pb.receive_only = t.size() - periods;
  return pb;
}

std::optional<BlockCyclicCase> solve_case(const PostalTree& tree, std::int64_t t, std::int64_t frame, std::int64_t c0,
                                          std::int64_t budget, bool& exhausted, std::int64_t& nodes_used) {
  std::vector<proc_t> nodes;
  WordProblem pb = problem_of(tree, frame, nodes);
  if (c0 >= 0) {
    pb.exact = 0;
    pb.exact_c0 = c0;
    pb.ro_allowed = {frame - c0};
  }
  pb.budget = budget;
  const WordSolution ws = solve_words(pb);
  exhausted = ws.exhausted;
  nodes_used += ws.nodes;
  if (!ws.found) return std::nullopt;
  BlockCyclicCase c;
  c.t = t;
  c.tree = tree;
  c.words.assign(static_cast<std::size_t>(tree.size()), {});
  for (std::size_t i = 0; i < nodes.size(); ++i) c.words[static_cast<std::size_t>(nodes[i])] = ws.words[i];
  c.receive_only = ws.receive_only;
  c.c0 = ws.c0;
  return c;
}

// T(t+1) for L = 2 with both last leaves removed from nodes with >= 4
// children, the last one from nodes with 2, both from the first `a` nodes
// with 3 children and the only one from the first `b` nodes with 1; nullopt
// unless exactly f_t nodes remain.
std::optional<PostalTree> pruned_l2(std::int64_t t, std::int64_t a, std::int64_t b, std::int64_t target) {
  const PostalTree full = PostalTree::full(2, t + 1);
  std::vector<proc_t> keep(static_cast<std::size_t>(full.size()));
  std::int64_t seen3 = 0, seen1 = 0;
  for (proc_t v = 0; v < full.size(); ++v) {
    const proc_t c = full.children(v);
    proc_t drop = c >= 4 ? 2 : c == 2 ? 1 : 0;
    if (c == 3 && seen3++ < a) drop = 2;
    if (c == 1 && seen1++ < b) drop = 1;
    keep[static_cast<std::size_t>(v)] = c - drop;
  }
  // Rebuild in BFS order, skipping removed (last) children and their subtrees.
  std::vector<proc_t> counts;
  std::vector<proc_t> queue{0};
  for (std::size_t i = 0; i < queue.size(); ++i) {
    const proc_t v = queue[i];
    counts.push_back(keep[static_cast<std::size_t>(v)]);
    for (proc_t k = 0; k < keep[static_cast<std::size_t>(v)]; ++k) queue.push_back(full.first_child(v) + k);
  }
  if (static_cast<std::int64_t>(counts.size()) != target) return std::nullopt;
  return PostalTree::from_child_counts(2, counts);
}

}  // namespace

std::vector<PostalTree> detail::pruned_l2_trees(std::int64_t t, proc_t N) {
  std::vector<PostalTree> out;
  const PostalTree full = PostalTree::full(2, t + 1);
  std::int64_t n3 = 0, n1 = 0;
  for (proc_t v = 0; v < full.size(); ++v) n3 += full.children(v) == 3, n1 += full.children(v) == 1;
  for (std::int64_t a = 0; a <= n3; ++a)
    for (std::int64_t b = 0; b <= n1; ++b)
      if (auto tr = pruned_l2(t, a, b, N)) out.push_back(std::move(*tr));
  return out;
}

namespace {

// Candidate base trees of I(t) and their letter frame.
std::vector<std::pair<PostalTree, std::int64_t>> base_trees(std::int64_t L, std::int64_t t) {
  std::vector<std::pair<PostalTree, std::int64_t>> out;
  if (L >= 3) {
    out.emplace_back(PostalTree::full(L, t), t);
    return out;
  }
  for (auto& tr : detail::pruned_l2_trees(t, *postal_fib(2, t))) out.emplace_back(std::move(tr), t + 1);
  return out;
}

BaseCases find_base_cases(std::int64_t L) {
  BaseCases bc;
  bc.L = L;
  const std::int64_t first = L == 2 ? 3 : L;
  const std::int64_t c0 = L == 2 ? 2 : 1;
  std::vector<BlockCyclicCase> run;
  for (std::int64_t t = first; t <= first + 8 * L + 8 && static_cast<std::int64_t>(run.size()) < L; ++t) {
    std::optional<BlockCyclicCase> found;
    bool any_unknown = false;
    for (const auto& [tree, frame] : base_trees(L, t)) {
      bool exhausted = false;
      found = solve_case(tree, t, frame, c0, kBaseBudget, exhausted, bc.search_nodes);
      any_unknown |= exhausted;
      if (found) break;
    }
    if (found) {
      run.push_back(std::move(*found));
    } else {
      for (auto& c : run) bc.below.push_back(std::move(c));
      run.clear();
      (any_unknown ? bc.unknown : bc.not_found).push_back(t);
    }
  }
  if (static_cast<std::int64_t>(run.size()) == L) {
    bc.t0 = run.front().t;
    bc.c0 = c0;
    bc.cases = std::move(run);
  }
  return bc;
}

}  // namespace

const BaseCases& base_cases(std::int64_t L) {
  if (L < 2 || L > kMaxL)
    throw Error(Errc::invalid_count, detail::format("base cases need 2 <= L <= {}, got {}", kMaxL, L));
  static std::mutex mu;
  static std::map<std::int64_t, BaseCases> cache;
  const std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(L);
  if (it == cache.end()) it = cache.emplace(L, find_base_cases(L)).first;
  return it->second;
}

std::optional<BlockCyclic> search_block_cyclic(const PostalTree& tree, std::int64_t budget) {
  bool exhausted = false;
  std::int64_t nodes = 0;
  auto c = solve_case(tree, 0, tree.depth(), -1, budget, exhausted, nodes);
  if (!c) return std::nullopt;
  return to_block_cyclic(*c);
}

std::optional<ContinuousPlan> continuous_broadcast(proc_t P, std::int64_t L) {
  if (P < 2) throw Error(Errc::invalid_p, detail::format("continuous broadcast needs P >= 2, got {}", P));
  if (L < 1) throw Error(Errc::invalid_count, detail::format("postal latency L = {} must be >= 1", L));
  const proc_t N = P - 1;
  const std::int64_t t = broadcast_time(N, postal(L));
  if (*postal_fib(L, t) != N) return std::nullopt;
  ContinuousPlan plan;
  plan.P = P;
  plan.L = L;
  plan.optimal_delay = L + t;
  if (L == 1) {
    // Binomial T(t): every leaf at delay t, every word t t ... t.
    PostalTree tree = PostalTree::full(1, t);
    std::vector<std::vector<std::int64_t>> words(static_cast<std::size_t>(tree.size()));
    for (proc_t v = 0; v < tree.size(); ++v)
      if (tree.children(v) > 1)
        words[static_cast<std::size_t>(v)].assign(static_cast<std::size_t>(tree.children(v) - 1), t);
    plan.solution =
        assemble(std::move(tree), words, t == 0 ? std::vector<std::int64_t>{} : std::vector<std::int64_t>{t});
    plan.method = "binomial, all letters a";
  } else {
    if (L > kMaxL) return std::nullopt;
    const BaseCases& bc = base_cases(L);
    if (bc.t0 >= 0 && t >= bc.t0) {
      plan.solution = to_block_cyclic(*detail::inductive_solution(L, t, nullptr));
      plan.method = detail::format("induction from base cases t = {}..{} (search)", bc.t0, bc.t0 + L - 1);
    } else {
      std::optional<BlockCyclic> direct;
      direct = search_block_cyclic(PostalTree::full(L, t), kBaseBudget);  // optimal, if any
      for (const auto& [tree, frame] : L == 2 ? base_trees(2, t) : std::vector<std::pair<PostalTree, std::int64_t>>{}) {
        if (direct) break;
        direct = search_block_cyclic(tree, kBaseBudget);
      }
      if (!direct) return std::nullopt;
      plan.solution = std::move(*direct);
      plan.method = "search on this instance";
    }
  }
  plan.delay = plan.solution.delay();
  if (const std::string why = check(plan.solution); !why.empty())
    throw Error(Errc::internal, detail::format("continuous P={} L={}: {}", P, L, why));
  return plan;
}

BlockCyclic figure2_assignment(bool alternate) {
  // T(7), L = 3: node 0 (delay 0, children at 3..7), node 1 (3: children at 6, 7),
  // node 2 (4: child at 7); leaves 5, 6, 6, 7, 7, 7. Letters a = 7, b = 6, c = 5.
  PostalTree tree = PostalTree::full(3, 7);
  std::vector<std::vector<std::int64_t>> words(static_cast<std::size_t>(tree.size()));
  words[0] = {7, 5, 7, 6};  // H5: a c a b
  words[1] = {7};           // E2: a
  if (alternate) {
    words[2] = {6};  // D1 and the receive-only processor alternate: D then b
    return assemble(std::move(tree), words, {}, {0, 0, 2});
  }
  return assemble(std::move(tree), words, {6});  // D1: empty; receive-only: b
}

}  // namespace optcoll::logp
