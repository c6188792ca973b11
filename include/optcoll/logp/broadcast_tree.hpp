// The universal optimal broadcast tree B(P) for (P, L, o, g) (Karp et al.
// 1993, Definitions 2.3-2.4, Theorem 2.1).
//
// The universal tree has the root labelled 0 and gives a node labelled t the
// children t + L + 2o + i*g, i >= 0: the i-th send starts at t + i*g and the
// child can forward from the label on. B(P) is the subtree of the P smallest
// labels; its largest label is B(P), the optimal single-item broadcast time.
//
// Nodes are numbered in BFS order: the root is 0 and the children of a node
// are consecutive ids in send order (increasing labels). Among nodes with the
// largest label T = B(P), which the paper leaves arbitrary, those of the
// earliest parents in BFS order are kept. Figure 1 (P=8, L=6, o=2, g=4):
//     node   0   1   2   3   4   5   6   7
//     label  0  10  14  18  22  20  24  24     parent of 5, 6 is 1; of 7 is 2.
//
// Invariants (asserted by the tests): a child's label is its parent's plus
// L + 2o + i*g for its index i among the siblings; labels are the P smallest
// of the universal tree (multiset equal to a brute-force priority-queue
// enumeration); max label = broadcast_time(P).
//
// Construction O(P) time, 24 bytes per node: B(P) and the number of labels
// below it come from the recurrence of fibonacci.hpp, then one BFS pass.
#pragma once

#include <cstdint>
#include <vector>

#include "optcoll/logp/params.hpp"
#include "optcoll/logp/schedule.hpp"

namespace optcoll::logp {

class BroadcastTree {
 public:
  // Throws optcoll::Error for P < 1 or invalid parameters.
  BroadcastTree(proc_t P, const Params& params);

  proc_t size() const noexcept { return static_cast<proc_t>(label_.size()); }
  const Params& params() const noexcept { return params_; }
  // B(P): the time at which the last processor has the datum.
  std::int64_t completion() const noexcept { return completion_; }

  // The time node v has the datum (its delay t_A(v), Definition 2.1).
  std::int64_t delay(proc_t v) const noexcept { return label_[idx(v)]; }
  proc_t parent(proc_t v) const noexcept { return parent_[idx(v)]; }
  proc_t num_children(proc_t v) const noexcept { return first_[idx(v) + 1] - first_[idx(v)]; }
  proc_t first_child(proc_t v) const noexcept { return first_[idx(v)]; }
  // Start of v's send overhead for its i-th child: delay(v) + i*g.
  std::int64_t send_time(proc_t v, proc_t i) const noexcept { return delay(v) + i * params_.g; }
  // Index of v among its siblings (0 for the root).
  proc_t child_index(proc_t v) const noexcept { return v == 0 ? 0 : v - first_child(parent(v)); }

  // Sum of all delays: what the summation of §5 maximizes t*P minus.
  std::int64_t delay_sum() const noexcept;
  // For every node, the largest delay in its subtree minus its own delay. O(P).
  std::vector<std::int64_t> subtree_height() const;

 private:
  static std::size_t idx(proc_t v) noexcept { return static_cast<std::size_t>(v); }

  Params params_;
  std::int64_t completion_ = 0;
  std::vector<std::int64_t> label_;
  std::vector<proc_t> parent_;
  std::vector<proc_t> first_;  // size P+1: children of v are [first_[v], first_[v+1])
};

// The single-item broadcast along B(P) as a schedule: node v sends item 0 to
// its i-th child at delay(v) + i*g; processor = node id; lower bound B(P).
Schedule broadcast_schedule(const BroadcastTree& tree);

// A rooted ordered tree over processors 0..P-1, for turning a LogP tree into
// a round-based plan (plan/): children[child_offset[v] .. child_offset[v+1])
// in the order v sends to them.
struct TreeShape {
  proc_t root = 0;
  std::vector<proc_t> parent;        // -1 at the root
  std::vector<proc_t> child_offset;  // size P+1
  std::vector<proc_t> children;
  proc_t size() const noexcept { return static_cast<proc_t>(parent.size()); }
};

// B(P) on processors 0..P-1 with node v at processor (v + root) mod P, each
// node sending to its children in order of decreasing subtree height
// (largest remaining broadcast time first; ties by label), which for B(P) is
// its send order. O(P log P) worst case for the sort, O(P) typically.
TreeShape tree_shape(const BroadcastTree& tree, proc_t root);

}  // namespace optcoll::logp
