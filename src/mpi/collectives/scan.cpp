// optcoll's MPI_Scan and MPI_Exscan. The working buffer is recvbuf; its
// initial content is sendbuf (read lazily, MpiExecutor::set_initial) or
// recvbuf itself with MPI_IN_PLACE. Exscan's rank 0 has no result (MPI
// leaves its recvbuf undefined); optcoll leaves it untouched: rank 0 works
// in communicator scratch, which only its sends read.
//
// Algorithm (select::decide, the registry's prices), unless Options or
// OPTCOLL_SCAN / OPTCOLL_EXSCAN name one: the alpha-beta model picks between
//   doubling  ceil(log2 p) rounds of the whole vector: q (alpha + beta m)
//   pipeline  the chain 0 -> ... -> p-1 in n blocks: (n+p-2)(alpha + beta m/n)
// with n = sqrt((p-2) beta m / alpha). Both keep rank order, so any
// operator, commutative or not, runs either.
#include "mpi/collectives/collectives.hpp"
#include "mpi/requests/request.hpp"

namespace optcoll::mpi {

void scan_impl(plan::Collective kind, const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type,
               MPI_Op op, MPI_Comm comm, const Options& options, detail::Persistent* into, const CallInfo* checked) {
  const bool exclusive = kind == plan::Collective::exscan;
  Agreement agree(comm, kind);
  agree.same_op(op);
  agree.same_count(count);
  agree.same_type(type);
  CallInfo c;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  agree.run([&] {
    c = check_call(comm, count, type, 0, checked);
    check_op(op, c);
    if (!in_place) check_buffer(sendbuf, count, c.type, "sendbuf");
    // Exscan's rank 0 receives nothing; MPI still lets it pass a buffer (or
    // NULL), but not MPI_IN_PLACE, which every rank rejects alike.
    if (!exclusive || c.rank != 0)
      check_buffer(recvbuf, count, c.type, "recvbuf");
    else if (recvbuf == MPI_IN_PLACE)
      throw MpiError(MPI_ERR_BUFFER, "optcoll: MPI_IN_PLACE is not a valid recvbuf");
    if (!in_place && sendbuf == recvbuf && count > 0 && c.type.size > 0)
      throw MpiError(MPI_ERR_BUFFER, "optcoll: sendbuf and recvbuf alias (use MPI_IN_PLACE)");
    check_algorithm_name(kind, options);
  });
  if (count == 0 || c.type.size == 0) return;
  if (c.size == 1) {
    // Scan of one rank is its own input; Exscan's only rank has no result.
    if (!exclusive && !in_place) copy_each_start(into, sendbuf, recvbuf, count, c.type);
    return;
  }
  CommState& s = c.comm_state(comm);
  const select::Call call = reduction_call(kind, c, count);
  const Choice choice = choose(s, call, options);
  const void* init = in_place ? recvbuf : sendbuf;
  void* work = recvbuf;
  const bool scratch = exclusive && c.rank == 0;
  if (scratch) work = offset(work_buffer(s, into).get(c.type.span_bytes(count)), -c.type.true_lb);
  plan::PlanSpec spec;
  spec.op = kind;
  spec.p = c.size;
  spec.count = count;
  spec.blocks = choice.blocks;
  spec.commutative = call.commutative;
  // In place, init is the working buffer itself: nothing to read lazily.
  run_plan(into, s, choice, spec, work, c.type, op, in_place && !scratch ? nullptr : init, !scratch);
  // Only Exscan's rank 0 works in a buffer of its own (so the same call
  // again takes the long way there: repeat_call.hpp).
  if (scratch) release_call_buffers(s);
}

}  // namespace optcoll::mpi
