// The node layout of a communicator and its two-level machine (see
// comm_state.hpp).
//
// Block placement is agreed with few collectives and O(nodes) memory: each
// node finds its first and last rank of comm (an allreduce on the node);
// its ranks are consecutive iff last - first + 1 is its size. One
// allreduce over comm counts the nodes (their first ranks) and the nodes
// that are not consecutive; only where all are and there are several nodes
// with some node holding several ranks does an exclusive prefix sum
// (exclusive_sum: log2 p rounds) number the nodes and one allreduce of a
// vector of node sizes give every rank every size. Any
// other placement (round-robin) yields no layout: the flat plans, which are
// right on any placement.
#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "mpi/comm/comm_state.hpp"

namespace optcoll::mpi {

std::int64_t exclusive_sum(MPI_Comm comm, std::int64_t x) {
  int rank = 0, size = 1;
  check(PMPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check(PMPI_Comm_size(comm, &size), "MPI_Comm_size");
  std::int64_t inclusive = x;  // after the round of distance d: x of ranks rank - 2d + 1 .. rank
  for (std::int64_t d = 1; d < size; d *= 2) {
    const std::int64_t out = inclusive;
    std::int64_t in = 0;
    std::array<MPI_Request, 2> req{MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    if (rank >= d) check(PMPI_Irecv(&in, 1, MPI_INT64_T, static_cast<int>(rank - d), kTag, comm, &req[0]), "MPI_Irecv");
    if (rank + d < size)
      check(PMPI_Isend(&out, 1, MPI_INT64_T, static_cast<int>(rank + d), kTag, comm, &req[1]), "MPI_Isend");
    check(PMPI_Waitall(2, req.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    inclusive += in;
  }
  return inclusive - x;
}

std::optional<plan::NodeLayout> node_layout(MPI_Comm comm, MPI_Comm node) {
  int rank = 0, size = 1, local_size = 1;
  check(PMPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check(PMPI_Comm_size(comm, &size), "MPI_Comm_size");
  check(PMPI_Comm_size(node, &local_size), "MPI_Comm_size");
  std::array<int, 2> span{-rank, rank};  // maxima: -first, last
  check(PMPI_Allreduce(MPI_IN_PLACE, span.data(), 2, MPI_INT, MPI_MAX, node), "MPI_Allreduce");
  const int first = -span[0];
  const bool leader = rank == first;
  const bool consecutive = span[1] - first + 1 == local_size;
  // Nodes, and nodes whose ranks are not consecutive.
  std::array<std::int64_t, 2> agree{leader ? 1 : 0, consecutive ? 0 : 1};
  check(PMPI_Allreduce(MPI_IN_PLACE, agree.data(), 2, MPI_INT64_T, MPI_SUM, comm), "MPI_Allreduce");
  const std::int64_t nodes = agree[0];
  // One node, or one rank per node: nothing for a node-aware plan.
  if (agree[1] != 0 || nodes <= 1 || nodes >= size) return std::nullopt;
  const std::int64_t index = exclusive_sum(comm, leader ? 1 : 0);  // a leader's: its node's number
  std::vector<plan::rank_t> sizes(static_cast<std::size_t>(nodes), 0);
  if (leader) sizes[static_cast<std::size_t>(index)] = local_size;
  check(PMPI_Allreduce(MPI_IN_PLACE, sizes.data(), static_cast<int>(nodes), MPI_INT64_T, MPI_SUM, comm),
        "MPI_Allreduce");
  // Equal nodes but maybe a smaller last one: the O(1) form.
  const bool equal = std::all_of(sizes.begin(), sizes.end() - 1, [&](plan::rank_t k) { return k == sizes[0]; }) &&
                     sizes.back() <= sizes[0];
  if (equal) return plan::NodeLayout::equal(size, sizes[0]);
  return plan::NodeLayout::of_sizes(std::move(sizes));
}

bool knows_two_level(const CommState& s) noexcept {
  return s.nodes && (s.settings.two_level[0] > 0 || !s.one_node);
}

const model::TwoLevel& two_level_model(CommState& s) {
  if (s.two_level) return *s.two_level;
  const std::array<double, 4>& t = s.settings.two_level;
  model::TwoLevel m;
  if (t[0] > 0) {
    m.in = {t[0], t[1]};
    m.out = {t[2], t[3]};
  } else {
    m = calibrate_two_level(s);
  }
  s.two_level = m;
  return *s.two_level;
}

}  // namespace optcoll::mpi
