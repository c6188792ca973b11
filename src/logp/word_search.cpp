// The search for block-cyclic words (Karp et al. 1993, §3.3, "a computer
// program"); see word_search.hpp.
#include "optcoll/logp/word_search.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <string>
#include <unordered_set>

#include "word_options.hpp"

namespace optcoll::logp {

using detail::Counts;
using detail::Letters;
using detail::mod;
using detail::Option;

bool word_valid(std::int64_t active, const std::vector<std::int64_t>& word) {
  const auto r = static_cast<std::int64_t>(word.size()) + 1;
  std::vector<char> seen(static_cast<std::size_t>(r), 0);
  for (std::int64_t j = 0; j < r; ++j) {
    const std::int64_t delta = j == 0 ? active : word[static_cast<std::size_t>(j - 1)];
    auto& s = seen[static_cast<std::size_t>(mod(j - delta, r))];
    if (s) return false;
    s = 1;
  }
  return true;
}

WordSolution solve_words(const WordProblem& pb) {
  WordSolution sol;
  Letters lt;
  for (std::int64_t d : pb.leaves) lt.index.emplace(pb.frame - d, 0);
  for (auto& [l, i] : lt.index) {
    i = lt.value.size();
    lt.value.push_back(l);
  }
  const std::size_t nl = lt.value.size();
  Counts rem(nl, 0);
  for (std::int64_t d : pb.leaves) ++rem[lt.index.at(pb.frame - d)];
  lt.cap = rem;
  std::vector<char> ro_ok(nl, pb.ro_allowed.empty() ? 1 : 0);
  for (std::int64_t d : pb.ro_allowed)
    if (lt.has(pb.frame - d)) ro_ok[lt.index.at(pb.frame - d)] = 1;

  // Order: the exact block, then by period descending; classes share options.
  const std::size_t nb = pb.blocks.size();
  std::vector<std::size_t> order(nb);
  std::iota(order.begin(), order.end(), 0);
  auto cls = [&](std::size_t b) {
    const auto& s = pb.blocks[b];
    const std::int64_t c = pb.frame - s.active;
    return std::tuple(static_cast<std::int64_t>(b) == pb.exact ? 0 : 1, -s.period,
                      static_cast<std::int64_t>(b) == pb.exact ? c : mod(c, s.period));
  };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return cls(a) < cls(b); });
  std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>, std::vector<Option>> cache;
  std::vector<const std::vector<Option>*> opt(nb);
  std::vector<char> same(nb, 0);
  for (std::size_t i = 0; i < nb; ++i) {
    const std::size_t b = order[i];
    const auto key = cls(b);
    auto it = cache.find(key);
    if (it == cache.end()) {
      const auto& s = pb.blocks[b];
      const bool ex = static_cast<std::int64_t>(b) == pb.exact;
      it = cache.emplace(key, detail::word_options(s.period, pb.frame - s.active, lt, ex, pb.exact_c0)).first;
    }
    opt[i] = &it->second;
    same[i] = i > 0 && cls(order[i - 1]) == key && static_cast<std::int64_t>(b) != pb.exact;
  }

  std::vector<std::size_t> pick(nb, 0);
  std::unordered_set<std::string> failed;
  auto key_of = [&](std::size_t i, std::size_t prev) {
    std::string k(reinterpret_cast<const char*>(&i), sizeof i);
    if (same[i]) k.append(reinterpret_cast<const char*>(&prev), sizeof prev);
    k.append(reinterpret_cast<const char*>(rem.data()), rem.size() * sizeof(std::int32_t));
    return k;
  };
  auto dfs = [&](auto& self, std::size_t i, std::size_t prev) -> bool {
    if (++sol.nodes > pb.budget) {
      sol.exhausted = true;
      return false;
    }
    if (i == nb) {
      std::int64_t left = 0;
      for (std::size_t k = 0; k < nl; ++k) {
        if (rem[k] > 0 && !ro_ok[k]) return false;
        left += rem[k];
      }
      return left == pb.receive_only;
    }
    const std::string key = key_of(i, prev);
    if (failed.count(key)) return false;
    const auto& o = *opt[i];
    for (std::size_t x = same[i] ? prev : 0; x < o.size(); ++x) {
      bool fits = true;
      for (std::size_t k = 0; k < nl && fits; ++k) fits = o[x].counts[k] <= rem[k];
      if (!fits) continue;
      for (std::size_t k = 0; k < nl; ++k) rem[k] -= o[x].counts[k];
      pick[i] = x;
      const bool ok = self(self, i + 1, x);
      for (std::size_t k = 0; k < nl; ++k) rem[k] += o[x].counts[k];
      if (ok) return true;
      if (sol.exhausted) return false;
    }
    failed.insert(key);
    return false;
  };
  if (!dfs(dfs, 0, 0)) return sol;

  sol.found = true;
  sol.words.assign(nb, {});
  for (std::size_t i = 0; i < nb; ++i) {
    const std::size_t b = order[i];
    const Option& o = (*opt[i])[pick[i]];
    const std::int64_t c = pb.frame - pb.blocks[b].active;
    const std::vector<std::int64_t> word = detail::word_of(o, pb.blocks[b].period, c, lt);
    for (std::int64_t l : word) sol.words[b].push_back(pb.frame - l);
    for (std::size_t k = 0; k < nl; ++k) rem[k] -= o.counts[k];
    if (static_cast<std::int64_t>(b) == pb.exact) sol.c0 = detail::exact_start(c, word);
  }
  for (std::size_t k = 0; k < nl; ++k)
    for (std::int32_t n = 0; n < rem[k]; ++n) sol.receive_only.push_back(pb.frame - lt.value[k]);
  return sol;
}

}  // namespace optcoll::logp
