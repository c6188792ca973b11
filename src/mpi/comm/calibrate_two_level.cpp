// Measuring the two levels of the node-aware plans' machine
// (model/two_level.hpp) on a communicator whose ranks span nodes.
//
// Each level is timed with the messages the node-aware plans send on it,
// as calibrate() times the flat rounds:
//  - within a node: every node's ranks in a ring (local rank l sends to
//    l + 1 and receives from l - 1, mod the node's size), every node at
//    once, so the node's memory carries as many messages as in the plans'
//    node phases;
//  - through the port: one rank per node (its first) in a ring of the
//    nodes, so each port carries one message each way (what a lane phase
//    costs a node per lane).
// Phases of kRounds rounds for 8 B, 16 KiB and 64 KiB messages, each
// after an untimed phase of the same size (the skew of the phase before
// stays there), kReps repetitions with the first a warm-up, the median per
// rank, the maximum over ranks (one allreduce: every rank agrees). Then,
// per level, beta = the slope between 16 and 64 KiB and alpha = the larger
// of the 8-byte round and the line's intercept, as calibrate() does.
// Cost: 2 x 3 x 2 x kReps x kRounds rounds, once per communicator.
#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "mpi/comm/calibrate_rounds.hpp"
#include "mpi/comm/comm_state.hpp"

namespace optcoll::mpi {
namespace {

using calibration::kSizes;
using calibration::line;
using calibration::median;
constexpr int kReps = 8;
constexpr int kRounds = 4;

// This rank's ring on a level: whom it sends to and receives from; none
// (-1) when it takes no part.
struct Ring {
  int to = -1;
  int from = -1;
};

Ring ring_of(const CommState& s, bool port) {
  const plan::NodeLayout& nodes = *s.nodes;
  const plan::rank_t node = nodes.node_of(s.rank);
  const plan::rank_t first = nodes.first(node);
  if (port) {
    if (s.rank != first) return {};
    const plan::rank_t n = nodes.nodes();
    return {static_cast<int>(nodes.first((node + 1) % n)), static_cast<int>(nodes.first((node + n - 1) % n))};
  }
  const plan::rank_t k = nodes.size(node);
  if (k < 2) return {};
  const plan::rank_t l = s.rank - first;
  return {static_cast<int>(first + (l + 1) % k), static_cast<int>(first + (l + k - 1) % k)};
}

// Seconds per round of kRounds ring rounds of `bytes`; 0 outside the ring.
double ring_time(const CommState& s, const Ring& ring, std::int64_t bytes, std::byte* send, std::byte* recv) {
  if (ring.to < 0) return 0;
  return calibration::rounds_time(s, kRounds, bytes, send, recv, [&](int) { return std::pair{ring.to, ring.from}; });
}

}  // namespace

model::TwoLevel calibrate_two_level(const CommState& s) {
  const std::array<Ring, 2> rings{ring_of(s, false), ring_of(s, true)};
  std::vector<std::byte> send(static_cast<std::size_t>(kSizes.back()), std::byte{1});
  std::vector<std::byte> recv(static_cast<std::size_t>(kSizes.back()));
  std::array<std::array<double, kReps>, 2 * kSizes.size()> times{};
  for (int rep = 0; rep < kReps; ++rep) {
    check(PMPI_Barrier(s.comm), "MPI_Barrier");  // every repetition from a common start
    for (std::size_t level = 0; level < rings.size(); ++level)
      for (std::size_t i = 0; i < kSizes.size(); ++i) {
        ring_time(s, rings[level], kSizes[i], send.data(), recv.data());
        times[level * kSizes.size() + i][static_cast<std::size_t>(rep)] =
            ring_time(s, rings[level], kSizes[i], send.data(), recv.data());
      }
  }
  std::array<double, 2 * kSizes.size()> t{};
  for (std::size_t i = 0; i < t.size(); ++i) t[i] = median(times[i]);
  check(PMPI_Allreduce(MPI_IN_PLACE, t.data(), static_cast<int>(t.size()), MPI_DOUBLE, MPI_MAX, s.comm),
        "MPI_Allreduce");
  model::TwoLevel m;
  m.in = line(t.data());
  m.out = line(t.data() + kSizes.size());
  return m;
}

}  // namespace optcoll::mpi
