// Rounds of a tree's plan (schedule.hpp).
#include "optcoll/trees/schedule.hpp"

#include <algorithm>

#include "optcoll/error.hpp"

namespace optcoll::trees {
namespace {

std::size_t at(rank_t v) {
  return static_cast<std::size_t>(v);
}

}  // namespace

TreeSchedule::TreeSchedule(Tree tree, std::span<const std::int64_t> m) : tree_(std::move(tree)) {
  if (!tree_.interval_subtrees()) throw Error(Errc::invalid_rank, "tree plans need every subtree to be an interval");
  size_ = subtree_sizes(tree_, m);
  round_.assign(at(tree_.size()), -1);
  std::vector<std::int64_t> ready(at(tree_.size()), 0);  // R(v): first round after v's last receive
  const auto order = tree_.top_down();
  for (std::size_t q = order.size(); q-- > 0;) {
    const rank_t v = order[q];
    std::int64_t next = 0;  // earliest round for v's next receive
    for (rank_t c : tree_.children(v)) {
      if (size_[at(c)] == 0) continue;
      round_[at(c)] = std::max(next, ready[at(c)]);
      next = round_[at(c)] + 1;
    }
    ready[at(v)] = next;
    rounds_ = std::max(rounds_, next);
  }
}

std::int64_t TreeSchedule::copy_round(rank_t v, Direction d) const {
  const auto kids = tree_.children(v);
  if (kids.empty()) return -1;
  const auto j = static_cast<std::size_t>(tree_.copy_after(v));  // the copy follows kids[0, j)
  std::int64_t round = rounds_;
  if (d == Direction::gather) {
    // Before the first message after the copy: a later child, else the send.
    for (std::size_t k = j; k < kids.size(); ++k)
      if (size_[at(kids[k])] > 0) return round_[at(kids[k])];
    if (v != tree_.root() && size_[at(v)] > 0) round = round_[at(v)];
    return round;
  }
  // Scatter runs the sequence backwards: the copy comes before the sends to
  // kids[j-1], ..., kids[0], which happen in rounds rounds - 1 - round_.
  for (std::size_t k = j; k-- > 0;)
    if (size_[at(kids[k])] > 0) return rounds_ - 1 - round_[at(kids[k])];
  return round;
}

}  // namespace optcoll::trees
