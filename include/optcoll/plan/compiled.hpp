// Compiled plans: one rank's plan as a flat list, per round, of the messages
// it posts (peer, element segments) and of what it does with the round's data
// (combine steps, local copies and combinations, copies of initial content).
// compile() walks the plan once (plan::run, as every executor does), resolves
// block runs to element segments, and decides where each message reads and
// writes; the MPI executor (mpi/executor/executor.hpp) and the simulator
// (sim/compiled.hpp) then run the list without walking the plan again.
//
// Initial content (CompileOptions::with_initial): a reduction's contribution
// is the caller's read-only send buffer, not the working buffer. Blocks are
// then copied in only when first written:
//  - a block sent before anything arrives for it is sent from the initial
//    content (send_initial);
//  - a block first overwritten (a copy receive) needs no copy;
//  - a block first combined with an arriving one, by combine_after or by
//    combine_before with a commutative operator, is received into the
//    working buffer and computed there as initial (+) in (recv_initial);
//    combine_before gives in (+) initial, the same value for a commutative
//    operator;
//  - anything else copies the blocks it touches first (initial);
//  - with `complete`, the blocks still untouched are copied at the end.
// This saves the copy of the whole input that a reduction otherwise starts
// with. Invariant (tests/sim/test_compiled.cpp): running the compiled plan
// leaves every data element with the value a walk of the plan over a buffer
// that starts with the initial content gives it.
//
// Segments. A message's blocks become element segments in order, adjacent
// ones merged, split where the caller's buffer ends (the plan's scratch
// groups live elsewhere) and at the boundaries of the caller's memory areas
// (CompileOptions::boundaries). A local operation becomes pieces, each one
// segment at both ends.
//
// Size: O(rounds + segments + pieces) entries; compile() is O(the plan's
// steps), what one walk of the plan costs.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "optcoll/plan/plan.hpp"

namespace optcoll::plan {

struct CompileOptions {
  bool with_initial = false;  // the data's initial content is elsewhere (see above)
  bool commutative = true;    // the operator (with_initial: whether combine_before may read initial (+) in)
  bool complete = true;       // with_initial: every data block holds its value at the end
  // Elements where the caller's buffer changes memory area (ascending, each
  // in (0, data_extent)): no segment crosses one.
  std::span<const std::int64_t> boundaries{};
  // The plan's messages are all final deliveries (AlgorithmInfo::
  // final_messages): Compiled::independent may be set.
  bool final_messages = false;
  // Independent rounds in flight at most (0: the executor's default; the
  // linear gather's root takes all of them at once, as MPI libraries do).
  std::int64_t in_flight = 0;
};

struct Compiled {
  enum class Kind : std::uint8_t {
    send,          // a message from the working buffer
    send_initial,  // a message from the initial content (one segment)
    recv,          // a message into the working buffer (a copy)
    recv_initial,  // into the working buffer (one segment), then buffer = initial (+) buffer
    recv_combine,  // into scratch, then combined into the buffer as `action` says
    initial,       // buffer[at, +count) = initial[at, +count)
    local,         // buffer[at, +count) (action)= buffer[from, +count)
  };
  struct Entry {
    Kind kind = Kind::send;
    Action action = Action::copy;
    std::int32_t segs = 1;  // messages: segments; 1: [at, at + count), else segments[from, from + segs)
    rank_t peer = 0;
    std::int64_t at = 0;
    std::int64_t from = 0;
    std::int64_t count = 0;  // elements (of the whole message)
  };
  std::vector<Entry> entries;
  std::vector<Segment> segments;  // of the messages with several segments
  // Round r posts entries [round_end[r-1], apply[r]) (the receive, the send,
  // and copies of initial content they need first, in that order) and,
  // once its messages have completed, does [apply[r], round_end[r]);
  // the entries after the last round are the end's copies.
  std::vector<std::size_t> apply;
  std::vector<std::size_t> round_end;
  std::int64_t largest = 0;  // elements of the largest message
  std::int64_t data_extent = 0;
  std::int64_t extent = 0;  // the layout's: elements beyond data_extent are scratch
  // Whether its rounds may all be in flight at once: compiled with
  // final_messages, every message one segment moved straight out of or
  // into the buffer (or sent from the initial content), every other entry
  // a local copy, and no entry writes elements that another reads or
  // writes (the shift schedule of an exchange: each round sends its own
  // send piece and receives into its own receive piece). The last round's
  // steps and the end's copies are exempt: they run once every message has
  // completed, as they do round by round (the linear scan folds there what
  // all its rounds received). compile() checks it from the entries,
  // O(E log E).
  bool independent = false;
  // The options it was compiled with.
  bool with_initial = false;
  bool commutative = true;
  bool complete = true;
  bool final_messages = false;
  std::int64_t in_flight = 0;
  std::vector<std::int64_t> boundaries;
  // A fresh value at every compile() and compile_exchange() (never 0): an
  // executor that resolved this compilation's addresses knows when they no
  // longer fit (a Compiled reused for another compilation keeps its address).
  std::uint64_t id = 0;

  std::int64_t rounds() const noexcept { return static_cast<std::int64_t>(round_end.size()); }
  // The segments of message e (one: written to `one`).
  std::span<const Segment> segments_of(const Entry& e, Segment& one) const noexcept {
    if (e.segs == 1) {
      one = {e.at, e.count};
      return {&one, 1};
    }
    return {segments.data() + e.from, static_cast<std::size_t>(e.segs)};
  }
  static constexpr bool is_message(Kind k) noexcept { return k <= Kind::recv_combine; }
  static constexpr bool is_send(Kind k) noexcept { return k == Kind::send || k == Kind::send_initial; }
  // Whether this was compiled with these options.
  bool compiled_for(const CompileOptions& o) const noexcept {
    if (with_initial != o.with_initial || final_messages != o.final_messages || in_flight != o.in_flight ||
        boundaries.size() != o.boundaries.size())
      return false;
    if (with_initial && (commutative != o.commutative || complete != o.complete)) return false;
    for (std::size_t k = 0; k < boundaries.size(); ++k)
      if (boundaries[k] != o.boundaries[k]) return false;
    return true;
  }
};

// Compiles plan for its rank. Throws optcoll::Error (internal) when the plan
// breaks the contract: an invalid run, two sends or receives in a round,
// local operations joining runs of different sizes, a send of part of a
// block the round first combines into.
Compiled compile(const RankPlan& plan, const CompileOptions& options);
// The same into c, reusing its capacity.
void compile(const RankPlan& plan, const CompileOptions& options, Compiled& c);

// A compiled plan of one round over a buffer of `extent` elements: it sends
// elements `send` to `to` and receives elements `recv` from `from` (a copy
// receive). A peer < 0 or an empty segment means no such message. It serves
// data whose lengths are known only round by round, so that no plan can be
// compiled in advance (the merge all-reduction's growing runs,
// mpi/collectives/allmerge.cpp); the executors run it like any compiled plan. Into c,
// reusing its capacity; O(1). Throws optcoll::Error (internal) when a
// segment leaves [0, extent) or the two overlap.
void compile_exchange(rank_t to, Segment send, rank_t from, Segment recv, std::int64_t extent, Compiled& c);

}  // namespace optcoll::plan
