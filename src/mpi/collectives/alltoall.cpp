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

#include "mpi/collectives/exchange.hpp"
#include "mpi/requests/request.hpp"

namespace optcoll::mpi {
namespace exchange {

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

Side make_side(detail::Persistent* into, const void* buf, std::span<const std::int64_t> counts,
               std::span<const std::int64_t> displs, int p, const TypeInfo& t, ByteBuffer& stage, bool fill,
               bool copy) {
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
    before_each_run(into, [buf, n, t, c = std::vector(counts.begin(), counts.begin() + static_cast<std::ptrdiff_t>(n)),
                           d = std::vector(displs.begin(), displs.begin() + static_cast<std::ptrdiff_t>(n)),
                           base = static_cast<std::byte*>(s.base), g = s.groups] {
      for (std::size_t k = 0; k < n; ++k)
        if (c[k] != 0) pack_bytes(offset(buf, d[k] * t.extent), c[k], t, base + g[k].offset);
    });
  return s;
}

void unstage(detail::Persistent* into, const Side& side, void* buf, std::span<const std::int64_t> counts,
             std::span<const std::int64_t> displs, const TypeInfo& t) {
  if (!side.staged) return;
  const std::size_t n = side.groups.size();
  after_each_run(into, [buf, n, t, c = std::vector(counts.begin(), counts.begin() + static_cast<std::ptrdiff_t>(n)),
                        d = std::vector(displs.begin(), displs.begin() + static_cast<std::ptrdiff_t>(n)),
                        base = static_cast<std::byte*>(side.base), g = side.groups] {
    for (std::size_t k = 0; k < n; ++k)
      if (c[k] != 0) unpack_bytes(base + g[k].offset, offset(buf, d[k] * t.extent), c[k], t);
  });
}

void agree_pairs(Agreement& agree, const void* sendbuf, std::span<const std::int64_t> sendcounts, MPI_Datatype sendtype,
                 std::span<const std::int64_t> recvcounts, MPI_Datatype recvtype) {
  if (!agree.active()) return;
  const auto p = static_cast<std::size_t>(agree.size());
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const std::span<const std::int64_t> sc = in_place ? recvcounts : sendcounts;
  for (std::size_t j = 0; j < p; ++j) {
    // (Too short an array is the call's own error, reported by its checks.)
    if (j < sc.size()) agree.sends(static_cast<int>(j), in_place ? recvtype : sendtype, sc[j]);
    if (j < recvcounts.size()) agree.receives(static_cast<int>(j), recvtype, recvcounts[j]);
  }
}

void copy_own(detail::Persistent* into, const Side& send, const Side& recv) {
  const plan::Segment& a = send.groups[0];
  const plan::Segment& b = recv.groups[0];
  if (a.count != b.count) throw MpiError(MPI_ERR_TRUNCATE, "optcoll: the own send and receive sizes differ");
  if (a.count > 0)
    before_each_run(into, [to = offset(recv.base, b.offset), from = offset(send.base, a.offset), n = a.count] {
      std::memmove(to, from, static_cast<std::size_t>(n));
    });
}

}  // namespace exchange

namespace {

void run_alltoall(const CallInfo& c, plan::Collective op, const void* sendbuf, std::span<const std::int64_t> sendcounts,
                  std::span<const std::int64_t> sdispls, const TypeInfo& st, void* recvbuf,
                  std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> rdispls, const TypeInfo& rt,
                  std::int64_t block_bytes, MPI_Comm comm, const Options& options, detail::Persistent* into) {
  const bool in_place = sendbuf == MPI_IN_PLACE;
  ByteBuffer send_buffer, recv_buffer;  // a request's own where the call is built into one
  ByteBuffer& send_stage = request_buffer(send_buffer, into);
  ByteBuffer& recv_stage = request_buffer(recv_buffer, into);
  const exchange::Side send =
      in_place ? exchange::make_side(into, recvbuf, recvcounts, rdispls, c.size, rt, send_stage, true, true)
               : exchange::make_side(into, sendbuf, sendcounts, sdispls, c.size, st, send_stage, true, false);
  const exchange::Side recv =
      exchange::make_side(into, recvbuf, recvcounts, rdispls, c.size, rt, recv_stage, false, false);
  if (c.size == 1) {
    exchange::copy_own(into, send, recv);
  } else {
    CommState& s = c.comm_state(comm);
    const Choice choice = choose(s, {.op = op, .p = c.size, .elem_size = 1, .count = block_bytes}, options);
    const plan::ExchangeLayout el = plan::alltoall_layout(recv.groups, send.groups);
    plan::PlanSpec spec;
    spec.op = op;
    spec.p = c.size;
    const MpiExecutor::Part parts[] = {{0, recv.base}, {el.send_at, send.base}};
    run_plan(into, s, choice, spec, recv.base, TypeInfo::of(MPI_BYTE), MPI_OP_NULL, nullptr, true, &el.layout, parts);
  }
  exchange::unstage(into, recv, recvbuf, recvcounts, rdispls, rt);
}

}  // namespace

void alltoall_impl(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                   std::int64_t recvcount, MPI_Datatype recvtype, MPI_Comm comm, const Options& options,
                   detail::Persistent* into, const CallInfo* checked) {
  const bool in_place = sendbuf == MPI_IN_PLACE;
  Agreement agree(comm, plan::Collective::alltoall);
  for (int j = 0; agree.active() && j < agree.size(); ++j) {
    agree.sends(j, in_place ? recvtype : sendtype, in_place ? recvcount : sendcount);
    agree.receives(j, recvtype, recvcount);
  }
  CallInfo c;
  TypeInfo st;
  agree.run([&] {
    c = check_call(comm, recvcount, recvtype, 0, checked);
    check_buffer(recvbuf, recvcount, c.type, "recvbuf");
    st = c.type;
    if (!in_place) {
      st = check_type(c, sendcount, sendtype);
      check_buffer(sendbuf, sendcount, st, "sendbuf");
      if (sendcount * st.size != recvcount * c.type.size)
        throw MpiError(MPI_ERR_TRUNCATE, "optcoll: Alltoall's send and receive block sizes differ");
    }
    check_algorithm_name(plan::Collective::alltoall, options);
  });
  const std::int64_t block_bytes = recvcount * c.type.size;
  if (block_bytes == 0) return;  // equal at every rank: nothing moves anywhere
  const auto p = static_cast<std::size_t>(c.size);
  std::vector<std::int64_t> rc(p, recvcount), rd(p), sc(p, in_place ? 0 : sendcount), sd(p);
  for (std::size_t g = 0; g < p; ++g) {
    rd[g] = static_cast<std::int64_t>(g) * recvcount;
    sd[g] = static_cast<std::int64_t>(g) * sc[g];
  }
  run_alltoall(c, plan::Collective::alltoall, sendbuf, sc, sd, st, recvbuf, rc, rd, c.type, block_bytes, comm, options,
               into);
}

void alltoallv_impl(const void* sendbuf, std::span<const std::int64_t> sendcounts,
                    std::span<const std::int64_t> sdispls, MPI_Datatype sendtype, void* recvbuf,
                    std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> rdispls,
                    MPI_Datatype recvtype, MPI_Comm comm, const Options& options, detail::Persistent* into,
                    const CallInfo* checked) {
  Agreement agree(comm, plan::Collective::alltoallv);
  exchange::agree_pairs(agree, sendbuf, sendcounts, sendtype, recvcounts, recvtype);
  CallInfo c;
  TypeInfo st;
  agree.run([&] {
    c = check_call(comm, 0, recvtype, 0, checked);
    exchange::check_counts(recvcounts, rdispls, c.size, recvbuf, c.type, "recvbuf");
    st = c.type;
    if (sendbuf != MPI_IN_PLACE) {
      st = check_type(c, 0, sendtype);
      exchange::check_counts(sendcounts, sdispls, c.size, sendbuf, st, "sendbuf");
    }
    check_algorithm_name(plan::Collective::alltoallv, options);
  });
  run_alltoall(c, plan::Collective::alltoallv, sendbuf, sendcounts, sdispls, st, recvbuf, recvcounts, rdispls, c.type,
               0, comm, options, into);
}

}  // namespace optcoll::mpi
