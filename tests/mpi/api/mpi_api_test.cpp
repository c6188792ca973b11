// The API contract: argument errors (MPI error classes through the error
// handler, exceptions in C++), unknown algorithm names, rank 0's environment
// winning, the non-commutative fallback, communicator caching (freed with
// the communicator, user traffic never matched), calibration.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "mpi/collectives/collectives.hpp"
#include "mpi/comm/choose.hpp"
#include "mpi/comm/comm_state.hpp"
#include "mpi_test_util.hpp"
#include "optcoll/optcoll.h"
#include "optcoll/optcoll.hpp"

namespace optcoll::test {
namespace {

int error_class(int code) {
  int c = code;
  MPI_Error_class(code, &c);
  return c;
}

// Counts invocations of the communicator's error handler.
int g_handler_calls = 0;
int g_handler_last = MPI_SUCCESS;
void counting_handler(MPI_Comm*, int* code, ...) {
  ++g_handler_calls;
  g_handler_last = *code;
}

class ReturningComm : public TestComm {
 public:
  ReturningComm() {
    MPI_Errhandler h = MPI_ERRHANDLER_NULL;
    MPI_Comm_create_errhandler(&counting_handler, &h);
    MPI_Comm_set_errhandler(get(), h);
    MPI_Errhandler_free(&h);
  }
};

TEST(MpiApi, ArgumentErrorsGoThroughTheErrorHandler) {
  ReturningComm comm;
  const int p = world_size();
  int buf[8] = {};
  int out[8] = {};
  MPI_Datatype uncommitted = MPI_DATATYPE_NULL;
  MPI_Type_vector(2, 1, 2, MPI_INT, &uncommitted);
  struct Case {
    const char* what;
    int expected;
    int code;
  };
  g_handler_calls = 0;
  const std::vector<Case> cases{
      {"bcast root -1", MPI_ERR_ROOT, OPTCOLL_Bcast(buf, 1, MPI_INT, -1, comm)},
      {"bcast root p", MPI_ERR_ROOT, OPTCOLL_Bcast(buf, 1, MPI_INT, p, comm)},
      {"bcast count -1", MPI_ERR_COUNT, OPTCOLL_Bcast(buf, -1, MPI_INT, 0, comm)},
      {"bcast MPI_DATATYPE_NULL", MPI_ERR_TYPE, OPTCOLL_Bcast(buf, 1, MPI_DATATYPE_NULL, 0, comm)},
      {"bcast uncommitted", MPI_ERR_TYPE, OPTCOLL_Bcast(buf, 1, uncommitted, 0, comm)},
      {"bcast NULL buffer", MPI_ERR_BUFFER, OPTCOLL_Bcast(nullptr, 1, MPI_INT, 0, comm)},
      {"reduce root p", MPI_ERR_ROOT, OPTCOLL_Reduce(buf, out, 1, MPI_INT, MPI_SUM, p, comm)},
      {"reduce count -1", MPI_ERR_COUNT, OPTCOLL_Reduce(buf, out, -1, MPI_INT, MPI_SUM, 0, comm)},
      {"reduce MPI_DATATYPE_NULL", MPI_ERR_TYPE, OPTCOLL_Reduce(buf, out, 1, MPI_DATATYPE_NULL, MPI_SUM, 0, comm)},
      {"reduce uncommitted", MPI_ERR_TYPE, OPTCOLL_Reduce(buf, out, 1, uncommitted, MPI_SUM, 0, comm)},
      {"reduce MPI_OP_NULL", MPI_ERR_OP, OPTCOLL_Reduce(buf, out, 1, MPI_INT, MPI_OP_NULL, 0, comm)},
      {"reduce NULL sendbuf", MPI_ERR_BUFFER, OPTCOLL_Reduce(nullptr, out, 1, MPI_INT, MPI_SUM, 0, comm)},
  };
  for (const Case& c : cases) EXPECT_EQ(error_class(c.code), c.expected) << c.what;
  EXPECT_EQ(g_handler_calls, static_cast<int>(cases.size()));
  EXPECT_EQ(error_class(g_handler_last), MPI_ERR_BUFFER);
  MPI_Type_free(&uncommitted);

  // NULL buffers are fine with count 0; so is MPI_IN_PLACE at the root.
  g_handler_calls = 0;
  EXPECT_EQ(OPTCOLL_Bcast(nullptr, 0, MPI_INT, 0, comm), MPI_SUCCESS);
  EXPECT_EQ(OPTCOLL_Reduce(nullptr, nullptr, 0, MPI_INT, MPI_SUM, 0, comm), MPI_SUCCESS);
  // MPI_IN_PLACE at a non-root is an error, at the root not.
  const int rc = OPTCOLL_Reduce(MPI_IN_PLACE, out, 0, MPI_INT, MPI_SUM, 0, comm);
  EXPECT_EQ(error_class(rc), world_rank() == 0 ? MPI_SUCCESS : MPI_ERR_BUFFER);
  EXPECT_EQ(g_handler_calls, world_rank() == 0 ? 0 : 1);
}

TEST(MpiApi, NullCommUsesWorldsErrorHandler) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int buf = 0;
  EXPECT_EQ(error_class(OPTCOLL_Bcast(&buf, 1, MPI_INT, 0, MPI_COMM_NULL)), MPI_ERR_COMM);
  EXPECT_EQ(error_class(OPTCOLL_Reduce(&buf, &buf, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_NULL)), MPI_ERR_COMM);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

TEST(MpiApi, CppErrorsAreExceptions) {
  TestComm comm;
  int buf[4] = {};
  try {
    bcast(buf, 4, MPI_INT, world_size(), comm);
    ADD_FAILURE() << "no exception";
  } catch (const MpiError& e) {
    EXPECT_EQ(e.mpi_class(), MPI_ERR_ROOT);
    EXPECT_EQ(e.code(), Errc::mpi);
  }
  try {
    bcast(buf, 4, MPI_INT, 0, comm, Options{"no_such_algorithm", 0});
    ADD_FAILURE() << "no exception";
  } catch (const MpiError& e) {
    EXPECT_EQ(e.mpi_class(), MPI_ERR_ARG);
    EXPECT_NE(std::string(e.what()).find("circulant"), std::string::npos) << e.what();
  }
  // Aliased buffers are detected at the root only (elsewhere recvbuf is not
  // used), so only a single rank can test it without a hang.
  if (world_size() == 1) {
    EXPECT_THROW(reduce(buf, buf, 4, MPI_INT, MPI_SUM, 0, comm), MpiError);
  }
}

TEST(MpiApi, UnknownAlgorithmInEnvironmentIsMpiErrArg) {
  if (world_size() == 1) GTEST_SKIP() << "p = 1 moves no data and reads no settings";
  // Only rank 0's environment counts: the others have a valid name.
  ScopedEnv env("OPTCOLL_BCAST", "no_such_algorithm", "circulant");
  ReturningComm comm;
  std::vector<int> buf(100, 1);
  g_handler_calls = 0;
  EXPECT_EQ(error_class(OPTCOLL_Bcast(buf.data(), 100, MPI_INT, 0, comm)), MPI_ERR_ARG);
  EXPECT_EQ(g_handler_calls, 1);
  // Reductions are not affected.
  EXPECT_EQ(OPTCOLL_Reduce(buf.data(), world_rank() == 0 ? nullptr : buf.data(), 0, MPI_INT, MPI_SUM, 0, comm),
            MPI_SUCCESS);
}

// OPTCOLL_GATHER / OPTCOLL_SCATTER name the tree of Gather(v) / Scatter(v):
// a name outside the registry is MPI_ERR_ARG like everywhere else; a
// registry tree the call cannot run (the optimal "tree" needs every size at
// every rank, i.e. Gatherv_init) leaves the call its default.
TEST(MpiApi, TreeCollectivesReadTheirVariables) {
  if (world_size() == 1) GTEST_SKIP() << "p = 1 moves no data and reads no settings";
  const int p = world_size();
  const int me = world_rank();
  const int root = p - 1;
  std::vector<int> counts(static_cast<std::size_t>(p)), displs(static_cast<std::size_t>(p));
  for (int i = 0; i < p; ++i) {
    counts[static_cast<std::size_t>(i)] = 1 + i % 3;
    displs[static_cast<std::size_t>(i)] =
        i == 0 ? 0 : displs[static_cast<std::size_t>(i - 1)] + counts[static_cast<std::size_t>(i - 1)];
  }
  const int total = displs.back() + counts.back();
  const auto expect_gathered = [&](const std::vector<int>& all, const char* what) {
    if (me != root) return;
    for (int i = 0; i < p; ++i)
      for (int j = 0; j < counts[static_cast<std::size_t>(i)]; ++j)
        ASSERT_EQ(all[static_cast<std::size_t>(displs[static_cast<std::size_t>(i)] + j)], 100 * i + j) << what;
  };
  const std::vector<int> mine = [&] {
    std::vector<int> v(static_cast<std::size_t>(counts[static_cast<std::size_t>(me)]));
    for (std::size_t j = 0; j < v.size(); ++j) v[j] = 100 * me + static_cast<int>(j);
    return v;
  }();
  {
    ScopedEnv env("OPTCOLL_GATHER", "no_such_tree", "binomial");
    ReturningComm comm;
    std::vector<int> all(static_cast<std::size_t>(total), -1);
    EXPECT_EQ(error_class(OPTCOLL_Gatherv(mine.data(), counts[static_cast<std::size_t>(me)], MPI_INT, all.data(),
                                          counts.data(), displs.data(), MPI_INT, root, comm)),
              MPI_ERR_ARG);
    int one = me, got[64] = {};
    EXPECT_EQ(error_class(OPTCOLL_Gather(&one, 1, MPI_INT, got, 1, MPI_INT, root, comm)), MPI_ERR_ARG);
    // Scatter has its own variable.
    EXPECT_EQ(OPTCOLL_Scatter(got, 1, MPI_INT, &one, 1, MPI_INT, root, comm), MPI_SUCCESS);
  }
  for (const char* name : {"binomial", "two", "tree", "adaptive_binomial"}) {
    ScopedEnv env("OPTCOLL_GATHER", name);
    TestComm comm;
    std::vector<int> all(static_cast<std::size_t>(total), -1);
    ASSERT_EQ(OPTCOLL_Gatherv(mine.data(), counts[static_cast<std::size_t>(me)], MPI_INT, all.data(), counts.data(),
                              displs.data(), MPI_INT, root, comm),
              MPI_SUCCESS)
        << name;
    expect_gathered(all, name);
  }
}

TEST(MpiApi, RankZerosEnvironmentWins) {
  const int p = world_size();
  ScopedEnv alg("OPTCOLL_BCAST", "chain", "binomial");
  ScopedEnv bytes("OPTCOLL_BLOCK_BYTES", "1000", "10");
  TestComm comm;
  const mpi::Decision d = mpi::describe(comm, plan::Collective::bcast, 100000, MPI_INT, MPI_OP_NULL);
  EXPECT_EQ(d.algorithm, "chain");
  EXPECT_EQ(d.blocks, 400);
  std::vector<int> v(100000, world_rank() == p - 1 ? 7 : 0);
  EXPECT_EQ(OPTCOLL_Bcast(v.data(), 100000, MPI_INT, p - 1, comm), MPI_SUCCESS);
  for (int x : v) ASSERT_EQ(x, 7);
}

TEST(MpiApi, AlphaBetaOverrides) {
  ScopedEnv a("OPTCOLL_ALPHA", "1e-5");
  ScopedEnv b("OPTCOLL_BETA", "1e-9");
  TestComm comm;
  const mpi::Decision d = mpi::describe(comm, plan::Collective::bcast, 1 << 20, MPI_BYTE, MPI_OP_NULL);
  const int q = ceil_log2(world_size());
  if (q >= 2) {
    EXPECT_DOUBLE_EQ(d.model.ab.alpha, 1e-5);
    EXPECT_DOUBLE_EQ(d.model.ab.beta, 1e-9);
    EXPECT_EQ(d.measured.alpha, 0.0);  // nothing measured
    EXPECT_EQ(d.blocks, model::choose_blocks(q, 1 << 20, 1 << 20, {1e-5, 1e-9}));
    EXPECT_EQ(d.model.max_block_bytes, 0);  // the plain model: no cache cap
  } else {
    EXPECT_EQ(d.blocks, 1);
  }
}

// The pipelined all-broadcast (the automatic choice unless p is a power of
// two, where recursive doubling ties with it and wins).
const Options kCirculant{.algorithm = "circulant"};

// OPTCOLL_BLOCK_CAP (rank 0's) raises n for Bcast, Reduce and Allgather to
// blocks of at most that many bytes, 0 turns the cap off; Reduce_scatter is
// never capped.
TEST(MpiApi, BlockCapOverride) {
  const int q = ceil_log2(world_size());
  const std::int64_t big = std::int64_t{16} << 20;
  const std::int64_t capped = (big + 99999) / 100000;
  ScopedEnv a("OPTCOLL_ALPHA", "1e-5");
  ScopedEnv b("OPTCOLL_BETA", "1e-9");
  const std::int64_t model_n = model::choose_blocks(q, big, big, {1e-5, 1e-9});
  {
    ScopedEnv cap("OPTCOLL_BLOCK_CAP", "100000", "1");
    TestComm comm;
    const mpi::Decision d = mpi::describe(comm, plan::Collective::bcast, big, MPI_BYTE, MPI_OP_NULL);
    const mpi::Decision r = mpi::describe(comm, plan::Collective::reduce, big, MPI_BYTE, MPI_BXOR);
    // Equal groups of `big` bytes: the model's n is 1. (The circulant plan's
    // blocks; at a power of two p the doubling plan, one block per group, wins.)
    const mpi::Decision g =
        mpi::describe(comm, plan::Collective::allgather, big, MPI_BYTE, MPI_OP_NULL, kCirculant, big);
    const mpi::Decision rs = mpi::describe(comm, plan::Collective::reduce_scatter, big, MPI_BYTE, MPI_BXOR, {}, big);
    if (q >= 2) {
      EXPECT_EQ(d.model.max_block_bytes, 100000);
      EXPECT_EQ(d.blocks, std::max(model_n, capped));
      EXPECT_EQ(r.blocks, std::max(model_n, capped));
      EXPECT_EQ(g.blocks, capped);
      EXPECT_EQ(rs.blocks, 1);
    }
  }
  for (const char* bad : {"-5", "12abc", ""}) {  // ignored (a note on stderr): as if unset
    ScopedEnv cap("OPTCOLL_BLOCK_CAP", bad);
    TestComm comm;
    const mpi::Decision d = mpi::describe(comm, plan::Collective::bcast, big, MPI_BYTE, MPI_OP_NULL);
    if (q >= 2) {
      EXPECT_EQ(d.model.max_block_bytes, 0) << bad;
      EXPECT_EQ(d.blocks, model_n) << bad;
    }
  }
  {
    ScopedEnv cap("OPTCOLL_BLOCK_CAP", "0");
    TestComm comm;
    const mpi::Decision d = mpi::describe(comm, plan::Collective::bcast, big, MPI_BYTE, MPI_OP_NULL);
    const mpi::Decision g =
        mpi::describe(comm, plan::Collective::allgather, big, MPI_BYTE, MPI_OP_NULL, kCirculant, big);
    if (q >= 2) {
      EXPECT_EQ(d.model.max_block_bytes, 0);
      EXPECT_EQ(d.blocks, model_n);
      EXPECT_EQ(g.blocks, 1);
    }
  }
}

TEST(MpiApi, CalibrationAgreesOnEveryRank) {
  TestComm comm;
  const mpi::Decision d = mpi::describe(comm, plan::Collective::bcast, 1 << 20, MPI_BYTE, MPI_OP_NULL);
  std::int64_t lo = d.blocks;
  std::int64_t hi = d.blocks;
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT64_T, MPI_MIN, comm);
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT64_T, MPI_MAX, comm);
  EXPECT_EQ(lo, hi);
  if (ceil_log2(world_size()) >= 2) {
    EXPECT_GT(d.measured.alpha, 0.0);
    EXPECT_GT(d.measured.beta, 0.0);
    EXPECT_GT(d.measured.fill, 0.0);
    EXPECT_LE(d.measured.fill, 1.0);
    // The 8-byte binomial tree (timed at rank 0 alone): measured, and the
    // same number on every rank.
    EXPECT_GT(d.measured.tree_small, 0.0);
    double tree[2] = {d.measured.tree_small, -d.measured.tree_small};
    MPI_Allreduce(MPI_IN_PLACE, tree, 2, MPI_DOUBLE, MPI_MAX, comm);
    EXPECT_EQ(tree[0], -tree[1]);
    // The block cap: the same on every rank, from the smallest L2, and a
    // 16 MiB broadcast's blocks respect it.
    double l2[2] = {d.measured.l2_bytes, -d.measured.l2_bytes};
    MPI_Allreduce(MPI_IN_PLACE, l2, 2, MPI_DOUBLE, MPI_MAX, comm);
    EXPECT_EQ(l2[0], -l2[1]);
    const long own = sysconf(_SC_LEVEL2_CACHE_SIZE);
    if (own > 0) {
      EXPECT_LE(d.measured.l2_bytes, static_cast<double>(own));
    }
    EXPECT_EQ(d.model.max_block_bytes, mpi::max_block_bytes_for(d.measured.l2_bytes));
    const std::int64_t big = std::int64_t{16} << 20;
    const mpi::Decision b = mpi::describe(comm, plan::Collective::bcast, big, MPI_BYTE, MPI_OP_NULL);
    EXPECT_GE(b.blocks, (big + d.model.max_block_bytes - 1) / d.model.max_block_bytes);
    const mpi::Decision r = mpi::describe(comm, plan::Collective::reduce, big / 4, MPI_INT, MPI_SUM);
    EXPECT_GE(r.blocks, (big + d.model.max_block_bytes - 1) / d.model.max_block_bytes) << r.algorithm;
    const mpi::Decision g =
        mpi::describe(comm, plan::Collective::allgather, big, MPI_BYTE, MPI_OP_NULL, kCirculant, big);
    EXPECT_GE(g.blocks, (big + d.model.max_block_bytes - 1) / d.model.max_block_bytes);
    if (world_rank() == 0)
      std::printf(
          "calibration p=%d: 8 B round %.3g s, 8 B tree %.3g s, alpha=%.3g s beta=%.3g s/B fill=%.2f "
          "ranks/core=%.1f -> n(1 MiB)=%lld%s\n",
          world_size(), d.measured.round_small, d.measured.tree_small, d.measured.alpha, d.measured.beta,
          d.measured.fill, d.measured.ranks_per_core, static_cast<long long>(d.blocks), d.poll ? " (polling)" : "");
  }
}

TEST(MpiApi, BlockCapFromTheL2Cache) {
  EXPECT_EQ(mpi::max_block_bytes_for(0), 256 << 10);  // unknown
  EXPECT_EQ(mpi::max_block_bytes_for(-1), 256 << 10);
  EXPECT_EQ(mpi::max_block_bytes_for(1 << 20), 256 << 10);
  EXPECT_EQ(mpi::max_block_bytes_for(512 << 10), 128 << 10);
  EXPECT_EQ(mpi::max_block_bytes_for(128 << 10), 64 << 10);       // at least 64 KiB
  EXPECT_EQ(mpi::max_block_bytes_for(double{1 << 30}), 1 << 20);  // at most 1 MiB
}

TEST(MpiApi, NonCommutativeOverrideFallsBack) {
  TestComm comm;
  const mpi::Decision d =
      mpi::describe(comm, plan::Collective::reduce, 100, Types::get().matrix, Ops::get().matrix, Options{"chain", 0});
  EXPECT_EQ(d.algorithm, "binomial_ordered");
}

TEST(MpiApi, FreedCommunicatorReleasesItsCache) {
  const std::int64_t before = mpi::live_comm_states();
  {
    TestComm comm;
    int v = world_rank() == 0 ? 5 : 0;
    bcast(&v, 1, MPI_INT, 0, comm);
    EXPECT_EQ(v, 5);
    if (world_size() > 1) {
      EXPECT_EQ(mpi::live_comm_states(), before + 1);
    }
    bcast(&v, 1, MPI_INT, 0, comm);  // cached: no new state
    if (world_size() > 1) {
      EXPECT_EQ(mpi::live_comm_states(), before + 1);
    }
  }
  EXPECT_EQ(mpi::live_comm_states(), before);
}

// A freed communicator's handle is often reused by the next one (Open MPI
// and MPICH both recycle them): the new communicator, of another size,
// must get a state of its own, not the freed one's (the last-lookup cache
// in comm_cache.cpp). Oracle: the sizes and the broadcast values.
TEST(MpiApi, ReusedHandleGetsItsOwnState) {
  const int p = world_size();
  const int r = world_rank();
  int reused = 0;
  MPI_Comm previous = MPI_COMM_NULL;
  for (int round = 0; round < 6; ++round) {
    // Alternately the whole world and its first half (the rest: a second
    // half, or MPI_COMM_NULL at p = 1 .. 2 where it would be empty).
    const int half = (p + 1) / 2;
    const int color = round % 2 == 0 ? 0 : (r < half ? 0 : 1);
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Comm_split(MPI_COMM_WORLD, color, r, &comm);
    if (comm == previous) ++reused;
    const int expected_size = round % 2 == 0 ? p : (r < half ? half : p - half);
    int v = 0;
    int comm_rank = -1;
    MPI_Comm_rank(comm, &comm_rank);
    if (comm_rank == 0) v = 100 + round;
    bcast(&v, 1, MPI_INT, 0, comm);
    EXPECT_EQ(v, 100 + round) << "round " << round;
    const mpi::Decision d = mpi::describe(comm, plan::Collective::bcast, 1, MPI_INT, MPI_OP_NULL, {});
    EXPECT_FALSE(d.algorithm.empty());
    int size = 0;
    MPI_Comm_size(comm, &size);
    EXPECT_EQ(size, expected_size);
    EXPECT_EQ(mpi::check_call(comm, 1, MPI_INT, 0).size, expected_size) << "round " << round;
    previous = comm;
    MPI_Comm_free(&comm);
  }
  RecordProperty("handles_reused", reused);
}

// A blocking call repeated with the same arguments runs its compiled plan
// without binding it again; a repeat that differs only in its buffer, its
// datatype or its operator, or that follows another call on the same
// executor, must still see the change (oracle: the formulas below).
TEST(MpiApi, RepeatedCallsSeeEveryChangedArgument) {
  TestComm comm;
  const int p = world_size();
  const int r = world_rank();
  const int root = p - 1;
  constexpr int n = 5;
  int a[n]{}, b[n]{}, sum[n]{};
  float f[n]{}, fsum[n]{};
  for (int round = 0; round < 3; ++round) {
    for (int k = 0; k < n; ++k) {
      a[k] = r == root ? 1000 * round + k : -1;
      b[k] = r == root ? 2000 * round + k : -1;
    }
    bcast(a, n, MPI_INT, root, comm);
    bcast(b, n, MPI_INT, root, comm);  // another buffer
    for (int k = 0; k < n; ++k) {
      ASSERT_EQ(a[k], 1000 * round + k) << "round " << round << " element " << k;
      ASSERT_EQ(b[k], 2000 * round + k) << "round " << round << " element " << k;
    }
    for (int k = 0; k < n; ++k) {
      a[k] = r == 0 ? -(k + 1) : r + k;
      f[k] = static_cast<float>(r + 1 + k);
    }
    // The same buffers, another operator, then another datatype of the
    // same plan (as MPI_UNSIGNED the negative contribution is the largest).
    allreduce(a, sum, n, MPI_INT, MPI_SUM, comm);
    for (int k = 0; k < n; ++k)
      ASSERT_EQ(sum[k], -(k + 1) + (p - 1) * p / 2 + (p - 1) * k) << "round " << round << " element " << k;
    allreduce(a, sum, n, MPI_INT, MPI_MAX, comm);
    for (int k = 0; k < n; ++k)
      ASSERT_EQ(sum[k], p > 1 ? p - 1 + k : -(k + 1)) << "round " << round << " element " << k;
    // The oracle is MPI's own: Debian 12's MPICH 4.0 computes MPI_MAX of
    // unsigned types as signed (MPI_Reduce_local too), and optcoll combines
    // with MPI_Reduce_local.
    int native[n]{};
    MPI_Allreduce(a, native, n, MPI_UNSIGNED, MPI_MAX, comm);
    allreduce(a, sum, n, MPI_UNSIGNED, MPI_MAX, comm);
    for (int k = 0; k < n; ++k) ASSERT_EQ(sum[k], native[k]) << "round " << round << " element " << k;
    allreduce(f, fsum, n, MPI_FLOAT, MPI_SUM, comm);
    for (int k = 0; k < n; ++k)
      ASSERT_EQ(fsum[k], static_cast<float>(p * (p + 1) / 2 + p * k)) << "round " << round << " element " << k;
    // The last Bcast again, after other plans ran on the executor.
    for (int k = 0; k < n; ++k) b[k] = r == root ? 3000 * round + k : -1;
    bcast(b, n, MPI_INT, root, comm);
    for (int k = 0; k < n; ++k) ASSERT_EQ(b[k], 3000 * round + k) << "round " << round << " element " << k;
  }
}

TEST(MpiApi, UserTrafficIsNeverMatched) {
  TestComm comm;
  const int p = world_size();
  const int r = world_rank();
  // A wildcard receive pending across the collective must get the user's
  // message, not optcoll's.
  int got = -1;
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &req);
  std::vector<int> v(5000, r == 0 ? 3 : 0);
  bcast(v.data(), 5000, MPI_INT, 0, comm);
  const int token = 1000 + r;
  MPI_Send(&token, 1, MPI_INT, (r + 1) % p, 0, comm);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  EXPECT_EQ(got, 1000 + (r + p - 1) % p);
  for (int x : v) ASSERT_EQ(x, 3);
}

TEST(MpiApi, WorldAndSelf) {
  // MPI_COMM_WORLD's cache is released in MPI_Finalize (a clean exit of this
  // program shows it); MPI_COMM_SELF has p = 1.
  std::vector<int> v(333, world_rank() == 0 ? 9 : 0);
  EXPECT_EQ(OPTCOLL_Bcast(v.data(), 333, MPI_INT, 0, MPI_COMM_WORLD), MPI_SUCCESS);
  for (int x : v) ASSERT_EQ(x, 9);
  std::vector<int> w(10, 2);
  std::vector<int> out(10, 0);
  EXPECT_EQ(OPTCOLL_Reduce(w.data(), out.data(), 10, MPI_INT, MPI_PROD, 0, MPI_COMM_SELF), MPI_SUCCESS);
  EXPECT_EQ(out, w);
}

// The C API: handles, OPTCOLL_Test until done, a completed nonblocking
// request set to OPTCOLL_REQUEST_NULL and not startable, a persistent one
// started twice and freed while inactive.
TEST(MpiApi, CRequestHandles) {
  TestComm comm;
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  const int p = world_size(), r = world_rank();
  std::vector<int> v(100), w(100);
  for (int i = 0; i < 100; ++i) v[static_cast<std::size_t>(i)] = r * 100 + i;
  OPTCOLL_Request q = OPTCOLL_REQUEST_NULL;
  ASSERT_EQ(OPTCOLL_Iallreduce(v.data(), w.data(), 100, MPI_INT, MPI_SUM, comm, &q), MPI_SUCCESS);
  ASSERT_NE(q, OPTCOLL_REQUEST_NULL);
  for (int flag = 0; flag == 0;) ASSERT_EQ(OPTCOLL_Test(&q, &flag, MPI_STATUS_IGNORE), MPI_SUCCESS);
  EXPECT_EQ(q, OPTCOLL_REQUEST_NULL);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(w[static_cast<std::size_t>(i)], 100 * (p * (p - 1) / 2) + p * i);

  ASSERT_EQ(OPTCOLL_Ibcast(v.data(), 100, MPI_INT, p - 1, comm, &q), MPI_SUCCESS);
  EXPECT_EQ(OPTCOLL_Start(&q), MPI_ERR_REQUEST);  // a nonblocking call's request
  ASSERT_EQ(OPTCOLL_Wait(&q, MPI_STATUS_IGNORE), MPI_SUCCESS);
  EXPECT_EQ(q, OPTCOLL_REQUEST_NULL);
  EXPECT_EQ(v[0], (p - 1) * 100);

  OPTCOLL_Request s = OPTCOLL_REQUEST_NULL;
  int x = 0, sum = 0;
  ASSERT_EQ(OPTCOLL_Allreduce_init(&x, &sum, 1, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &s), MPI_SUCCESS);
  for (int it = 1; it <= 2; ++it) {
    x = r * it;
    ASSERT_EQ(OPTCOLL_Start(&s), MPI_SUCCESS);
    EXPECT_EQ(OPTCOLL_Start(&s), MPI_ERR_REQUEST);  // active
    EXPECT_EQ(OPTCOLL_Request_free(&s), MPI_ERR_REQUEST);
    ASSERT_EQ(OPTCOLL_Wait(&s, MPI_STATUS_IGNORE), MPI_SUCCESS);
    EXPECT_NE(s, OPTCOLL_REQUEST_NULL);  // persistent: kept
    EXPECT_EQ(sum, it * p * (p - 1) / 2);
  }
  ASSERT_EQ(OPTCOLL_Request_free(&s), MPI_SUCCESS);
  EXPECT_EQ(s, OPTCOLL_REQUEST_NULL);

  // Bad input at init: the blocking call's checks, as MPI error classes.
  EXPECT_EQ(OPTCOLL_Bcast_init(v.data(), -1, MPI_INT, 0, comm, MPI_INFO_NULL, &s), MPI_ERR_COUNT);
  EXPECT_EQ(OPTCOLL_Ireduce(v.data(), w.data(), 1, MPI_INT, MPI_SUM, p, comm, &s), MPI_ERR_ROOT);
  EXPECT_EQ(s, OPTCOLL_REQUEST_NULL);
}

}  // namespace
}  // namespace optcoll::test
