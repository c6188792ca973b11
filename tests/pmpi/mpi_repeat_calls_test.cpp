// A blocking call the same as the last of its collective on a communicator
// runs that call's plan again (src/mpi/executor/repeat_call.hpp), through
// the shapes of the drop-in and the component with optcoll itself behind
// them. Every result is checked against its closed form, and the count of
// calls that ran again (CommState::runs_again) against the calls that may:
// the same arguments again, and none where a buffer, count, root, datatype
// or operator differs, a derived datatype or a user operator is involved,
// the argument check is on, or the communicator is new.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "mpi/api/c_api_int64.hpp"
#include "mpi/checks/agreement.hpp"
#include "optcoll/select/settings.hpp"
#include "runtime.hpp"
#include "shapes.hpp"
#include "shapes_reduction.hpp"

namespace optcoll::pmpi {
namespace {

using Ints = std::vector<int>;

int bcast(Ints& v, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  return shapes::bcast<Op::Bcast>(shapes::Calls{&mpi::described::Bcast, &PMPI_Bcast}, v.data(), count, type, root,
                                  comm);
}
int allreduce(const void* in, Ints& out, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return shapes::allreduce<Op::Allreduce>(shapes::Calls{&mpi::described::Allreduce, &PMPI_Allreduce}, in, out.data(),
                                          count, type, op, comm);
}

class RepeatCalls : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {  // before the first routed call
    setenv("OPTCOLL_BCAST", "optcoll", 1);
    setenv("OPTCOLL_ALLREDUCE", "optcoll", 1);
    setenv("OPTCOLL_SCAN", "optcoll", 1);
    setenv("OPTCOLL_EXSCAN", "optcoll", 1);
  }
  void SetUp() override {
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &me);
  }
  void TearDown() override { MPI_Comm_free(&comm); }
  // Calls that ran again on comm so far (none before its first call).
  std::int64_t again() const {
    const mpi::CommState* s = mpi::find_comm_state(comm);
    return s != nullptr ? s->runs_again : 0;
  }
  // What may run again: every call after the first where a plan runs.
  std::int64_t repeats(std::int64_t n) const { return p > 1 ? n : 0; }
  void check_bcast(Ints& v, int count, int root, int stamp) {
    for (int i = 0; i < count; ++i) v[static_cast<std::size_t>(i)] = me == root ? stamp * 100 + i : -1;
    ASSERT_EQ(bcast(v, count, MPI_INT, root, comm), MPI_SUCCESS);
    for (int i = 0; i < count; ++i) ASSERT_EQ(v[static_cast<std::size_t>(i)], stamp * 100 + i) << "element " << i;
  }
  void check_allreduce(Ints& in, Ints& out, int count, int stamp) {
    for (int i = 0; i < count; ++i) in[static_cast<std::size_t>(i)] = stamp + me * i;
    ASSERT_EQ(allreduce(in.data(), out, count, MPI_INT, MPI_SUM, comm), MPI_SUCCESS);
    for (int i = 0; i < count; ++i)
      ASSERT_EQ(out[static_cast<std::size_t>(i)], p * stamp + i * p * (p - 1) / 2) << "element " << i;
  }

  MPI_Comm comm = MPI_COMM_NULL;
  int p = 1, me = 0;
};

TEST_F(RepeatCalls, TheSameCallRunsAgainWithNewContent) {
  Ints v(64);
  for (int k = 0; k < 5; ++k) check_bcast(v, 64, p - 1, k);
  EXPECT_EQ(again(), repeats(4));
  Ints in(16), out(16);
  for (int k = 0; k < 5; ++k) check_allreduce(in, out, 16, k);
  EXPECT_EQ(again(), repeats(8));
}

TEST_F(RepeatCalls, CollectivesTakeTurnsOnOneCommunicator) {
  // Both plans share the communicator's executor: each run binds it anew.
  Ints v(8), in(8), out(8);
  for (int k = 0; k < 4; ++k) {
    check_bcast(v, 8, 0, k);
    check_allreduce(in, out, 8, k);
  }
  EXPECT_EQ(again(), repeats(6));
}

TEST_F(RepeatCalls, AnotherBufferCountOrRootTakesTheLongWay) {
  Ints a(32), b(32);
  check_bcast(a, 32, 0, 1);
  check_bcast(b, 32, 0, 2);  // another buffer: the plan is bound anew
  check_bcast(a, 32, 0, 3);  // and again: not the first binding
  EXPECT_EQ(again(), 0);
  check_bcast(a, 32, 0, 4);
  EXPECT_EQ(again(), repeats(1));
  // Fewer elements: nothing beyond them is written.
  for (int& x : a) x = -7;
  a[16] = me == 0 ? 5 : -7;
  if (me == 0)
    for (int i = 0; i < 16; ++i) a[static_cast<std::size_t>(i)] = 500 + i;
  ASSERT_EQ(bcast(a, 16, MPI_INT, 0, comm), MPI_SUCCESS);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(a[static_cast<std::size_t>(i)], 500 + i);
  for (int i = 17; i < 32; ++i) EXPECT_EQ(a[static_cast<std::size_t>(i)], -7);
  check_bcast(a, 32, p - 1, 6);  // another root
  check_bcast(a, 32, 0, 7);
  EXPECT_EQ(again(), repeats(1));
}

TEST_F(RepeatCalls, InPlaceRunsAgain) {
  Ints v(10);
  for (int k = 0; k < 3; ++k) {
    for (int i = 0; i < 10; ++i) v[static_cast<std::size_t>(i)] = k + me * i;
    ASSERT_EQ(allreduce(MPI_IN_PLACE, v, 10, MPI_INT, MPI_SUM, comm), MPI_SUCCESS);
    for (int i = 0; i < 10; ++i) ASSERT_EQ(v[static_cast<std::size_t>(i)], p * k + i * p * (p - 1) / 2);
  }
  EXPECT_EQ(again(), repeats(2));
}

TEST_F(RepeatCalls, ScanRunsAgainExscanBesideItsRankZero) {
  // Both share Allreduce's shape; Exscan's rank 0 works in a buffer of its
  // own, so it takes the long way each time (the others run again).
  Ints in(9), out(9);
  for (const bool exclusive : {false, true})
    for (int k = 0; k < 3; ++k) {
      for (int i = 0; i < 9; ++i) in[static_cast<std::size_t>(i)] = k + me * i;
      out.assign(9, -1);
      const int rc = exclusive ? shapes::allreduce<Op::Exscan>(shapes::Calls{&mpi::described::Exscan, &PMPI_Exscan},
                                                               in.data(), out.data(), 9, MPI_INT, MPI_SUM, comm)
                               : shapes::allreduce<Op::Scan>(shapes::Calls{&mpi::described::Scan, &PMPI_Scan},
                                                             in.data(), out.data(), 9, MPI_INT, MPI_SUM, comm);
      ASSERT_EQ(rc, MPI_SUCCESS);
      const int upto = exclusive ? me : me + 1;  // ranks 0 .. upto - 1
      for (int i = 0; upto > 0 && i < 9; ++i)
        ASSERT_EQ(out[static_cast<std::size_t>(i)], upto * k + i * upto * (upto - 1) / 2);
    }
  EXPECT_EQ(again(), p > 1 ? (me == 0 ? 2 : 4) : 0);
}

// Elementwise max of ints, on MPI_INT or on a datatype of several ints.
void max_of(void* in, void* inout, int* len, MPI_Datatype* type) {
  int bytes = 0;
  MPI_Type_size(*type, &bytes);
  const int n = *len * bytes / static_cast<int>(sizeof(int));
  for (int i = 0; i < n; ++i)
    static_cast<int*>(inout)[i] = std::max(static_cast<int*>(in)[i], static_cast<int*>(inout)[i]);
}

TEST_F(RepeatCalls, DerivedDatatypesAndUserOperatorsTakeTheLongWay) {
  // A handle the program may free and MPI hand out again for another
  // object is never taken for the same call.
  MPI_Datatype pair = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  MPI_Op op = MPI_OP_NULL;
  MPI_Op_create(&max_of, 1, &op);
  Ints in(12), out(12);
  // Each call twice in a row: the second would run again if it could.
  for (int k = 0; k < 4; ++k) {
    for (int i = 0; i < 12; ++i) in[static_cast<std::size_t>(i)] = k + me + i;
    out.assign(12, 0);
    if (k < 2)
      ASSERT_EQ(allreduce(in.data(), out, 6, pair, op, comm), MPI_SUCCESS);
    else
      ASSERT_EQ(allreduce(in.data(), out, 12, MPI_INT, op, comm), MPI_SUCCESS);
    for (int i = 0; i < 12; ++i) ASSERT_EQ(out[static_cast<std::size_t>(i)], k + p - 1 + i);
  }
  EXPECT_EQ(again(), 0);
  MPI_Op_free(&op);
  MPI_Type_free(&pair);
}

TEST_F(RepeatCalls, TheArgumentCheckSeesEveryCall) {
  Ints v(4);
  check_bcast(v, 4, 0, 1);
  setenv("OPTCOLL_CHECK", "1", 1);
  select::refresh_check_setting();
  const std::int64_t agreed = mpi::agreements_run();
  check_bcast(v, 4, 0, 2);
  check_bcast(v, 4, 0, 3);
  unsetenv("OPTCOLL_CHECK");
  select::refresh_check_setting();
  EXPECT_EQ(mpi::agreements_run() - agreed, p > 1 ? 2 : 0);
  EXPECT_EQ(again(), 0);
}

TEST_F(RepeatCalls, ANewCommunicatorStartsAfresh) {
  // Freed and made again, the communicator may get the same handle: its
  // state is new, and so is every call on it.
  Ints v(6);
  for (int round = 0; round < 3; ++round) {
    MPI_Comm c = MPI_COMM_NULL;
    MPI_Comm_split(MPI_COMM_WORLD, 0, round % 2 == 0 ? me : -me, &c);
    int cme = 0;
    MPI_Comm_rank(c, &cme);
    for (int k = 0; k < 2; ++k) {
      for (int i = 0; i < 6; ++i) v[static_cast<std::size_t>(i)] = cme == 0 ? round * 10 + k + i : -1;
      ASSERT_EQ(bcast(v, 6, MPI_INT, 0, c), MPI_SUCCESS);
      for (int i = 0; i < 6; ++i) ASSERT_EQ(v[static_cast<std::size_t>(i)], round * 10 + k + i);
    }
    const mpi::CommState* s = mpi::find_comm_state(c);
    EXPECT_EQ(s != nullptr ? s->runs_again : 0, repeats(1));
    MPI_Comm_free(&c);
  }
}

TEST_F(RepeatCalls, ARequestBetweenRepeatsKeepsItsOwnPlan) {
  Ints v(20), w(20);
  check_bcast(v, 20, 0, 1);
  for (int i = 0; i < 20; ++i) w[static_cast<std::size_t>(i)] = me == 1 % p ? 900 + i : -1;
  OPTCOLL_Request r = OPTCOLL_REQUEST_NULL;
  ASSERT_EQ(OPTCOLL_Ibcast(w.data(), 20, MPI_INT, 1 % p, comm, &r), MPI_SUCCESS);
  check_bcast(v, 20, 0, 2);
  ASSERT_EQ(OPTCOLL_Wait(&r, MPI_STATUS_IGNORE), MPI_SUCCESS);
  for (int i = 0; i < 20; ++i) ASSERT_EQ(w[static_cast<std::size_t>(i)], 900 + i);
  check_bcast(v, 20, 0, 3);
  EXPECT_EQ(again(), repeats(2));
}

}  // namespace
}  // namespace optcoll::pmpi
