// Plans: a collective algorithm as data. For each rank and round a plan says
// what to send to whom, what to receive from whom, and what to do with what
// arrives. The simulator (sim/) and the MPI executor (mpi/) both run plans;
// neither contains an algorithm of its own.
//
// Data is addressed in blocks: a rank's working buffer of `count` elements is
// split into blocks by a BlockLayout, and a step names block indices. A plan
// is one-ported: at most one send and one receive per rank per round.
#pragma once

#include <cstdint>
#include <memory>

#include "optcoll/schedule/circulant.hpp"

namespace optcoll::plan {

using schedule::rank_t;

// What the receiver does with an arriving block. `own` is the block in the
// receiver's working buffer, `in` the arriving one; for a non-commutative
// operator the order of the operands matters.
enum class Action : std::uint8_t {
  copy,            // own = in
  combine_before,  // own = in (+) own   (MPI_Reduce_local(in, own))
  combine_after,   // own = own (+) in
};

struct Segment {
  std::int64_t offset = 0;  // in elements
  std::int64_t count = 0;
};

struct Step {
  rank_t send_to = -1;  // -1: no send this round
  std::int64_t send_block = -1;
  rank_t recv_from = -1;  // -1: no receive this round
  std::int64_t recv_block = -1;
  Action on_recv = Action::copy;
};

// `count` elements split into n blocks as evenly as possible: the first
// count mod n blocks hold one element more. O(1) per query.
class BlockLayout {
 public:
  BlockLayout() = default;
  BlockLayout(std::int64_t count, std::int64_t n);
  std::int64_t count() const noexcept { return count_; }
  std::int64_t blocks() const noexcept { return n_; }
  Segment block(std::int64_t j) const noexcept {
    const std::int64_t extra = j < rem_ ? j : rem_;
    return {j * base_ + extra, base_ + (j < rem_ ? 1 : 0)};
  }
  std::int64_t largest_block() const noexcept { return base_ + (rem_ > 0 ? 1 : 0); }

 private:
  std::int64_t count_ = 0;
  std::int64_t n_ = 0;
  std::int64_t base_ = 0;
  std::int64_t rem_ = 0;
};

// One rank's part of a plan, generated lazily: step(i) is O(1).
class RankPlan {
 public:
  virtual ~RankPlan() = default;
  virtual std::int64_t rounds() const noexcept = 0;
  virtual Step step(std::int64_t i) const noexcept = 0;
  virtual const BlockLayout& layout() const noexcept = 0;
};

enum class Collective : std::uint8_t { bcast, reduce };

// What a plan is asked to do; shared by every rank's RankPlan.
struct PlanSpec {
  Collective op = Collective::bcast;
  rank_t p = 1;
  rank_t root = 0;
  std::int64_t count = 0;   // elements per rank
  std::int64_t blocks = 1;  // n; clamped by plans to [1, count]
  bool commutative = true;  // for reductions
};

// Validates spec (p, root, count, blocks) and returns the clamped block count
// a plan will use: max(1, min(blocks, count)). Throws optcoll::Error.
std::int64_t checked_blocks(const PlanSpec& spec);

}  // namespace optcoll::plan
