// Block-cyclic continuous broadcast in the postal model (Karp et al. 1993,
// §3.1-3.3).
//
// The source generates item i at time i and sends it once, to the root of
// item i's broadcast tree, which receives it at i + L; a tree node of delay d
// receives at i + L + d and an internal node sends to its children in the
// next consecutive steps (child k has delay d + L + k). All items use the same
// tree; processors take different roles for different items:
//
//  - a block of r processors serves an internal node v with at most r
//    children (r = children in the paper; r larger lets a processor idle):
//    member q is v's processor ("active", the paper's upper-case letter) for
//    the items i = q mod r; its sends for item i take the offsets
//    wait(v) .. wait(v) + children - 1 after the reception, those for item
//    i + r the same offsets r later, so sends never collide;
//  - in the other r-1 steps of its period, member q receives leaves (the
//    paper's lower-case letters) following the block's word: at relative
//    time tau = x - L, member q is at position j = (tau - s_v - q) mod r and
//    receives item tau - delta_j, where delta_0 = s_v (the active item) and
//    delta_1..delta_{r-1} are leaf delays;
//  - receive-only processors are blocks without a node (s = 0, all r
//    positions leaves; the paper's has r = 1).
//
// Invariants, checked by check() and asserted by the tests:
//  (a) every processor receives every item exactly once: for each block,
//      the residues (j - delta_j) mod r, j = 0..r-1, are distinct (this is
//      the paper's automaton condition, stated arithmetically: member q
//      receives at position j the items of residue q + j - delta_j + s_v);
//  (b) the words use up exactly the tree's leaves: the multiset of all word
//      delays equals the multiset of leaf delays, so at every step the m_d
//      processors receiving a leaf of delay d meet the m_d senders of such
//      leaves one to one (the paper's "restriction 1");
//  (c) blocks serve distinct internal nodes, every internal node (and the
//      root) has a block of period >= its number of children, and the
//      blocks partition processors 1..N.
// Then every item reaches all N = P-1 processors within L + depth of its
// generation: the continuous-broadcast delay, optimal when the tree is
// B(P-1) (L + B(P-1), §3.1). The simulator re-checks all of it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "optcoll/logp/schedule.hpp"

namespace optcoll::logp {

// An ordered tree for the postal model: BFS ids, node 0 the root (delay 0),
// children consecutive ids, child k of v has delay delay(v) + wait(v) + L + k:
// a node may wait before its sends, which stay consecutive (the optimal trees
// never wait; deeper trees for the k-item slack of Theorem 3.7 may).
class PostalTree {
 public:
  PostalTree() = default;
  // T(t): every node of the universal postal tree with delay <= t (f_t nodes).
  static PostalTree full(std::int64_t L, std::int64_t t);
  // The tree with `children[v]` children for each node v of a BFS walk
  // (children[0] is the root's) and waits `wait[v]` (default 0); the vector
  // must describe a finite tree.
  static PostalTree from_child_counts(std::int64_t L, const std::vector<proc_t>& children,
                                      const std::vector<std::int64_t>& wait = {});

  std::int64_t L() const noexcept { return L_; }
  proc_t size() const noexcept { return static_cast<proc_t>(delay_.size()); }
  std::int64_t delay(proc_t v) const noexcept { return delay_[static_cast<std::size_t>(v)]; }
  proc_t parent(proc_t v) const noexcept { return parent_[static_cast<std::size_t>(v)]; }
  proc_t first_child(proc_t v) const noexcept { return first_[static_cast<std::size_t>(v)]; }
  std::int64_t wait(proc_t v) const noexcept { return wait_.empty() ? 0 : wait_[static_cast<std::size_t>(v)]; }
  // Time after its own reception at which v sends to child k.
  std::int64_t send_offset(proc_t v, proc_t k) const noexcept { return wait(v) + k; }
  proc_t children(proc_t v) const noexcept {
    return first_[static_cast<std::size_t>(v) + 1] - first_[static_cast<std::size_t>(v)];
  }
  std::int64_t depth() const noexcept { return depth_; }
  std::vector<proc_t> child_counts() const;
  const std::vector<std::int64_t>& waits() const noexcept { return wait_; }  // empty: all 0

 private:
  std::int64_t L_ = 1;
  std::int64_t depth_ = 0;
  std::vector<std::int64_t> wait_;
  std::vector<std::int64_t> delay_;
  std::vector<proc_t> parent_;
  std::vector<proc_t> first_;
};

struct Block {
  proc_t node = -1;                // internal tree node served; -1: receive-only
  std::int64_t period = 1;         // r
  std::vector<std::int64_t> word;  // leaf delays at positions 1..r-1 (node) or 0..r-1 (receive-only)
  proc_t first_proc = 1;           // members first_proc .. first_proc + r - 1
};

struct BlockCyclic {
  PostalTree tree;
  std::vector<Block> blocks;
  proc_t processors() const noexcept { return tree.size(); }  // N = P - 1
  // Continuous-broadcast delay L + depth.
  std::int64_t delay() const noexcept { return tree.L() + tree.depth(); }
};

// Checks invariants (a)-(c); returns "" or the first violation.
std::string check(const BlockCyclic& b);

// Assigns processors 1..N to the blocks in order (root's block first) and
// receive-only blocks for `receive_only` leftover delays. `words[v]` is the
// word of internal node v (indexed by node; ignored for leaves), `period[v]`
// its period (0: its number of children, at least 1 for the root).
BlockCyclic assemble(PostalTree tree, const std::vector<std::vector<std::int64_t>>& words,
                     const std::vector<std::int64_t>& receive_only, const std::vector<std::int64_t>& period = {});

// The first `items` items of the continuous broadcast as a schedule over
// P = N + 1 processors (processor 0 the source), single-sending; lower bound
// set to the single-sending bound L + B(P-1) + items - 1 is left to callers.
// O(items * N).
Schedule block_cyclic_schedule(const BlockCyclic& b, std::int64_t items);

}  // namespace optcoll::logp
