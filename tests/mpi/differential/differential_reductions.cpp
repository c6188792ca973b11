// The differential driver's reductions: Reduce, Reduce_scatter_block,
// Reduce_scatter, Allreduce, Scan and Exscan, each through optcoll and
// through native MPI on identical buffers.
//
// Integer data (and small integers in the doubles) give the same bits in
// every combination order, so results are compared byte for byte. With real
// data (Call::real) a sum's bits depend on the order, which legitimately
// differs from native MPI's: the real fields are compared within the
// tolerance of differential_common.hpp, everything else byte for byte. Two
// properties hold bit for bit in any case: every rank's Allreduce result is
// rank 0's, and a second call on the same input gives the same bits.
//
// The native oracle never runs in place (a separate send buffer with the same
// data is equivalent): MPICH 4.0.2's MPI_Reduce with MPI_IN_PLACE at a root
// other than 0 dereferences MPI_IN_PLACE and crashes from a few KiB on (e.g.
// 4093 MPI_INT64_T at root 1 of 2 ranks; reproduced without optcoll).
#include "differential_common.hpp"
#include "optcoll/optcoll.h"

namespace optcoll::differential {
namespace {

// Whether the combination order shows in the result bits (the second call
// must then repeat the first one's bits).
bool order_shows(const Call& c) {
  return c.real && (c.op->name == "MPI_SUM" || c.op->name == "user_sum");
}

// Whether optcoll or native MPI failed at any rank of the call (collective
// over c.comm: the comparisons that follow may communicate). Counts and
// prints the errors of this rank.
bool any_failed(const Call& c, Tally& t, const std::string& what, int rc, int nrc) {
  const bool optcoll_failed = failed(c, t, what, rc, "optcoll");
  const bool native_failed = failed(c, t, what, nrc, "native");
  int bad = optcoll_failed || native_failed ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, c.comm);
  return bad != 0;
}

// Compares a second optcoll call's result with the first's.
void compare_repeat(const Call& c, Tally& t, const std::string& what, const Bytes& second, const Bytes& first) {
  if (second == first) return;
  report(c, t, what, "a second call on the same input gave other bits than the first");
}

}  // namespace

void run_reduce(const Call& c, Tally& t) {
  const int root = static_cast<int>(c.root_draw % static_cast<std::uint64_t>(c.size));
  const bool in_place = c.in_place && c.rank == root;
  const Options o = options_of(c, plan::Collective::reduce);
  const std::string what = describe(c, "reduce", c.cpp_api ? &o : nullptr);
  Bytes send;
  Bytes recv;
  fill(send, *c.type, c.count, c.seed, salt(c, 1, c.rank), c.real);
  fill(recv, *c.type, c.count, c.seed, salt(c, 2, c.rank));
  if (in_place) recv = send;
  const Bytes original = send;
  const Bytes recv_before = recv;
  Bytes native_send = send;
  Bytes native_recv = recv;
  const auto n = static_cast<int>(c.count);
  const auto call = [&](Bytes& s, Bytes& r) {
    const void* sb = in_place ? MPI_IN_PLACE : s.data();
    return guarded([&] {
      if (!c.cpp_api) return OPTCOLL_Reduce(sb, r.data(), n, c.type->type, c.op->op, root, c.ocomm);
      reduce(sb, r.data(), c.count, c.type->type, c.op->op, root, c.ocomm, o);
      return MPI_SUCCESS;
    });
  };
  const int rc = call(send, recv);
  // Native MPI runs even when optcoll failed: a rank that skipped it would
  // leave the others waiting in it.
  const int nrc = MPI_Reduce(native_send.data(), native_recv.data(), n, c.type->type, c.op->op, root, c.comm);
  const Tolerance tol = tolerance(c, original, c.count);
  corrupt(c, recv);
  if (any_failed(c, t, what, rc, nrc)) return;
  if (c.rank == root) compare_reduced(c, t, what, "recvbuf", recv, native_recv, tol);
  if (!in_place) compare(c, t, what, "sendbuf (must be unchanged)", send, original);
  if (!order_shows(c)) return;
  Bytes send2 = original;
  Bytes recv2 = recv_before;
  if (!failed(c, t, what, call(send2, recv2), "optcoll (second call)") && c.rank == root)
    compare_repeat(c, t, what, recv2, recv);
}

namespace {

// Reduce_scatter_block, Reduce_scatter and Allreduce. With MPI_IN_PLACE
// only the result part of recvbuf is defined afterwards.
enum class Shape { block, v, all };

void run_reduction(const Call& c, Tally& t, Shape shape) {
  const plan::Collective which = shape == Shape::all ? plan::Collective::allreduce : plan::Collective::reduce_scatter;
  const char* name = shape == Shape::block ? "reduce_scatter_block"
                     : shape == Shape::v   ? "reduce_scatter"
                                           : "allreduce";
  const Options o = options_of(c, which);
  const std::string what = describe(c, name, c.cpp_api ? &o : nullptr);
  const auto p = static_cast<std::size_t>(c.size);
  std::vector<std::int64_t> counts(p, c.count);
  if (shape == Shape::v) counts = counts_of(c);
  std::int64_t total = 0;
  for (std::int64_t x : counts) total += x;
  if (shape == Shape::all) total = c.count;
  const std::int64_t result = shape == Shape::all ? c.count : counts[static_cast<std::size_t>(c.rank)];
  std::int64_t first = 0;  // this rank's first element of the reduced vector
  for (int r = 0; shape != Shape::all && r < c.rank; ++r) first += counts[static_cast<std::size_t>(r)];
  const bool in_place = c.in_place;
  Bytes send;
  fill(send, *c.type, total, c.seed, salt(c, 1, c.rank), c.real);
  Bytes recv;
  fill(recv, *c.type, in_place ? total : result, c.seed, salt(c, 2, c.rank));
  if (in_place) recv = send;
  const Bytes original = send;
  const Bytes recv_before = recv;
  Bytes native;
  fill(native, *c.type, result, c.seed, salt(c, 2, c.rank));
  if (in_place) native.assign(send.begin(), send.begin() + result * c.type->extent);
  const std::vector<int> ci = to_int(counts);
  const MPI_Datatype ty = c.type->type;
  const MPI_Op op = c.op->op;
  const auto call = [&](Bytes& s, Bytes& r) {
    const void* sb = in_place ? MPI_IN_PLACE : s.data();
    return guarded([&] {
      if (!c.cpp_api) {
        if (shape == Shape::block)
          return OPTCOLL_Reduce_scatter_block(sb, r.data(), static_cast<int>(c.count), ty, op, c.ocomm);
        if (shape == Shape::v) return OPTCOLL_Reduce_scatter(sb, r.data(), ci.data(), ty, op, c.ocomm);
        return OPTCOLL_Allreduce(sb, r.data(), static_cast<int>(c.count), ty, op, c.ocomm);
      }
      if (shape == Shape::block)
        reduce_scatter_block(sb, r.data(), c.count, ty, op, c.ocomm, o);
      else if (shape == Shape::v)
        reduce_scatter(sb, r.data(), counts, ty, op, c.ocomm, o);
      else
        allreduce(sb, r.data(), c.count, ty, op, c.ocomm, o);
      return MPI_SUCCESS;
    });
  };
  const int rc = call(send, recv);
  Bytes native_send = original;
  const int nrc =
      shape == Shape::block
          ? MPI_Reduce_scatter_block(native_send.data(), native.data(), static_cast<int>(c.count), ty, op, c.comm)
      : shape == Shape::v ? MPI_Reduce_scatter(native_send.data(), native.data(), ci.data(), ty, op, c.comm)
                          : MPI_Allreduce(native_send.data(), native.data(), static_cast<int>(c.count), ty, op, c.comm);
  const Tolerance tol = tolerance(c, original, total);
  if (in_place) recv.resize(static_cast<std::size_t>(result * c.type->extent));
  corrupt(c, recv);
  if (any_failed(c, t, what, rc, nrc)) return;
  compare_reduced(c, t, what, "recvbuf", recv, native, tol, first);
  if (shape == Shape::all) compare_with_rank0(c, t, what, recv);
  if (!in_place) compare(c, t, what, "sendbuf (must be unchanged)", send, original);
  if (!order_shows(c)) return;
  Bytes send2 = original;
  Bytes recv2 = recv_before;
  if (failed(c, t, what, call(send2, recv2), "optcoll (second call)")) return;
  if (in_place) recv2.resize(static_cast<std::size_t>(result * c.type->extent));
  compare_repeat(c, t, what, recv2, recv);
}

}  // namespace

void run_reduce_scatter_block(const Call& c, Tally& t) {
  run_reduction(c, t, Shape::block);
}
void run_reduce_scatter(const Call& c, Tally& t) {
  run_reduction(c, t, Shape::v);
}
void run_allreduce(const Call& c, Tally& t) {
  run_reduction(c, t, Shape::all);
}

namespace {

// Scan and Exscan. Exscan's rank 0 result is undefined in MPI; optcoll must
// leave that recvbuf as it was, which is what is compared there.
void run_scan_common(const Call& c, Tally& t, bool exclusive) {
  const plan::Collective which = exclusive ? plan::Collective::exscan : plan::Collective::scan;
  const Options o = options_of(c, which);
  const std::string what = describe(c, exclusive ? "exscan" : "scan", c.cpp_api ? &o : nullptr);
  Bytes send;
  fill(send, *c.type, c.count, c.seed, salt(c, 1, c.rank), c.real);
  Bytes recv;
  fill(recv, *c.type, c.count, c.seed, salt(c, 2, c.rank));
  if (c.in_place) recv = send;
  const Bytes original = send;
  const Bytes before = recv;
  Bytes native;
  fill(native, *c.type, c.count, c.seed, salt(c, 2, c.rank));
  if (c.in_place) native = send;  // the holes of optcoll's recvbuf hold the input's
  const MPI_Datatype ty = c.type->type;
  const MPI_Op op = c.op->op;
  const int n = static_cast<int>(c.count);
  const auto call = [&](Bytes& s, Bytes& r) {
    const void* sb = c.in_place ? MPI_IN_PLACE : s.data();
    return guarded([&] {
      if (!c.cpp_api)
        return exclusive ? OPTCOLL_Exscan(sb, r.data(), n, ty, op, c.ocomm)
                         : OPTCOLL_Scan(sb, r.data(), n, ty, op, c.ocomm);
      if (exclusive)
        exscan(sb, r.data(), c.count, ty, op, c.ocomm, o);
      else
        scan(sb, r.data(), c.count, ty, op, c.ocomm, o);
      return MPI_SUCCESS;
    });
  };
  const int rc = call(send, recv);
  Bytes native_send = original;
  const int nrc = exclusive ? MPI_Exscan(native_send.data(), native.data(), n, ty, op, c.comm)
                            : MPI_Scan(native_send.data(), native.data(), n, ty, op, c.comm);
  // (A prefix of r + 1 operands is within the bound of all p.)
  const Tolerance tol = tolerance(c, original, c.count);
  corrupt(c, recv);
  if (any_failed(c, t, what, rc, nrc)) return;
  if (exclusive && c.rank == 0)
    compare(c, t, what, "rank 0's recvbuf (must be unchanged)", recv, before);
  else
    compare_reduced(c, t, what, "recvbuf", recv, native, tol);
  if (!c.in_place) compare(c, t, what, "sendbuf (must be unchanged)", send, original);
  if (!order_shows(c)) return;
  Bytes send2 = original;
  Bytes recv2 = before;
  if (!failed(c, t, what, call(send2, recv2), "optcoll (second call)")) compare_repeat(c, t, what, recv2, recv);
}

}  // namespace

void run_scan(const Call& c, Tally& t) {
  run_scan_common(c, t, false);
}
void run_exscan(const Call& c, Tally& t) {
  run_scan_common(c, t, true);
}

}  // namespace optcoll::differential
