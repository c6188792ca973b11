// Candidate words of one block for the block-cyclic word search (private to
// logp/). Words are letters l = D - delta; a block of period r whose node
// has active value c = D - s takes a word l_1..l_{r-1} iff the residues
// (j + l_j) mod r and c mod r are distinct (word_search.hpp).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

namespace optcoll::logp::detail {

inline std::int64_t mod(std::int64_t a, std::int64_t r) noexcept {
  const std::int64_t m = a % r;
  return m < 0 ? m + r : m;
}

using Counts = std::vector<std::int32_t>;  // per letter index

struct Option {
  Counts counts;
  std::vector<std::int64_t> word;  // letters l_1..l_{r-1}; empty: rebuilt by word_of()
  std::int64_t c0 = -1;            // exact words: the interval start they were enumerated for
};

struct Letters {
  std::vector<std::int64_t> value;  // ascending letters l = D - delta
  Counts cap;                       // how many leaves have each letter
  std::map<std::int64_t, std::size_t> index;
  bool has(std::int64_t l) const { return index.count(l) != 0; }
};

bool letters_valid(std::int64_t c, const std::vector<std::int64_t>& word);
// The start c0 of the integer interval {c - r} U {j + l_j}, or -1 if not one.
std::int64_t exact_start(std::int64_t c, const std::vector<std::int64_t>& word);
// One option per letter-count vector: every word for r <= 12, Lemma 3.1's
// families (every representative of c mod r) otherwise; exact words only if
// `exact` (with interval start c0, or any if c0 < 0). Sorted highest letters first.
std::vector<Option> word_options(std::int64_t r, std::int64_t c, const Letters& lt, bool exact, std::int64_t c0);
// The word of an option (enumerated options carry only counts).
std::vector<std::int64_t> word_of(const Option& o, std::int64_t r, std::int64_t c, const Letters& lt);

}  // namespace optcoll::logp::detail
