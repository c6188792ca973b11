// optcoll's MPI_Gather and MPI_Scatter: the rank-ordered binomial tree
// (Traff 2018, §5.1 "oblivious"; plan::binomial_view()), ceil(log2 p)
// rounds; Scatter runs the gather tree backwards (Figure 2: the scatter tree
// serves its children in the reverse of the gather order). With equal
// blocks it is optimal in the linear cost model (Proposition 1), and every
// rank computes its part from (p, root, rank) in O(log p): nothing to
// exchange. Named "linear", the linear plan instead (the root takes or
// sends every block itself), and for Scatter also where the root's bytes
// hide its per-message overheads (select::scatter_runs_linear). Named
// "leaders" on a communicator with nodes, the node-aware tree
// (plan::LeadersTree). Buffers
// and type handling: tree_run.hpp.
#include "mpi/collectives/rooted/rooted.hpp"
#include "mpi/requests/request.hpp"

namespace optcoll::mpi {
namespace {

// mine: this rank's block; all: the root's p blocks of all_count elements
// each (rooted.hpp).
void regular_tree(plan::Collective op, const OwnSide& mine, const void* all, std::int64_t all_count,
                  MPI_Datatype all_type, const char* all_name, int root, MPI_Comm comm, const Options& options,
                  detail::Persistent* into, const CallInfo* checked) {
  const char* what = op == plan::Collective::gather ? "gather" : "scatter";
  RootedCall call = prepare_rooted(op, mine, {all, {}, {}, all_type, all_name, true, all_count}, root, comm,
                                   {options.algorithm, what, "binomial, linear, leaders"}, checked);
  // Equal blocks: my_bytes is the same at every rank.
  if (call.my_bytes == 0) return;
  if (call.c.size == 1) return copy_single_rank(call, into);
  CommState& s = call.c.comm_state(comm);
  // Every tree of the registry is the binomial tree on equal blocks; the
  // linear plan runs when named, and for Scatter where the root's bytes
  // hide its overheads (runs_linear()).
  const std::string name = tree_algorithm(s, op, options.algorithm, kRegularTreeNames);
  if (runs_linear(s, name, op, false, call.my_bytes)) {
    const std::vector<std::int64_t> bytes(call.a.is_root ? static_cast<std::size_t>(call.c.size) : 0, call.my_bytes);
    return run_tree(into, s, std::move(call.a), linear_rank_tree(call.c.size, root, call.c.rank, bytes, call.my_bytes));
  }
  // Named "leaders" on nodes: the node-aware tree (without nodes, its flat
  // counterpart, the binomial tree).
  if (name == "leaders" && s.nodes) {
    RankTree t =
        leaders_rank_tree(*s.nodes, root, call.c.rank, call.my_bytes, call.a.is_root ? &call.a.order : nullptr);
    return run_tree(into, s, std::move(call.a), std::move(t));
  }
  run_tree(into, s, std::move(call.a), binomial_rank_tree(call.c.size, root, call.c.rank, call.my_bytes));
}

}  // namespace

void gather_impl(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                 std::int64_t recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, const Options& options,
                 detail::Persistent* into, const CallInfo* checked) {
  regular_tree(plan::Collective::gather, {sendbuf, sendcount, sendtype, "sendbuf"}, recvbuf, recvcount, recvtype,
               "recvbuf", root, comm, options, into, checked);
}

void scatter_impl(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                  std::int64_t recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, const Options& options,
                  detail::Persistent* into, const CallInfo* checked) {
  regular_tree(plan::Collective::scatter, {recvbuf, recvcount, recvtype, "recvbuf"}, sendbuf, sendcount, sendtype,
               "sendbuf", root, comm, options, into, checked);
}

}  // namespace optcoll::mpi
