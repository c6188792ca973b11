// The MPI executor: runs a compiled plan (plan/compiled.hpp) over MPI
// point-to-point. It holds no algorithm and walks no plan; it only moves,
// copies and combines the element segments the compiled plan names.
//
// Round-synchronous: a round's receive and send are posted (PMPI_Irecv,
// PMPI_Isend), then completed, then the receive's combine step and the
// round's local pieces are applied. All MPI calls are PMPI_* so that a PMPI
// interposition library can wrap MPI_Bcast/MPI_Reduce with optcoll without
// recursing into itself.
//
// Working buffer: element e < data_extent is at base + e*extent (the
// caller's buffer, or its parts); elements beyond, the plan's scratch
// groups, live in executor scratch with the same layout. The initial
// content, when the plan was compiled with it, is read at init + e*extent
// and never written.
//
// A message is the compiled plan's element segments, in order:
//  - one segment: sent / received straight from / into the buffer with the
//    datatype (any datatype);
//  - several segments: one hindexed datatype over them when the message is
//    large enough to pay for building it; otherwise, contiguous type:
//    memcpy-packed into scratch and sent as elements of the datatype,
//    received likewise and memcpy-unpacked; non-contiguous type: MPI_Pack'ed
//    and sent as MPI_PACKED, received as MPI_PACKED and MPI_Unpack'ed.
//    The two ends may choose differently for the same blocks: a typed
//    message matches an MPI_PACKED receive and vice versa.
//  - combine steps receive into a scratch copy with the datatype's layout,
//    then MPI_Reduce_local: combine_before (own = in (+) own) is
//    Reduce_local(in, own); combine_after (own = own (+) in) is
//    Reduce_local(own, in) followed by a datatype-aware copy in -> own, so
//    that the holes of a user buffer are never written. recv_initial
//    receives into the buffer and computes Reduce_local(initial, buffer).
//    A predefined operator on a predefined type, up to kLocalReduceMaxBytes,
//    is optcoll's own loop instead (mpi/executor/local_reduce.hpp), written straight
//    into own (such a type has no holes).
//
// Polling (WaitMode::poll, an oversubscribed node): sends of more than
// kDeferMinBytes straight from the buffer (one segment, one chunk) are not
// waited for at the end of their round (smaller ones complete when posted,
// below, in either mode): they complete in the background (a sender on an oversubscribed
// node otherwise waits a whole scheduling cycle for the receiver) and are
// completed before a later receive or local operation writes into their
// blocks, when more than 16 are pending, and at the end of the plan.
// Blocking (a rank per core), every message completes in its round, as the
// plans' round model has it: a send left running shares the sender's link
// with the next round's, which delays the earlier one and whoever waits for
// it (under SimGrid/SMPI on a fat tree this made a 1 MiB binomial Bcast on
// 256 ranks 3.4x slower than the same tree with completed sends; docs/smpi.md).
// Except, when every rank is on one node (ExecConfig::one_node: no link to
// share), sends of a middle size (kDeferMinBytes, kDeferBytes], which are
// left to complete as when polling: on shared memory such a send completes
// only once the receiver has taken it (Open MPI's vader returns the
// fragment; from 4 KiB the rendezvous), so waiting for it costs each round
// a round trip (16 cores, np 8, a Bcast of 512 B - 2 KiB: 1.3-1.7x native
// waiting, 0.86-0.99x not; 8 KiB: 1.36x waiting, 1.01x not;
// docs/benchmarks/one-rank-per-core.md). Smaller sends complete when posted
// (vader sends up to 256 B inline), and keeping them costs more than it
// saves (an 8 B Allreduce: 1.18x -> 1.30x). Across nodes the link matters:
// under SMPI, fat tree, a 64 KiB Bcast (two 32 KiB blocks) took twice as
// long with its sends deferred (p = 256: 52.3 -> 104.8 us). Receives, and
// sends from scratch, complete in their round.
//
// A message of E elements travels as ceil(E / chunk) messages of at most
// chunk elements (chunk <= INT_MAX), matched in order (MPI's non-overtaking
// rule on one communicator and tag); both ends cut the element stream at the
// same places whatever form they use. Empty messages are not compiled at
// either end (both know the layout). One-ported: at most one send and one
// receive per round.
//
// Blocking form. The rounds complete() runs (every round of a blocking
// call, all but round 0 of a request) post a message that is one MPI call
// of at most chunk elements, straight from / into the buffer or scratch,
// as PMPI_Send, PMPI_Recv or, with one of each, PMPI_Sendrecv, after the
// round's other messages are posted: the same matching and completion as
// the nonblocking calls plus a wait (a round waits for all its messages
// anyway), without a request, its free list and the Testall / Waitall over
// it (Open MPI's blocking receive reuses one request, and its send of a few
// bytes goes out inline). Not while polling, not for sends left to
// complete in the background, not for independent rounds, and not while
// other requests are running (a wait must advance them; wait_all()).
//
// Resolved form (executor_resolved.cpp). When every message of a compiled
// plan is one segment, one MPI call, straight from / into its place (or a
// staging copy for a combine), and completes in its round, the executor
// resolves each message's address, count and combine operand, and each
// local step's source and destination, once, and later runs of the same
// compilation on the same buffers post and apply from that list: no
// segments, forms or address arithmetic per entry. Small
// messages, the case where the executor's own instructions are a call's
// cost, are all of this kind (an 8 B persistent Allreduce at np 8 on 2
// cores: 2400-2900 of optcoll's own instructions per call before, 1300-1700
// after; docs/benchmarks/requests.md). A run is resolved again when the
// compilation (Compiled::id), the buffers or the scratch it stages into
// have changed.
//
// Independent rounds (Compiled::independent: the shift schedule of
// Alltoall(v), the linear Gather(v)/Scatter(v) and Scan/Exscan) stream
// through a sliding window: up to model::kRoundsInFlight rounds (or
// Compiled::in_flight) are posted, and each completed request makes room
// for the next round; the last round's steps (the linear scan's fold) run
// after every message has completed. No
// round waits for the one before, so a rank streams its messages back to
// back instead of paying a latency per round. MPICH's Alltoall(v) posts
// batches of 32 (MPIR_CVAR_ALLTOALL_THROTTLE) and waits for each batch,
// which costs a latency per batch; the window does not. Under SMPI, fat
// tree, p = 64: an 8 B Alltoallv 230 us one round at a time, 25 us in
// batches; a 1 MiB Alltoall 99 us in batches, 87 us with the window
// (docs/decisions/exchange-rounds-in-flight.md).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <span>
#include <vector>

#include "mpi/executor/datatype.hpp"
#include "mpi/executor/local_reduce.hpp"
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
  LocalReduce reduce_ = nullptr;  // cfg_.op on cfg_.type in optcoll's own loop, if it has one
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
