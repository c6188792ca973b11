// Block-cyclic continuous broadcast: trees, the invariants, the schedule
// (Karp et al. 1993, §3.2).
#include "optcoll/logp/block_cyclic.hpp"

#include <algorithm>
#include <map>

#include "optcoll/error.hpp"
#include "text.hpp"

namespace optcoll::logp {
namespace {

constexpr proc_t kMaxTree = proc_t{1} << 27;

std::int64_t mod(std::int64_t a, std::int64_t r) noexcept {
  const std::int64_t m = a % r;
  return m < 0 ? m + r : m;
}

}  // namespace

PostalTree PostalTree::full(std::int64_t L, std::int64_t t) {
  if (L < 1 || t < 0) throw Error(Errc::invalid_count, detail::format("T(t) needs L >= 1, t >= 0 (L={}, t={})", L, t));
  std::vector<proc_t> counts;
  std::vector<std::int64_t> delays{0};
  for (std::size_t v = 0; v < delays.size(); ++v) {
    const std::int64_t c = std::max<std::int64_t>(0, t - delays[v] - L + 1);
    counts.push_back(c);
    for (std::int64_t k = 0; k < c; ++k) delays.push_back(delays[v] + L + k);
    if (static_cast<proc_t>(delays.size()) > kMaxTree)
      throw Error(Errc::invalid_count, detail::format("T({}) for L={} is too large", t, L));
  }
  return from_child_counts(L, counts);
}

PostalTree PostalTree::from_child_counts(std::int64_t L, const std::vector<proc_t>& children,
                                         const std::vector<std::int64_t>& wait) {
  PostalTree tr;
  tr.L_ = L;
  const auto n = children.size();
  if (!wait.empty() && wait.size() != n) throw Error(Errc::invalid_count, "postal tree: one wait per node");
  if (std::any_of(wait.begin(), wait.end(), [](std::int64_t w) { return w != 0; })) tr.wait_ = wait;
  tr.delay_.assign(n, 0);
  tr.parent_.assign(n, -1);
  tr.first_.assign(n + 1, 0);
  proc_t next = 1;
  for (std::size_t v = 0; v < n; ++v) {
    tr.first_[v] = next;
    for (proc_t k = 0; k < children[v]; ++k, ++next) {
      if (static_cast<std::size_t>(next) >= n)
        throw Error(Errc::invalid_count, "postal tree: child counts name more nodes than given");
      tr.delay_[static_cast<std::size_t>(next)] = tr.delay_[v] + tr.wait(static_cast<proc_t>(v)) + L + k;
      tr.parent_[static_cast<std::size_t>(next)] = static_cast<proc_t>(v);
    }
  }
  tr.first_[n] = next;
  if (static_cast<std::size_t>(next) != n)
    throw Error(Errc::invalid_count, "postal tree: child counts leave nodes unreached");
  tr.depth_ = n == 0 ? 0 : *std::max_element(tr.delay_.begin(), tr.delay_.end());
  return tr;
}

std::vector<proc_t> PostalTree::child_counts() const {
  std::vector<proc_t> c(delay_.size());
  for (std::size_t v = 0; v < c.size(); ++v) c[v] = first_[v + 1] - first_[v];
  return c;
}

std::string check(const BlockCyclic& b) {
  const PostalTree& t = b.tree;
  const proc_t N = t.size();
  std::vector<int> served(static_cast<std::size_t>(N), 0);
  std::vector<std::pair<proc_t, std::int64_t>> ranges;
  std::map<std::int64_t, std::int64_t> letters;  // delay -> (words) - (leaves)
  for (const Block& k : b.blocks) {
    const std::int64_t r = k.period;
    if (r < 1) return "a block has period < 1";
    ranges.emplace_back(k.first_proc, r);
    const bool ro = k.node < 0;
    if (!ro) {
      if (k.node >= N) return detail::format("block of node {} outside the tree", k.node);
      if (++served[static_cast<std::size_t>(k.node)] > 1) return detail::format("node {} has two blocks", k.node);
      if (r < t.children(k.node))
        return detail::format("node {} has {} children but period {}", k.node, t.children(k.node), r);
    }
    if (static_cast<std::int64_t>(k.word.size()) != (ro ? r : r - 1))
      return detail::format("block of node {}: word of length {} for period {}", k.node, k.word.size(), r);
    // (a) the residues (j - delta_j) mod r are distinct.
    std::vector<char> seen(static_cast<std::size_t>(r), 0);
    for (std::int64_t j = 0; j < r; ++j) {
      const std::int64_t delta = ro ? k.word[static_cast<std::size_t>(j)]
                                    : (j == 0 ? t.delay(k.node) : k.word[static_cast<std::size_t>(j - 1)]);
      auto& s = seen[static_cast<std::size_t>(mod(j - delta, r))];
      if (s) return detail::format("block of node {}: position {} repeats a residue (an item twice)", k.node, j);
      s = 1;
    }
    for (std::size_t j = 0; j < k.word.size(); ++j) ++letters[k.word[j]];
  }
  for (proc_t v = 0; v < N; ++v) {
    const bool internal = v == 0 || t.children(v) > 0;
    if (internal && served[static_cast<std::size_t>(v)] == 0) return detail::format("internal node {} has no block", v);
    if (!internal) --letters[t.delay(v)];
  }
  // (b) words use exactly the leaves.
  for (const auto& [d, c] : letters)
    if (c != 0) return detail::format("leaf delay {}: words use {} more than the tree has", d, c);
  // (c) blocks partition 1..N.
  std::sort(ranges.begin(), ranges.end());
  proc_t next = 1;
  for (const auto& [f, r] : ranges) {
    if (f != next) return detail::format("processors: block at {} but {} expected", f, next);
    next += r;
  }
  if (next != N + 1) return detail::format("blocks cover {} processors, the tree has {}", next - 1, N);
  return {};
}

BlockCyclic assemble(PostalTree tree, const std::vector<std::vector<std::int64_t>>& words,
                     const std::vector<std::int64_t>& receive_only, const std::vector<std::int64_t>& period) {
  BlockCyclic b;
  proc_t next = 1;
  for (proc_t v = 0; v < tree.size(); ++v) {
    if (v != 0 && tree.children(v) == 0) continue;
    Block k;
    k.node = v;
    k.period = std::max<std::int64_t>(1, tree.children(v));
    if (static_cast<std::size_t>(v) < period.size() && period[static_cast<std::size_t>(v)] > 0)
      k.period = period[static_cast<std::size_t>(v)];
    k.word = words[static_cast<std::size_t>(v)];
    k.first_proc = next;
    next += k.period;
    b.blocks.push_back(std::move(k));
  }
  for (std::int64_t d : receive_only) {
    b.blocks.push_back({-1, 1, {d}, next});
    ++next;
  }
  b.tree = std::move(tree);
  return b;
}

Schedule block_cyclic_schedule(const BlockCyclic& b, std::int64_t items) {
  if (const std::string why = check(b); !why.empty())
    throw Error(Errc::internal, "block-cyclic schedule from an invalid assignment: " + why);
  const PostalTree& t = b.tree;
  const proc_t N = t.size();
  const std::int64_t L = t.L();
  if (items < 0 || (items > 0 && N > (std::int64_t{1} << 28) / items))
    throw Error(Errc::invalid_count, detail::format("{} items over {} processors: too many messages", items, N));
  // Block of each internal node; for each leaf, the word slot it is matched
  // with (the n-th leaf of delay d in BFS order <-> the n-th slot of delay d).
  std::vector<const Block*> block_of(static_cast<std::size_t>(N), nullptr);
  std::map<std::int64_t, std::vector<std::pair<const Block*, std::int64_t>>> slots;  // delay -> (block, j)
  for (const Block& k : b.blocks) {
    if (k.node >= 0) block_of[static_cast<std::size_t>(k.node)] = &k;
    for (std::size_t j = 0; j < k.word.size(); ++j)
      slots[k.word[j]].emplace_back(&k, k.node >= 0 ? static_cast<std::int64_t>(j) + 1 : static_cast<std::int64_t>(j));
  }
  std::vector<std::pair<const Block*, std::int64_t>> slot_of(static_cast<std::size_t>(N), {nullptr, 0});
  std::map<std::int64_t, std::size_t> used;
  for (proc_t v = 1; v < N; ++v)
    if (t.children(v) == 0) slot_of[static_cast<std::size_t>(v)] = slots[t.delay(v)][used[t.delay(v)]++];
  auto member = [](const Block& k, std::int64_t s, std::int64_t tau, std::int64_t j) {
    return k.first_proc + mod(tau - s - j, k.period);
  };
  Schedule s;
  s.params = postal(L);
  s.P = N + 1;
  s.items = items;
  s.targets.resize(static_cast<std::size_t>(N));
  for (proc_t q = 0; q < N; ++q) s.targets[static_cast<std::size_t>(q)] = q + 1;
  s.messages.reserve(static_cast<std::size_t>(items * N));
  for (std::int64_t i = 0; i < items; ++i) {
    s.origins.push_back({0, i, i, 1});
    auto active = [&](proc_t v) {
      const Block& k = *block_of[static_cast<std::size_t>(v)];
      return k.first_proc + i % k.period;
    };
    s.messages.push_back({i, 0, active(0), i, 1});
    for (proc_t v = 0; v < N; ++v) {
      if (t.children(v) == 0) continue;
      const proc_t from = active(v);
      for (proc_t c = t.first_child(v); c < t.first_child(v) + t.children(v); ++c) {
        proc_t to = 0;
        if (t.children(c) > 0) {
          to = active(c);
        } else {
          const auto& [k, j] = slot_of[static_cast<std::size_t>(c)];
          const std::int64_t sk = k->node >= 0 ? t.delay(k->node) : 0;
          to = member(*k, sk, i + t.delay(c), j);
        }
        s.messages.push_back({i + L + t.delay(v) + t.send_offset(v, c - t.first_child(v)), from, to, i, 1});
      }
    }
  }
  s.promised_completion = items == 0 ? -1 : items - 1 + L + t.depth();
  return s;
}

}  // namespace optcoll::logp
