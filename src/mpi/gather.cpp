// optcoll's MPI_Gather: the rank-ordered binomial tree (Traff 2018, §5.1
// "oblivious"; plan::binomial_view()), ceil(log2 p) rounds. With equal
// blocks it is optimal in the linear cost model (Proposition 1) and every
// rank computes its part from (p, root, rank) in O(log p): nothing to
// exchange. Buffers and type handling: tree_run.hpp.
#include "collectives.hpp"
#include "tree_run.hpp"

namespace optcoll::mpi {

void gather_impl(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                 std::int64_t recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, const Options& options) {
  const bool in_place = sendbuf == MPI_IN_PLACE;
  Agreement agree(comm, plan::Collective::gather);
  agree.same_root(root);
  if (agree.active()) {
    if (!in_place) agree.sends(root, sendtype, sendcount);
    if (agree.rank() == root)
      for (int i = 0; i < agree.size(); ++i)
        if (i != root || !in_place) agree.receives(i, recvtype, recvcount);
  }
  CallInfo c;
  TreeArgs a;
  std::int64_t b = 0;  // bytes per rank
  agree.run([&] {
    c = check_call(comm, 0, MPI_BYTE, root);
    check_tree_algorithm(options.algorithm, "gather", "binomial");
    const bool is_root = c.rank == root;
    if (in_place && !is_root) throw MpiError(MPI_ERR_BUFFER, "optcoll: MPI_IN_PLACE is only valid at the root");
    a.op = plan::Collective::gather;
    a.is_root = is_root;
    a.rank = c.rank;
    if (!in_place) {
      a.mine_type = check_call(comm, sendcount, sendtype, root).type;
      check_buffer(sendbuf, sendcount, a.mine_type, "sendbuf");
      a.mine = sendbuf;
      a.mine_count = sendcount;
    }
    b = sendcount * a.mine_type.size;
    if (is_root) {
      a.all_type = check_call(comm, recvcount, recvtype, root).type;
      check_buffer(recvbuf, recvcount, a.all_type, "recvbuf");
      b = recvcount * a.all_type.size;
      if (!in_place && sendcount * a.mine_type.size != b)
        throw MpiError(MPI_ERR_TRUNCATE, "optcoll: the root's send and receive signatures differ");
    }
  });
  const bool is_root = c.rank == root;
  if (b == 0) return;
  if (c.size == 1) {
    ByteBuffer tmp;
    if (!in_place) copy_typed(sendbuf, sendcount, a.mine_type, recvbuf, recvcount, a.all_type, tmp);
    return;
  }
  if (is_root) {
    a.all = recvbuf;
    a.groups.resize(static_cast<std::size_t>(c.size));
    for (int i = 0; i < c.size; ++i) a.groups[static_cast<std::size_t>(i)] = {i * recvcount, recvcount};
  }
  CommState& s = c.comm_state(comm);
  // Every tree of the registry is the binomial tree on equal blocks: the
  // variable is only checked.
  tree_algorithm(s, plan::Collective::gather, options.algorithm, kRegularTreeNames);
  TreeRun run(std::move(a), binomial_rank_tree(c.size, root, c.rank, b), tree_exec(s));
  run.run(s.executor, s.scratch, s.work);
  release_call_buffers(s);
}

}  // namespace optcoll::mpi
