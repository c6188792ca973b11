// optcoll's MPI_Scatterv: argument checks, then the irregular tree of
// irregular.cpp run as a scatter (the gather tree backwards, Traff 2018
// Figure 2). The counts are known at the root only; every other rank knows
// its own block (recvcount), which is all the tree construction needs.
#include "tree_build.hpp"

namespace optcoll::mpi {

IrregularCall prepare_scatterv(const void* sendbuf, std::span<const std::int64_t> sendcounts,
                               std::span<const std::int64_t> displs, MPI_Datatype sendtype, void* recvbuf,
                               std::int64_t recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  IrregularCall call;
  const bool in_place = recvbuf == MPI_IN_PLACE;
  Agreement agree(comm, plan::Collective::scatter);
  agree.same_root(root);
  if (agree.active()) {
    if (!in_place) agree.receives(root, recvtype, recvcount);
    if (agree.rank() == root && sendcounts.size() >= static_cast<std::size_t>(agree.size()))
      for (int i = 0; i < agree.size(); ++i)
        if (i != root || !in_place) agree.sends(i, sendtype, sendcounts[static_cast<std::size_t>(i)]);
  }
  agree.run([&] {
    call.c = check_call(comm, 0, MPI_BYTE, root);
    const bool is_root = call.c.rank == root;
    if (in_place && !is_root) throw MpiError(MPI_ERR_BUFFER, "optcoll: MPI_IN_PLACE is only valid at the root");
    TreeArgs& a = call.a;
    a.op = plan::Collective::scatter;
    a.is_root = is_root;
    a.rank = call.c.rank;
    if (!in_place) {
      a.mine_type = check_call(comm, recvcount, recvtype, root).type;
      check_buffer(recvbuf, recvcount, a.mine_type, "recvbuf");
      a.mine = recvbuf;
      a.mine_count = recvcount;
    }
    call.my_bytes = recvcount * a.mine_type.size;
    if (is_root) {
      a.all_type = check_call(comm, 0, sendtype, root).type;
      a.groups = root_groups(call.c.size, sendcounts, displs, sendbuf, a.all_type, "sendbuf");
      a.all = sendbuf;
      call.my_bytes = a.groups[static_cast<std::size_t>(root)].count * a.all_type.size;
      if (!in_place && recvcount * a.mine_type.size != call.my_bytes)
        throw MpiError(MPI_ERR_TRUNCATE, "optcoll: the root's send and receive signatures differ");
    }
  });
  return call;
}

void scatterv_impl(const void* sendbuf, std::span<const std::int64_t> sendcounts, std::span<const std::int64_t> displs,
                   MPI_Datatype sendtype, void* recvbuf, std::int64_t recvcount, MPI_Datatype recvtype, int root,
                   MPI_Comm comm, const Options& options) {
  IrregularCall call =
      prepare_scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
  check_tree_algorithm(options.algorithm, "scatterv", kIrregularAlgorithms);
  if (call.c.size == 1) {
    const TreeArgs& a = call.a;
    ByteBuffer tmp;
    if (a.mine != nullptr && call.my_bytes > 0)
      copy_typed(offset(sendbuf, a.groups[0].offset * a.all_type.extent), a.groups[0].count, a.all_type, recvbuf,
                 recvcount, a.mine_type, tmp);
    return;
  }
  run_irregular(call.c, comm, std::move(call.a), call.my_bytes, root, options);
}

}  // namespace optcoll::mpi
