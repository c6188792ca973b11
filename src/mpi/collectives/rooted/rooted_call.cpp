// The arguments of a rooted call, Gather(v) or Scatter(v), checked in MPI's
// error classes (rooted.hpp). The two operations mirror each other: the
// rank's own block travels to the root (gather) or from it (scatter), and
// the root holds every block.
#include <span>
#include <string>

#include "mpi/collectives/rooted/rooted.hpp"
#include "mpi/requests/request.hpp"

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

RootedCall prepare_rooted(plan::Collective op, const OwnSide& mine, const RootSide& all, int root, MPI_Comm comm,
                          const TreeNames& names, const CallInfo* checked) {
  const bool gather = op == plan::Collective::gather;
  RootedCall call;
  const bool in_place = mine.buf == MPI_IN_PLACE;
  Agreement agree(comm, op);
  agree.same_root(root);
  if (agree.active()) {
    if (!in_place) gather ? agree.sends(root, mine.type, mine.count) : agree.receives(root, mine.type, mine.count);
    if (agree.rank() == root && (all.equal || all.counts.size() >= static_cast<std::size_t>(agree.size())))
      for (int i = 0; i < agree.size(); ++i) {
        if (i == root && in_place) continue;
        const std::int64_t n = all.equal ? all.each : all.counts[static_cast<std::size_t>(i)];
        gather ? agree.receives(i, all.type, n) : agree.sends(i, all.type, n);
      }
  }
  agree.run([&] {
    call.c = check_call(comm, 0, MPI_BYTE, root, checked);
    check_tree_algorithm(names.requested, names.op, names.valid);
    const bool is_root = call.c.rank == root;
    if (in_place && !is_root) throw MpiError(MPI_ERR_BUFFER, "optcoll: MPI_IN_PLACE is only valid at the root");
    TreeArgs& a = call.a;
    a.op = op;
    a.is_root = is_root;
    a.rank = call.c.rank;
    if (!in_place) {
      a.mine_type = check_type(call.c, mine.count, mine.type);
      check_buffer(mine.buf, mine.count, a.mine_type, mine.name);
      a.mine = mine.buf;
      a.mine_count = mine.count;
    }
    call.my_bytes = mine.count * a.mine_type.size;
    if (is_root) {
      a.all_type = check_type(call.c, 0, all.type);
      if (all.equal) {
        std::vector<std::int64_t> counts(static_cast<std::size_t>(call.c.size), all.each), displs(counts.size());
        for (std::size_t i = 0; i < displs.size(); ++i) displs[i] = static_cast<std::int64_t>(i) * all.each;
        a.groups = root_groups(call.c.size, counts, displs, all.buf, a.all_type, all.name);
      } else {
        a.groups = root_groups(call.c.size, all.counts, all.displs, all.buf, a.all_type, all.name);
      }
      a.all = all.buf;
      call.my_bytes = a.groups[static_cast<std::size_t>(root)].count * a.all_type.size;
      if (!in_place && mine.count * a.mine_type.size != call.my_bytes)
        throw MpiError(MPI_ERR_TRUNCATE, "optcoll: the root's send and receive signatures differ");
    }
  });
  return call;
}

void copy_single_rank(const RootedCall& call, detail::Persistent* into) {
  const TreeArgs& a = call.a;
  if (a.mine == nullptr || call.my_bytes == 0) return;  // in place, or nothing
  void* group = offset(const_cast<void*>(a.all), a.groups[0].offset * a.all_type.extent);
  before_each_run(into, [op = a.op, mine = a.mine, n = a.mine_count, mt = a.mine_type, group, all_n = a.groups[0].count,
                         at = a.all_type] {
    ByteBuffer tmp;
    if (op == plan::Collective::gather)
      copy_typed(mine, n, mt, group, all_n, at, tmp);
    else
      copy_typed(group, all_n, at, const_cast<void*>(mine), n, mt, tmp);
  });
}

}  // namespace optcoll::mpi
