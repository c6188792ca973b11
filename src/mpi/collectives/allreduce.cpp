// optcoll's MPI_Allreduce. The working buffer is recvbuf; its initial
// content is sendbuf (read lazily, MpiExecutor::set_initial) or recvbuf
// itself with MPI_IN_PLACE. The layout is plan::allreduce_layout (the vector
// in p groups of n blocks, plus the scratch copies the small-vector plans
// use), a function of (count, p, n) and so compared by the plan's spec.
//
// Algorithm, unless Options or OPTCOLL_ALLREDUCE name one: for a
// commutative op the alpha-beta model picks between
//   circulant      reduce-scatter + allgather: 2 (n-1+q) (alpha + beta m/n)
//   dissemination  q rounds of the whole vector: q (alpha + beta m)
//                  (Lang 2025, Alg. 2), for exact operators only
//   doubling       q rounds, q+1 unless p is a power of two, otherwise
// n the optimal block count; the crossover is near
// m = q alpha / (beta (q - 2)) for large q (docs/selection.md).
// A non-commutative op gets doubling. Every rank gets the same bits.
#include <algorithm>

#include "mpi/collectives/collectives.hpp"
#include "mpi/requests/request.hpp"

namespace optcoll::mpi {
void allreduce_impl(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                    const Options& options, detail::Persistent* into, const CallInfo* checked) {
  Agreement agree(comm, plan::Collective::allreduce);
  agree.same_op(op);
  agree.same_count(count);
  agree.same_type(type);
  CallInfo c;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  agree.run([&] {
    c = check_call(comm, count, type, 0, checked);
    check_op(op, c);
    if (!in_place) check_buffer(sendbuf, count, c.type, "sendbuf");
    check_buffer(recvbuf, count, c.type, "recvbuf");
    if (!in_place && sendbuf == recvbuf && count > 0 && c.type.size > 0)
      throw MpiError(MPI_ERR_BUFFER, "optcoll: sendbuf and recvbuf alias (use MPI_IN_PLACE)");
    check_algorithm_name(plan::Collective::allreduce, options);
  });
  if (count == 0 || c.type.size == 0) return;
  if (c.size == 1) {
    if (!in_place) copy_each_start(into, sendbuf, recvbuf, count, c.type);
    return;
  }
  CommState& s = c.comm_state(comm);
  const select::Call call = reduction_call(plan::Collective::allreduce, c, count);
  const Choice choice = choose(s, call, options);
  plan::PlanSpec spec;
  spec.op = plan::Collective::allreduce;
  spec.p = c.size;
  spec.count = count;
  spec.blocks = choice.blocks;
  spec.commutative = call.commutative;
  spec.exact = call.exact;
  run_plan(into, s, choice, spec, recvbuf, c.type, op, in_place ? nullptr : sendbuf, true);
}

}  // namespace optcoll::mpi
