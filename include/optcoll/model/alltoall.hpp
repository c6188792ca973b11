// Alpha-beta prices of the personalized exchanges (communication-primitives
// notes §8-9), for the MPI layer's choice between the shift schedule and
// Bruck's algorithm and for the cost table (`optcoll model`). The simulator
// reproduces these numbers for the plans (tests/alltoall/).
#pragma once

#include <cstdint>

#include "optcoll/model/block_count.hpp"

namespace optcoll::model {

// Rounds of a schedule whose rounds are independent (the shift schedule)
// that the MPI executor keeps in flight at once: a sliding window.
inline constexpr std::int64_t kRoundsInFlight = 64;

// The shift schedule (notes §8.2): p-1 rounds of one block of `block`
// bytes. With o unknown, in lockstep: (p-1)(alpha + beta block),
// O(tau p + mu m p) with m = block. With o known, streamed as the MPI
// executor runs it (kRoundsInFlight rounds in flight). A rank spends
// 2(p-1) o on its messages (it sends and receives p-1), the first
// message's latency hidden behind them; and its last message arrives no
// sooner than one latency after the others were posted, its (p-1) block
// bytes went through its port, and the windows that follow the first
// waited a latency each:
//     max(2 (p-1) o, alpha + max((p-2) o, (p-1) beta block, (ceil((p-1)/W) - 1) alpha)).
// (Checked against SimGrid/SMPI: docs/decisions/exchange-rounds-in-flight.md.)
double alltoall_shift_time(std::int64_t p, std::int64_t block, const AlphaBeta& ab) noexcept;

// Blocks Bruck's algorithm moves in round t: the k in [1, p) with bit t set.
std::int64_t alltoall_bruck_blocks(std::int64_t p, int t) noexcept;

// Bruck / hypercubic (notes §8.3): ceil(log2 p) rounds, round t moving
// alltoall_bruck_blocks(p, t) blocks: O(tau log p + mu m p log p).
double alltoall_bruck_time(std::int64_t p, std::int64_t block, const AlphaBeta& ab) noexcept;

// Whether Bruck's algorithm is modelled faster than the shift schedule
// (ties: the shift schedule, which moves every block once).
bool alltoall_prefers_bruck(std::int64_t p, std::int64_t block, const AlphaBeta& ab) noexcept;

// The block size in bytes below which Bruck wins (0 when it never does,
// p <= 2): the crossover of the two prices (in lockstep, where both are
// linear in block, in closed form; streamed, to the byte).
double alltoall_crossover_bytes(std::int64_t p, const AlphaBeta& ab) noexcept;

// Two-phase many-to-many (notes §9) with largest send volume S and receive
// volume R over all ranks (bytes): 2(p-1) rounds, a phase-1 round moving at
// most S/p + p bytes per message (rounding), a phase-2 round R/p + p: the
// notes' O(tau p + mu (R + S + p^2)), as an upper estimate in lockstep. The
// direct schedule costs at least (p-1) alpha + beta max(S, R) and, in
// lockstep, the sum over rounds of the largest message of each round.
double many_to_many_two_phase_time(std::int64_t p, std::int64_t max_send, std::int64_t max_recv,
                                   const AlphaBeta& ab) noexcept;

}  // namespace optcoll::model
