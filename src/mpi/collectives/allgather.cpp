// optcoll's MPI_Allgather and MPI_Allgatherv: the chosen allgather plan run
// in place on recvbuf, whose groups (one per rank, at the caller's
// displacements) are the plan's layout. A rank's own contribution is copied
// into its group first (unless MPI_IN_PLACE); the plan then moves every
// other group (Traff 2024, Algorithm 7: p circulant broadcasts at once).
//
// Every rank must pass the same recvcount(s), displacements and recvtype:
// the groups are split into blocks by element (MPI itself requires only
// matching type signatures).
#include <algorithm>
#include <string>

#include "mpi/collectives/collectives.hpp"
#include "mpi/requests/request.hpp"

namespace optcoll::mpi {
namespace {

// The part shared by both: own copy, then the plan on the layout.
// groups: element offsets relative to base (empty: p groups of `largest`
// elements, the plan's default layout, compared by its spec rather than
// group by group); bytes: all groups' data.
void run_allgather(const CallInfo& c, const void* sendbuf, std::int64_t sendcount, const TypeInfo& st, void* base,
                   std::vector<plan::Segment> groups, std::int64_t largest, std::int64_t bytes, MPI_Comm comm,
                   const Options& options, detail::Persistent* into) {
  const bool regular = groups.empty();
  const plan::Segment own =
      regular ? plan::Segment{c.rank * largest, largest} : groups[static_cast<std::size_t>(c.rank)];
  if (sendbuf != MPI_IN_PLACE) {
    before_each_run(into,
                    [sendbuf, sendcount, st, to = offset(base, own.offset * c.type.extent), n = own.count, t = c.type] {
                      ByteBuffer tmp;
                      copy_typed(sendbuf, sendcount, st, to, n, t, tmp);
                    });
  }
  if (c.size == 1 || bytes == 0) return;
  CommState& s = c.comm_state(comm);
  std::int64_t smallest = largest;
  for (const plan::Segment& g : groups) smallest = std::min(smallest, g.count);
  const Choice choice = choose(s,
                               {.op = plan::Collective::allgather,
                                .p = c.size,
                                .elem_size = c.type.size,
                                .count = largest,
                                .smallest = smallest,
                                .total = bytes / c.type.size,
                                .doubling = smallest < largest ? plan::doubling_elements(groups) : -1},
                               options);
  plan::PlanSpec spec;
  spec.op = plan::Collective::allgather;
  spec.p = c.size;
  spec.blocks = std::clamp<std::int64_t>(choice.blocks, 1, largest);
  if (regular) {
    spec.count = c.size * largest;
    run_plan(into, s, choice, spec, base, c.type, MPI_OP_NULL);
  } else {
    spec.count = largest;
    const plan::BlockLayout layout(std::move(groups), spec.blocks);
    run_plan(into, s, choice, spec, base, c.type, MPI_OP_NULL, nullptr, true, &layout);
  }
}

// OPTCOLL_CHECK: the own send matches the own part of recvbuf.
void own_block(Agreement& agree, const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype,
               std::int64_t recvcount, MPI_Datatype recvtype) {
  if (sendbuf == MPI_IN_PLACE) return;
  agree.sends(agree.rank(), sendtype, sendcount);
  agree.receives(agree.rank(), recvtype, recvcount);
}

// Checks of the send side of the call c; returns its TypeInfo (empty when
// in place).
TypeInfo check_send(const CallInfo& c, const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype) {
  if (sendbuf == MPI_IN_PLACE) return {};
  const TypeInfo st = check_type(c, sendcount, sendtype);
  check_buffer(sendbuf, sendcount, st, "sendbuf");
  return st;
}

}  // namespace

void allgather_impl(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                    std::int64_t recvcount, MPI_Datatype recvtype, MPI_Comm comm, const Options& options,
                    detail::Persistent* into, const CallInfo* checked) {
  Agreement agree(comm, plan::Collective::allgather);
  agree.same_count(recvcount);
  agree.same_type(recvtype);
  own_block(agree, sendbuf, sendcount, sendtype, recvcount, recvtype);
  TypeInfo st;
  CallInfo c;
  agree.run([&] {
    c = check_call(comm, recvcount, recvtype, 0, checked);
    st = check_send(c, sendbuf, sendcount, sendtype);
    check_buffer(recvbuf, recvcount, c.type, "recvbuf");
    check_algorithm_name(plan::Collective::allgather, options);
  });
  run_allgather(c, sendbuf, sendcount, st, recvbuf, {}, recvcount, c.size * recvcount * c.type.size, comm, options,
                into);
}

void allgatherv_impl(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                     std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> displs,
                     MPI_Datatype recvtype, MPI_Comm comm, const Options& options, detail::Persistent* into,
                     const CallInfo* checked) {
  Agreement agree(comm, plan::Collective::allgather);
  agree.same_counts(recvcounts);
  agree.same_type(recvtype);
  if (agree.active() && recvcounts.size() > static_cast<std::size_t>(agree.rank()))
    own_block(agree, sendbuf, sendcount, sendtype, recvcounts[static_cast<std::size_t>(agree.rank())], recvtype);
  TypeInfo st;
  CallInfo c;
  std::int64_t lowest = 0;
  std::int64_t largest = 0;
  std::int64_t total = 0;
  agree.run([&] {
    c = check_call(comm, 0, recvtype, 0, checked);
    st = check_send(c, sendbuf, sendcount, sendtype);
    const auto p = static_cast<std::size_t>(c.size);
    if (recvcounts.size() < p || displs.size() < p)
      throw MpiError(MPI_ERR_ARG, "optcoll: recvcounts and displs need one entry per rank");
    // Displacements may be negative or in any order: the layout's offsets
    // are taken from the lowest displacement of a non-empty group.
    bool any = false;
    for (std::size_t g = 0; g < p; ++g) {
      if (recvcounts[g] < 0)
        throw MpiError(MPI_ERR_COUNT, "optcoll: recvcounts[" + std::to_string(g) +
                                          "] = " + std::to_string(recvcounts[g]) + " is negative");
      if (recvcounts[g] == 0) continue;
      lowest = any ? std::min(lowest, displs[g]) : displs[g];
      any = true;
      largest = std::max(largest, recvcounts[g]);
      total += recvcounts[g];
    }
    check_buffer(recvbuf, total, c.type, "recvbuf");
    check_algorithm_name(plan::Collective::allgather, options);
  });
  const auto p = static_cast<std::size_t>(c.size);
  std::vector<plan::Segment> groups(p);
  for (std::size_t g = 0; g < p; ++g)
    if (recvcounts[g] > 0) groups[g] = {displs[g] - lowest, recvcounts[g]};
  void* base = offset(recvbuf, lowest * c.type.extent);
  run_allgather(c, sendbuf, sendcount, st, base, std::move(groups), largest, total * c.type.size, comm, options, into);
}

}  // namespace optcoll::mpi
