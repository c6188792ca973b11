// OPTCOLL_Alltoall(v), optcoll::alltoall(v) and optcoll::many_to_many
// against native MPI_Alltoall / MPI_Alltoallv on random data, word for word
// (gaps between groups and the holes of the strided type keep their
// sentinel): every registered algorithm forced, MPI_IN_PLACE, counts 0, 1,
// q-1, q+1, 1000, differing send and receive types, Alltoallv with random
// counts (zeros included) and displacements reversed with gaps,
// many-to-many on skewed traffic (hot sender, hot receiver, sparse), the
// model's choice under fixed alpha and beta, and argument errors.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "mpi/comm/choose.hpp"
#include "mpi_test_util.hpp"
#include "optcoll/model/alltoall.hpp"
#include "optcoll/optcoll.h"
#include "optcoll/optcoll.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::test {
namespace {

std::vector<std::string> names(plan::Collective op) {
  std::vector<std::string> v{""};
  for (const plan::AlgorithmInfo& a : plan::algorithms())
    if (a.op == op) v.emplace_back(a.name);
  return v;
}

std::string trace(int p, std::int64_t count, Kind k, const std::string& alg, bool in_place) {
  return where(p, 0, count, k, alg, 1) + (in_place ? " MPI_IN_PLACE" : "");
}

TEST(MpiAlltoall, EveryAlgorithmMatchesNative) {
  TestComm comm;
  const int p = world_size();
  const int r = world_rank();
  for (Kind k : {Kind::int32, Kind::float64, Kind::strided}) {
    for (std::int64_t count : test_counts(p)) {
      Buffer send(k, p * count);
      send.fill(seed_of({r, count, static_cast<std::int64_t>(k)}));
      Buffer expect(k, p * count);
      ASSERT_EQ(MPI_Alltoall(send.data(), static_cast<int>(count), send.type(), expect.data(), static_cast<int>(count),
                             send.type(), comm),
                MPI_SUCCESS);
      for (const std::string& alg : names(plan::Collective::alltoall)) {
        for (const bool in_place : {false, true}) {
          SCOPED_TRACE(trace(p, count, k, alg, in_place));
          Buffer got(k, p * count);
          if (in_place) got = send;
          const Buffer before = send;
          if (alg.empty() && !in_place) {
            ASSERT_EQ(OPTCOLL_Alltoall(send.data(), static_cast<int>(count), send.type(), got.data(),
                                       static_cast<int>(count), send.type(), comm),
                      MPI_SUCCESS);
          } else {
            optcoll::alltoall(in_place ? MPI_IN_PLACE : send.data(), count, send.type(), got.data(), count, send.type(),
                              comm, {alg, 0});
          }
          EXPECT_EQ(first_difference(got, expect), -1);
          EXPECT_EQ(first_difference(send, before), -1) << "sendbuf changed";
        }
      }
    }
  }
}

TEST(MpiAlltoall, DifferentSendAndReceiveTypes) {
  TestComm comm;
  const int p = world_size();
  const int r = world_rank();
  for (const std::string& alg : names(plan::Collective::alltoall)) {
    for (std::int64_t c : {1, 7, 300}) {
      SCOPED_TRACE("alg=" + alg + " c=" + std::to_string(c));
      // Strided elements (2 ints each) sent, MPI_INT received. The oracle
      // is brute force: Open MPI 4.1.4's own MPI_Alltoall gets this wrong
      // (and corrupts the heap) at 16 ranks, where coll/tuned picks its
      // modified Bruck algorithm (OMPI_MCA_coll_tuned_alltoall_algorithm=3).
      Buffer send(Kind::strided, p * c);
      send.fill(seed_of({r, c, 3}));
      Buffer got(Kind::int32, 2 * p * c);
      optcoll::alltoall(send.data(), c, send.type(), got.data(), 2 * c, MPI_INT, comm, {alg, 0});
      // Every rank's raw send words; rank i's strided element r*c + e is
      // its words 4(r*c+e) and 4(r*c+e)+2.
      std::vector<std::int32_t> everyone(send.words.size() * static_cast<std::size_t>(p));
      MPI_Allgather(send.words.data(), static_cast<int>(send.words.size()), MPI_INT, everyone.data(),
                    static_cast<int>(send.words.size()), MPI_INT, comm);
      Buffer brute(Kind::int32, 2 * p * c);
      for (int i = 0; i < p; ++i)
        for (std::int64_t e = 0; e < c; ++e)
          for (int w = 0; w < 2; ++w)
            brute.words[static_cast<std::size_t>(2 * (i * c + e) + w)] =
                everyone[static_cast<std::size_t>(i) * send.words.size() +
                         static_cast<std::size_t>(4 * (r * c + e) + 2 * w)];
      EXPECT_EQ(first_difference(got, brute), -1);
      // 4 x MPI_INT sent, the contiguous 4-int type received.
      Buffer ints(Kind::int32, 4 * p * c);
      ints.fill(seed_of({r, c, 4}));
      Buffer mexpect(Kind::matrix, p * c), mgot(Kind::matrix, p * c);
      ASSERT_EQ(MPI_Alltoall(ints.data(), static_cast<int>(4 * c), MPI_INT, mexpect.data(), static_cast<int>(c),
                             mexpect.type(), comm),
                MPI_SUCCESS);
      optcoll::alltoall(ints.data(), 4 * c, MPI_INT, mgot.data(), c, mgot.type(), comm, {alg, 0});
      EXPECT_EQ(first_difference(mgot, mexpect), -1);
    }
  }
}

// The shift schedule's rounds stream through a sliding window of requests
// (mpi/executor/executor.hpp). With messages cut into chunks of one byte (the
// exchange moves bytes), a block of c ints is 4c requests each way: c = 6
// reaches the window's 2 model::kRoundsInFlight requests in its third round
// (at p >= 5 later rounds wait for room), c = 40 exceeds them in one round
// (each later round waits). Blocking, and nonblocking (the window advanced by OPTCOLL_Test),
// against MPI_Alltoall.
TEST(MpiAlltoall, ShiftWindowSlidesOverChunkedMessages) {
  const int p = world_size(), r = world_rank();
  const ScopedEnv chunk("OPTCOLL_MAX_CHUNK_ELEMS", "1");
  const ScopedEnv shift("OPTCOLL_ALLTOALL", "shift");  // (also the nonblocking call's)
  TestComm comm;                                       // (settings are read when its cache is built)
  static_assert(2 * 2 * 4 * 6 < 2 * model::kRoundsInFlight && 3 * 2 * 4 * 6 >= 2 * model::kRoundsInFlight &&
                2 * 4 * 40 > 2 * model::kRoundsInFlight);
  for (const std::int64_t count : {6, 40}) {
    SCOPED_TRACE(trace(p, count, Kind::int32, "shift", false));
    std::vector<int> send(static_cast<std::size_t>(p * count)), expect(send.size(), -1);
    for (std::size_t i = 0; i < send.size(); ++i) send[i] = 100000 * r + static_cast<int>(i);
    ASSERT_EQ(MPI_Alltoall(send.data(), static_cast<int>(count), MPI_INT, expect.data(), static_cast<int>(count),
                           MPI_INT, comm),
              MPI_SUCCESS);
    std::vector<int> got(send.size(), -1);
    optcoll::alltoall(send.data(), count, MPI_INT, got.data(), count, MPI_INT, comm, {"shift", 0});
    EXPECT_EQ(got, expect) << "blocking";
    std::vector<int> igot(send.size(), -1);
    OPTCOLL_Request req = OPTCOLL_REQUEST_NULL;
    ASSERT_EQ(OPTCOLL_Ialltoall(send.data(), static_cast<int>(count), MPI_INT, igot.data(), static_cast<int>(count),
                                MPI_INT, comm, &req),
              MPI_SUCCESS);
    for (int done = 0; done == 0;) ASSERT_EQ(OPTCOLL_Test(&req, &done, MPI_STATUS_IGNORE), MPI_SUCCESS);
    EXPECT_EQ(igot, expect) << "nonblocking";
  }
}

// Elements from rank i to rank j: the same function at every rank.
std::int64_t vcount(std::uint64_t seed, int i, int j, std::int64_t scale) {
  const std::uint64_t h = seed_of({static_cast<std::int64_t>(seed), i, j});
  return h % 4 == 0 ? 0 : static_cast<std::int64_t>(h % static_cast<std::uint64_t>(scale + 1));
}

struct VArgs {
  std::vector<std::int64_t> sc, sd, rc, rd;
  std::int64_t send_len = 0, recv_len = 0;
};

// Counts from `count(i, j)`; send displacements packed, receive
// displacements reversed with gaps of 3.
template <class F>
VArgs vargs(int p, int r, F&& count) {
  VArgs a;
  for (int j = 0; j < p; ++j) {
    a.sc.push_back(count(r, j));
    a.sd.push_back(a.send_len);
    a.send_len += a.sc.back();
    a.rc.push_back(count(j, r));
  }
  a.rd.assign(static_cast<std::size_t>(p), 0);
  for (int j = p - 1; j >= 0; --j) {
    a.rd[static_cast<std::size_t>(j)] = a.recv_len;
    a.recv_len += a.rc[static_cast<std::size_t>(j)] + 3;
  }
  return a;
}

std::vector<int> ints(const std::vector<std::int64_t>& v) {
  return {v.begin(), v.end()};
}

TEST(MpiAlltoall, AlltoallvRandomCountsMatchNative) {
  TestComm comm;
  const int p = world_size();
  const int r = world_rank();
  for (Kind k : {Kind::int32, Kind::strided}) {
    for (std::uint64_t seed : {1u, 2u, 3u}) {
      const std::int64_t scale = seed == 3 ? 2000 : 9;
      const VArgs a = vargs(p, r, [&](int i, int j) { return vcount(seed, i, j, scale); });
      Buffer send(k, a.send_len);
      send.fill(seed_of({r, static_cast<std::int64_t>(seed)}));
      Buffer expect(k, a.recv_len);
      ASSERT_EQ(MPI_Alltoallv(send.data(), ints(a.sc).data(), ints(a.sd).data(), send.type(), expect.data(),
                              ints(a.rc).data(), ints(a.rd).data(), send.type(), comm),
                MPI_SUCCESS);
      SCOPED_TRACE(trace(p, static_cast<std::int64_t>(seed), k, "shift", false));
      Buffer got(k, a.recv_len);
      ASSERT_EQ(OPTCOLL_Alltoallv(send.data(), ints(a.sc).data(), ints(a.sd).data(), send.type(), got.data(),
                                  ints(a.rc).data(), ints(a.rd).data(), send.type(), comm),
                MPI_SUCCESS);
      EXPECT_EQ(first_difference(got, expect), -1);
    }
  }
}

TEST(MpiAlltoall, AlltoallvInPlaceMatchesNative) {
  // MPI_IN_PLACE: counts symmetric (MPI requires recvcounts = sendcounts
  // pairwise), data and result in recvbuf's layout.
  TestComm comm;
  const int p = world_size();
  const int r = world_rank();
  const auto sym = [](int i, int j) { return vcount(9, std::min(i, j), std::max(i, j), 50); };
  const VArgs a = vargs(p, r, sym);
  Buffer buf(Kind::int32, a.recv_len);
  buf.fill(seed_of({r, 11}));
  Buffer expect(Kind::int32, a.recv_len);
  ASSERT_EQ(MPI_Alltoallv(buf.data(), ints(a.rc).data(), ints(a.rd).data(), MPI_INT, expect.data(), ints(a.rc).data(),
                          ints(a.rd).data(), MPI_INT, comm),
            MPI_SUCCESS);
  // Gaps keep whatever the buffer had: copy them into the expectation.
  Buffer got = buf;
  for (std::size_t w = 0; w < expect.words.size(); ++w) {
    bool in_group = false;
    for (int j = 0; j < p; ++j) {
      const auto d = static_cast<std::size_t>(a.rd[static_cast<std::size_t>(j)]);
      if (w >= d && w < d + static_cast<std::size_t>(a.rc[static_cast<std::size_t>(j)])) in_group = true;
    }
    if (!in_group) expect.words[w] = buf.words[w];
  }
  ASSERT_EQ(OPTCOLL_Alltoallv(MPI_IN_PLACE, nullptr, nullptr, MPI_DATATYPE_NULL, got.data(), ints(a.rc).data(),
                              ints(a.rd).data(), MPI_INT, comm),
            MPI_SUCCESS);
  EXPECT_EQ(first_difference(got, expect), -1);
}

TEST(MpiAlltoall, ManyToManyMatchesNativeOnSkewedTraffic) {
  TestComm comm;
  const int p = world_size();
  const int r = world_rank();
  const std::int64_t big = p > 8 ? 3000 : 20000;
  const std::pair<const char*, std::function<std::int64_t(int, int)>> kinds[] = {
      {"hot_sender", [&](int i, int) -> std::int64_t { return i == 0 ? big : 5; }},
      {"hot_receiver", [&](int, int j) -> std::int64_t { return j == 0 ? big : 5; }},
      {"sparse", [&](int i, int j) { return vcount(21, i, j, big) % 7 == 0 ? big : 0; }},
      {"tiny", [&](int i, int j) -> std::int64_t { return (i + j) % 3; }},
  };
  for (Kind k : {Kind::int32, Kind::strided}) {
    for (const auto& [kind, count] : kinds) {
      const VArgs a = vargs(p, r, count);
      Buffer send(k, a.send_len);
      send.fill(seed_of({r, 5}));
      Buffer expect(k, a.recv_len);
      ASSERT_EQ(MPI_Alltoallv(send.data(), ints(a.sc).data(), ints(a.sd).data(), send.type(), expect.data(),
                              ints(a.rc).data(), ints(a.rd).data(), send.type(), comm),
                MPI_SUCCESS);
      for (const std::string& alg : names(plan::Collective::many_to_many)) {
        SCOPED_TRACE(std::string(kind) + " " + name(k) + " algorithm=" + alg);
        Buffer got(k, a.recv_len);
        const Buffer before = send;
        optcoll::many_to_many(send.data(), a.sc, a.sd, got.data(), a.rc, a.rd, send.type(), comm, {alg, 0});
        EXPECT_EQ(first_difference(got, expect), -1);
        EXPECT_EQ(first_difference(send, before), -1);
      }
    }
  }
}

TEST(MpiAlltoall, ManyToManyMismatchedCountsFailEverywhere) {
  TestComm comm;
  const int p = world_size();
  const int r = world_rank();
  if (p < 2) GTEST_SKIP() << "needs two ranks";
  VArgs a = vargs(p, r, [](int, int) { return std::int64_t{2}; });
  if (r == 1) a.rc[0] = 3;  // rank 1 expects 3 elements from rank 0, which sends 2
  std::vector<std::int32_t> send(static_cast<std::size_t>(a.send_len)), recv(static_cast<std::size_t>(a.recv_len + 1));
  try {
    optcoll::many_to_many(send.data(), a.sc, a.sd, recv.data(), a.rc, a.rd, MPI_INT, comm);
    ADD_FAILURE() << "no error";
  } catch (const MpiError& e) {
    EXPECT_EQ(e.mpi_class(), MPI_ERR_TRUNCATE);
  }
}

TEST(MpiAlltoall, ArgumentErrors) {
  TestComm comm;
  const int p = world_size();
  std::vector<std::int32_t> a(static_cast<std::size_t>(4 * p)), b(a);
  const auto class_of = [](auto&& f) {
    try {
      f();
    } catch (const MpiError& e) {
      return e.mpi_class();
    }
    return MPI_SUCCESS;
  };
  EXPECT_EQ(class_of([&] { optcoll::alltoall(a.data(), 2, MPI_INT, b.data(), 1, MPI_INT, comm); }), MPI_ERR_TRUNCATE);
  EXPECT_EQ(class_of([&] { optcoll::alltoall(a.data(), -1, MPI_INT, b.data(), -1, MPI_INT, comm); }), MPI_ERR_COUNT);
  EXPECT_EQ(class_of([&] { optcoll::alltoall(a.data(), 1, MPI_INT, nullptr, 1, MPI_INT, comm); }), MPI_ERR_BUFFER);
  EXPECT_EQ(class_of([&] {
              optcoll::alltoall(a.data(), 1, MPI_INT, b.data(), 1, MPI_INT, comm, {"nope", 0});
            }),
            MPI_ERR_ARG);
  std::vector<std::int64_t> counts(static_cast<std::size_t>(p), 1), displs(static_cast<std::size_t>(p), 0);
  counts[0] = -2;
  EXPECT_EQ(
      class_of([&] { optcoll::alltoallv(a.data(), counts, displs, MPI_INT, b.data(), counts, displs, MPI_INT, comm); }),
      MPI_ERR_COUNT);
  EXPECT_EQ(class_of([&] {
              optcoll::alltoallv(a.data(), std::span<const std::int64_t>(), displs, MPI_INT, b.data(), counts, displs,
                                 MPI_INT, comm);
            }),
            MPI_ERR_COUNT);  // recv side checked first
  // The C API raises through the handler: MPI_ERRORS_RETURN on comm.
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  int cls = MPI_SUCCESS;
  MPI_Error_class(OPTCOLL_Alltoall(a.data(), 1, MPI_INT, b.data(), 1, MPI_DATATYPE_NULL, comm), &cls);
  EXPECT_EQ(cls, MPI_ERR_TYPE);
  // Still works.
  std::iota(a.begin(), a.end(), 0);
  EXPECT_EQ(OPTCOLL_Alltoall(a.data(), 1, MPI_INT, b.data(), 1, MPI_INT, comm), MPI_SUCCESS);
}

TEST(MpiAlltoall, ModelChoosesBruckForSmallBlocksShiftForLarge) {
  const int p = world_size();
  const ScopedEnv a("OPTCOLL_ALPHA", "1e-5");
  const ScopedEnv b("OPTCOLL_BETA", "1e-9");
  TestComm comm;  // settings read when its cache is built (rank 0's environment)
  const model::AlphaBeta ab{1e-5, 1e-9};
  for (std::int64_t bytes : {8, 1024, 65536, 1 << 20}) {
    const mpi::Decision d = mpi::describe(comm, plan::Collective::alltoall, bytes, MPI_BYTE, MPI_OP_NULL);
    const bool bruck = p > 2 && model::alltoall_prefers_bruck(p, bytes, ab);
    EXPECT_EQ(d.algorithm, bruck ? "bruck" : "shift") << "bytes=" << bytes;
  }
  if (p >= 4) {
    EXPECT_EQ(mpi::describe(comm, plan::Collective::alltoall, 8, MPI_BYTE, MPI_OP_NULL).algorithm, "bruck");
    EXPECT_EQ(mpi::describe(comm, plan::Collective::alltoall, 1 << 20, MPI_BYTE, MPI_OP_NULL).algorithm, "shift");
  }
  const ScopedEnv shift("OPTCOLL_ALLTOALL", "shift");
  TestComm forced;
  EXPECT_EQ(mpi::describe(forced, plan::Collective::alltoall, 8, MPI_BYTE, MPI_OP_NULL).algorithm, "shift");
}

}  // namespace
}  // namespace optcoll::test
