// Candidate words for one block of the block-cyclic search (Karp et al.
// 1993, §3.2, Lemma 3.1); see word_options.hpp.
#include "word_options.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace optcoll::logp::detail {
namespace {

constexpr std::int64_t kExhaustive = 12;  // periods up to this get every word
constexpr std::size_t kMaxOptions = 200000;

// Residue validity of a letter word for active value c = D - s.
bool valid_letters(std::int64_t c, const std::vector<std::int64_t>& word) {
  const auto r = static_cast<std::int64_t>(word.size()) + 1;
  std::vector<char> seen(static_cast<std::size_t>(r), 0);
  seen[static_cast<std::size_t>(mod(c, r))] = 1;
  for (std::int64_t j = 1; j < r; ++j) {
    auto& s = seen[static_cast<std::size_t>(mod(j + word[static_cast<std::size_t>(j - 1)], r))];
    if (s) return false;
    s = 1;
  }
  return true;
}

// Values {c - r} U {j + l_j} form an integer interval; returns its minimum c0 or -1.
std::int64_t exact_c0(std::int64_t c, const std::vector<std::int64_t>& word) {
  const auto r = static_cast<std::int64_t>(word.size()) + 1;
  std::vector<std::int64_t> v{c - r};
  for (std::int64_t j = 1; j < r; ++j) v.push_back(j + word[static_cast<std::size_t>(j - 1)]);
  std::sort(v.begin(), v.end());
  for (std::size_t i = 1; i < v.size(); ++i)
    if (v[i] != v[i - 1] + 1) return -1;
  return v.front();
}

void add_option(std::map<Counts, Option>& out, const Letters& lt, std::vector<std::int64_t> word) {
  Counts c(lt.value.size(), 0);
  for (std::int64_t l : word) {
    const auto it = lt.index.find(l);
    if (it == lt.index.end() || ++c[it->second] > lt.cap[it->second]) return;
  }
  if (out.size() < kMaxOptions) out.emplace(std::move(c), Option{{}, std::move(word)});
}

// Letter counts of one word packed 4 bits per letter (r - 1 <= 15, at most
// 16 letters): the enumeration below works on these.
using Packed = std::uint64_t;
constexpr std::size_t kPackedLetters = 16;

// A block's words by depth-first search over positions 1..r-1: letter l at
// position p takes the value slot(p, l) (a bit index, or -1: not allowed);
// alive(p, mask) may reject a state before position p is filled;
// complete(mask) accepts the final mask.
template <class Slot, class Alive, class Complete>
struct Enumerator {
  std::int64_t r;
  const Letters& lt;
  Slot slot;
  Alive alive;
  Complete complete;

  // Every achievable count vector (packed), memoized on (position, mask).
  std::vector<Packed> counts(std::uint64_t start) {
    std::unordered_map<std::uint64_t, std::vector<Packed>> memo;
    auto rec = [&](auto& self, std::int64_t p, std::uint64_t mask) -> const std::vector<Packed>& {
      const std::uint64_t key = (static_cast<std::uint64_t>(p) << 48) ^ mask;
      if (auto it = memo.find(key); it != memo.end()) return it->second;
      std::vector<Packed> res;
      if (p == r) {
        if (complete(mask)) res.push_back(0);
      } else if (alive(p, mask)) {
        for (std::size_t k = 0; k < lt.value.size(); ++k) {
          const std::int64_t v = slot(p, lt.value[k]);
          if (v < 0 || ((mask >> v) & 1U)) continue;
          const Packed unit = Packed{1} << (4 * k);
          for (Packed x : self(self, p + 1, mask | (std::uint64_t{1} << v)))
            if (static_cast<std::int32_t>((x >> (4 * k)) & 15U) < lt.cap[k]) res.push_back(x + unit);
        }
        std::sort(res.begin(), res.end());
        res.erase(std::unique(res.begin(), res.end()), res.end());
      }
      return memo.emplace(key, std::move(res)).first->second;
    };
    return rec(rec, 1, start);
  }

  // One word with exactly the packed counts `want`.
  std::vector<std::int64_t> word(std::uint64_t start, Packed want) {
    std::vector<std::int64_t> w;
    std::unordered_set<std::string> dead;
    auto rec = [&](auto& self, std::int64_t p, std::uint64_t mask, Packed left) -> bool {
      if (p == r) return left == 0 && complete(mask);
      if (!alive(p, mask)) return false;
      std::string key(reinterpret_cast<const char*>(&p), sizeof p);
      key.append(reinterpret_cast<const char*>(&mask), sizeof mask)
          .append(reinterpret_cast<const char*>(&left), sizeof left);
      if (dead.count(key)) return false;
      for (std::size_t k = 0; k < lt.value.size(); ++k) {
        if (((left >> (4 * k)) & 15U) == 0) continue;
        const std::int64_t v = slot(p, lt.value[k]);
        if (v < 0 || ((mask >> v) & 1U)) continue;
        w.push_back(lt.value[k]);
        if (self(self, p + 1, mask | (std::uint64_t{1} << v), left - (Packed{1} << (4 * k)))) return true;
        w.pop_back();
      }
      dead.insert(key);
      return false;
    };
    rec(rec, 1, start, want);
    return w;
  }
};

Packed pack(const Counts& c) {
  Packed x = 0;
  for (std::size_t k = 0; k < c.size(); ++k) x |= static_cast<Packed>(c[k]) << (4 * k);
  return x;
}

// Adds every count vector (words are rebuilt only for the options a solution uses).
template <class E>
void enumerate(E e, std::uint64_t start, std::int64_t c0, std::map<Counts, Option>& out) {
  if (e.lt.value.size() > kPackedLetters) return;
  for (Packed x : e.counts(start)) {
    if (out.size() >= kMaxOptions) break;
    Counts c(e.lt.value.size(), 0);
    for (std::size_t k = 0; k < c.size(); ++k) c[k] = static_cast<std::int32_t>((x >> (4 * k)) & 15U);
    out.emplace(std::move(c), Option{{}, {}, c0});
  }
}

template <class Slot, class Alive, class Complete>
Enumerator<Slot, Alive, Complete> make_enumerator(std::int64_t r, const Letters& lt, Slot s, Alive a, Complete c) {
  return {r, lt, s, a, c};
}

// Every valid word of period r (active value c): residues mod r distinct.
auto residue_words(std::int64_t r, const Letters& lt) {
  return make_enumerator(
      r, lt, [r](std::int64_t p, std::int64_t l) { return mod(p + l, r); },
      [](std::int64_t, std::uint64_t) { return true; }, [](std::uint64_t) { return true; });
}

void exhaustive(std::int64_t r, std::int64_t c, const Letters& lt, std::map<Counts, Option>& out) {
  enumerate(residue_words(r, lt), std::uint64_t{1} << mod(c, r), -1, out);
}

// Every exact word of period r with values {c - r} U {p + l_p} equal to
// c0..c0+r-1 (bit v - c0). Positions p' >= p give values >= p + min letter,
// so smaller values must be taken already.
auto exact_words(std::int64_t r, std::int64_t c0, const Letters& lt) {
  const std::int64_t low = lt.value.empty() ? 0 : lt.value.front();
  return make_enumerator(
      r, lt,
      [r, c0](std::int64_t p, std::int64_t l) {
        const std::int64_t v = p + l - c0;
        return v >= 0 && v < r ? v : std::int64_t{-1};
      },
      [c0, low](std::int64_t p, std::uint64_t mask) {
        const std::int64_t need = std::min<std::int64_t>(p + low - c0, 63);  // values below p + low
        return need <= 0 || (mask & ((std::uint64_t{1} << need) - 1)) == ((std::uint64_t{1} << need) - 1);
      },
      [r](std::uint64_t mask) { return mask == (std::uint64_t{1} << r) - 1; });
}

void exhaustive_exact(std::int64_t r, std::int64_t c, std::int64_t c0, const Letters& lt,
                      std::map<Counts, Option>& out) {
  if (c - r < c0 || c - r > c0 + r - 1 || lt.value.empty()) return;
  enumerate(exact_words(r, c0, lt), std::uint64_t{1} << (c - r - c0), c0, out);
}

// The word of an option enumerated without one.
std::vector<std::int64_t> rebuild(const Option& o, std::int64_t r, std::int64_t c, const Letters& lt) {
  if (!o.word.empty() || r == 1) return o.word;
  if (o.c0 >= 0) return exact_words(r, o.c0, lt).word(std::uint64_t{1} << (c - r - o.c0), pack(o.counts));
  return residue_words(r, lt).word(std::uint64_t{1} << mod(c, r), pack(o.counts));
}

// Lemma 3.1's families for every representative c' of c mod r.
void families(std::int64_t r, std::int64_t c, const Letters& lt, std::map<Counts, Option>& out) {
  const std::int64_t top = lt.value.empty() ? 0 : lt.value.back();
  for (std::int64_t cc = mod(c, r) == 0 ? r : mod(c, r); cc <= r + top + 1; cc += r) {
    if (cc - 1 <= r - 1)  // a^{c'-1} (ca)^m b^n: values 1..r
      for (std::int64_t m = 0; (cc - 1) + 2 * m <= r - 1; ++m) {
        std::vector<std::int64_t> w(static_cast<std::size_t>(cc - 1), 0);
        for (std::int64_t i = 0; i < m; ++i) w.insert(w.end(), {2, 0});
        w.resize(static_cast<std::size_t>(r - 1), 1);
        if (valid_letters(c, w)) add_option(out, lt, std::move(w));
      }
    for (std::int64_t x = 0; x < top; ++x) {  // x^{c'-1-x} (x+1)^n: values x+1..r+x
      const std::int64_t head = cc - 1 - x;
      if (head < 0 || head > r - 1) continue;
      std::vector<std::int64_t> w(static_cast<std::size_t>(head), x);
      w.resize(static_cast<std::size_t>(r - 1), x + 1);
      if (valid_letters(c, w)) add_option(out, lt, std::move(w));
    }
  }
}

std::vector<Option> options(std::int64_t r, std::int64_t c, const Letters& lt, bool exact, std::int64_t c0) {
  std::map<Counts, Option> all;
  if (r == 1) {
    all.emplace(Counts(lt.value.size(), 0), Option{});
  } else if (exact) {
    // Exact words: all of them for small r, else the families.
    std::map<Counts, Option> cand;
    if (r <= kExhaustive)
      for (std::int64_t e = c0 >= 0 ? c0 : c - 2 * r + 1; e <= (c0 >= 0 ? c0 : c - r); ++e)
        exhaustive_exact(r, c, e, lt, cand);
    families(r, c, lt, cand);
    for (auto& [cnt, o] : cand) {
      const std::int64_t e = o.word.empty() ? o.c0 : exact_c0(c, o.word);
      if (e >= 0 && (c0 < 0 || e == c0)) all.emplace(cnt, Option{{}, o.word, e});
    }
  } else {
    if (r <= kExhaustive) exhaustive(r, c, lt, all);
    families(r, c, lt, all);
  }
  std::vector<Option> v;
  v.reserve(all.size());
  for (auto& [cnt, o] : all) v.push_back(Option{cnt, std::move(o.word), o.c0});
  // Highest letters first (the paper's order), compared from the top letter down.
  std::sort(v.begin(), v.end(), [](const Option& a, const Option& b) {
    return std::lexicographical_compare(b.counts.rbegin(), b.counts.rend(), a.counts.rbegin(), a.counts.rend());
  });
  return v;
}

}  // namespace

bool letters_valid(std::int64_t c, const std::vector<std::int64_t>& word) {
  return valid_letters(c, word);
}

std::int64_t exact_start(std::int64_t c, const std::vector<std::int64_t>& word) {
  return exact_c0(c, word);
}

std::vector<Option> word_options(std::int64_t r, std::int64_t c, const Letters& lt, bool exact, std::int64_t c0) {
  return options(r, c, lt, exact, c0);
}

std::vector<std::int64_t> word_of(const Option& o, std::int64_t r, std::int64_t c, const Letters& lt) {
  return rebuild(o, r, c, lt);
}

}  // namespace optcoll::logp::detail
