// Composition of block-cyclic solutions and the inductive family S(u)
// (Karp et al. 1993, §3.3).
#include "compose.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <string>

#include "optcoll/error.hpp"

namespace optcoll::logp::detail {
namespace {

std::vector<std::int64_t> levels(const PostalTree& t) {
  std::vector<std::int64_t> lv(static_cast<std::size_t>(t.size()), 0);
  for (proc_t v = 1; v < t.size(); ++v) lv[static_cast<std::size_t>(v)] = lv[static_cast<std::size_t>(t.parent(v))] + 1;
  return lv;
}

}  // namespace

BlockCyclicCase compose(const BlockCyclicCase& A, std::int64_t frameA, const BlockCyclicCase& B, std::int64_t L) {
  // BFS of the result: the root, then level d = B's level d-1, A's level d.
  const auto la = levels(A.tree), lb = levels(B.tree);
  const std::int64_t depth =
      std::max(*std::max_element(la.begin(), la.end()), *std::max_element(lb.begin(), lb.end()) + 1);
  std::vector<std::vector<proc_t>> byA(static_cast<std::size_t>(depth) + 2), byB(static_cast<std::size_t>(depth) + 2);
  for (proc_t v = 0; v < A.tree.size(); ++v)
    byA[static_cast<std::size_t>(la[static_cast<std::size_t>(v)])].push_back(v);
  for (proc_t v = 0; v < B.tree.size(); ++v)
    byB[static_cast<std::size_t>(lb[static_cast<std::size_t>(v)])].push_back(v);
  std::vector<std::pair<int, proc_t>> order{{0, 0}};  // (0: A / 1: B, node)
  for (std::int64_t d = 1; d <= depth; ++d) {
    for (proc_t v : byB[static_cast<std::size_t>(d - 1)]) order.emplace_back(1, v);
    for (proc_t v : byA[static_cast<std::size_t>(d)]) order.emplace_back(0, v);
  }
  BlockCyclicCase C;
  C.t = A.t + 1;
  C.c0 = A.c0;
  if (A.tree.wait(0) != 0) throw Error(Errc::internal, "compose: A's root must not wait");
  std::vector<proc_t> counts;
  std::vector<std::int64_t> waits;
  C.words.reserve(order.size());
  for (const auto& [which, v] : order) {
    const BlockCyclicCase& X = which == 0 ? A : B;
    const std::int64_t shift = which == 0 ? 1 : L;
    counts.push_back(X.tree.children(v) + (which == 0 && v == 0 ? 1 : 0));
    waits.push_back(X.tree.wait(v));
    std::vector<std::int64_t> w = X.words[static_cast<std::size_t>(v)];
    for (auto& d : w) d += shift;
    C.words.push_back(std::move(w));
  }
  C.words[0].push_back(frameA + 1 - A.c0);  // A's receive-only letter, one step later
  C.receive_only = B.receive_only;
  for (auto& d : C.receive_only) d += L;
  if (B.tree.size() == 1) C.receive_only.push_back(L);  // B's root is a leaf now
  C.tree = PostalTree::from_child_counts(L, counts, waits);
  return C;
}

std::optional<BlockCyclicCase> compose_any(const BlockCyclicCase& A, const BlockCyclicCase& B, std::int64_t L) {
  if (A.tree.wait(0) != 0 || A.receive_only.size() != 1 || B.receive_only.size() + (B.tree.size() == 1) != 1)
    return std::nullopt;
  BlockCyclicCase base = A;
  base.c0 = 0;
  // compose() appends frameA + 1 - c0; pass A's receive-only delay so that the
  // appended letter is that one, one step later.
  BlockCyclicCase C = compose(base, A.receive_only[0], B, L);
  // Pool: the root's r letters (old ones and A's receive-only) and B's.
  std::vector<std::int64_t> pool = C.words[0];
  pool.push_back(C.receive_only[0]);
  std::sort(pool.begin(), pool.end());
  const auto R = static_cast<std::int64_t>(C.words[0].size()) + 1;  // the root's period
  for (std::size_t out = 0; out < pool.size(); ++out) {
    if (out > 0 && pool[out] == pool[out - 1]) continue;
    std::map<std::int64_t, std::int64_t> left;
    for (std::size_t i = 0; i < pool.size(); ++i)
      if (i != out) ++left[pool[i]];
    std::vector<char> used(static_cast<std::size_t>(R), 0);
    used[0] = 1;  // position 0: the root's own reception, delay 0
    std::vector<std::int64_t> word;
    std::set<std::string> dead;
    auto rec = [&](auto& self, std::int64_t j) -> bool {
      if (j == R) return true;
      std::string key(used.begin(), used.end());
      for (const auto& [d, n] : left) key += std::to_string(n) + ",";
      if (dead.count(key)) return false;
      for (auto& [d, n] : left) {
        if (n == 0) continue;
        const std::int64_t res = ((j - d) % R + R) % R;
        if (used[static_cast<std::size_t>(res)]) continue;
        used[static_cast<std::size_t>(res)] = 1;
        --n;
        word.push_back(d);
        if (self(self, j + 1)) return true;
        word.pop_back();
        ++n;
        used[static_cast<std::size_t>(res)] = 0;
      }
      dead.insert(key);
      return false;
    };
    if (rec(rec, 1)) {
      C.words[0] = word;
      C.receive_only = {pool[out]};
      return C;
    }
  }
  return std::nullopt;
}

BlockCyclic to_block_cyclic(const BlockCyclicCase& c) {
  return assemble(c.tree, c.words, c.receive_only);
}

BlockCyclicCase to_case(const BlockCyclic& b) {
  BlockCyclicCase c;
  c.tree = b.tree;
  c.words.assign(static_cast<std::size_t>(b.tree.size()), {});
  for (const Block& k : b.blocks) {
    if (k.node < 0) {
      c.receive_only.insert(c.receive_only.end(), k.word.begin(), k.word.end());
      continue;
    }
    if (k.period != std::max<proc_t>(1, b.tree.children(k.node)))
      throw Error(Errc::internal, "to_case: a block's period differs from its node's children");
    c.words[static_cast<std::size_t>(k.node)] = k.word;
  }
  return c;
}

std::shared_ptr<const BlockCyclicCase> inductive_solution(std::int64_t L, std::int64_t u, std::int64_t* frame) {
  const BaseCases& bc = base_cases(L);
  const std::int64_t extra = L == 2 ? 1 : 0;
  if (frame != nullptr) *frame = u + extra;
  if (bc.t0 < 0 || u < bc.t0) {
    for (const auto& c : bc.below)
      if (c.t == u) return std::make_shared<const BlockCyclicCase>(c);
    return nullptr;
  }
  // S(t0) .. S(u) are built from S(u-1) and S(u-L). Instances up to 2^20
  // processors are cached per L; larger ones are rebuilt from the cached
  // tail, keeping only the last L.
  constexpr proc_t kCacheLimit = proc_t{1} << 20;
  static std::mutex mu;
  static std::map<std::int64_t, std::vector<std::shared_ptr<const BlockCyclicCase>>> cache;
  std::vector<std::shared_ptr<const BlockCyclicCase>> window;
  std::int64_t w = 0;  // the instance after the window's last
  {
    const std::lock_guard<std::mutex> lock(mu);
    auto& v = cache[L];
    if (v.empty())
      for (const auto& c : bc.cases) v.push_back(std::make_shared<const BlockCyclicCase>(c));
    while (static_cast<std::int64_t>(v.size()) <= u - bc.t0 && v.back()->tree.size() < kCacheLimit) {
      const std::int64_t x = bc.t0 + static_cast<std::int64_t>(v.size());
      const auto& A = *v[static_cast<std::size_t>(x - 1 - bc.t0)];
      const auto& B = *v[static_cast<std::size_t>(x - L - bc.t0)];
      v.push_back(std::make_shared<const BlockCyclicCase>(compose(A, x - 1 + extra, B, L)));
    }
    if (u - bc.t0 < static_cast<std::int64_t>(v.size())) return v[static_cast<std::size_t>(u - bc.t0)];
    window.assign(v.end() - L, v.end());
    w = bc.t0 + static_cast<std::int64_t>(v.size());
  }
  for (; w <= u; ++w) {
    auto next = std::make_shared<const BlockCyclicCase>(compose(*window.back(), w - 1 + extra, *window.front(), L));
    window.erase(window.begin());
    window.push_back(std::move(next));
  }
  return window.back();
}

}  // namespace optcoll::logp::detail
