// optcoll's MPI_Reduce_scatter_block and MPI_Reduce_scatter. The working
// buffer is scratch holding the whole vector with the datatype's layout,
// one group per rank (rank g's result in group g, groups adjacent in rank
// order); its initial content is sendbuf (or recvbuf with MPI_IN_PLACE),
// read lazily by the executor (MpiExecutor::set_initial). The chosen plan
// (the circulant allgather reversed, Traff 2024 Obs. 1.4; the rank-ordered
// one for a non-commutative op) leaves group r combined over all ranks at
// rank r, which is then copied to recvbuf.
#include <algorithm>
#include <string>

#include "mpi/collectives/collectives.hpp"
#include "mpi/requests/request.hpp"

namespace optcoll::mpi {
namespace {

// The checks of both, after check_call: own = this rank's result elements.
void check_reduce_scatter(CallInfo& c, const void* sendbuf, void* recvbuf, std::int64_t own, std::int64_t total,
                          MPI_Op op, const Options& options) {
  check_op(op, c);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  check_buffer(in_place ? recvbuf : sendbuf, total, c.type, in_place ? "recvbuf" : "sendbuf");
  check_buffer(recvbuf, own, c.type, "recvbuf");
  check_algorithm_name(plan::Collective::reduce_scatter, options);
}

// groups: the v-variant's (empty: p groups of total / p, the plan's default
// layout, compared by its spec rather than group by group).
void run_reduce_scatter(const CallInfo& c, const void* sendbuf, void* recvbuf, std::vector<plan::Segment> groups,
                        std::int64_t largest, std::int64_t total, MPI_Op op, MPI_Comm comm, const Options& options,
                        detail::Persistent* into) {
  const bool regular = groups.empty();
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const plan::Segment own =
      regular ? plan::Segment{c.rank * largest, largest} : groups[static_cast<std::size_t>(c.rank)];
  if (total == 0 || c.type.size == 0) return;
  const void* input = in_place ? recvbuf : sendbuf;
  if (c.size == 1) {
    if (!in_place) copy_each_start(into, input, recvbuf, own.count, c.type);
    return;
  }
  CommState& s = c.comm_state(comm);
  select::Call call = reduction_call(plan::Collective::reduce_scatter, c, largest);
  call.smallest = largest;
  for (const plan::Segment& g : groups) call.smallest = std::min(call.smallest, g.count);
  call.total = total;
  if (call.smallest < largest) call.doubling = plan::doubling_elements(groups);
  const Choice choice = choose(s, call, options);
  plan::PlanSpec spec;
  spec.op = plan::Collective::reduce_scatter;
  spec.p = c.size;
  spec.commutative = call.commutative;
  spec.blocks = std::clamp<std::int64_t>(choice.blocks, 1, largest);
  void* work = offset(work_buffer(s, into).get(c.type.span_bytes(total)), -c.type.true_lb);
  if (regular) {
    spec.count = total;
    run_plan(into, s, choice, spec, work, c.type, op, input, false);
  } else {
    spec.count = largest;
    const plan::BlockLayout layout(std::move(groups), spec.blocks);
    run_plan(into, s, choice, spec, work, c.type, op, input, false, &layout);
  }
  // Group r ends complete at rank r: every block of it is combined with at
  // least one arriving partial (p > 1), so it was written in work.
  after_each_run(into, [from = offset(work, own.offset * c.type.extent), recvbuf, n = own.count, t = c.type] {
    ByteBuffer tmp;
    copy_elements(from, recvbuf, n, t, tmp);
  });
  release_call_buffers(s);
}

}  // namespace

void reduce_scatter_block_impl(const void* sendbuf, void* recvbuf, std::int64_t recvcount, MPI_Datatype type, MPI_Op op,
                               MPI_Comm comm, const Options& options, detail::Persistent* into,
                               const CallInfo* checked) {
  Agreement agree(comm, plan::Collective::reduce_scatter);
  agree.same_op(op);
  agree.same_count(recvcount);
  agree.same_type(type);
  CallInfo c;
  agree.run([&] {
    c = check_call(comm, recvcount, type, 0, checked);
    check_reduce_scatter(c, sendbuf, recvbuf, recvcount, c.size * recvcount, op, options);
  });
  run_reduce_scatter(c, sendbuf, recvbuf, {}, recvcount, c.size * recvcount, op, comm, options, into);
}

void reduce_scatter_impl(const void* sendbuf, void* recvbuf, std::span<const std::int64_t> recvcounts,
                         MPI_Datatype type, MPI_Op op, MPI_Comm comm, const Options& options, detail::Persistent* into,
                         const CallInfo* checked) {
  Agreement agree(comm, plan::Collective::reduce_scatter);
  agree.same_op(op);
  agree.same_counts(recvcounts);
  agree.same_type(type);
  CallInfo c;
  std::vector<plan::Segment> groups;
  std::int64_t at = 0;
  std::int64_t largest = 0;
  agree.run([&] {
    c = check_call(comm, 0, type, 0, checked);
    const auto p = static_cast<std::size_t>(c.size);
    if (recvcounts.size() < p) throw MpiError(MPI_ERR_ARG, "optcoll: recvcounts needs one entry per rank");
    groups.resize(p);
    for (std::size_t g = 0; g < p; ++g) {
      if (recvcounts[g] < 0)
        throw MpiError(MPI_ERR_COUNT, "optcoll: recvcounts[" + std::to_string(g) +
                                          "] = " + std::to_string(recvcounts[g]) + " is negative");
      groups[g] = {at, recvcounts[g]};
      at += recvcounts[g];
      largest = std::max(largest, recvcounts[g]);
    }
    check_reduce_scatter(c, sendbuf, recvbuf, groups[static_cast<std::size_t>(c.rank)].count, at, op, options);
  });
  run_reduce_scatter(c, sendbuf, recvbuf, std::move(groups), largest, at, op, comm, options, into);
}

}  // namespace optcoll::mpi
