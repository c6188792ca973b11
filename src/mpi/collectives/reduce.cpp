// optcoll's MPI_Reduce. The working buffer is the root's recvbuf and, at
// every other rank, scratch with the datatype's layout; its initial content
// is sendbuf (read-only; the executor copies a block in only when it is
// first written, MpiExecutor::set_initial), or, with MPI_IN_PLACE, recvbuf
// itself. The chosen reduction plan combines into it; at the root it ends
// as the result.
#include "mpi/collectives/collectives.hpp"
#include "mpi/requests/request.hpp"

namespace optcoll::mpi {

void reduce_impl(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, int root,
                 MPI_Comm comm, const Options& options, detail::Persistent* into, const CallInfo* checked) {
  Agreement agree(comm, plan::Collective::reduce);
  agree.same_root(root);
  agree.same_op(op);
  agree.same_count(count);
  agree.same_type(type);
  CallInfo c;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  agree.run([&] {
    c = check_call(comm, count, type, root, checked);
    check_op(op, c);
    const bool is_root = c.rank == root;
    if (in_place && !is_root) throw MpiError(MPI_ERR_BUFFER, "optcoll: MPI_IN_PLACE is only valid at the root");
    if (!in_place) check_buffer(sendbuf, count, c.type, "sendbuf");
    if (is_root) {
      check_buffer(recvbuf, count, c.type, "recvbuf");
      if (!in_place && sendbuf == recvbuf && count > 0 && c.type.size > 0)
        throw MpiError(MPI_ERR_BUFFER, "optcoll: sendbuf and recvbuf alias (use MPI_IN_PLACE)");
    }
    check_algorithm_name(plan::Collective::reduce, options);
  });
  const bool is_root = c.rank == root;
  if (count == 0 || c.type.size == 0) return;
  if (c.size == 1) {
    if (!in_place) copy_each_start(into, sendbuf, recvbuf, count, c.type);
    return;
  }
  CommState& s = c.comm_state(comm);
  const select::Call call = reduction_call(plan::Collective::reduce, c, count);
  const Choice choice = choose(s, call, options);
  void* work = recvbuf;
  if (!is_root) work = offset(work_buffer(s, into).get(c.type.span_bytes(count)), -c.type.true_lb);
  plan::PlanSpec spec;
  spec.op = plan::Collective::reduce;
  spec.p = c.size;
  spec.root = root;
  spec.count = count;
  spec.blocks = choice.blocks;
  spec.commutative = call.commutative;
  // The input is not copied into the working buffer up front: the executor
  // reads it from sendbuf until a block is first written (set_initial).
  run_plan(into, s, choice, spec, work, c.type, op, in_place ? nullptr : sendbuf, is_root);
  release_call_buffers(s);
}

}  // namespace optcoll::mpi
