// OPTCOLL_CHECK=1: erroneous programs whose ranks disagree get an MPI error
// at every rank instead of a hang or corrupted memory. Each kind of
// mismatch (the collective, the root, the operator, the counts, the type
// signatures, an error at some ranks only) on the collectives it applies
// to, each call made so that without the check it would hang or move the
// wrong bytes; then the communicator still works. Calls that MPI allows
// (signatures that match although built differently) pass, results are
// right with the check on, and with the check off no agreement runs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bad_input_util.hpp"
#include "mpi/checks/agreement.hpp"
#include "optcoll/optcoll.hpp"
#include "optcoll/select/settings.hpp"

namespace optcoll::test {
namespace {

// OPTCOLL_CHECK set for the object's lifetime (every rank).
class CheckOn {
 public:
  CheckOn() : env_("OPTCOLL_CHECK", "1") { select::refresh_check_setting(); }
  ~CheckOn() {
    unsetenv("OPTCOLL_CHECK");
    select::refresh_check_setting();
  }
  CheckOn(const CheckOn&) = delete;
  CheckOn& operator=(const CheckOn&) = delete;

 private:
  ScopedEnv env_;
};

// The class every rank got, or -1 where ranks got different classes.
int common_class(int code, MPI_Comm comm) {
  const int mine = error_class(code);
  int lo = mine, hi = mine;
  MPI_Allreduce(&mine, &lo, 1, MPI_INT, MPI_MIN, comm);
  MPI_Allreduce(&mine, &hi, 1, MPI_INT, MPI_MAX, comm);
  return lo == hi ? lo : -1;
}

#define EXPECT_EVERY_RANK(code, cls, what) EXPECT_EQ(common_class((code), comm), (cls)) << (what)

class Fixture : public testing::Test {
 protected:
  void SetUp() override {
    if (world_size() < 2) GTEST_SKIP() << "a mismatch needs two ranks";
  }
  void TearDown() override {
    if (world_size() >= 2) expect_usable(comm);
  }
  CheckOn check;
  BadInputComm comm;
  const int p = world_size();
  const int r = world_rank();
  std::vector<int> a = std::vector<int>(static_cast<std::size_t>(64 * world_size()), 1);
  std::vector<int> b = std::vector<int>(static_cast<std::size_t>(64 * world_size()), 0);
};

using MpiCheck = Fixture;

TEST_F(MpiCheck, DifferentCollectives) {
  const int rc = r == 0 ? OPTCOLL_Bcast(a.data(), 4, MPI_INT, 0, comm)
                        : OPTCOLL_Reduce(a.data(), b.data(), 4, MPI_INT, MPI_SUM, 0, comm);
  EXPECT_EVERY_RANK(rc, MPI_ERR_OTHER, "bcast at rank 0, reduce elsewhere");
  const int rc2 = r == p - 1 ? OPTCOLL_Scan(a.data(), b.data(), 4, MPI_INT, MPI_SUM, comm)
                             : OPTCOLL_Exscan(a.data(), b.data(), 4, MPI_INT, MPI_SUM, comm);
  EXPECT_EVERY_RANK(rc2, MPI_ERR_OTHER, "scan at the last rank, exscan elsewhere");
}

TEST_F(MpiCheck, Roots) {
  // Without the check: two ranks each broadcasting as the root, the others
  // waiting for one of them.
  EXPECT_EVERY_RANK(OPTCOLL_Bcast(a.data(), 8, MPI_INT, r == 0 ? 0 : 1, comm), MPI_ERR_ROOT, "bcast");
  EXPECT_EVERY_RANK(OPTCOLL_Reduce(a.data(), b.data(), 8, MPI_INT, MPI_SUM, r == 1 ? 0 : p - 1, comm), MPI_ERR_ROOT,
                    "reduce");
  EXPECT_EVERY_RANK(OPTCOLL_Gather(a.data(), 2, MPI_INT, b.data(), 2, MPI_INT, r == 0 ? 1 : 0, comm), MPI_ERR_ROOT,
                    "gather");
  // An invalid root at one rank: there MPI_ERR_ROOT from its own check,
  // elsewhere from the mismatch.
  EXPECT_EVERY_RANK(OPTCOLL_Scatter(a.data(), 2, MPI_INT, b.data(), 2, MPI_INT, r == p - 1 ? p : 0, comm), MPI_ERR_ROOT,
                    "scatter, root p at the last rank");
}

TEST_F(MpiCheck, Operators) {
  EXPECT_EVERY_RANK(OPTCOLL_Allreduce(a.data(), b.data(), 8, MPI_INT, r == 0 ? MPI_SUM : MPI_MAX, comm), MPI_ERR_OP,
                    "allreduce");
  EXPECT_EVERY_RANK(OPTCOLL_Reduce(a.data(), b.data(), 8, MPI_INT, r == 1 ? MPI_PROD : MPI_SUM, 0, comm), MPI_ERR_OP,
                    "reduce");
  EXPECT_EVERY_RANK(OPTCOLL_Scan(a.data(), b.data(), 8, MPI_INT, r == 0 ? MPI_BXOR : MPI_BOR, comm), MPI_ERR_OP,
                    "scan");
  MPI_Op user = MPI_OP_NULL;
  MPI_Op_create([](void*, void*, int*, MPI_Datatype*) {}, 1, &user);
  EXPECT_EVERY_RANK(OPTCOLL_Reduce_scatter_block(a.data(), b.data(), 2, MPI_INT, r == 0 ? user : MPI_SUM, comm),
                    MPI_ERR_OP, "reduce_scatter_block, a user operator at rank 0");
  MPI_Op_free(&user);
}

TEST_F(MpiCheck, Counts) {
  // Count 0 at one rank: it would return at once and leave the others
  // waiting.
  EXPECT_EVERY_RANK(OPTCOLL_Bcast(a.data(), r == 1 ? 0 : 40, MPI_INT, 0, comm), MPI_ERR_COUNT, "bcast, 0 at rank 1");
  EXPECT_EVERY_RANK(OPTCOLL_Allreduce(a.data(), b.data(), r == 0 ? 9 : 8, MPI_INT, MPI_SUM, comm), MPI_ERR_COUNT,
                    "allreduce");
  EXPECT_EVERY_RANK(OPTCOLL_Exscan(a.data(), b.data(), r == p - 1 ? 3 : 4, MPI_INT, MPI_SUM, comm), MPI_ERR_COUNT,
                    "exscan");
  std::vector<int> counts(static_cast<std::size_t>(p), 2);
  std::vector<int> displs(static_cast<std::size_t>(p));
  for (int g = 0; g < p; ++g) displs[static_cast<std::size_t>(g)] = 2 * g;
  std::vector<int> other = counts;
  other[0] = r == 0 ? 3 : 2;  // rank 0 expects 3 from itself, the others 2 from it
  EXPECT_EVERY_RANK(OPTCOLL_Reduce_scatter(a.data(), b.data(), other.data(), MPI_INT, MPI_SUM, comm), MPI_ERR_COUNT,
                    "reduce_scatter, recvcounts differ");
  EXPECT_EVERY_RANK(
      OPTCOLL_Allgatherv(a.data(), r == 0 ? 3 : 2, MPI_INT, b.data(), other.data(), displs.data(), MPI_INT, comm),
      MPI_ERR_COUNT, "allgatherv, recvcounts differ");
  // Gatherv / Scatterv: the root's count for rank p-1 is 3, rank p-1 sends 2.
  std::vector<int> root_counts = counts;
  root_counts[static_cast<std::size_t>(p - 1)] = 3;
  EXPECT_EVERY_RANK(
      OPTCOLL_Gatherv(a.data(), 2, MPI_INT, b.data(), root_counts.data(), displs.data(), MPI_INT, 0, comm),
      MPI_ERR_COUNT, "gatherv");
  EXPECT_EVERY_RANK(
      OPTCOLL_Scatterv(a.data(), root_counts.data(), displs.data(), MPI_INT, b.data(), 2, MPI_INT, 0, comm),
      MPI_ERR_COUNT, "scatterv");
  OPTCOLL_Request req = OPTCOLL_REQUEST_NULL;
  EXPECT_EVERY_RANK(OPTCOLL_Gatherv_init(a.data(), 2, MPI_INT, b.data(), root_counts.data(), displs.data(), MPI_INT, 0,
                                         comm, MPI_INFO_NULL, &req),
                    MPI_ERR_COUNT, "gatherv_init");
  EXPECT_EQ(req, OPTCOLL_REQUEST_NULL);
  // Alltoallv: rank 0 sends 3 to rank p-1, which expects 2.
  std::vector<int> sends = counts;
  if (r == 0) sends[static_cast<std::size_t>(p - 1)] = 3;
  EXPECT_EVERY_RANK(OPTCOLL_Alltoallv(a.data(), sends.data(), displs.data(), MPI_INT, b.data(), counts.data(),
                                      displs.data(), MPI_INT, comm),
                    MPI_ERR_COUNT, "alltoallv");
  // Alltoall: one rank sends and receives blocks of 3, the others of 2.
  const int n = r == 0 ? 3 : 2;
  EXPECT_EVERY_RANK(OPTCOLL_Alltoall(a.data(), n, MPI_INT, b.data(), n, MPI_INT, comm), MPI_ERR_COUNT, "alltoall");
}

// The counts of the collectives not in Counts: one rank's count differs.
TEST_F(MpiCheck, CountsOfTheOthers) {
  const bool last = r == p - 1;
  EXPECT_EVERY_RANK(OPTCOLL_Reduce(a.data(), b.data(), last ? 5 : 8, MPI_INT, MPI_SUM, 0, comm), MPI_ERR_COUNT,
                    "reduce");
  EXPECT_EVERY_RANK(OPTCOLL_Scan(a.data(), b.data(), r == 0 ? 0 : 4, MPI_INT, MPI_SUM, comm), MPI_ERR_COUNT,
                    "scan, 0 at rank 0");
  EXPECT_EVERY_RANK(OPTCOLL_Reduce_scatter_block(a.data(), b.data(), last ? 3 : 2, MPI_INT, MPI_SUM, comm),
                    MPI_ERR_COUNT, "reduce_scatter_block");
  EXPECT_EVERY_RANK(OPTCOLL_Allgather(a.data(), r == 0 ? 3 : 2, MPI_INT, b.data(), r == 0 ? 3 : 2, MPI_INT, comm),
                    MPI_ERR_COUNT, "allgather, blocks of 3 at rank 0");
  // Rank p-1 sends 3 to the root, which expects 2 from everyone.
  EXPECT_EVERY_RANK(OPTCOLL_Gather(a.data(), last ? 3 : 2, MPI_INT, b.data(), 2, MPI_INT, 0, comm), MPI_ERR_COUNT,
                    "gather");
  // The root sends 2 to everyone, rank p-1 expects 3.
  EXPECT_EVERY_RANK(OPTCOLL_Scatter(a.data(), 2, MPI_INT, b.data(), last ? 3 : 2, MPI_INT, 0, comm), MPI_ERR_COUNT,
                    "scatter");
  std::vector<int> counts(static_cast<std::size_t>(p), 2);
  std::vector<int> displs(static_cast<std::size_t>(p));
  for (int g = 0; g < p; ++g) displs[static_cast<std::size_t>(g)] = 2 * g;
  OPTCOLL_Request req = OPTCOLL_REQUEST_NULL;
  EXPECT_EVERY_RANK(OPTCOLL_Scatterv_init(a.data(), counts.data(), displs.data(), MPI_INT, b.data(), last ? 1 : 2,
                                          MPI_INT, 0, comm, MPI_INFO_NULL, &req),
                    MPI_ERR_COUNT, "scatterv_init, rank p-1 expects 1");
  EXPECT_EQ(req, OPTCOLL_REQUEST_NULL);
  // many_to_many (C++ only): rank 0 sends 3 to rank p-1, which expects 2.
  std::vector<std::int64_t> recv_counts(static_cast<std::size_t>(p), 2);
  std::vector<std::int64_t> send_counts = recv_counts;
  if (r == 0) send_counts[static_cast<std::size_t>(p - 1)] = 3;
  std::vector<std::int64_t> offsets(static_cast<std::size_t>(p));
  for (int g = 0; g < p; ++g) offsets[static_cast<std::size_t>(g)] = 4 * g;
  int code = MPI_SUCCESS;
  try {
    many_to_many(a.data(), send_counts, offsets, b.data(), recv_counts, offsets, MPI_INT, comm);
  } catch (const MpiError& e) {
    code = e.mpi_class();
  }
  EXPECT_EVERY_RANK(code, MPI_ERR_COUNT, "many_to_many");
}

TEST_F(MpiCheck, Signatures) {
  // Same count, other datatypes: the bytes would be reinterpreted.
  EXPECT_EVERY_RANK(OPTCOLL_Bcast(a.data(), 8, r == 0 ? MPI_INT : MPI_FLOAT, 0, comm), MPI_ERR_TYPE, "bcast");
  EXPECT_EVERY_RANK(OPTCOLL_Allreduce(a.data(), b.data(), 4, r == 1 ? MPI_UNSIGNED : MPI_INT, MPI_SUM, comm),
                    MPI_ERR_TYPE, "allreduce");
  EXPECT_EVERY_RANK(OPTCOLL_Gather(a.data(), 2, r == p - 1 ? MPI_FLOAT : MPI_INT, b.data(), 2, MPI_INT, 0, comm),
                    MPI_ERR_TYPE, "gather, rank p-1 sends floats");
  // Same size, same element count, another basic type inside a struct.
  MPI_Datatype pair = MPI_DATATYPE_NULL;
  const int lens[2] = {1, 1};
  const MPI_Aint disps[2] = {0, 4};
  const MPI_Datatype kinds[2] = {MPI_INT, r == 0 ? MPI_FLOAT : MPI_INT};
  MPI_Type_create_struct(2, lens, disps, kinds, &pair);
  MPI_Type_commit(&pair);
  EXPECT_EVERY_RANK(OPTCOLL_Alltoall(a.data(), 1, pair, b.data(), 2, MPI_INT, comm), MPI_ERR_TYPE,
                    "alltoall, {int, float} at rank 0");
  MPI_Type_free(&pair);
}

// An argument error at some ranks only: they get their own class, the
// others the same class (instead of waiting for them).
TEST_F(MpiCheck, ErrorAtSomeRanks) {
  EXPECT_EVERY_RANK(OPTCOLL_Bcast(r == p - 1 ? nullptr : a.data(), 8, MPI_INT, 0, comm), MPI_ERR_BUFFER,
                    "bcast, NULL buffer at the last rank");
  EXPECT_EVERY_RANK(OPTCOLL_Allreduce(a.data(), r == 0 ? MPI_IN_PLACE : b.data(), 8, MPI_INT, MPI_SUM, comm),
                    MPI_ERR_BUFFER, "allreduce, MPI_IN_PLACE recvbuf at rank 0");
  // A non-root passes MPI_IN_PLACE to Gather: only it can tell.
  EXPECT_EVERY_RANK(OPTCOLL_Gather(r == 1 ? MPI_IN_PLACE : a.data(), 2, MPI_INT, b.data(), 2, MPI_INT, 0, comm),
                    MPI_ERR_BUFFER, "gather, MPI_IN_PLACE at rank 1");
}

// What MPI allows passes: matching signatures built differently, and the
// results are right.
TEST_F(MpiCheck, MatchingSignaturesPass) {
  MPI_Datatype four = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(4, MPI_INT, &four);
  MPI_Type_commit(&four);
  MPI_Datatype two_pairs = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(2, MPI_2INT, &two_pairs);
  MPI_Type_commit(&two_pairs);
  std::vector<int> mine(4);
  for (int k = 0; k < 4; ++k) mine[static_cast<std::size_t>(k)] = 10 * r + k;
  std::vector<int> all(static_cast<std::size_t>(4 * p), -1);
  // The root receives one contiguous(4, MPI_INT) per rank, rank 1 sends
  // 2 MPI_2INT, the others 4 MPI_INT.
  const int root = p - 1;
  const int rc = r == 1 ? OPTCOLL_Gather(mine.data(), 2, MPI_2INT, all.data(), 1, four, root, comm)
                        : OPTCOLL_Gather(mine.data(), 4, MPI_INT, all.data(), 1, four, root, comm);
  EXPECT_EVERY_RANK(rc, MPI_SUCCESS, "gather with matching signatures");
  if (r == root) {
    for (int i = 0; i < 4 * p; ++i) EXPECT_EQ(all[static_cast<std::size_t>(i)], 10 * (i / 4) + i % 4) << i;
  }
  std::vector<int> got(static_cast<std::size_t>(4 * p), -1);
  const int rc2 =
      OPTCOLL_Alltoall(all.data(), r == 0 ? 1 : 2, r == 0 ? two_pairs : MPI_2INT, got.data(), 4, MPI_INT, comm);
  EXPECT_EVERY_RANK(rc2, MPI_SUCCESS, "alltoall with matching signatures");
  MPI_Type_free(&four);
  MPI_Type_free(&two_pairs);
  // One agreement per call on more than one rank.
  const std::int64_t before = mpi::agreements_run();
  EXPECT_EQ(OPTCOLL_Allreduce(a.data(), b.data(), 8, MPI_INT, MPI_SUM, comm), MPI_SUCCESS);
  EXPECT_EQ(mpi::agreements_run(), before + 1);
  for (int k = 0; k < 8; ++k) EXPECT_EQ(b[static_cast<std::size_t>(k)], p);
}

TEST(MpiCheckOff, NoAgreementByDefault) {
  TestComm comm;
  std::vector<int> a(8, 1), b(8, 0);
  const std::int64_t before = mpi::agreements_run();
  ASSERT_EQ(OPTCOLL_Allreduce(a.data(), b.data(), 8, MPI_INT, MPI_SUM, comm), MPI_SUCCESS);
  ASSERT_EQ(OPTCOLL_Bcast(a.data(), 8, MPI_INT, 0, comm), MPI_SUCCESS);
  EXPECT_EQ(mpi::agreements_run(), before);
}

}  // namespace
}  // namespace optcoll::test
