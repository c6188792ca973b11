// The MPI executor: runs a compiled plan (plan/compiled.hpp) over MPI
// point-to-point. It holds no algorithm and walks no plan; it only moves,
// copies and combines the element segments the compiled plan names. Its
// messages go through the transport bound with it (transport.hpp: PMPI_*
// for the library and the drop-in, so that the drop-in can define
// MPI_Bcast on top of optcoll without recursing; Open MPI's PML for the
// coll component); every other MPI call is PMPI_*. The whole behaviour, with the reasons:
// docs/plans-and-executors.md, "The MPI executor".
//
// Contract and invariants:
//  - Round-synchronous and one-ported: a round posts at most one receive
//    and one send, completes the receive (and sends from scratch), then
//    applies the receive's combine step and the round's local pieces in
//    plan order, never arrival order (the same bits on every rank).
//  - Working buffer: element e < data_extent is at base + e*extent (the
//    caller's buffer, or its parts); the plan's scratch groups live in
//    executor scratch with the same layout. The initial content, when
//    compiled with it, is read at init + e*extent and never written; the
//    holes of a user buffer are never written.
//  - A message is the compiled plan's segments in order: one segment goes
//    straight from / into the buffer with the datatype; several as one
//    hindexed datatype when large enough, else packed (memcpy or MPI_Pack).
//    The two ends may choose differently: a typed message matches an
//    MPI_PACKED receive and vice versa.
//  - A combining receive lands in a scratch copy with the datatype's layout
//    and is combined with MPI_Reduce_local; a predefined operator on a
//    predefined type, up to kLocalReduceMaxBytes, in optcoll's own loop
//    (local_reduce.hpp).
//  - A message of E elements travels as ceil(E / chunk) messages cut at the
//    same places at both ends and matched in order (MPI's non-overtaking
//    rule on one communicator and tag). Empty messages are compiled at
//    neither end.
//  - Send completion: with a core per rank (WaitMode::block) every message
//    completes in its round, as the plans' round model has it (a running
//    send would share the sender's link with the next round's,
//    docs/decisions/complete-sends-per-round.md); except, on one node,
//    sends straight from the buffer of (kDeferMinBytes, kDeferBytes], which
//    shared memory completes only once the receiver has taken them. When
//    polling (an oversubscribed node) every such send above kDeferMinBytes
//    completes in the background (docs/decisions/deferred-sends.md). A
//    deferred send completes before its blocks are written, when
//    kMaxDeferred are pending, and at the end of the plan.
//  - Blocking form: the rounds complete() runs issue a one-call message as
//    PMPI_Send / PMPI_Recv / PMPI_Sendrecv after the round's other
//    messages, except while polling, for deferred sends and independent
//    rounds, and while other requests run (a wait must advance them)
//    (docs/decisions/blocking-calls-for-one-call-rounds.md).
//  - Resolved form (executor_resolved.cpp): a plan whose messages are all
//    one segment in one call, completed in their round, runs from
//    addresses resolved once per compilation (Compiled::id) and buffers
//    (docs/decisions/resolved-form.md).
//  - Independent rounds (Compiled::independent) stream through a sliding
//    window of model::kRoundsInFlight rounds (or Compiled::in_flight); the
//    last round's steps run after every message has completed
//    (docs/decisions/exchange-rounds-in-flight.md).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <span>
#include <vector>

#include "mpi/executor/datatype.hpp"
#include "mpi/executor/local_reduce.hpp"
#include "mpi/executor/transport.hpp"
#include "optcoll/plan/compiled.hpp"

namespace optcoll::mpi {

enum class WaitMode : std::uint8_t {
  block,  // PMPI_Waitall
  poll,   // PMPI_Testall; after `spin` unsuccessful polls, sleep between polls
          // (oversubscribed nodes: lets the ranks we wait for run)
};

// Completes all requests (PMPI_Waitall, or the polling loop). While other
// optcoll requests are running (other_requests_running(), request.hpp) it
// polls and advances them: MPI lets ranks complete outstanding collectives
// in any order, so the rank this waits for may itself be waiting for one
// of them. Throws MpiError.
void wait_all(std::span<MPI_Request> requests, WaitMode mode, int spin);
// The same until at least one of requests (not all null) completes: how
// many did, their positions in indices (requests.size() entries), and they
// become MPI_REQUEST_NULL.
int wait_some(std::span<MPI_Request> requests, int* indices, WaitMode mode, int spin);

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
  bool one_node = false;  // every rank on one node: middle-sized sends complete in the background
};

class MpiExecutor final {
 public:
  MpiExecutor() = default;

  // Prepares a call: base is element 0 of the caller's buffer (the compiled
  // plan's data_extent elements of cfg.type). Keeps its own buffers'
  // capacity across calls. A bound executor runs any number of times:
  // start() again once a run has ended or failed.
  // owner: who bound it (bound_by() says whether it still is; a
  // PreparedPlan that finds itself there need not bind again).
  void bind(const ExecConfig& cfg, void* base, Scratch& scratch, const void* owner = nullptr);
  bool bound_by(const void* owner) const noexcept { return owner_ == owner; }

  // After bind(): the caller's part of the working buffer lies in several
  // memory areas (the personalized exchanges: receive buffer, send buffer,
  // working space; plan/alltoall.hpp). parts[k] = {first, base}: elements
  // [first, parts[k+1].first) are at base (element `first` at base); the
  // first part starts at element 0, the last ends at data_extent. The plan
  // must be compiled with these boundaries (part_boundaries()), so that no
  // segment spans two parts.
  struct Part {
    std::int64_t first = 0;
    void* base = nullptr;
  };
  void set_parts(std::span<const Part> parts);
  // The compile boundaries of parts, into out: every first but the first
  // part's (out keeps its capacity: no allocation per call).
  static void part_boundaries(std::span<const Part> parts, std::vector<std::int64_t>& out);

  // Runs compiled (plan/compiled.hpp) over MPI: start() posts round 0 and
  // returns; progress() advances without blocking; complete() runs the
  // rest and the end's copies. init: the initial content (same layout as
  // base) when compiled with_initial, else ignored. compiled and the
  // buffers must stay valid until the run ends. Throws MpiError when an
  // MPI call fails.
  void run(const plan::Compiled& compiled, const void* init = nullptr) {
    start(compiled, init, false);
    complete();
  }
  // post_first false: posts nothing (run(): complete() then runs every
  // round, round 0 in the blocking form too).
  void start(const plan::Compiled& compiled, const void* init, bool post_first = true);
  // Advances the run as far as it can without blocking: while the open
  // round's messages have completed (one MPI_Testall; in polling mode also
  // the deferred sends it must wait for), finishes that round and posts the
  // next. True when every round is done and the end's copies have run
  // (complete() then returns at once).
  bool progress();
  void complete();

  // Whether the last run took the resolved form (see above), and how many
  // times this executor has resolved addresses (tests).
  bool resolved() const noexcept { return fast_; }
  int resolutions() const noexcept { return resolutions_; }

 private:
  using Entry = plan::Compiled::Entry;
  using Kind = plan::Compiled::Kind;
  // direct: one segment, no copy; indexed: several segments described by an
  // hindexed datatype over absolute addresses, no copy; staged: copied
  // into / out of scratch with the datatype's layout; packed: MPI_Pack.
  enum class Form : std::uint8_t { none, direct, indexed, staged, packed };
  struct Message {
    Form form = Form::none;
    const Entry* entry = nullptr;
    std::int64_t elements = 0;
    std::byte* buf = nullptr;  // staged: element 0 of the copy; packed: packed bytes
    plan::Segment one;         // segs of a one-segment message
    std::span<const plan::Segment> segs;
  };

  std::byte* at(std::int64_t element) const noexcept {
    if (element >= data_extent_) return offset(groups_, (element - data_extent_) * cfg_.type.extent);
    if (parts_.empty()) return offset(base_, element * cfg_.type.extent);
    std::size_t k = parts_.size() - 1;
    while (k > 0 && parts_[k].first > element) --k;
    return offset(parts_[k].base, (element - parts_[k].first) * cfg_.type.extent);
  }
  const std::byte* init_at(std::int64_t element) const noexcept { return offset(init_, element * cfg_.type.extent); }

  // Posting (executor.cpp).
  void post(const Entry& e);
  void post_send(const Entry& e);
  void post_recv(const Entry& e);
  void post_typed(bool is_send, int peer, std::byte* elem0, std::int64_t elements);
  // Posts m (several segments) as one message of an hindexed datatype when
  // that saves a copy worth more than building the type; false otherwise.
  bool post_indexed(bool is_send, int peer, const Message& m);
  void post_packed(bool is_send, int peer, Message& m);
  int packed_capacity(std::int64_t k, const Message& m);
  // Whether a send of bytes completes in its round (not left to complete in the background).
  bool completes_in_round(std::int64_t bytes) const noexcept {
    return bytes <= kDeferMinBytes || (cfg_.wait == WaitMode::block && (!cfg_.one_node || bytes > kDeferBytes));
  }
  // A message held for the blocking form: one call of count elements.
  struct Held {
    std::byte* buf = nullptr;
    int count = 0;
    int peer = -1;  // -1: none held
  };
  bool hold(bool is_send, int peer, std::byte* buf, std::int64_t elements);  // true: held
  void run_held();
  void post_next();  // posts round next_round_ (independent rounds: the first window of them)
  // Moves next_round_ past the rounds in which this rank neither posts nor
  // applies anything (a tree's leaf before its round). Independent rounds
  // stream through the window whole.
  void skip_empty() noexcept {
    if (run_->independent) return;
    const std::int64_t rounds = run_->rounds();
    while (next_round_ < rounds && next_ == run_->round_end[static_cast<std::size_t>(next_round_)]) ++next_round_;
  }
  // Independent rounds: posts rounds while fewer than a window's requests
  // are in flight. slide(): completes what has arrived and posts rounds in
  // the room it left, until every round is done (block) or nothing more has
  // arrived (false).
  void post_window();
  bool slide(bool block);
  // Waits for (block) or tests once whether any of requests_ has completed
  // (those become MPI_REQUEST_NULL).
  bool some_done(bool block);
  void close_round();  // finishes the open round (waits for what is left)
  void end_run();      // after the last round
  // Applying (executor_apply.cpp).
  void unpack(Message& m, std::byte* dst0);
  void combine(std::byte* in, std::byte* own, std::int64_t count, plan::Action action);
  // Whether a combine of count elements runs in optcoll's own loop (reduce_).
  bool own_loop(std::int64_t count) const noexcept {
    return reduce_ != nullptr && count * cfg_.type.size <= kLocalReduceMaxBytes;
  }
  void finish_recv();
  // The resolved form (executor_resolved.cpp): whether this run takes it
  // (resolving the addresses when they have changed), posting a round's
  // messages from it, and applying its receive once arrived.
  bool resolve();
  void post_resolved(std::size_t end);
  void finish_resolved(std::size_t k);
  void apply(const Entry& e);  // an initial copy or a local piece
  // Entry next_, an initial copy or a local piece (in the resolved form at
  // its resolved addresses).
  void apply_next() {
    const Entry& e = run_->entries[next_];
    if (fast_)
      apply_at(e, posts_[next_].init, posts_[next_].buf);
    else
      apply(e);
  }
  // e (an initial copy or a local piece) at the addresses of its source and
  // destination: to (action)= from for e.count elements.
  void apply_at(const Entry& e, const std::byte* from, std::byte* to);
  // Sends left running (WaitMode::poll, see above).
  struct Deferred {
    MPI_Request request;
    plan::Segment seg;
  };
  static constexpr std::size_t kMaxDeferred = 16;      // sends in flight at most
  static constexpr std::int64_t kDeferMinBytes = 256;  // up to this, sends complete in their round
  // blocking on one node: sends in (kDeferMinBytes, kDeferBytes] complete in the background
  static constexpr std::int64_t kDeferBytes = 32768;
  void defer(MPI_Request r, plan::Segment seg, std::int64_t bytes);
  // Completes the deferred sends that read elements of segs (all if empty).
  void complete_deferred(std::span<const plan::Segment> segs, bool all);

  ExecConfig cfg_;
  const Transport* tr_ = &transport();  // the process's transport when constructed
  LocalReduce reduce_ = nullptr;        // cfg_.op on cfg_.type in optcoll's own loop, if it has one
  const void* owner_ = nullptr;
  std::byte* base_ = nullptr;
  std::byte* groups_ = nullptr;  // element data_extent_ of the working buffer
  std::vector<Part> parts_;      // set_parts(); empty: all at base_
  std::int64_t data_extent_ = 0;
  Scratch* scratch_ = nullptr;
  std::int64_t packed_chunk_bytes_ = -1;  // MPI_Pack_size of one full chunk, computed on demand
  Message out_;
  Message in_;
  std::vector<MPI_Request> requests_;
  std::vector<int> some_;  // MPI_Testsome's indices (some_done())
  std::vector<Deferred> deferred_;
  std::vector<int> index_lengths_;  // post_indexed()
  std::vector<MPI_Aint> index_addresses_;
  const std::byte* init_ = nullptr;
  // The run between start() and its end.
  const plan::Compiled* run_ = nullptr;
  std::int64_t next_round_ = 0;  // the next round to post
  bool round_open_ = false;      // a round is posted and not finished
  std::size_t next_ = 0;         // the next entry
  bool round_writes_ = false;    // the open round receives or applies something
  bool hold_ = false;            // the round being posted takes the blocking form
  Held held_send_;
  Held held_recv_;
  // The resolved form. posts_[k]: entry k's addresses.
  struct Post {
    std::byte* buf = nullptr;         // send: source; receive, initial, local: destination
                                      // (recv_combine: the staging copy)
    std::byte* into = nullptr;        // recv_combine: what it combines into
    const std::byte* init = nullptr;  // recv_initial: the initial content; initial, local: the source
    std::int64_t count = 0;           // (messages: <= chunk <= INT_MAX)
  };
  struct Resolved {                // what posts_ was resolved for
    std::uint64_t id = 0;          // the compilation's Compiled::id (unique to it); 0: none
    bool fits = false;             // the compilation takes the resolved form
    std::int64_t stage_bytes = 0;  // the largest combine's staging copy
    bool addresses = false;        // posts_ holds addresses, resolved in these buffers:
    std::byte* base = nullptr;
    const std::byte* init = nullptr;
    std::byte* groups = nullptr;
    std::byte* stage = nullptr;
  };
  std::vector<Post> posts_;
  Resolved resolved_;
  bool fast_ = false;  // this run takes the resolved form
  int resolutions_ = 0;
  static constexpr std::size_t kNoRecv = ~std::size_t{0};
  std::size_t open_recv_ = kNoRecv;  // the open round's receive (resolved form)
};

}  // namespace optcoll::mpi
