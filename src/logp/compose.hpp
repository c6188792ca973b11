// The composition A (+) B of block-cyclic solutions (Karp et al. 1993, §3.3)
// and the inductive solutions built with it. Private to logp/.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "optcoll/logp/continuous.hpp"

namespace optcoll::logp::detail {

// A (+) B: B's root becomes the first child of A's root (delay L), A's other
// nodes one step later, B's L steps later. A's root word, which must be
// exact with extension letter c0 = A.c0 and whose frame is frameA, gets the
// letter c0, taken from A's receive-only processor (its delay frameA - c0,
// one later); B's receive-only processor (or B's root, if B is one node)
// stays receive-only. In the induction of §3.3 B's has the same letter.
// Every block stays valid (its delays shift together); the leaf multiset
// stays used up. The result's root is exact with the same c0, frame frameA+1.
BlockCyclicCase compose(const BlockCyclicCase& A, std::int64_t frameA, const BlockCyclicCase& B, std::int64_t L);

// A (+) B for any A (root not waiting): the root's word is re-solved over its
// old letters plus both receive-only letters, the one left over becoming the
// receive-only processor; nullopt if no arrangement is valid. O(r * 2^r)
// worst case for a root of r children; the root word is small.
std::optional<BlockCyclicCase> compose_any(const BlockCyclicCase& A, const BlockCyclicCase& B, std::int64_t L);

BlockCyclic to_block_cyclic(const BlockCyclicCase& c);
// Precondition: every node block has period max(1, children).
BlockCyclicCase to_case(const BlockCyclic& b);

// S(u) of §3.3 for u >= t(L) (built by induction from the base cases), with
// its letter frame; nullptr if none. For L = 2 the frame is u + 1.
std::shared_ptr<const BlockCyclicCase> inductive_solution(std::int64_t L, std::int64_t u, std::int64_t* frame);

// Theorem 3.5's trees for L = 2: T(t+1) with both last leaves off the nodes
// with >= 4 children, the last one off the nodes with 2, both off some nodes
// with 3 and the only one off some with 1, for every split that leaves N nodes.
std::vector<PostalTree> pruned_l2_trees(std::int64_t t, proc_t N);

}  // namespace optcoll::logp::detail
