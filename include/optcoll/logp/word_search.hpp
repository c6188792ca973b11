// The search program for block-cyclic words (Karp et al. 1993, §3.2-3.3):
// given the blocks of a tree (period r, active delay s) and the multiset of
// its leaf delays, find for every block a word delta_1..delta_{r-1} of leaf
// delays with the residues (j - delta_j) mod r (delta_0 = s) distinct, such
// that the words and the receive-only processors use up every leaf exactly.
//
// Words are handled as letters l = D - delta (the paper's a = 0, b = 1, ...,
// relative to the frame D, normally the tree's depth). A block's candidate
// words are
//  - all words, when r <= 12 (depth-first over positions, memoized on the
//    set of residues used, deduplicated by letter counts);
//  - otherwise the families of Lemma 3.1, generalized to any active value:
//    a^{c-1} (ca)^m b^n and x^{c-1-x} (x+1)^n, for every representative c of
//    D - s mod r; each is checked before use.
// The blocks are filled largest first by a depth-first search that prefers
// words using the highest letters (the paper's "use up one letter at a time,
// starting with the highest"), treats blocks of the same class as
// interchangeable and memoizes failed (block, remaining letters) states.
//
// An "exact" block (the root, for the induction of §3.3) must get a word
// whose values {D - s - r} U {j + l_j} are the integers c0..c0+r-1; then
// appending the letter c0 gives a valid word for period r+1, which the
// induction I(t) = I(t-1) U I(t-L) needs (the paper's a^{L-2}(ca)*b* has
// c0 = 1, i.e. it is extended by b).
#pragma once

#include <cstdint>
#include <vector>

namespace optcoll::logp {

struct WordProblem {
  struct Slot {
    std::int64_t period = 1;  // r
    std::int64_t active = 0;  // s: the delay of the node's own reception
  };
  std::vector<Slot> blocks;
  std::vector<std::int64_t> leaves;             // leaf delays, a multiset
  std::int64_t frame = 0;                       // D
  std::int64_t receive_only = 1;                // processors taking one leaf delay each
  std::vector<std::int64_t> ro_allowed;         // delays receive-only processors may take; empty: any
  std::int64_t exact = -1;                      // index of the block that must get an exact word
  std::int64_t exact_c0 = -1;                   // its required c0 (a letter), or -1 for any
  std::int64_t budget = std::int64_t{1} << 22;  // search nodes
};

struct WordSolution {
  bool found = false;
  bool exhausted = false;                        // the budget ran out: unknown
  std::vector<std::vector<std::int64_t>> words;  // leaf delays per block, in problem order
  std::vector<std::int64_t> receive_only;        // their delays
  std::int64_t c0 = -1;                          // the exact block's c0
  std::int64_t nodes = 0;                        // search nodes used
};

WordSolution solve_words(const WordProblem& problem);

// Whether word (leaf delays at positions 1..r-1) is valid for a block of
// period r = word.size() + 1 and active delay s.
bool word_valid(std::int64_t active, const std::vector<std::int64_t>& word);

}  // namespace optcoll::logp
