// optcoll's MPI_Reduce. The working buffer is the root's recvbuf and, at
// every other rank, scratch with the datatype's layout; its initial content
// is sendbuf (read-only; the executor copies a block in only when it is
// first written, MpiExecutor::set_initial), or, with MPI_IN_PLACE, recvbuf
// itself. The chosen reduction plan combines into it; at the root it ends
// as the result.
#include "collectives.hpp"

namespace optcoll::mpi {

void reduce_impl(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, int root,
                 MPI_Comm comm, const Options& options) {
  const CallInfo c = check_call(comm, count, type, root);
  check_op(op, c);
  const bool is_root = c.rank == root;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  if (in_place && !is_root) throw MpiError(MPI_ERR_BUFFER, "optcoll: MPI_IN_PLACE is only valid at the root");
  if (!in_place) check_buffer(sendbuf, count, c.type, "sendbuf");
  if (is_root) {
    check_buffer(recvbuf, count, c.type, "recvbuf");
    if (!in_place && sendbuf == recvbuf && count > 0 && c.type.size > 0)
      throw MpiError(MPI_ERR_BUFFER, "optcoll: sendbuf and recvbuf alias (use MPI_IN_PLACE)");
  }
  check_algorithm_name(plan::Collective::reduce, options);
  if (count == 0 || c.type.size == 0) return;
  if (c.size == 1) {
    const std::int64_t chunk = chunk_elements(c.type, INT_MAX);
    ByteBuffer tmp;
    if (!in_place) copy_elements(sendbuf, recvbuf, count, c.type, chunk, self_comm(), tmp);
    return;
  }
  CommState& s = c.comm_state(comm);
  int commutative = 1;
  check(PMPI_Op_commutative(op, &commutative), "MPI_Op_commutative");
  const Choice choice = choose(s,
                               {.op = plan::Collective::reduce,
                                .p = c.size,
                                .elem_size = c.type.size,
                                .count = count,
                                .commutative = commutative != 0,
                                .exact = exact_op(op, c)},
                               options);
  void* work = recvbuf;
  if (!is_root) work = offset(s.work.get(c.type.span_bytes(count)), -c.type.true_lb);
  plan::PlanSpec spec;
  spec.op = plan::Collective::reduce;
  spec.p = c.size;
  spec.root = root;
  spec.count = count;
  spec.blocks = choice.blocks;
  spec.commutative = commutative != 0;
  // The input is not copied into the working buffer up front: the executor
  // reads it from sendbuf until a block is first written (set_initial).
  run_plan(s, choice, spec, work, c.type, op, in_place ? nullptr : sendbuf, is_root);
  if (s.work.capacity() > (std::int64_t{32} << 20)) s.work.release();
}

}  // namespace optcoll::mpi
