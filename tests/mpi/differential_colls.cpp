// The differential driver's collectives: each runs one drawn call through
// optcoll (C API, or C++ API with a drawn algorithm and block count) and
// through native MPI on identical buffers, and compares every byte.
#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "differential_colls.hpp"
#include "optcoll/optcoll.h"
#include "optcoll/optcoll.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::differential {
namespace {

using Bytes = std::vector<unsigned char>;

// Salts of a call's buffers (fill()).
std::uint64_t salt(const Call& c, std::uint64_t what, std::int64_t rank) {
  return mix(mix(static_cast<std::uint64_t>(c.index), what), static_cast<std::uint64_t>(rank));
}

// The C++ API's options: the default (half the time) or a registry
// algorithm valid for the operator, and a forced block count now and then.
Options options_of(const Call& c, plan::Collective which) {
  Options o;
  std::vector<std::string_view> names;
  for (const plan::AlgorithmInfo& a : plan::algorithms())
    if (a.op == which && (c.op == nullptr || c.op->commutative || !a.needs_commutative)) names.push_back(a.name);
  if (!names.empty() && c.algorithm_draw % 2 == 1)
    o.algorithm = std::string(names[(c.algorithm_draw / 2) % names.size()]);
  static const std::int64_t forced[] = {0, 0, 0, 1, 2, 3, 7, -1};
  const std::int64_t b = forced[c.blocks_draw % std::size(forced)];
  // One block per element (n - 1 + q rounds) only for small counts: a round
  // costs up to a millisecond on an oversubscribed node.
  o.blocks = b < 0 ? std::clamp<std::int64_t>(c.count, 1, 257) : b;
  return o;
}

std::string describe(const Call& c, const char* coll, const Options* o) {
  std::string s = std::string(coll) + " comm=" + c.comm_name + " size=" + std::to_string(c.size) +
                  " rank=" + std::to_string(c.rank) + " type=" + c.type->name + " count=" + std::to_string(c.count);
  if (c.op != nullptr) s += std::string(" op=") + c.op->name;
  s += " root=" + std::to_string(static_cast<std::int64_t>(c.root_draw % static_cast<std::uint64_t>(c.size)));
  s += c.in_place ? " in_place" : "";
  s += c.cpp_api ? " api=c++" : " api=c";
  if (o != nullptr)
    s += " algorithm=" + (o->algorithm.empty() ? std::string("default") : o->algorithm) +
         " blocks=" + std::to_string(o->blocks);
  return s;
}

void report(const Call& c, Tally& t, const std::string& what, const std::string& detail) {
  ++t.mismatches;
  std::fprintf(stderr, "differential: MISMATCH seed=%llu call=%lld: %s: %s\n", static_cast<unsigned long long>(c.seed),
               static_cast<long long>(c.index), what.c_str(), detail.c_str());
}

// Compares got with want bytewise; reports the first difference.
void compare(const Call& c, Tally& t, const std::string& what, const char* buffer, const Bytes& got,
             const Bytes& want) {
  if (got == want) return;
  std::size_t at = 0;
  while (at < got.size() && at < want.size() && got[at] == want[at]) ++at;
  const std::int64_t elem = static_cast<std::int64_t>(at) / c.type->extent;
  report(c, t, what,
         std::string(buffer) + " differs from native MPI at byte " + std::to_string(at) + " (element " +
             std::to_string(elem) + ", byte " + std::to_string(static_cast<std::int64_t>(at) % c.type->extent) +
             " of the extent): optcoll " + std::to_string(at < got.size() ? got[at] : -1) + ", native " +
             std::to_string(at < want.size() ? want[at] : -1));
}

bool failed(const Call& c, Tally& t, const std::string& what, int rc, const char* who) {
  if (rc == MPI_SUCCESS) return false;
  char msg[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  MPI_Error_string(rc, msg, &len);
  ++t.errors;
  std::fprintf(stderr, "differential: ERROR seed=%llu call=%lld: %s: %s returned %s\n",
               static_cast<unsigned long long>(c.seed), static_cast<long long>(c.index), what.c_str(), who, msg);
  return true;
}

// Runs f (the optcoll call) and returns its MPI code; C++ exceptions become
// their code.
template <class F>
int guarded(F&& f) {
  try {
    return f();
  } catch (const MpiError& e) {
    return e.mpi_code();
  }
}

void corrupt(const Call& c, Bytes& b) {
  if (c.inject && !b.empty()) b[b.size() / 2] ^= 0x40;
}

void run_bcast(const Call& c, Tally& t) {
  const int root = static_cast<int>(c.root_draw % static_cast<std::uint64_t>(c.size));
  const Options o = options_of(c, plan::Collective::bcast);
  const std::string what = describe(c, "bcast", c.cpp_api ? &o : nullptr);
  Bytes mine;
  fill(mine, *c.type, c.count, c.seed, salt(c, c.rank == root ? 1 : 2, c.rank == root ? 0 : c.rank));
  Bytes native = mine;
  const auto n = static_cast<int>(c.count);
  const int rc = guarded([&] {
    if (!c.cpp_api) return OPTCOLL_Bcast(mine.data(), n, c.type->type, root, c.comm);
    bcast(mine.data(), c.count, c.type->type, root, c.comm, o);
    return MPI_SUCCESS;
  });
  const bool bad = failed(c, t, what, rc, "optcoll") ||
                   failed(c, t, what, MPI_Bcast(native.data(), n, c.type->type, root, c.comm), "MPI_Bcast");
  corrupt(c, mine);
  if (!bad) compare(c, t, what, "buffer", mine, native);
}

void run_reduce(const Call& c, Tally& t) {
  const int root = static_cast<int>(c.root_draw % static_cast<std::uint64_t>(c.size));
  const bool in_place = c.in_place && c.rank == root;
  const Options o = options_of(c, plan::Collective::reduce);
  const std::string what = describe(c, "reduce", c.cpp_api ? &o : nullptr);
  Bytes send;
  Bytes recv;
  fill(send, *c.type, c.count, c.seed, salt(c, 1, c.rank));
  fill(recv, *c.type, c.count, c.seed, salt(c, 2, c.rank));
  if (in_place) recv = send;
  const Bytes original = send;
  Bytes native_send = send;
  Bytes native_recv = recv;
  const auto n = static_cast<int>(c.count);
  const void* sb = in_place ? MPI_IN_PLACE : send.data();
  const int rc = guarded([&] {
    if (!c.cpp_api) return OPTCOLL_Reduce(sb, recv.data(), n, c.type->type, c.op->op, root, c.comm);
    reduce(sb, recv.data(), c.count, c.type->type, c.op->op, root, c.comm, o);
    return MPI_SUCCESS;
  });
  // The oracle never runs in place (a separate send buffer with the same
  // data is equivalent): MPICH 4.0.2's MPI_Reduce with MPI_IN_PLACE at a
  // root other than 0 dereferences MPI_IN_PLACE and crashes from a few KiB
  // on (e.g. 4093 MPI_INT64_T at root 1 of 2 ranks; reproduced without
  // optcoll).
  const void* nsb = native_send.data();
  const bool bad =
      failed(c, t, what, rc, "optcoll") ||
      failed(c, t, what, MPI_Reduce(nsb, native_recv.data(), n, c.type->type, c.op->op, root, c.comm), "MPI_Reduce");
  corrupt(c, recv);
  if (bad) return;
  compare(c, t, what, "recvbuf", recv, native_recv);
  if (!in_place) compare(c, t, what, "sendbuf (must be unchanged)", send, original);
}

// Per-rank counts of the v-variants (all ranks compute the same): zeros,
// equal and unequal parts, up to the call's count.
std::vector<std::int64_t> counts_of(const Call& c) {
  std::vector<std::int64_t> v(static_cast<std::size_t>(c.size));
  const std::uint64_t kind = mix(c.blocks_draw, 7) % 4;
  for (int g = 0; g < c.size; ++g) {
    const std::uint64_t h = mix(mix(c.blocks_draw, 11), static_cast<std::uint64_t>(g));
    v[static_cast<std::size_t>(g)] = kind == 0 ? c.count
                                     : kind == 1
                                         ? (h % 3 == 0 ? 0 : c.count)
                                         : static_cast<std::int64_t>(h % static_cast<std::uint64_t>(c.count + 1));
  }
  return v;
}

std::vector<int> to_int(const std::vector<std::int64_t>& v) {
  return {v.begin(), v.end()};
}

// Allgather and Allgatherv: recvbuf (holes and gaps included) must match.
void run_allgather_common(const Call& c, Tally& t, bool v_variant) {
  const Options o = options_of(c, plan::Collective::allgather);
  const std::string what = describe(c, v_variant ? "allgatherv" : "allgather", c.cpp_api ? &o : nullptr);
  const auto p = static_cast<std::size_t>(c.size);
  std::vector<std::int64_t> counts(p, c.count);
  std::vector<std::int64_t> displs(p);
  if (v_variant) counts = counts_of(c);
  // Displacements: packed in rank order, or in reverse order with gaps.
  const bool reverse = v_variant && c.algorithm_draw % 3 == 0;
  std::int64_t at = 0;
  for (std::size_t i = 0; i < p; ++i) {
    const std::size_t g = reverse ? p - 1 - i : i;
    displs[g] = at;
    at += counts[g] + (reverse ? 1 : 0);
  }
  const std::int64_t mine = counts[static_cast<std::size_t>(c.rank)];
  Bytes send;
  Bytes recv;
  fill(send, *c.type, mine, c.seed, salt(c, 1, c.rank));
  fill(recv, *c.type, at, c.seed, salt(c, 2, c.rank));
  const bool in_place = c.in_place;
  if (in_place)
    std::copy(send.begin(), send.end(), recv.begin() + displs[static_cast<std::size_t>(c.rank)] * c.type->extent);
  const Bytes original = send;
  Bytes native = recv;
  const void* sb = in_place ? MPI_IN_PLACE : send.data();
  const std::vector<int> ci = to_int(counts);
  const std::vector<int> di = to_int(displs);
  const MPI_Datatype ty = c.type->type;
  const auto n = static_cast<int>(mine);
  const int rc = guarded([&] {
    if (!c.cpp_api)
      return v_variant ? OPTCOLL_Allgatherv(sb, n, ty, recv.data(), ci.data(), di.data(), ty, c.comm)
                       : OPTCOLL_Allgather(sb, n, ty, recv.data(), n, ty, c.comm);
    if (v_variant)
      allgatherv(sb, mine, recv.data(), counts, displs, ty, c.comm, o);
    else
      allgather(sb, recv.data(), c.count, ty, c.comm, o);
    return MPI_SUCCESS;
  });
  const int nrc = v_variant ? MPI_Allgatherv(sb == MPI_IN_PLACE ? MPI_IN_PLACE : original.data(), n, ty, native.data(),
                                             ci.data(), di.data(), ty, c.comm)
                            : MPI_Allgather(sb == MPI_IN_PLACE ? MPI_IN_PLACE : original.data(), n, ty, native.data(),
                                            n, ty, c.comm);
  const bool bad = failed(c, t, what, rc, "optcoll") || failed(c, t, what, nrc, "native");
  corrupt(c, recv);
  if (bad) return;
  compare(c, t, what, "recvbuf", recv, native);
  if (!in_place) compare(c, t, what, "sendbuf (must be unchanged)", send, original);
}

void run_allgather(const Call& c, Tally& t) {
  run_allgather_common(c, t, false);
}
void run_allgatherv(const Call& c, Tally& t) {
  run_allgather_common(c, t, true);
}

// Alltoall, Alltoallv and many_to_many (C++ only; oracle: native
// MPI_Alltoallv): recvbuf (holes and gaps included) must match, sendbuf
// must not change. With MPI_IN_PLACE the input is recvbuf's content, and
// the oracle runs natively from a copy of it (the holes of recvbuf keep the
// input's bytes). Send and receive types are the same: Open MPI 4.1.4's
// MPI_Alltoall is wrong for a derived send type that differs from the
// receive type (mpi_alltoall_test.cpp).
enum class Exchange { regular, v, many };

// Elements from rank i to rank j, the same function at every rank;
// symmetric for MPI_IN_PLACE (MPI requires it there).
std::int64_t exchange_count(const Call& c, int i, int j) {
  if (c.in_place && i > j) std::swap(i, j);
  const std::uint64_t kind = mix(c.blocks_draw, 7) % 4;
  const std::uint64_t h =
      mix(mix(c.blocks_draw, 13), static_cast<std::uint64_t>(i) * 65599 + static_cast<std::uint64_t>(j));
  if (kind == 0) return c.count;
  if (kind == 1) return h % 3 == 0 ? 0 : c.count;
  if (kind == 2)  // one hot sender
    return i == static_cast<int>(c.root_draw % static_cast<std::uint64_t>(c.size)) ? c.count
                                                                                   : static_cast<std::int64_t>(h % 2);
  return static_cast<std::int64_t>(h % static_cast<std::uint64_t>(c.count + 1));
}

void run_exchange(const Call& c, Tally& t, Exchange shape) {
  const plan::Collective which = shape == Exchange::regular ? plan::Collective::alltoall
                                 : shape == Exchange::v     ? plan::Collective::alltoallv
                                                            : plan::Collective::many_to_many;
  const bool cpp = c.cpp_api || shape == Exchange::many;
  const Options o = options_of(c, which);
  const std::string what = describe(c, std::string(plan::to_string(which)).c_str(), cpp ? &o : nullptr);
  const auto p = static_cast<std::size_t>(c.size);
  std::vector<std::int64_t> sc(p), sd(p), rc(p), rd(p);
  std::int64_t sat = 0, rat = 0;
  const bool gaps = shape != Exchange::regular && c.algorithm_draw % 3 == 0;
  for (std::size_t j = 0; j < p; ++j) {
    sc[j] = shape == Exchange::regular ? c.count : exchange_count(c, c.rank, static_cast<int>(j));
    sd[j] = sat;
    sat += sc[j];
  }
  for (std::size_t k = 0; k < p; ++k) {
    const std::size_t i = gaps ? p - 1 - k : k;  // reversed with gaps, or packed
    rc[i] = shape == Exchange::regular ? c.count : exchange_count(c, static_cast<int>(i), c.rank);
    rd[i] = rat;
    rat += rc[i] + (gaps ? 1 : 0);
  }
  const bool in_place = c.in_place && shape != Exchange::many;
  Bytes send, recv;
  fill(send, *c.type, sat, c.seed, salt(c, 1, c.rank));
  fill(recv, *c.type, rat, c.seed, salt(c, 2, c.rank));
  Bytes input = send;  // the data native MPI sends, laid out like send
  if (in_place) {
    // recvbuf holds the input (receive layout); native gets it repacked.
    for (std::size_t i = 0; i < p; ++i) sc[i] = rc[i];
    sat = 0;
    for (std::size_t i = 0; i < p; ++i) {
      sd[i] = sat;
      sat += sc[i];
    }
    fill(input, *c.type, sat, c.seed, salt(c, 3, c.rank));
    for (std::size_t i = 0; i < p; ++i)
      std::copy(input.begin() + sd[i] * c.type->extent, input.begin() + (sd[i] + sc[i]) * c.type->extent,
                recv.begin() + rd[i] * c.type->extent);
  }
  const Bytes original = send;
  Bytes native = recv;
  const void* sb = in_place ? MPI_IN_PLACE : send.data();
  const std::vector<int> sci = to_int(sc), sdi = to_int(sd), rci = to_int(rc), rdi = to_int(rd);
  const MPI_Datatype ty = c.type->type;
  const auto n = static_cast<int>(c.count);
  const int orc = guarded([&] {
    if (!cpp)
      return shape == Exchange::regular
                 ? OPTCOLL_Alltoall(sb, n, ty, recv.data(), n, ty, c.comm)
                 : OPTCOLL_Alltoallv(sb, sci.data(), sdi.data(), ty, recv.data(), rci.data(), rdi.data(), ty, c.comm);
    if (shape == Exchange::regular)
      alltoall(sb, c.count, ty, recv.data(), c.count, ty, c.comm, o);
    else if (shape == Exchange::v)
      alltoallv(sb, sc, sd, ty, recv.data(), rc, rd, ty, c.comm, o);
    else
      many_to_many(sb, sc, sd, recv.data(), rc, rd, ty, c.comm, o);
    return MPI_SUCCESS;
  });
  const int nrc = MPI_Alltoallv(in_place ? input.data() : original.data(), sci.data(), sdi.data(), ty, native.data(),
                                rci.data(), rdi.data(), ty, c.comm);
  const bool bad = failed(c, t, what, orc, "optcoll") || failed(c, t, what, nrc, "native");
  corrupt(c, recv);
  if (bad) return;
  compare(c, t, what, "recvbuf", recv, native);
  if (!in_place) compare(c, t, what, "sendbuf (must be unchanged)", send, original);
}

void run_alltoall(const Call& c, Tally& t) {
  run_exchange(c, t, Exchange::regular);
}
void run_alltoallv(const Call& c, Tally& t) {
  run_exchange(c, t, Exchange::v);
}
void run_many_to_many(const Call& c, Tally& t) {
  run_exchange(c, t, Exchange::many);
}

// Reduce_scatter_block, Reduce_scatter and Allreduce: the native oracle
// always gets a separate send buffer (see run_reduce). With MPI_IN_PLACE
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
  const bool in_place = c.in_place;
  Bytes send;
  fill(send, *c.type, total, c.seed, salt(c, 1, c.rank));
  Bytes recv;
  fill(recv, *c.type, in_place ? total : result, c.seed, salt(c, 2, c.rank));
  if (in_place) recv = send;
  const Bytes original = send;
  Bytes native;
  fill(native, *c.type, result, c.seed, salt(c, 2, c.rank));
  if (in_place) native.assign(send.begin(), send.begin() + result * c.type->extent);
  const void* sb = in_place ? MPI_IN_PLACE : send.data();
  const std::vector<int> ci = to_int(counts);
  const MPI_Datatype ty = c.type->type;
  const MPI_Op op = c.op->op;
  const int rc = guarded([&] {
    if (!c.cpp_api) {
      if (shape == Shape::block)
        return OPTCOLL_Reduce_scatter_block(sb, recv.data(), static_cast<int>(c.count), ty, op, c.comm);
      if (shape == Shape::v) return OPTCOLL_Reduce_scatter(sb, recv.data(), ci.data(), ty, op, c.comm);
      return OPTCOLL_Allreduce(sb, recv.data(), static_cast<int>(c.count), ty, op, c.comm);
    }
    if (shape == Shape::block)
      reduce_scatter_block(sb, recv.data(), c.count, ty, op, c.comm, o);
    else if (shape == Shape::v)
      reduce_scatter(sb, recv.data(), counts, ty, op, c.comm, o);
    else
      allreduce(sb, recv.data(), c.count, ty, op, c.comm, o);
    return MPI_SUCCESS;
  });
  Bytes native_send = original;
  const int nrc =
      shape == Shape::block
          ? MPI_Reduce_scatter_block(native_send.data(), native.data(), static_cast<int>(c.count), ty, op, c.comm)
      : shape == Shape::v ? MPI_Reduce_scatter(native_send.data(), native.data(), ci.data(), ty, op, c.comm)
                          : MPI_Allreduce(native_send.data(), native.data(), static_cast<int>(c.count), ty, op, c.comm);
  if (in_place) recv.resize(static_cast<std::size_t>(result * c.type->extent));
  corrupt(c, recv);
  if (failed(c, t, what, rc, "optcoll") || failed(c, t, what, nrc, "native")) return;
  compare(c, t, what, "recvbuf", recv, native);
  if (!in_place) compare(c, t, what, "sendbuf (must be unchanged)", send, original);
}

void run_reduce_scatter_block(const Call& c, Tally& t) {
  run_reduction(c, t, Shape::block);
}
void run_reduce_scatter(const Call& c, Tally& t) {
  run_reduction(c, t, Shape::v);
}
void run_allreduce(const Call& c, Tally& t) {
  run_reduction(c, t, Shape::all);
}

// Scan and Exscan; the native oracle gets a separate send buffer. Exscan's
// rank 0 result is undefined in MPI; optcoll must leave that recvbuf as it
// was, which is what is compared there.
void run_scan_common(const Call& c, Tally& t, bool exclusive) {
  const plan::Collective which = exclusive ? plan::Collective::exscan : plan::Collective::scan;
  const Options o = options_of(c, which);
  const std::string what = describe(c, exclusive ? "exscan" : "scan", c.cpp_api ? &o : nullptr);
  Bytes send;
  fill(send, *c.type, c.count, c.seed, salt(c, 1, c.rank));
  Bytes recv;
  fill(recv, *c.type, c.count, c.seed, salt(c, 2, c.rank));
  if (c.in_place) recv = send;
  const Bytes original = send;
  const Bytes before = recv;
  Bytes native;
  fill(native, *c.type, c.count, c.seed, salt(c, 2, c.rank));
  if (c.in_place) native = send;  // the holes of optcoll's recvbuf hold the input's
  const void* sb = c.in_place ? MPI_IN_PLACE : send.data();
  const MPI_Datatype ty = c.type->type;
  const MPI_Op op = c.op->op;
  const int n = static_cast<int>(c.count);
  const int rc = guarded([&] {
    if (!c.cpp_api)
      return exclusive ? OPTCOLL_Exscan(sb, recv.data(), n, ty, op, c.comm)
                       : OPTCOLL_Scan(sb, recv.data(), n, ty, op, c.comm);
    if (exclusive)
      exscan(sb, recv.data(), c.count, ty, op, c.comm, o);
    else
      scan(sb, recv.data(), c.count, ty, op, c.comm, o);
    return MPI_SUCCESS;
  });
  Bytes native_send = original;
  const int nrc = exclusive ? MPI_Exscan(native_send.data(), native.data(), n, ty, op, c.comm)
                            : MPI_Scan(native_send.data(), native.data(), n, ty, op, c.comm);
  corrupt(c, recv);
  if (failed(c, t, what, rc, "optcoll") || failed(c, t, what, nrc, "native")) return;
  if (exclusive && c.rank == 0)
    compare(c, t, what, "rank 0's recvbuf (must be unchanged)", recv, before);
  else
    compare(c, t, what, "recvbuf", recv, native);
  if (!c.in_place) compare(c, t, what, "sendbuf (must be unchanged)", send, original);
}

void run_scan(const Call& c, Tally& t) {
  run_scan_common(c, t, false);
}
void run_exscan(const Call& c, Tally& t) {
  run_scan_common(c, t, true);
}

// Allmerge of sorted int keys; the oracle gathers every rank's keys with
// MPI_Allgatherv and sorts them.
void run_allmerge(const Call& c, Tally& t) {
  const std::string what = describe(c, "allmerge_int", nullptr);
  const std::int64_t mine = counts_of(c)[static_cast<std::size_t>(c.rank)];
  std::vector<int> keys(static_cast<std::size_t>(mine));
  Rng r(mix(c.seed, salt(c, 3, c.rank)));
  for (int& k : keys) k = static_cast<int>(r.below(2001)) - 1000;
  std::sort(keys.begin(), keys.end());
  std::vector<int> sizes(static_cast<std::size_t>(c.size));
  const int n = static_cast<int>(mine);
  MPI_Allgather(&n, 1, MPI_INT, sizes.data(), 1, MPI_INT, c.comm);
  std::vector<int> displs(sizes.size());
  int total = 0;
  for (std::size_t g = 0; g < sizes.size(); ++g) displs[g] = std::exchange(total, total + sizes[g]);
  std::vector<int> want(static_cast<std::size_t>(total));
  MPI_Allgatherv(keys.data(), n, MPI_INT, want.data(), sizes.data(), displs.data(), MPI_INT, c.comm);
  std::sort(want.begin(), want.end());
  std::vector<int> got(static_cast<std::size_t>(total) + 3, -7);
  int got_count = -1;
  if (failed(c, t, what,
             OPTCOLL_Allmerge_int(keys.data(), n, got.data(), static_cast<int>(got.size()), &got_count, c.comm),
             "optcoll"))
    return;
  if (c.inject && !got.empty()) got[0] ^= 1;
  if (got_count != total) {
    report(c, t, what, "recvcount " + std::to_string(got_count) + ", expected " + std::to_string(total));
    return;
  }
  got.resize(static_cast<std::size_t>(total));
  if (got != want) report(c, t, what, "merged keys differ from the sorted MPI_Allgatherv");
}

// Gather(v) and Scatter(v). The root's buffer holds every rank's group at its
// displacement (packed in rank order, or reverse order with gaps for the v
// variants); the C++ API draws a tree the call can run and, for the v
// variants, sometimes the persistent form (start + wait, twice).
struct Rooted {
  int root = 0;
  bool is_root = false;
  std::vector<std::int64_t> counts;
  std::vector<std::int64_t> displs;
  std::int64_t extent = 0;  // elements of the root's buffer
};

Rooted rooted(const Call& c, bool v_variant) {
  Rooted r;
  r.root = static_cast<int>(c.root_draw % static_cast<std::uint64_t>(c.size));
  r.is_root = c.rank == r.root;
  const auto p = static_cast<std::size_t>(c.size);
  r.counts = v_variant ? counts_of(c) : std::vector<std::int64_t>(p, c.count);
  r.displs.resize(p);
  const bool reverse = v_variant && c.algorithm_draw % 3 == 0;
  for (std::size_t i = 0; i < p; ++i) {
    const std::size_t g = reverse ? p - 1 - i : i;
    r.displs[g] = r.extent;
    r.extent += r.counts[g] + (reverse ? 1 : 0);
  }
  return r;
}

Options tree_options(const Call& c, bool v_variant) {
  static const char* const regular[] = {"", "binomial"};
  static const char* const irregular[] = {"", "adaptive_binomial", "binomial", "two"};
  Options o;
  o.algorithm =
      v_variant ? irregular[c.algorithm_draw % std::size(irregular)] : regular[c.algorithm_draw % std::size(regular)];
  return o;
}

bool persistent_draw(const Call& c, bool v_variant) {
  return v_variant && c.cpp_api && c.blocks_draw % 4 == 1;
}

void run_gather_common(const Call& c, Tally& t, bool v_variant) {
  const Rooted r = rooted(c, v_variant);
  const Options o = tree_options(c, v_variant);
  const bool persistent = persistent_draw(c, v_variant);
  const std::string what = describe(c, v_variant ? (persistent ? "gatherv_init" : "gatherv") : "gather",
                                    c.cpp_api && !persistent ? &o : nullptr);
  const std::int64_t mine = r.counts[static_cast<std::size_t>(c.rank)];
  Bytes send;
  Bytes recv;
  fill(send, *c.type, mine, c.seed, salt(c, 1, c.rank));
  fill(recv, *c.type, r.is_root ? r.extent : 0, c.seed, salt(c, 2, c.rank));
  const bool in_place = c.in_place && r.is_root;
  if (in_place)
    std::copy(send.begin(), send.end(), recv.begin() + r.displs[static_cast<std::size_t>(c.rank)] * c.type->extent);
  const Bytes original = send;
  Bytes native = recv;
  const void* sb = in_place ? MPI_IN_PLACE : send.data();
  const std::vector<int> ci = to_int(r.counts);
  const std::vector<int> di = to_int(r.displs);
  const MPI_Datatype ty = c.type->type;
  const auto n = static_cast<int>(mine);
  const int rc = guarded([&] {
    if (persistent) {
      Request q = gatherv_init(sb, mine, ty, recv.data(), r.counts, r.displs, ty, r.root, c.comm);
      for (int i = 0; i < 2; ++i) {
        q.start();
        q.wait();
      }
      return MPI_SUCCESS;
    }
    if (!c.cpp_api)
      return v_variant ? OPTCOLL_Gatherv(sb, n, ty, recv.data(), ci.data(), di.data(), ty, r.root, c.comm)
                       : OPTCOLL_Gather(sb, n, ty, recv.data(), n, ty, r.root, c.comm);
    if (v_variant)
      gatherv(sb, mine, ty, recv.data(), r.counts, r.displs, ty, r.root, c.comm, o);
    else
      gather(sb, mine, ty, recv.data(), mine, ty, r.root, c.comm, o);
    return MPI_SUCCESS;
  });
  // The oracle is MPI_Gatherv for both (equal counts for Gather), as for
  // Scatter below: MPICH 4.0.2's MPI_Gather returns "Message truncated" for
  // the resized struct type with gaps (1021 and 4093 elements, 5 and 6
  // ranks; the long profile, seeds 20261129-30), its MPI_Gatherv does not.
  const void* nsb = in_place ? MPI_IN_PLACE : original.data();
  const int nrc = MPI_Gatherv(nsb, n, ty, native.data(), ci.data(), di.data(), ty, r.root, c.comm);
  const bool bad = failed(c, t, what, rc, "optcoll") || failed(c, t, what, nrc, "native");
  corrupt(c, r.is_root ? recv : send);
  if (bad) return;
  if (r.is_root) compare(c, t, what, "recvbuf", recv, native);
  if (!in_place) compare(c, t, what, "sendbuf (must be unchanged)", send, original);
}

void run_scatter_common(const Call& c, Tally& t, bool v_variant) {
  const Rooted r = rooted(c, v_variant);
  const Options o = tree_options(c, v_variant);
  const bool persistent = persistent_draw(c, v_variant);
  const std::string what = describe(c, v_variant ? (persistent ? "scatterv_init" : "scatterv") : "scatter",
                                    c.cpp_api && !persistent ? &o : nullptr);
  const std::int64_t mine = r.counts[static_cast<std::size_t>(c.rank)];
  Bytes send;
  Bytes recv;
  fill(send, *c.type, r.is_root ? r.extent : 0, c.seed, salt(c, 1, c.rank));
  fill(recv, *c.type, mine, c.seed, salt(c, 2, c.rank));
  const bool in_place = c.in_place && r.is_root;
  const Bytes original = send;
  Bytes native = recv;
  void* rb = in_place ? MPI_IN_PLACE : recv.data();
  const std::vector<int> ci = to_int(r.counts);
  const std::vector<int> di = to_int(r.displs);
  const MPI_Datatype ty = c.type->type;
  const auto n = static_cast<int>(mine);
  const int rc = guarded([&] {
    if (persistent) {
      Request q = scatterv_init(send.data(), r.counts, r.displs, ty, rb, mine, ty, r.root, c.comm);
      for (int i = 0; i < 2; ++i) {
        q.start();
        q.wait();
      }
      return MPI_SUCCESS;
    }
    if (!c.cpp_api)
      return v_variant ? OPTCOLL_Scatterv(send.data(), ci.data(), di.data(), ty, rb, n, ty, r.root, c.comm)
                       : OPTCOLL_Scatter(send.data(), n, ty, rb, n, ty, r.root, c.comm);
    if (v_variant)
      scatterv(send.data(), r.counts, r.displs, ty, rb, mine, ty, r.root, c.comm, o);
    else
      scatter(send.data(), mine, ty, rb, mine, ty, r.root, c.comm, o);
    return MPI_SUCCESS;
  });
  // The oracle is MPI_Scatterv for both (equal counts for Scatter): MPICH
  // 4.0.2's MPI_Scatter returns "Message truncated" for a resized struct
  // type with gaps (extent 32, 8191 elements, 3 ranks, root 2; reproduced
  // without optcoll), its MPI_Scatterv does not.
  void* nrb = in_place ? MPI_IN_PLACE : native.data();
  const int nrc = MPI_Scatterv(original.data(), ci.data(), di.data(), ty, nrb, n, ty, r.root, c.comm);
  const bool bad = failed(c, t, what, rc, "optcoll") || failed(c, t, what, nrc, "native");
  corrupt(c, in_place ? send : recv);
  if (bad) return;
  if (!in_place) compare(c, t, what, "recvbuf", recv, native);
  compare(c, t, what, "sendbuf (must be unchanged)", send, original);
}

void run_gather(const Call& c, Tally& t) {
  run_gather_common(c, t, false);
}
void run_gatherv(const Call& c, Tally& t) {
  run_gather_common(c, t, true);
}
void run_scatter(const Call& c, Tally& t) {
  run_scatter_common(c, t, false);
}
void run_scatterv(const Call& c, Tally& t) {
  run_scatter_common(c, t, true);
}

}  // namespace

const std::vector<Collective>& collectives() {
  static const std::vector<Collective> all{
      {"bcast", &run_bcast},
      {"reduce", &run_reduce},
      {"allgather", &run_allgather},
      {"allgatherv", &run_allgatherv},
      {"reduce_scatter_block", &run_reduce_scatter_block},
      {"reduce_scatter", &run_reduce_scatter},
      {"allreduce", &run_allreduce},
      {"allmerge", &run_allmerge},
      {"gather", &run_gather},
      {"gatherv", &run_gatherv},
      {"scatter", &run_scatter},
      {"scatterv", &run_scatterv},
      {"alltoall", &run_alltoall},
      {"alltoallv", &run_alltoallv},
      {"many_to_many", &run_many_to_many},
      {"scan", &run_scan},
      {"exscan", &run_exscan},
  };
  return all;
}

}  // namespace optcoll::differential
