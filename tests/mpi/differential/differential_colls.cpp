// The differential driver's copy collectives (Bcast, Allgather(v),
// Allmerge) and personalized exchanges (Alltoall(v), many_to_many), and the
// table of every collective: each runs one drawn call through optcoll (C
// API, or C++ API with a drawn algorithm and block count) and through
// native MPI on identical buffers, and compares every byte. Native MPI runs
// even when optcoll failed: a rank that skipped it would leave the others
// waiting in it.
#include <algorithm>
#include <utility>

#include "differential_common.hpp"
#include "optcoll/optcoll.h"

namespace optcoll::differential {
namespace {

void run_bcast(const Call& c, Tally& t) {
  const int root = static_cast<int>(c.root_draw % static_cast<std::uint64_t>(c.size));
  const Options o = options_of(c, plan::Collective::bcast);
  const std::string what = describe(c, "bcast", c.cpp_api ? &o : nullptr);
  Bytes mine;
  fill(mine, *c.type, c.count, c.seed, salt(c, c.rank == root ? 1 : 2, c.rank == root ? 0 : c.rank));
  Bytes native = mine;
  const auto n = static_cast<int>(c.count);
  const int rc = guarded([&] {
    if (!c.cpp_api) return OPTCOLL_Bcast(mine.data(), n, c.type->type, root, c.ocomm);
    bcast(mine.data(), c.count, c.type->type, root, c.ocomm, o);
    return MPI_SUCCESS;
  });
  const int nrc = MPI_Bcast(native.data(), n, c.type->type, root, c.comm);
  const bool optcoll_failed = failed(c, t, what, rc, "optcoll");
  const bool bad = failed(c, t, what, nrc, "MPI_Bcast") || optcoll_failed;
  corrupt(c, mine);
  if (!bad) compare(c, t, what, "buffer", mine, native);
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
      return v_variant ? OPTCOLL_Allgatherv(sb, n, ty, recv.data(), ci.data(), di.data(), ty, c.ocomm)
                       : OPTCOLL_Allgather(sb, n, ty, recv.data(), n, ty, c.ocomm);
    if (v_variant)
      allgatherv(sb, mine, recv.data(), counts, displs, ty, c.ocomm, o);
    else
      allgather(sb, recv.data(), c.count, ty, c.ocomm, o);
    return MPI_SUCCESS;
  });
  const int nrc = v_variant ? MPI_Allgatherv(sb == MPI_IN_PLACE ? MPI_IN_PLACE : original.data(), n, ty, native.data(),
                                             ci.data(), di.data(), ty, c.comm)
                            : MPI_Allgather(sb == MPI_IN_PLACE ? MPI_IN_PLACE : original.data(), n, ty, native.data(),
                                            n, ty, c.comm);
  const bool optcoll_failed = failed(c, t, what, rc, "optcoll");
  const bool bad = failed(c, t, what, nrc, "native") || optcoll_failed;
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
                 ? OPTCOLL_Alltoall(sb, n, ty, recv.data(), n, ty, c.ocomm)
                 : OPTCOLL_Alltoallv(sb, sci.data(), sdi.data(), ty, recv.data(), rci.data(), rdi.data(), ty, c.ocomm);
    if (shape == Exchange::regular)
      alltoall(sb, c.count, ty, recv.data(), c.count, ty, c.ocomm, o);
    else if (shape == Exchange::v)
      alltoallv(sb, sc, sd, ty, recv.data(), rc, rd, ty, c.ocomm, o);
    else
      many_to_many(sb, sc, sd, recv.data(), rc, rd, ty, c.ocomm, o);
    return MPI_SUCCESS;
  });
  const int nrc = MPI_Alltoallv(in_place ? input.data() : original.data(), sci.data(), sdi.data(), ty, native.data(),
                                rci.data(), rdi.data(), ty, c.comm);
  const bool optcoll_failed = failed(c, t, what, orc, "optcoll");
  const bool bad = failed(c, t, what, nrc, "native") || optcoll_failed;
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
             OPTCOLL_Allmerge_int(keys.data(), n, got.data(), static_cast<int>(got.size()), &got_count, c.ocomm),
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
