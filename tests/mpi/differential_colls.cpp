// The differential driver's collectives: each runs one drawn call through
// optcoll (C API, or C++ API with a drawn algorithm and block count) and
// through native MPI on identical buffers, and compares every byte.
#include <algorithm>
#include <cstdio>
#include <string>
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

}  // namespace

const std::vector<Collective>& collectives() {
  static const std::vector<Collective> all{
      {"bcast", &run_bcast},
      {"reduce", &run_reduce},
  };
  return all;
}

}  // namespace optcoll::differential
