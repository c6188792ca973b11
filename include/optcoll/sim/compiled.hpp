// Running compiled plans (plan/compiled.hpp) over p virtual ranks, element
// by element, as the MPI executor runs them over MPI: the same entries, the
// same initial content, the same order within a round (posts, then the
// receive's combine step, then the local pieces, then the end's copies).
//
// Every element holds a 64-bit value standing for an expression: the
// caller's initial values, combined by a fingerprint of the two operands in
// order (for a commutative operator, in a canonical order, so that a (+) b
// and b (+) a are the same value, as they are bit for bit for MPI's
// commutative operators). Two elements with the same value hold the same
// expression (up to 64-bit hash collisions). A send carries its sender's
// values at the time it is posted.
//
// What it checks, as errors: every send is received by its peer in the same
// round with as many elements, and every receive has its send; a rank does
// not receive straight into elements it sends in the same round (MPI
// forbids touching a send buffer in flight); all ranks have the same number
// of rounds; entries name elements inside the working buffer.
//
// Time and memory O(p * (entries + elements)).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "optcoll/plan/compiled.hpp"

namespace optcoll::sim {

struct CompiledRun {
  // Per rank: the data elements [0, data_extent) of its working buffer at
  // the end.
  std::vector<std::vector<std::uint64_t>> buffers;
  std::int64_t rounds = 0;
  std::int64_t messages = 0;
  std::int64_t total_elements = 0;  // over all messages
  std::vector<std::string> errors;
  bool ok() const noexcept { return errors.empty(); }
};

// The value of a (+) b (a the left operand).
std::uint64_t combine_values(std::uint64_t a, std::uint64_t b, bool commutative) noexcept;

// Runs ranks[r] (rank r's compiled plan) for every rank. initial[r]: rank
// r's initial content, its data_extent elements: the working buffer's
// content at the start, or, for a plan compiled with_initial, the separate
// initial content (the buffer's data elements then start as a value that
// no expression has). Elements beyond data_extent (scratch) start likewise.
CompiledRun run_compiled(std::span<const plan::Compiled> ranks, std::span<const std::vector<std::uint64_t>> initial,
                         bool commutative);

}  // namespace optcoll::sim
