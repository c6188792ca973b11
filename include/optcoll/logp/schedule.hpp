// A LogP/LogGP schedule as data: timed messages and local computations over
// P processors, with what the data must do. Every construction of logp/
// produces one; the event simulator (simulator.hpp) runs it and checks the
// machine rules and the data flow independently of the construction.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "optcoll/logp/params.hpp"

namespace optcoll::logp {

// What travels.
enum class Payload : std::uint8_t {
  items,  // named data items (broadcast problems): a message carries one item
  sums,   // partial sums of operands (reductions): a message carries the
          // sender's whole current value, which the receiver combines into its own
};

// One message. Its send overhead starts at `start`; the receiver gets it
// (items) or has combined it (sums) at start + L + 2o + (bytes-1)G (+ the
// schedule's combine cost).
struct Message {
  std::int64_t start = 0;
  proc_t from = 0;
  proc_t to = 0;
  std::int64_t item = -1;  // Payload::items: the item carried; unused for sums
  std::int64_t bytes = 1;
  bool replace = false;  // Payload::sums: the receiver's value becomes the carried one (a copy
                         // of a finished result) instead of being combined with it
};

// A chain of `count` additions at processor `proc`: during [start + j,
// start + j + 1) it adds operand first + j to its current value (j < count).
struct Compute {
  std::int64_t start = 0;
  proc_t proc = 0;
  std::int64_t first = 0;
  std::int64_t count = 1;
};

// Data present before anything runs.
struct Origin {
  proc_t proc = 0;
  std::int64_t time = 0;   // items: when the item appears at proc (a source generating it)
  std::int64_t first = 0;  // items: the item; sums: first operand of proc's initial value
  std::int64_t count = 1;  // sums: operands first .. first+count-1 (no computation cost)
};

struct Schedule {
  std::string name;
  Params params;
  proc_t P = 0;
  Payload payload = Payload::items;

  // Payload::items: items 0..items-1. Unless `targets` is set, every item
  // must reach every processor; `single_reception` forbids receiving an item
  // a processor already has (the schedules of the paper promise that).
  std::int64_t items = 0;
  bool single_reception = true;
  std::vector<proc_t> targets;  // if non-empty: the processors every item must reach

  // Payload::sums: operands 0..operands-1; at the end every processor in
  // `result_procs` must hold each exactly once (in order 0, 1, ... when not
  // commutative; at least once when idempotent, e.g. max).
  std::int64_t operands = 0;
  std::int64_t combine_cost = 0;  // time to add a received value after its overhead
  bool commutative = true;
  bool idempotent = false;
  std::vector<proc_t> result_procs;

  std::vector<Origin> origins;
  std::vector<Message> messages;
  std::vector<Compute> computes;

  // The construction's claims, which the simulator compares with what it sees.
  std::int64_t lower_bound = -1;          // -1: none known
  std::int64_t promised_completion = -1;  // -1: none
};

}  // namespace optcoll::logp
