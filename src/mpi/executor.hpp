// The MPI executor: runs any plan (plan/) over MPI point-to-point. It holds
// no algorithm; it only moves, copies and combines the blocks a plan names.
//
// Round-synchronous: a round's receive and send are posted (PMPI_Irecv,
// PMPI_Isend), wait() completes both, then applies the receive action and
// the round's local operations. All MPI calls are PMPI_* so that a PMPI
// interposition library can wrap MPI_Bcast/MPI_Reduce with optcoll without
// recursing into itself.
//
// Working buffer: element e < layout.data_extent() is at base + e*extent
// (the caller's buffer); elements beyond, the plan's scratch groups, live in
// executor scratch with the same layout.
//
// A message is the blocks of a step's runs, in order, as element segments
// (adjacent ones merged):
//  - one segment: sent / received straight from / into the buffer with the
//    datatype (any datatype);
//  - several segments, contiguous type: memcpy-packed into scratch and sent
//    as elements of the datatype; received likewise and memcpy-unpacked;
//  - several segments, non-contiguous type: MPI_Pack'ed and sent as
//    MPI_PACKED, received as MPI_PACKED and MPI_Unpack'ed.
//    The two ends may choose differently for the same blocks: a typed
//    message matches an MPI_PACKED receive and vice versa.
//  - combine actions receive into a scratch copy with the datatype's layout,
//    then MPI_Reduce_local: combine_before (own = in (+) own) is
//    Reduce_local(in, own); combine_after (own = own (+) in) is
//    Reduce_local(own, in) followed by a datatype-aware copy in -> own, so
//    that the holes of a user buffer are never written.
// Reductions: set_initial() says the working buffer's initial content (a
// rank's contribution) is elsewhere, e.g. the user's read-only sendbuf.
// Blocks are then copied in only when first written: a block that is sent
// before anything arrives for it goes straight from there, a block that is
// first overwritten needs no copy, and a block first combined with an
// arriving one (combine_after, or combine_before with a commutative op) is
// received into the working buffer and computed as init (+) in in place.
// That saves the full copy of the input a reduction otherwise starts with.
//
// Polling (WaitMode::poll, an oversubscribed node): sends straight from the
// buffer (one segment, one chunk) are not waited for at the end of their
// round: they complete in the background (a sender on an oversubscribed
// node otherwise waits a whole scheduling cycle for the receiver) and are
// completed before a later receive or local operation writes into their
// blocks, when more than 16 are pending, and at the end of the plan.
// Blocking (a rank per core), every message completes in its round, as the
// plans' round model has it: a send left running shares the sender's link
// with the next round's, which delays the earlier one and whoever waits for
// it (under SimGrid/SMPI on a fat tree this made a 1 MiB binomial Bcast on
// 256 ranks 3.4x slower than the same tree with completed sends; docs/smpi.md).
// Receives, and sends from scratch, complete in their round.
//
// A message of E elements travels as ceil(E / chunk) messages of at most
// chunk elements (chunk <= INT_MAX), matched in order (MPI's non-overtaking
// rule on one communicator and tag); both ends cut the element stream at the
// same places whatever form they use. Empty messages are skipped at both
// ends (both know the layout). One-ported: at most one send and one receive
// per round.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <span>
#include <vector>

#include "mpi/datatype.hpp"
#include "optcoll/plan/executor.hpp"

namespace optcoll::mpi {

enum class WaitMode : std::uint8_t {
  block,  // PMPI_Waitall
  poll,   // PMPI_Testall; after `spin` unsuccessful polls, sleep between polls
          // (oversubscribed nodes: lets the ranks we wait for run)
};

// Completes all requests (PMPI_Waitall, or the polling loop). Throws MpiError.
void wait_all(std::span<MPI_Request> requests, WaitMode mode, int spin);

// Scratch memory, owned by a communicator's cache and reused across rounds
// and calls (grow-only; large buffers are released after each call).
struct Scratch {
  ByteBuffer send;    // packed send
  ByteBuffer recv;    // staged or packed receive
  ByteBuffer in;      // combine operand with the datatype's layout (packed receives)
  ByteBuffer copy;    // datatype-aware copies, local combine_after
  ByteBuffer groups;  // the plan's scratch groups
  void trim(std::int64_t keep_bytes) noexcept;
};

struct ExecConfig {
  MPI_Comm comm = MPI_COMM_NULL;  // optcoll's duplicate, MPI_ERRORS_RETURN
  int tag = 0;
  TypeInfo type;
  MPI_Op op = MPI_OP_NULL;  // for combine actions
  std::int64_t chunk = 1;   // chunk_elements(): elements per MPI call
  WaitMode wait = WaitMode::block;
  int spin = 0;
};

class MpiExecutor final : public plan::Executor {
 public:
  MpiExecutor() = default;
  MpiExecutor(const ExecConfig& cfg, void* base, const plan::BlockLayout& layout, Scratch& scratch) {
    bind(cfg, base, layout, scratch);
  }

  // Prepares a call: base is element 0 of the caller's buffer
  // (layout.data_extent() elements of cfg.type). Keeps its own buffers'
  // capacity across calls.
  void bind(const ExecConfig& cfg, void* base, const plan::BlockLayout& layout, Scratch& scratch);

  // After bind(): the caller's part of the working buffer lies in several
  // memory areas (the personalized exchanges: receive buffer, send buffer,
  // working space; plan/alltoall.hpp). parts[k] = {first, base}: elements
  // [first, parts[k+1].first) are at base (element `first` at base); the
  // first part starts at element 0, the last ends at layout.data_extent().
  // A message or local operation never spans two parts in one segment.
  struct Part {
    std::int64_t first = 0;
    void* base = nullptr;
  };
  void set_parts(std::span<const Part> parts);

  // After bind(): the initial content of the caller's part of the working
  // buffer is at init (same layout as base), not in base (see above). With
  // materialize_at_end, blocks still untouched are copied at the end of
  // run(), so that base ends complete; commutative tells whether op is.
  void set_initial(const void* init, bool commutative, bool materialize_at_end);

  // Runs every round of plan (plan::post_round, then wait()), then finish():
  // start() then complete(). Throws MpiError when an MPI call fails,
  // optcoll::Error when the plan breaks the contract.
  void run(const plan::RankPlan& plan) {
    start(plan);
    complete();
  }
  // The same in two parts, for requests: start() posts round 0 and returns;
  // complete() waits for it, runs the other rounds and calls finish(). plan
  // and the buffers must stay valid in between.
  void start(const plan::RankPlan& plan);
  // After start(), for requests: advances the run as far as it can without
  // blocking: while the open round's messages have completed (one
  // MPI_Testall; in polling mode also the deferred sends it must wait for),
  // finishes that round and posts the next. True when every round is done
  // and finish() has run (complete() then returns at once).
  bool progress();
  void complete();
  // Completes the sends still in flight (and copies untouched blocks, see
  // set_initial). A caller that walks the plan itself (plan::run) must call
  // it before the buffers may change.
  void finish();

  // The compiled plan (the small-message path). A run recorded into a
  // Compiled (record() before run()) lists, per round, what this rank did:
  // the messages it posted (each one segment of the working buffer or of
  // the initial content, at most one chunk), then what it did with the
  // round's data (the receive's combine, the plan's local copies and
  // combinations, copies of initial content into the buffer), and what
  // finish() did at the end. start_replay() then does the same in the same
  // order, with the same deferral of sends, without walking the plan or
  // the untouched-block bookkeeping: O(entries), none of the plan's
  // per-round work, which costs more than the messages themselves at a few
  // bytes (docs/decisions/small-message-replay.md). A run that needed
  // staging several segments, packing, an indexed type, a message above
  // one chunk, parts, or more than kMaxCompiled entries compiles to
  // nothing (valid false). Valid for every later call with the same plan,
  // layout and initial-content setting (init, commutative, complete) whose
  // messages fit one MPI call (largest <= the chunk), with any datatype.
  struct Compiled {
    enum class Kind : std::uint8_t {
      send,          // Isend count elements at element `at` of the buffer
      send_initial,  // ... of the initial content
      recv,          // Irecv into the buffer (a copy)
      recv_initial,  // Irecv into the buffer, then buffer = initial (+) buffer
      recv_combine,  // Irecv into scratch, then combine it into the buffer (action)
      initial,       // copy count elements of initial content into the buffer
      local,         // the plan's local op: buffer[at] (action)= buffer[from]
    };
    struct Entry {
      Kind kind = Kind::send;
      plan::Action action = plan::Action::copy;
      std::int32_t peer = 0;
      std::int64_t at = 0;  // first element
      std::int64_t from = 0;
      std::int64_t count = 0;
    };
    std::vector<Entry> entries;
    // Round r's posts are entries [round_end[r-1], apply[r]), what it does
    // after its messages completed [apply[r], round_end[r]); finish()'s
    // entries follow the last round.
    std::vector<std::size_t> apply;
    std::vector<std::size_t> round_end;
    std::int64_t largest = 0;   // elements of the largest message
    bool with_initial = false;  // recorded with set_initial() ...
    bool commutative = true;    // ... these arguments
    bool complete = false;
    bool valid = false;
    bool recorded_for(bool init, bool comm, bool complete_at_end) const noexcept {
      return with_initial == init && (!init || (commutative == comm && complete == complete_at_end));
    }
  };
  void record(Compiled* compiled);  // after bind(), set_parts(), set_initial(); null: stop recording
  // start_replay() posts the first round and returns; progress() and
  // complete() go on as after start(). init: the initial content (as
  // set_initial(), null if none).
  void start_replay(const Compiled& compiled, const void* init);

  void send(plan::rank_t to, std::span<const plan::BlockRun> runs) override;
  void recv(plan::rank_t from, std::span<const plan::BlockRun> runs, plan::Action action) override;
  void local(const plan::LocalOp& op) override;
  void wait() override;

 private:
  // direct: one segment, no copy; indexed: several segments described by an
  // hindexed datatype over absolute addresses, no copy; staged: copied
  // into / out of scratch with the datatype's layout; packed: MPI_Pack.
  enum class Form : std::uint8_t { none, direct, indexed, staged, packed };
  struct Message {
    Form form = Form::none;
    plan::Action action = plan::Action::copy;
    std::int64_t elements = 0;
    std::byte* buf = nullptr;  // staged: element 0 of the copy; packed: packed bytes
    bool first_touch = false;  // direct receive into untouched blocks: own = init (+) in
    std::vector<plan::Segment> segs;
  };

  void gather(std::span<const plan::BlockRun> runs, std::vector<plan::Segment>& segs, std::int64_t& elements) const;
  std::byte* at(std::int64_t element) const noexcept {
    if (element >= data_extent_) return offset(groups_, (element - data_extent_) * cfg_.type.extent);
    if (parts_.empty()) return offset(base_, element * cfg_.type.extent);
    std::size_t k = parts_.size() - 1;
    while (k > 0 && parts_[k].first > element) --k;
    return offset(parts_[k].base, (element - parts_[k].first) * cfg_.type.extent);
  }
  // Whether a segment must not continue across element e (a part starts there).
  bool is_boundary(std::int64_t e) const noexcept {
    if (e == data_extent_) return true;
    for (const Part& pt : parts_)
      if (pt.first == e) return true;
    return false;
  }
  void post_typed(bool is_send, int peer, std::byte* elem0, std::int64_t elements);
  // Posts m (several segments) as one message of an hindexed datatype when
  // that saves a copy worth more than building the type; false otherwise.
  bool post_indexed(bool is_send, int peer, const Message& m);
  void post_packed(bool is_send, int peer, Message& m);
  int packed_capacity(std::int64_t k, const Message& m);
  void unpack(Message& m, std::byte* dst0);
  void combine(std::byte* in, std::byte* own, std::int64_t count, plan::Action action);
  void finish_recv();
  void apply_local(const plan::LocalOp& op);
  // to (action)= from for count elements (one segment each).
  void apply_piece(std::int64_t from, std::int64_t to, std::int64_t count, plan::Action action);
  struct Deferred {
    MPI_Request request;
    plan::Segment seg;
  };
  static constexpr std::size_t kMaxDeferred = 16;  // sends in flight at most
  void defer(MPI_Request r, plan::Segment seg);
  const std::byte* init_at(std::int64_t element) const noexcept { return offset(init_, element * cfg_.type.extent); }
  // Untouched-block bookkeeping (set_initial): whether some / all data blocks
  // of runs are still only in init_, and copying them into the buffer.
  bool any_fresh(std::span<const plan::BlockRun> runs) const noexcept;
  bool all_fresh(std::span<const plan::BlockRun> runs) const noexcept;
  void mark_written(std::span<const plan::BlockRun> runs) noexcept;
  void materialize(std::span<const plan::BlockRun> runs);
  // Completes the deferred sends that read elements of segs (all if empty).
  void complete_deferred(std::span<const plan::Segment> segs, bool all);

  ExecConfig cfg_;
  std::byte* base_ = nullptr;
  std::byte* groups_ = nullptr;  // element data_extent_ of the working buffer
  std::vector<Part> parts_;      // set_parts(); empty: all at base_
  std::int64_t data_extent_ = 0;
  const plan::BlockLayout* layout_ = nullptr;
  Scratch* scratch_ = nullptr;
  std::int64_t packed_chunk_bytes_ = -1;  // MPI_Pack_size of one full chunk, computed on demand
  Message out_;
  Message in_;
  std::vector<MPI_Request> requests_;
  std::vector<Deferred> deferred_;
  std::vector<plan::LocalOp> locals_;
  std::vector<plan::Segment> from_, to_;  // local operation operands
  std::vector<int> index_lengths_;        // post_indexed()
  std::vector<MPI_Aint> index_addresses_;
  Compiled* rec_ = nullptr;  // record(): the run being recorded
  void untraceable() noexcept {
    if (rec_ != nullptr) rec_->valid = false;
  }
  void note(Compiled::Kind kind, std::int64_t at, std::int64_t count, int peer = 0,
            plan::Action action = plan::Action::copy, std::int64_t from = 0);
  void replay_apply(const Compiled::Entry& e);
  void replay_send(const Compiled::Entry& e);
  const std::byte* init_ = nullptr;
  // The run between start() / start_replay() and its end: a plan walked,
  // or a compiled plan replayed.
  const plan::RankPlan* started_ = nullptr;
  const Compiled* replay_ = nullptr;
  std::int64_t next_round_ = 0;                 // the next round to post
  bool round_open_ = false;                     // a round is posted and not finished
  std::size_t replay_next_ = 0;                 // replay: the next entry
  const Compiled::Entry* replay_in_ = nullptr;  // replay: the open round's receive
  std::byte* replay_stage_ = nullptr;           // replay: where recv_combine receives
  bool replay_writes_ = false;                  // replay: the open round writes into the buffer
  std::int64_t total_rounds() const noexcept {
    return replay_ != nullptr ? static_cast<std::int64_t>(replay_->round_end.size()) : started_->rounds();
  }
  void post_next();    // posts round next_round_
  void close_round();  // finishes the open round (waits for what is left)
  void end_run();      // after the last round
  bool open_round_needs_deferred() const noexcept {
    return replay_ != nullptr ? replay_writes_ : in_.form != Form::none || !locals_.empty();
  }
  bool commutative_ = true;
  bool materialize_at_end_ = false;
  std::vector<std::uint8_t> fresh_;  // per data block: 1 while its content is only in init_
  plan::Step step_;
};

}  // namespace optcoll::mpi
