// optcoll's MPI_Scan and MPI_Exscan. The working buffer is recvbuf; its
// initial content is sendbuf (read lazily, MpiExecutor::set_initial) or
// recvbuf itself with MPI_IN_PLACE. Exscan's rank 0 has no result (MPI
// leaves its recvbuf undefined); optcoll leaves it untouched: rank 0 works
// in communicator scratch, which only its sends read.
//
// Algorithm (select.cpp, choose_scan), unless Options or OPTCOLL_SCAN /
// OPTCOLL_EXSCAN name one: the alpha-beta model picks between
//   doubling  ceil(log2 p) rounds of the whole vector: q (alpha + beta m)
//   pipeline  the chain 0 -> ... -> p-1 in n blocks: (n+p-2)(alpha + beta m/n)
// with n = sqrt((p-2) beta m / alpha). Both keep rank order, so any
// operator, commutative or not, runs either.
#include "collectives.hpp"

namespace optcoll::mpi {

void scan_impl(plan::Collective kind, const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type,
               MPI_Op op, MPI_Comm comm, const Options& options) {
  const bool exclusive = kind == plan::Collective::exscan;
  const CallInfo c = check_call(comm, count, type, 0);
  check_op(op, c);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  if (!in_place) check_buffer(sendbuf, count, c.type, "sendbuf");
  // Exscan's rank 0 receives nothing; MPI still lets it pass a buffer.
  if (!exclusive || c.rank != 0) check_buffer(recvbuf, count, c.type, "recvbuf");
  if (!in_place && sendbuf == recvbuf && count > 0 && c.type.size > 0)
    throw MpiError(MPI_ERR_BUFFER, "optcoll: sendbuf and recvbuf alias (use MPI_IN_PLACE)");
  check_algorithm_name(kind, options);
  if (count == 0 || c.type.size == 0) return;
  if (c.size == 1) {
    // Scan of one rank is its own input; Exscan's only rank has no result.
    ByteBuffer tmp;
    if (!exclusive && !in_place)
      copy_elements(sendbuf, recvbuf, count, c.type, chunk_elements(c.type, INT_MAX), self_comm(), tmp);
    return;
  }
  CommState& s = c.comm_state(comm);
  int commutative = 1;
  check(PMPI_Op_commutative(op, &commutative), "MPI_Op_commutative");
  const Choice choice = choose(s,
                               {.op = kind,
                                .p = c.size,
                                .elem_size = c.type.size,
                                .count = count,
                                .commutative = commutative != 0,
                                .exact = exact_op(op, c)},
                               options);
  const void* init = in_place ? recvbuf : sendbuf;
  void* work = recvbuf;
  const bool scratch = exclusive && c.rank == 0;
  if (scratch) work = offset(s.work.get(c.type.span_bytes(count)), -c.type.true_lb);
  plan::PlanSpec spec;
  spec.op = kind;
  spec.p = c.size;
  spec.count = count;
  spec.blocks = choice.blocks;
  spec.commutative = commutative != 0;
  // In place, init is the working buffer itself: nothing to read lazily.
  run_plan(s, choice, spec, work, c.type, op, in_place && !scratch ? nullptr : init, !scratch);
  if (s.work.capacity() > (std::int64_t{32} << 20)) s.work.release();
}

}  // namespace optcoll::mpi
