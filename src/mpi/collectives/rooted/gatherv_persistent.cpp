// Persistent Gatherv / Scatterv (MPI-4 style init, start, wait) over the
// optimal ordered tree (Traff 2018, §3.2, Figure 6; trees::optimal_tree()).
//
// The DP needs every block size, which only the root has, and costs O(p^3):
// worth it only when the tree is reused, as the paper's discussion of
// Theorem 2 notes. Init, collective: the root computes the tree for its
// counts in the alpha-beta model of the communicator (calibrated, or
// OPTCOLL_ALPHA / OPTCOLL_BETA; gamma = 0: the copies are not modelled),
// its rounds (trees::TreeSchedule) and every rank's view with the byte size
// of each link, and scatters the views as records of int64 words with
// optcoll's own Scatter (record sizes) and Scatterv (records). Each rank
// then builds its part of the tree (run_tree) into the request: a prepared
// plan (layout and plan built once) on the request's own duplicate of the
// communicator, so that several requests may be active at once without
// their messages matching each other. Start: the own-block copy and round 0
// posted; wait: the remaining rounds.
//
// Record of one rank: rounds, then the up link (peer, round, lo, hi, bytes;
// peer -1 at the root or for an empty subtree), then the number of down
// links and each (peer, round, lo, hi, bytes).
#include <functional>

#include "mpi/collectives/rooted/rooted.hpp"
#include "mpi/requests/request.hpp"
#include "optcoll/trees/constructions.hpp"
#include "optcoll/trees/schedule.hpp"

namespace optcoll {
namespace mpi {
namespace {

void append_link(std::vector<std::int64_t>& out, const plan::TreeLink& l, std::int64_t bytes) {
  out.insert(out.end(), {l.peer, l.round, l.lo, l.hi, bytes});
}

// At the root: every rank's record, concatenated, and the record sizes.
void optimal_records(std::span<const std::int64_t> m, plan::rank_t root, const model::AlphaBeta& ab,
                     std::vector<std::int64_t>& records, std::vector<std::int64_t>& sizes) {
  const auto p = static_cast<plan::rank_t>(m.size());
  trees::TreeResult r = trees::optimal_tree(m, trees::CostModel::homogeneous(ab.alpha, ab.beta, 0), root);
  const std::vector<std::int64_t> sub = trees::subtree_sizes(r.tree, m);
  const trees::TreeSchedule sched(std::move(r.tree), m);
  sizes.assign(static_cast<std::size_t>(p), 0);
  for (plan::rank_t v = 0; v < p; ++v) {
    const std::size_t before = records.size();
    const plan::TreeRankView w = plan::schedule_view(sched, v);
    records.push_back(w.rounds);
    append_link(records, w.up, w.up.peer >= 0 ? sub[static_cast<std::size_t>(v)] : 0);
    records.push_back(static_cast<std::int64_t>(w.down.size()));
    for (const plan::TreeLink& l : w.down) append_link(records, l, sub[static_cast<std::size_t>(l.peer)]);
    sizes[static_cast<std::size_t>(v)] = static_cast<std::int64_t>(records.size() - before);
  }
}

RankTree parse_record(std::span<const std::int64_t> w, plan::rank_t rank) {
  const auto bad = [] { return MpiError(MPI_ERR_INTERN, "optcoll: malformed tree record"); };
  if (w.size() < 7) throw bad();
  RankTree t;
  t.self = rank;
  t.view.rounds = w[0];
  t.view.up = {w[1], w[2], w[3], w[4]};
  t.up_bytes = w[5];
  const std::int64_t n = w[6];
  if (n < 0 || w.size() != static_cast<std::size_t>(7 + 5 * n)) throw bad();
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t* l = w.data() + 7 + 5 * i;
    t.view.down.push_back({l[0], l[1], l[2], l[3]});
    t.down_bytes.push_back(l[4]);
  }
  return t;
}

// prepare: the call's checked arguments, on the request's held handles.
Request make_persistent(MPI_Comm comm, int root, const std::function<RootedCall(HeldHandles&)>& prepare) {
  auto impl = std::make_unique<detail::Persistent>();
  impl->user = comm;
  RootedCall call = prepare(impl->held);
  const CallInfo& c = call.c;
  CommState& s = c.comm_state(comm);
  impl->state = s.shared_from_this();
  RankTree tree;
  if (c.size > 1) {
    const model::AlphaBeta ab = block_model(s).ab;  // collective at the first call on comm
    std::vector<std::int64_t> records, sizes, displs;
    if (call.a.is_root) {
      std::vector<std::int64_t> m(call.a.groups.size());
      for (std::size_t i = 0; i < m.size(); ++i) m[i] = call.a.groups[i].count * call.a.all_type.size;
      optimal_records(m, root, ab, records, sizes);
      displs.resize(sizes.size());
      for (std::size_t i = 1; i < sizes.size(); ++i) displs[i] = displs[i - 1] + sizes[i - 1];
    }
    std::int64_t mine = 0;
    scatter_impl(sizes.data(), 1, MPI_INT64_T, &mine, 1, MPI_INT64_T, root, comm, {}, nullptr);
    std::vector<std::int64_t> record(static_cast<std::size_t>(mine));
    scatterv_impl(records.data(), sizes, displs, MPI_INT64_T, record.data(), mine, MPI_INT64_T, root, comm,
                  {"adaptive_binomial", 0}, nullptr);
    tree = parse_record(record, c.rank);
  }
  run_tree(impl.get(), s, std::move(call.a), std::move(tree));  // the request's own duplicate, plan and steps
  return Request(std::move(impl));
}

}  // namespace
}  // namespace mpi

Request gatherv_init(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                     std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> displs,
                     MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return mpi::make_persistent(comm, root, [&](mpi::HeldHandles& h) {
    return mpi::prepare_rooted(plan::Collective::gather, {sendbuf, sendcount, h.type(sendtype), "sendbuf"},
                               {recvbuf, recvcounts, displs, h.type(recvtype), "recvbuf"}, root, comm, {});
  });
}

Request scatterv_init(const void* sendbuf, std::span<const std::int64_t> sendcounts,
                      std::span<const std::int64_t> displs, MPI_Datatype sendtype, void* recvbuf,
                      std::int64_t recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return mpi::make_persistent(comm, root, [&](mpi::HeldHandles& h) {
    return mpi::prepare_rooted(plan::Collective::scatter, {recvbuf, recvcount, h.type(recvtype), "recvbuf"},
                               {sendbuf, sendcounts, displs, h.type(sendtype), "sendbuf"}, root, comm, {});
  });
}

}  // namespace optcoll
