// optcoll's MPI_Scatter: the binomial gather tree of gather.cpp run
// backwards (Traff 2018, Figure 2: the scatter tree serves its children in
// the reverse of the gather order), ceil(log2 p) rounds, computed locally in
// O(log p). Buffers and type handling: tree_run.hpp.
#include "collectives.hpp"
#include "tree_run.hpp"

namespace optcoll::mpi {

void scatter_impl(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                  std::int64_t recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, const Options& options) {
  const bool in_place = recvbuf == MPI_IN_PLACE;
  Agreement agree(comm, plan::Collective::scatter);
  agree.same_root(root);
  if (agree.active()) {
    if (!in_place) agree.receives(root, recvtype, recvcount);
    if (agree.rank() == root)
      for (int i = 0; i < agree.size(); ++i)
        if (i != root || !in_place) agree.sends(i, sendtype, sendcount);
  }
  CallInfo c;
  TreeArgs a;
  std::int64_t b = 0;  // bytes per rank
  agree.run([&] {
    c = check_call(comm, 0, MPI_BYTE, root);
    check_tree_algorithm(options.algorithm, "scatter", "binomial");
    const bool is_root = c.rank == root;
    if (in_place && !is_root) throw MpiError(MPI_ERR_BUFFER, "optcoll: MPI_IN_PLACE is only valid at the root");
    a.op = plan::Collective::scatter;
    a.is_root = is_root;
    a.rank = c.rank;
    if (!in_place) {
      a.mine_type = check_call(comm, recvcount, recvtype, root).type;
      check_buffer(recvbuf, recvcount, a.mine_type, "recvbuf");
      a.mine = recvbuf;
      a.mine_count = recvcount;
    }
    b = recvcount * a.mine_type.size;
    if (is_root) {
      a.all_type = check_call(comm, sendcount, sendtype, root).type;
      check_buffer(sendbuf, sendcount, a.all_type, "sendbuf");
      b = sendcount * a.all_type.size;
      if (!in_place && recvcount * a.mine_type.size != b)
        throw MpiError(MPI_ERR_TRUNCATE, "optcoll: the root's send and receive signatures differ");
    }
  });
  const bool is_root = c.rank == root;
  if (b == 0) return;
  if (c.size == 1) {
    ByteBuffer tmp;
    if (!in_place) copy_typed(sendbuf, sendcount, a.all_type, recvbuf, recvcount, a.mine_type, tmp);
    return;
  }
  if (is_root) {
    a.all = sendbuf;
    a.groups.resize(static_cast<std::size_t>(c.size));
    for (int i = 0; i < c.size; ++i) a.groups[static_cast<std::size_t>(i)] = {i * sendcount, sendcount};
  }
  CommState& s = c.comm_state(comm);
  // Every tree of the registry is the binomial tree on equal blocks: the
  // variable is only checked.
  tree_algorithm(s, plan::Collective::scatter, options.algorithm, kRegularTreeNames);
  TreeRun run(std::move(a), binomial_rank_tree(c.size, root, c.rank, b), tree_exec(s));
  run.run(s.executor, s.scratch, s.work);
  release_call_buffers(s);
}

}  // namespace optcoll::mpi
