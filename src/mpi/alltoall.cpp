// optcoll's MPI_Alltoall and MPI_Alltoallv: argument checks, both buffers as
// bytes (exchange.hpp), then the chosen exchange plan (plan/alltoall.hpp:
// the shift schedule, or Bruck's algorithm for small equal blocks, by the
// alpha-beta model: select.hpp) on the caller's receive and send buffers,
// three memory areas of one element space (MpiExecutor::set_parts).
//
// MPI's contract: the bytes rank i sends to j equal the bytes j expects from
// i (type signatures match); a rank can check only its own side: for
// Alltoall sendcount x size(sendtype) = recvcount x size(recvtype) at every
// rank (MPI_ERR_TRUNCATE otherwise); Alltoallv's counts are taken as given.
#include <algorithm>
#include <cstring>
#include <string>

#include "exchange.hpp"

namespace optcoll::mpi {
namespace exchange {
namespace {

// MPI_Pack / MPI_Unpack of count elements at elem0 to / from `bytes`, in
// chunks of at most 2^30 bytes (an int position).
void pack(bool unpack, void* elem0, std::int64_t count, const TypeInfo& t, std::byte* bytes) {
  const std::int64_t chunk = chunk_elements(t, INT_MAX);
  for (std::int64_t done = 0; done < count; done += chunk) {
    const int c = static_cast<int>(std::min(chunk, count - done));
    const int nbytes = static_cast<int>(c * t.size);
    void* elem = offset(elem0, done * t.extent);
    std::byte* at = bytes + done * t.size;
    int position = 0;
    if (unpack)
      check(PMPI_Unpack(at, nbytes, &position, elem, c, t.type, self_comm()), "MPI_Unpack");
    else
      check(PMPI_Pack(elem, c, t.type, at, nbytes, &position, self_comm()), "MPI_Pack");
    if (position != nbytes) throw MpiError(MPI_ERR_INTERN, "optcoll: packed data is not the elements' bytes");
  }
}

}  // namespace

std::int64_t check_counts(std::span<const std::int64_t> counts, std::span<const std::int64_t> displs, int p,
                          const void* buf, const TypeInfo& t, const char* what) {
  const auto n = static_cast<std::size_t>(p);
  if (counts.size() < n || displs.size() < n)
    throw MpiError(MPI_ERR_ARG, std::string("optcoll: ") + what + " needs one count and displacement per rank");
  std::int64_t total = 0;
  for (std::size_t g = 0; g < n; ++g) {
    if (counts[g] < 0)
      throw MpiError(MPI_ERR_COUNT, std::string("optcoll: negative ") + what + " count " + std::to_string(counts[g]) +
                                        " for rank " + std::to_string(g));
    total += counts[g];
  }
  check_buffer(buf, total, t, what);
  return total;
}

Side make_side(const void* buf, std::span<const std::int64_t> counts, std::span<const std::int64_t> displs, int p,
               const TypeInfo& t, ByteBuffer& stage, bool fill, bool copy) {
  const auto n = static_cast<std::size_t>(p);
  Side s;
  s.groups.resize(n);
  if (t.contiguous && !copy) {
    std::int64_t lowest = 0;
    bool any = false;
    for (std::size_t g = 0; g < n; ++g)
      if (counts[g] > 0) {
        lowest = any ? std::min(lowest, displs[g]) : displs[g];
        any = true;
      }
    for (std::size_t g = 0; g < n; ++g)
      if (counts[g] > 0) s.groups[g] = {(displs[g] - lowest) * t.extent, counts[g] * t.size};
    s.base = const_cast<std::byte*>(offset(buf, lowest * t.extent + t.true_lb));
    return s;
  }
  std::int64_t at = 0;
  for (std::size_t g = 0; g < n; ++g) {
    s.groups[g] = {at, counts[g] * t.size};
    at += s.groups[g].count;
  }
  s.staged = true;
  s.base = stage.get(std::max<std::int64_t>(at, 1));
  if (fill)
    for (std::size_t g = 0; g < n; ++g) {
      if (counts[g] == 0) continue;
      void* elem0 = const_cast<std::byte*>(offset(buf, displs[g] * t.extent));
      std::byte* dst = static_cast<std::byte*>(s.base) + s.groups[g].offset;
      if (t.contiguous)
        std::memcpy(dst, offset(elem0, t.true_lb), static_cast<std::size_t>(s.groups[g].count));
      else
        pack(false, elem0, counts[g], t, dst);
    }
  return s;
}

void unstage(const Side& side, void* buf, std::span<const std::int64_t> counts, std::span<const std::int64_t> displs,
             const TypeInfo& t) {
  if (!side.staged) return;
  for (std::size_t g = 0; g < side.groups.size(); ++g) {
    if (counts[g] == 0) continue;
    std::byte* src = static_cast<std::byte*>(side.base) + side.groups[g].offset;
    void* elem0 = offset(buf, displs[g] * t.extent);
    if (t.contiguous)
      std::memcpy(offset(elem0, t.true_lb), src, static_cast<std::size_t>(side.groups[g].count));
    else
      pack(true, elem0, counts[g], t, src);
  }
}

void copy_own(const Side& send, const Side& recv) {
  const plan::Segment& a = send.groups[0];
  const plan::Segment& b = recv.groups[0];
  if (a.count != b.count) throw MpiError(MPI_ERR_TRUNCATE, "optcoll: the own send and receive sizes differ");
  if (a.count > 0)
    std::memmove(offset(recv.base, b.offset), offset(send.base, a.offset), static_cast<std::size_t>(a.count));
}

}  // namespace exchange

namespace {

void run_alltoall(const CallInfo& c, plan::Collective op, const void* sendbuf, std::span<const std::int64_t> sendcounts,
                  std::span<const std::int64_t> sdispls, const TypeInfo& st, void* recvbuf,
                  std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> rdispls, const TypeInfo& rt,
                  std::int64_t block_bytes, MPI_Comm comm, const Options& options) {
  const bool in_place = sendbuf == MPI_IN_PLACE;
  ByteBuffer send_stage, recv_stage;
  const exchange::Side send =
      in_place ? exchange::make_side(recvbuf, recvcounts, rdispls, c.size, rt, send_stage, true, true)
               : exchange::make_side(sendbuf, sendcounts, sdispls, c.size, st, send_stage, true, false);
  const exchange::Side recv = exchange::make_side(recvbuf, recvcounts, rdispls, c.size, rt, recv_stage, false, false);
  if (c.size == 1) {
    exchange::copy_own(send, recv);
  } else {
    CommState& s = c.comm_state(comm);
    const Choice choice = choose(s, {.op = op, .p = c.size, .elem_size = 1, .count = block_bytes}, options);
    const plan::ExchangeLayout el = plan::alltoall_layout(recv.groups, send.groups);
    plan::PlanSpec spec;
    spec.op = op;
    spec.p = c.size;
    const MpiExecutor::Part parts[] = {{0, recv.base}, {el.send_at, send.base}};
    run_plan(s, choice, spec, recv.base, TypeInfo::of(MPI_BYTE), MPI_OP_NULL, nullptr, true, &el.layout, parts);
  }
  exchange::unstage(recv, recvbuf, recvcounts, rdispls, rt);
}

}  // namespace

void alltoall_impl(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                   std::int64_t recvcount, MPI_Datatype recvtype, MPI_Comm comm, const Options& options) {
  const CallInfo c = check_call(comm, recvcount, recvtype, 0);
  check_buffer(recvbuf, recvcount, c.type, "recvbuf");
  const bool in_place = sendbuf == MPI_IN_PLACE;
  TypeInfo st = c.type;
  if (!in_place) {
    st = check_call(comm, sendcount, sendtype, 0).type;
    check_buffer(sendbuf, sendcount, st, "sendbuf");
    if (sendcount * st.size != recvcount * c.type.size)
      throw MpiError(MPI_ERR_TRUNCATE, "optcoll: Alltoall's send and receive block sizes differ");
  }
  check_algorithm_name(plan::Collective::alltoall, options);
  const std::int64_t block_bytes = recvcount * c.type.size;
  if (block_bytes == 0) return;  // equal at every rank: nothing moves anywhere
  const auto p = static_cast<std::size_t>(c.size);
  std::vector<std::int64_t> rc(p, recvcount), rd(p), sc(p, in_place ? 0 : sendcount), sd(p);
  for (std::size_t g = 0; g < p; ++g) {
    rd[g] = static_cast<std::int64_t>(g) * recvcount;
    sd[g] = static_cast<std::int64_t>(g) * sc[g];
  }
  run_alltoall(c, plan::Collective::alltoall, sendbuf, sc, sd, st, recvbuf, rc, rd, c.type, block_bytes, comm, options);
}

void alltoallv_impl(const void* sendbuf, std::span<const std::int64_t> sendcounts,
                    std::span<const std::int64_t> sdispls, MPI_Datatype sendtype, void* recvbuf,
                    std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> rdispls,
                    MPI_Datatype recvtype, MPI_Comm comm, const Options& options) {
  const CallInfo c = check_call(comm, 0, recvtype, 0);
  exchange::check_counts(recvcounts, rdispls, c.size, recvbuf, c.type, "recvbuf");
  TypeInfo st = c.type;
  if (sendbuf != MPI_IN_PLACE) {
    st = check_call(comm, 0, sendtype, 0).type;
    exchange::check_counts(sendcounts, sdispls, c.size, sendbuf, st, "sendbuf");
  }
  check_algorithm_name(plan::Collective::alltoallv, options);
  run_alltoall(c, plan::Collective::alltoallv, sendbuf, sendcounts, sdispls, st, recvbuf, recvcounts, rdispls, c.type,
               0, comm, options);
}

}  // namespace optcoll::mpi
