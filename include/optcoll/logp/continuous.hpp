// Continuous broadcast with block-cyclic schedules (Karp et al. 1993,
// §3.1-3.3, Theorems 3.3 and 3.5).
//
// For P - 1 = f_t (= P(t)), the tree T(t) of every item is unique and
// I(t) (its blocks and leaf letters) is the disjoint union of I(t-1) and
// I(t-L) with the root block of I(t-1) one larger: T(t) is T(t-1), every
// node but the root one step later, plus a new first child of the root at
// delay L carrying T(t-L). If solutions of I(t-1) and I(t-L) give their
// receive-only processors the letter c0 and the root of I(t-1) an exact word
// (word_search.hpp) with that c0, appending c0 to the root word and keeping
// one receive-only processor solves I(t), with the same properties. So L
// consecutive base cases found by the search program give every larger t.
//
//  - 3 <= L (the paper: L <= 10): base cases t(L) .. t(L)+L-1 of T(t) with
//    c0 = 1 (letter b), found by the search; delay L + t, optimal.
//  - L = 2 (Theorem 3.5): no optimal block-cyclic schedule exists in general
//    (Theorem 3.4); the base trees are T(t+1) pruned to f_t nodes (both
//    leaves off the nodes with >= 4 children, the larger one off the nodes
//    with 2, some nodes with 3 children lose both and some with 1 lose
//    theirs; the search picks how many), giving delay L + t + 1.
//  - L = 1: T(t) is binomial with all leaves at delay t; every block takes
//    only that letter (its residues j - t are distinct), delay 1 + t, optimal.
//  - other t (below the base cases): the search on T(t) directly.
// t(L) is the smallest t that starts L consecutive base cases the search
// solves within its budget; the search also reports instances it proved
// infeasible (e.g. L = 4, t = 8, as the paper remarks).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "optcoll/logp/block_cyclic.hpp"

namespace optcoll::logp {

// A tree with its block words by class: words[v] are leaf delays for
// internal node v (and the root), receive-only delays separately.
struct BlockCyclicCase {
  std::int64_t t = 0;  // instance I(t): f_t processors
  PostalTree tree;     // T(t), or the pruned tree for L = 2
  std::vector<std::vector<std::int64_t>> words;
  std::vector<std::int64_t> receive_only;
  std::int64_t c0 = -1;  // the root word's extension letter
};

struct BaseCases {
  std::int64_t L = 0;
  std::int64_t t0 = -1;  // t(L); -1: no window found up to the search limit
  std::int64_t c0 = -1;
  std::vector<BlockCyclicCase> cases;   // t0 .. t0 + L - 1
  std::vector<BlockCyclicCase> below;   // base-case solutions for t < t0 (not L in a row)
  std::vector<std::int64_t> not_found;  // t the search did not solve as a base case (exact root,
                                        // receive-only c0): complete for periods <= 12, families above
  std::vector<std::int64_t> unknown;    // t where the budget ran out
  std::int64_t search_nodes = 0;
};

// The base cases of latency L >= 2, searched on first use and cached
// (thread-safe). Throws optcoll::Error for L < 2 or L > 16.
const BaseCases& base_cases(std::int64_t L);

struct ContinuousPlan {
  BlockCyclic solution;
  proc_t P = 0;
  std::int64_t L = 0;
  std::int64_t delay = 0;          // L + depth: generation to last reception
  std::int64_t optimal_delay = 0;  // L + B(P-1), the lower bound of §3.1
  std::string method;
};

// Continuous broadcast for P - 1 = f_t (P - 1 = 2^t for L = 1). nullopt if
// P - 1 is not of that form, or no construction is known (L > 16, or t below
// the base cases with no direct solution).
std::optional<ContinuousPlan> continuous_broadcast(proc_t P, std::int64_t L);

// The search program on an arbitrary tree: words for every internal node.
// nullopt if none within budget. Used for t below t(L) and by k-item.
std::optional<BlockCyclic> search_block_cyclic(const PostalTree& tree, std::int64_t budget);

// The paper's Figure 2 assignment (L = 3, P - 1 = 9): block H5 with word
// acab, E2 with a, D1 empty and the receive-only processor with b. With
// `alternate`, the D1 processor and the receive-only one share a period-2
// block (active D, then b), as §3.3 requires for the optimal k = 8 schedule.
BlockCyclic figure2_assignment(bool alternate);

}  // namespace optcoll::logp
