// The pieces the calibrations share (calibrate.cpp: the flat rounds;
// calibrate_two_level.cpp: the two levels of the node-aware plans;
// calibrate_logp.cpp: the median): the message sizes, timed phases of
// rounds with every rank sending and receiving at once, the median of
// repetitions after a warm-up, and the alpha-beta line through the three
// sizes' round times.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "mpi/comm/comm_state.hpp"

namespace optcoll::mpi::calibration {

// 8 B (a round's latency), 16 and 64 KiB (beyond every eager limit, where
// pipelined blocks live): t0, t1, t2.
inline constexpr std::array<std::int64_t, 3> kSizes{8, 16 << 10, 64 << 10};

// Seconds per round of `rounds` rounds of `bytes`, round k sending to
// peers(k).first and receiving from peers(k).second.
template <class Peers>
double rounds_time(const CommState& s, int rounds, std::int64_t bytes, std::byte* send, std::byte* recv, Peers peers) {
  const double t0 = PMPI_Wtime();
  for (int k = 0; k < rounds; ++k) {
    const auto [to, from] = peers(k);
    std::array<MPI_Request, 2> req{MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    check(PMPI_Irecv(recv, static_cast<int>(bytes), MPI_BYTE, from, kTag, s.comm, &req[0]), "MPI_Irecv");
    check(PMPI_Isend(send, static_cast<int>(bytes), MPI_BYTE, to, kTag, s.comm, &req[1]), "MPI_Isend");
    wait_all(req, s.wait, s.spin);
  }
  return (PMPI_Wtime() - t0) / rounds;
}

// The median of t[1..], t[0] being the warm-up.
template <std::size_t N>
double median(std::array<double, N>& t) {
  std::sort(t.begin() + 1, t.end());
  return t[1 + (N - 1) / 2];
}

// beta = the slope between 16 and 64 KiB; alpha = the larger of the 8-byte
// round and the line's intercept at 0 (a block-sized message's round,
// rendezvous included).
inline model::AlphaBeta line(const double* t) {
  const double beta = std::max((t[2] - t[1]) / static_cast<double>(kSizes[2] - kSizes[1]), 1e-13);
  return {std::max({t[0], t[1] - beta * static_cast<double>(kSizes[1]), 1e-7}), beta};
}

}  // namespace optcoll::mpi::calibration
