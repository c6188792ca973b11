// optcoll's MPI_Gatherv and MPI_Scatterv: the checks of rooted_call.cpp, then
// which tree, its construction at every rank, the run (a scatter runs the
// gather tree backwards, Traff 2018 Figure 2). The counts are known at the
// root only; every other rank knows its own block, which is all the tree
// construction needs.
//
// Default: the linear plan where select::v_runs_linear() says so (decided
// from p and the machine alone: no construction, no decision to send);
// otherwise the adaptive binomial tree, built distributedly
// (gatherv_adaptive.cpp), unless the root finds that Lemma 2 applies
// (select::choose_two): TWO (gatherv_two.cpp). Only the root knows
// the sizes, so its decision is broadcast (four words, relayed down a
// binomial tree inside the construction's waits: decision_relay.cpp) while the
// adaptive construction runs: the broadcast costs no extra latency, and
// when TWO wins the construction's messages are simply unused.
#include <array>
#include <optional>

#include "optcoll/select/select.hpp"

#include "mpi/collectives/rooted/rooted.hpp"
#include "mpi/requests/request.hpp"

namespace optcoll::mpi {

void run_irregular(const CallInfo& c, MPI_Comm comm, TreeArgs a, std::int64_t my_bytes, int root,
                   const Options& options, detail::Persistent* into) {
  CommState& s = c.comm_state(comm);
  const ExecConfig e = tree_config(s);
  const std::string name = tree_algorithm(s, a.op, options.algorithm, kIrregularAlgorithms);
  if (runs_linear(s, name, a.op, true)) {  // no tree to build, no decision to broadcast
    std::vector<std::int64_t> all;
    if (a.is_root)
      for (const plan::Segment& g : a.groups) all.push_back(g.count * a.all_type.size);
    return run_tree(into, s, std::move(a), linear_rank_tree(c.size, root, c.rank, all, my_bytes));
  }
  const bool consider_two = name.empty() || name == "two";
  std::array<std::int64_t, 4> header{0, 0, 0, 0};
  std::optional<Relay> relay;
  if (consider_two) {
    const model::AlphaBeta ab = block_model(s).ab;  // collective at the first call on comm
    if (a.is_root) {
      std::vector<std::int64_t> m(a.groups.size());
      for (std::size_t i = 0; i < m.size(); ++i) m[i] = a.groups[i].count * a.all_type.size;
      if (const std::optional<plan::TwoSizes> two = select::choose_two(m, root, ab, name == "two"))
        header = {1, two->x, two->y, two->single};
    }
    relay.emplace(e, c.size, c.rank, root, header.data(), static_cast<int>(sizeof header));
  }
  RankTree t =
      distributed_binomial_tree(e, c.size, c.rank, root, my_bytes, name != "binomial", relay ? &*relay : nullptr);
  if (consider_two) {
    relay->finish();
    if (header[0] != 0) {
      plan::TwoSizes two;
      two.x = header[1];
      two.y = header[2];
      two.single = header[3];
      if (two.single < 0) {
        two.large.assign(static_cast<std::size_t>((c.size + 7) / 8), 0);
        if (a.is_root)
          for (int i = 0; i < c.size; ++i)
            if (a.groups[static_cast<std::size_t>(i)].count * a.all_type.size == two.y)
              two.large[static_cast<std::size_t>(i / 8)] |= static_cast<std::uint8_t>(1U << (i % 8));
        Relay(e, c.size, c.rank, root, two.large.data(), static_cast<int>(two.large.size())).finish();
      }
      t = two_rank_tree(two, c.size, c.rank, root, a.is_root ? &a.order : nullptr);
    }
  }
  run_tree(into, s, std::move(a), std::move(t));
}

void gatherv_impl(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                  std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> displs, MPI_Datatype recvtype,
                  int root, MPI_Comm comm, const Options& options, detail::Persistent* into, const CallInfo* checked) {
  RootedCall call = prepare_rooted(plan::Collective::gather, {sendbuf, sendcount, sendtype, "sendbuf"},
                                   {recvbuf, recvcounts, displs, recvtype, "recvbuf"}, root, comm,
                                   {options.algorithm, "gatherv", kIrregularAlgorithms}, checked);
  if (call.c.size == 1) return copy_single_rank(call, into);
  run_irregular(call.c, comm, std::move(call.a), call.my_bytes, root, options, into);
}

void scatterv_impl(const void* sendbuf, std::span<const std::int64_t> sendcounts, std::span<const std::int64_t> displs,
                   MPI_Datatype sendtype, void* recvbuf, std::int64_t recvcount, MPI_Datatype recvtype, int root,
                   MPI_Comm comm, const Options& options, detail::Persistent* into, const CallInfo* checked) {
  RootedCall call = prepare_rooted(plan::Collective::scatter, {recvbuf, recvcount, recvtype, "recvbuf"},
                                   {sendbuf, sendcounts, displs, sendtype, "sendbuf"}, root, comm,
                                   {options.algorithm, "scatterv", kIrregularAlgorithms}, checked);
  if (call.c.size == 1) return copy_single_rank(call, into);
  run_irregular(call.c, comm, std::move(call.a), call.my_bytes, root, options, into);
}

}  // namespace optcoll::mpi
