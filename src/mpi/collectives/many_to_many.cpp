// optcoll::many_to_many: a skewed personalized exchange by two-phase
// balanced routing (plan/many_to_many_two_phase.cpp, notes §9), or, with
// Options::algorithm = "direct", the shift schedule on the same messages.
//
// Every rank needs the whole count matrix (phase 2 forwards other ranks'
// pieces, and every rank must cut each message into the same p pieces):
// one PMPI_Allgather of each rank's send and receive byte counts, 2p
// integers per rank, on optcoll's duplicate communicator. With both, every
// rank checks every pair, so a send count that disagrees with its receive
// count is MPI_ERR_TRUNCATE at every rank, before anything moves.
#include <string>

#include "mpi/collectives/exchange.hpp"

namespace optcoll::mpi {

void many_to_many_impl(const void* sendbuf, std::span<const std::int64_t> sendcounts,
                       std::span<const std::int64_t> sdispls, void* recvbuf, std::span<const std::int64_t> recvcounts,
                       std::span<const std::int64_t> rdispls, MPI_Datatype type, MPI_Comm comm, const Options& options,
                       detail::Persistent* into, const CallInfo* checked) {
  const bool in_place = sendbuf == MPI_IN_PLACE;
  Agreement agree(comm, plan::Collective::many_to_many);
  exchange::agree_pairs(agree, sendbuf, sendcounts, type, recvcounts, type);
  CallInfo c;
  agree.run([&] {
    c = check_call(comm, 0, type, 0, checked);
    exchange::check_counts(recvcounts, rdispls, c.size, recvbuf, c.type, "recvbuf");
    if (!in_place) exchange::check_counts(sendcounts, sdispls, c.size, sendbuf, c.type, "sendbuf");
    check_algorithm_name(plan::Collective::many_to_many, options);
  });
  ByteBuffer send_stage, recv_stage;
  const exchange::Side send =
      in_place ? exchange::make_side(into, recvbuf, recvcounts, rdispls, c.size, c.type, send_stage, true, true)
               : exchange::make_side(into, sendbuf, sendcounts, sdispls, c.size, c.type, send_stage, true, false);
  const exchange::Side recv =
      exchange::make_side(into, recvbuf, recvcounts, rdispls, c.size, c.type, recv_stage, false, false);
  if (c.size == 1) {
    exchange::copy_own(into, send, recv);
    exchange::unstage(into, recv, recvbuf, recvcounts, rdispls, c.type);
    return;
  }
  CommState& s = c.comm_state(comm);
  const auto p = static_cast<std::size_t>(c.size);
  // Row r of `all`: rank r's send bytes to every rank, then its receive
  // bytes from every rank.
  std::vector<std::int64_t> mine(2 * p), all(2 * p * p);
  for (std::size_t g = 0; g < p; ++g) {
    mine[g] = send.groups[g].count;
    mine[p + g] = recv.groups[g].count;
  }
  check(PMPI_Allgather(mine.data(), static_cast<int>(2 * p), MPI_INT64_T, all.data(), static_cast<int>(2 * p),
                       MPI_INT64_T, s.comm),
        "MPI_Allgather");
  std::vector<std::int64_t> bytes(p * p);  // bytes[i*p + j]: from i to j
  for (std::size_t i = 0; i < p; ++i)
    for (std::size_t j = 0; j < p; ++j) {
      bytes[i * p + j] = all[i * 2 * p + j];
      if (all[j * 2 * p + p + i] != bytes[i * p + j])
        throw MpiError(MPI_ERR_TRUNCATE, "optcoll: many_to_many: rank " + std::to_string(i) + " sends " +
                                             std::to_string(bytes[i * p + j]) + " bytes to rank " + std::to_string(j) +
                                             ", which expects " + std::to_string(all[j * 2 * p + p + i]));
    }
  const Choice choice = choose(s, {.op = plan::Collective::many_to_many, .p = c.size}, options);
  const bool two_phase = choice.algorithm->name == "two_phase";
  std::vector<std::int64_t> rd(p), sd(p);
  for (std::size_t g = 0; g < p; ++g) {
    rd[g] = recv.groups[g].offset;
    sd[g] = send.groups[g].offset;
  }
  const plan::ExchangeLayout el = plan::many_to_many_layout(c.size, c.rank, bytes, rd, sd, two_phase);
  plan::PlanSpec spec;
  spec.op = plan::Collective::many_to_many;
  spec.p = c.size;
  void* work = s.work.get(std::max<std::int64_t>(el.layout.data_extent() - el.work_at, 1));
  const MpiExecutor::Part parts[] = {{0, recv.base}, {el.send_at, send.base}, {el.work_at, work}};
  run_plan(into, s, choice, spec, recv.base, TypeInfo::of(MPI_BYTE), MPI_OP_NULL, nullptr, true, &el.layout, parts);
  exchange::unstage(into, recv, recvbuf, recvcounts, rdispls, c.type);
}

}  // namespace optcoll::mpi
