// optcoll's MPI_Gatherv: argument checks in MPI's error classes, then the
// irregular gather tree of irregular.cpp (the distributed adaptive binomial
// tree, or TWO). The counts are known at the root only; every other rank
// knows its own block, which is all the tree construction needs.
#include <span>
#include <string>

#include "tree_build.hpp"

namespace optcoll::mpi {

std::vector<plan::Segment> root_groups(int p, std::span<const std::int64_t> counts,
                                       std::span<const std::int64_t> displs, const void* buf, const TypeInfo& t,
                                       const char* what) {
  const auto n = static_cast<std::size_t>(p);
  if (counts.data() == nullptr || displs.data() == nullptr || counts.size() < n || displs.size() < n)
    throw MpiError(MPI_ERR_ARG,
                   std::string("optcoll: the root needs ") + std::to_string(p) + " counts and displacements");
  std::vector<plan::Segment> g(n);
  bool any = false;
  for (std::size_t i = 0; i < n; ++i) {
    if (counts[i] < 0)
      throw MpiError(MPI_ERR_COUNT,
                     "optcoll: negative count " + std::to_string(counts[i]) + " for rank " + std::to_string(i));
    g[i] = {displs[i], counts[i]};
    any = any || counts[i] > 0;
  }
  if (any) check_buffer(buf, 1, t, what);
  return g;
}

IrregularCall prepare_gatherv(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                              std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> displs,
                              MPI_Datatype recvtype, int root, MPI_Comm comm) {
  IrregularCall call;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  Agreement agree(comm, plan::Collective::gather);
  agree.same_root(root);
  if (agree.active()) {
    if (!in_place) agree.sends(root, sendtype, sendcount);
    if (agree.rank() == root && recvcounts.size() >= static_cast<std::size_t>(agree.size()))
      for (int i = 0; i < agree.size(); ++i)
        if (i != root || !in_place) agree.receives(i, recvtype, recvcounts[static_cast<std::size_t>(i)]);
  }
  agree.run([&] {
    call.c = check_call(comm, 0, MPI_BYTE, root);
    const bool is_root = call.c.rank == root;
    if (in_place && !is_root) throw MpiError(MPI_ERR_BUFFER, "optcoll: MPI_IN_PLACE is only valid at the root");
    TreeArgs& a = call.a;
    a.op = plan::Collective::gather;
    a.is_root = is_root;
    a.rank = call.c.rank;
    if (!in_place) {
      a.mine_type = check_call(comm, sendcount, sendtype, root).type;
      check_buffer(sendbuf, sendcount, a.mine_type, "sendbuf");
      a.mine = sendbuf;
      a.mine_count = sendcount;
    }
    call.my_bytes = sendcount * a.mine_type.size;
    if (is_root) {
      a.all_type = check_call(comm, 0, recvtype, root).type;
      a.groups = root_groups(call.c.size, recvcounts, displs, recvbuf, a.all_type, "recvbuf");
      a.all = recvbuf;
      call.my_bytes = a.groups[static_cast<std::size_t>(root)].count * a.all_type.size;
      if (!in_place && sendcount * a.mine_type.size != call.my_bytes)
        throw MpiError(MPI_ERR_TRUNCATE, "optcoll: the root's send and receive signatures differ");
    }
  });
  return call;
}

void gatherv_impl(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                  std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> displs, MPI_Datatype recvtype,
                  int root, MPI_Comm comm, const Options& options) {
  IrregularCall call = prepare_gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  check_tree_algorithm(options.algorithm, "gatherv", kIrregularAlgorithms);
  if (call.c.size == 1) {
    const TreeArgs& a = call.a;
    ByteBuffer tmp;
    if (a.mine != nullptr && call.my_bytes > 0)
      copy_typed(sendbuf, sendcount, a.mine_type, offset(recvbuf, a.groups[0].offset * a.all_type.extent),
                 a.groups[0].count, a.all_type, tmp);
    return;
  }
  run_irregular(call.c, comm, std::move(call.a), call.my_bytes, root, options);
}

}  // namespace optcoll::mpi
