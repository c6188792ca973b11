// Plans: a collective algorithm as data. For each rank and round a plan says
// what to send to whom, what to receive from whom, and what to do with what
// arrives. The simulator (sim/) runs plans, and plans compiled for one rank
// (compiled.hpp), which is what the MPI executor (mpi/) runs; neither
// contains an algorithm of its own.
//
// Data is addressed in blocks. A rank's working buffer is described by a
// BlockLayout: `groups` contiguous element ranges (one per root for the
// all-to-all collectives, a single one for Bcast/Reduce), each split into the
// same number n of blocks; block id g*n + j is block j of group g. Scratch
// groups, appended after the data groups, are extra accumulators that
// mirror a data group (same size, same elements of the result): block j of a
// scratch group has the *position* of block j of its data group. A step names
// runs of consecutive block ids; several runs travel as one packed message;
// what is sent and where it lands must have the same positions. A plan is
// one-ported: at most one send and one receive per rank per round; after the
// round's receive it may copy or combine blocks locally.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

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

// Elements [offset, offset + count) of a working buffer.
struct Segment {
  std::int64_t offset = 0;
  std::int64_t count = 0;
  bool operator==(const Segment&) const = default;
};

// Block ids [first, first + count).
struct BlockRun {
  std::int64_t first = 0;
  std::int64_t count = 1;
};

// A local copy or combination, `to` (+)= `from`, after the round's receive.
struct LocalOp {
  BlockRun from;
  BlockRun to;
  Action action = Action::copy;
};

// One round of one rank. Executors reuse one Step (capacity kept), so plans
// generate steps without allocating after the first rounds.
struct Step {
  rank_t send_to = -1;    // -1: no send this round
  rank_t recv_from = -1;  // -1: no receive this round
  Action on_recv = Action::copy;
  std::vector<BlockRun> send;  // packed in this order
  std::vector<BlockRun> recv;  // unpacked in this order
  std::vector<LocalOp> local;  // applied in this order, after the receive

  void clear() noexcept {
    send_to = recv_from = -1;
    on_recv = Action::copy;
    send.clear();
    recv.clear();
    local.clear();
  }
  void send_block(rank_t to, std::int64_t block) {
    send_to = to;
    send.push_back({block, 1});
  }
  void recv_block(rank_t from, std::int64_t block, Action a) {
    recv_from = from;
    on_recv = a;
    recv.push_back({block, 1});
  }
  // Exchanges the runs of send and recv (and their peers). Each vector
  // keeps its own storage, so a Step reused across rounds stops allocating
  // after one pass over the rounds (swapping the vectors would move
  // capacity back and forth between them).
  void swap_directions() {
    std::swap(send_to, recv_from);
    const auto ns = static_cast<std::ptrdiff_t>(send.size());
    send.insert(send.end(), recv.begin(), recv.end());
    recv.assign(send.begin(), send.begin() + ns);
    send.erase(send.begin(), send.begin() + ns);
  }
};

// `groups` element ranges, each split into n blocks as evenly as possible
// (the first count mod n blocks of a group hold one element more; blocks of
// a small group may be empty). O(1) per query.
class BlockLayout {
 public:
  BlockLayout() = default;
  // One group: elements [0, count) in n blocks.
  BlockLayout(std::int64_t count, std::int64_t n);
  // Group g covers elements [groups[g].offset, + groups[g].count).
  BlockLayout(std::vector<Segment> groups, std::int64_t n);

  std::int64_t blocks_per_group() const noexcept { return n_; }
  std::int64_t groups() const noexcept { return static_cast<std::int64_t>(groups_.size()); }
  std::int64_t blocks() const noexcept { return n_ * groups(); }
  const Segment& group(std::int64_t g) const noexcept { return groups_[static_cast<std::size_t>(g)]; }
  // Elements of group 0 (all elements for a one-group layout).
  std::int64_t count() const noexcept { return groups_.empty() ? 0 : groups_[0].count; }
  // One past the highest element any group covers.
  std::int64_t extent() const noexcept { return extent_; }

  Segment block(std::int64_t id) const noexcept {
    const std::int64_t g = groups_.size() == 1 ? 0 : id / n_;
    const std::int64_t j = id - g * n_;
    const Segment& s = groups_[static_cast<std::size_t>(g)];
    const std::int64_t base = s.count / n_;
    const std::int64_t rem = s.count % n_;
    return {s.offset + j * base + (j < rem ? j : rem), base + (j < rem ? 1 : 0)};
  }
  // Whether consecutive groups are adjacent in memory, in order (then any
  // run of blocks is one segment; otherwise a run must stay in one group).
  bool dense() const noexcept { return dense_; }
  // Whether the run names existing blocks that are one segment of memory.
  bool valid(const BlockRun& r) const noexcept {
    if (r.count < 1 || r.first < 0 || r.first + r.count > blocks()) return false;
    return dense_ || r.first / n_ == (r.first + r.count - 1) / n_;
  }
  // Elements of run r (precondition: valid(r)).
  Segment run(const BlockRun& r) const noexcept {
    const Segment a = block(r.first);
    const Segment b = block(r.first + r.count - 1);
    return {a.offset, b.offset + b.count - a.offset};
  }
  std::int64_t largest_block() const noexcept;
  bool operator==(const BlockLayout&) const = default;

  // Appends a scratch group mirroring data group `of`, after everything so
  // far in memory; returns its index.
  std::int64_t add_scratch(std::int64_t of);
  // Groups [0, data_groups()) are the collective's data; elements
  // [0, data_extent()) are the caller's buffer, the rest executor scratch.
  std::int64_t data_groups() const noexcept { return data_groups_; }
  std::int64_t data_extent() const noexcept { return data_extent_; }
  bool is_data(std::int64_t id) const noexcept { return id / n_ < data_groups_; }
  // The data block whose elements block `id` stands for.
  std::int64_t position(std::int64_t id) const noexcept {
    const std::int64_t g = id / n_;
    return g < data_groups_ ? id : mirror_[static_cast<std::size_t>(g - data_groups_)] * n_ + (id - g * n_);
  }

  // The groups with at least one element, ascending: plans that touch every
  // group (allgather, reduce-scatter) iterate these, so that ranks without
  // data cost nothing.
  const std::vector<std::int64_t>& nonempty_groups() const noexcept { return nonempty_; }

  // count elements split into `groups` adjacent groups as evenly as possible
  // (the first count mod groups hold one more), each in n blocks.
  static BlockLayout split(std::int64_t count, std::int64_t groups, std::int64_t n);

 private:
  std::vector<Segment> groups_;
  std::vector<std::int64_t> nonempty_;  // data groups only
  std::vector<std::int64_t> mirror_;    // per scratch group
  std::int64_t n_ = 1;
  std::int64_t extent_ = 0;
  std::int64_t data_groups_ = 0;
  std::int64_t data_extent_ = 0;
  bool dense_ = true;
};

// One rank's part of a plan, generated lazily: step(i) is O(1) per block
// named in the step.
class RankPlan {
 public:
  virtual ~RankPlan() = default;
  virtual std::int64_t rounds() const noexcept = 0;
  // Fills `out` (cleared by the caller) with round i, 0 <= i < rounds().
  virtual void step(std::int64_t i, Step& out) const = 0;
  // How the working buffer is split into blocks; the same at every rank.
  virtual const BlockLayout& layout() const noexcept = 0;
};

// The data semantics of a plan, which the simulator checks (sim/). Copy
// collectives move source blocks; reductions combine contributions. For the
// group-structured ones, group g of the layout belongs to rank g.
enum class Collective : std::uint8_t {
  bcast,           // the root's blocks end at every rank
  gather,          // rank g's group ends at the root
  scatter,         // the root's group g ends at rank g
  allgather,       // rank g's group ends at every rank
  reduce,          // every block, combined over all ranks, ends at the root
  reduce_scatter,  // group g, combined over all ranks, ends at rank g
  allreduce,       // every block, combined over all ranks, ends at every rank
  scan,            // every block, combined over ranks 0..r, ends at rank r
  exscan,          // every block, combined over ranks 0..r-1, ends at rank r > 0
  // Personalized exchanges (alltoall.hpp): every rank has its own layout
  // (RankPlan::layout() may differ between ranks), whose data groups are
  // p*c receive pieces, then p*c send pieces, then working space that starts
  // empty; send piece d*c + x of rank r is piece x of the message from r to d
  // and must end in receive piece r*c + x of rank d. c = 1 for alltoall(v),
  // c = p for many_to_many (every message split into p pieces).
  alltoall,      // equal counts (MPI_Alltoall)
  alltoallv,     // any counts (MPI_Alltoallv)
  many_to_many,  // any counts, routed through intermediate ranks
};
inline constexpr std::size_t kCollectives = 12;

// Whether op is a personalized exchange (per-rank layouts, see above).
constexpr bool is_exchange(Collective op) noexcept {
  return op == Collective::alltoall || op == Collective::alltoallv || op == Collective::many_to_many;
}

// Whether the working buffers combine contributions (else they copy).
constexpr bool is_reduction(Collective op) noexcept {
  return op == Collective::reduce || op == Collective::reduce_scatter || op == Collective::allreduce ||
         op == Collective::scan || op == Collective::exscan;
}

// What a plan is asked to do; shared by every rank's RankPlan.
struct PlanSpec {
  Collective op = Collective::bcast;
  rank_t p = 1;
  rank_t root = 0;
  std::int64_t count = 0;   // elements per rank
  std::int64_t blocks = 1;  // n; clamped by plans to [1, count]
  bool commutative = true;  // for reductions
  // For reductions: the operator gives the same bits in any association and
  // operand order (the predefined integer, logical and bitwise operators).
  // Plans that combine in an order depending on the rank
  // (AlgorithmInfo::needs_exact) give every rank the same bits only then.
  bool exact = false;
};

// Validates spec (p, root, count, blocks) and returns the clamped block count
// a plan will use: max(1, min(blocks, count)). Throws optcoll::Error.
std::int64_t checked_blocks(const PlanSpec& spec);

}  // namespace optcoll::plan
