// Bad input under MPI_ERRORS_RETURN: every collective's cheap-to-detect
// argument errors return (and raise through the communicator's handler) the
// MPI error class, never crash or hang, and leave the communicator usable.
// Every rank passes the same bad argument, so every rank fails locally
// before communicating (a bad argument at one rank only is erroneous MPI
// that no local check can turn into an error everywhere; OPTCOLL_CHECK=1
// does, mpi_check_test.cpp). Here: Bcast, Reduce, the all-to-all
// reductions and gathers, Scan, Exscan, Alltoall(v), intercommunicators;
// Gather(v), Scatter(v) and the persistent calls: mpi_bad_input_tree_test.cpp.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bad_input_util.hpp"
#include "optcoll/optcoll.hpp"

namespace optcoll::test {
namespace {

using Comm = BadInputComm;

TEST(BadInput, Bcast) {
  Comm comm;
  const int p = world_size();
  int buf[16] = {};
  MPI_Datatype uncommitted = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(2, MPI_INT, &uncommitted);
  g_raised = 0;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);  // MPI_COMM_NULL's errors go there
  const std::vector<Case> cases{
      {"root -1", MPI_ERR_ROOT, OPTCOLL_Bcast(buf, 4, MPI_INT, -1, comm)},
      {"root p", MPI_ERR_ROOT, OPTCOLL_Bcast(buf, 4, MPI_INT, p, comm)},
      {"count -1", MPI_ERR_COUNT, OPTCOLL_Bcast(buf, -1, MPI_INT, 0, comm)},
      {"count INT_MIN", MPI_ERR_COUNT, OPTCOLL_Bcast(buf, INT_MIN, MPI_INT, 0, comm)},
      {"MPI_DATATYPE_NULL", MPI_ERR_TYPE, OPTCOLL_Bcast(buf, 4, MPI_DATATYPE_NULL, 0, comm)},
      {"uncommitted type", MPI_ERR_TYPE, OPTCOLL_Bcast(buf, 4, uncommitted, 0, comm)},
      {"NULL buffer", MPI_ERR_BUFFER, OPTCOLL_Bcast(nullptr, 4, MPI_INT, 0, comm)},
      {"MPI_IN_PLACE buffer", MPI_ERR_BUFFER, OPTCOLL_Bcast(MPI_IN_PLACE, 4, MPI_INT, 0, comm)},
      {"MPI_COMM_NULL", MPI_ERR_COMM, OPTCOLL_Bcast(buf, 4, MPI_INT, 0, MPI_COMM_NULL)},
  };
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  expect_classes(cases);
  EXPECT_EQ(g_raised, static_cast<int>(cases.size()) - 1);  // MPI_COMM_NULL raises on MPI_COMM_WORLD
  MPI_Type_free(&uncommitted);
  expect_usable(comm);
}

TEST(BadInput, Reduce) {
  Comm comm;
  const int p = world_size();
  const bool root0 = world_rank() == 0;
  int in[16] = {};
  int out[16] = {};
  float fin[4] = {};
  float fout[4] = {};
  MPI_Datatype pair = MPI_DATATYPE_NULL;
  const int lens[2] = {1, 1};
  const MPI_Aint disps[2] = {0, 8};
  const MPI_Datatype kinds[2] = {MPI_INT, MPI_DOUBLE};
  MPI_Type_create_struct(2, lens, disps, kinds, &pair);
  MPI_Type_commit(&pair);
  MPI_Datatype ints3 = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(3, MPI_INT, &ints3);
  MPI_Type_commit(&ints3);
  std::vector<double> sin(8, 1.0);
  std::vector<double> sout(8, 0.0);
  g_raised = 0;
  const std::vector<Case> cases{
      {"root -1", MPI_ERR_ROOT, OPTCOLL_Reduce(in, out, 4, MPI_INT, MPI_SUM, -1, comm)},
      {"root p", MPI_ERR_ROOT, OPTCOLL_Reduce(in, out, 4, MPI_INT, MPI_SUM, p, comm)},
      {"count -5", MPI_ERR_COUNT, OPTCOLL_Reduce(in, out, -5, MPI_INT, MPI_SUM, 0, comm)},
      {"MPI_DATATYPE_NULL", MPI_ERR_TYPE, OPTCOLL_Reduce(in, out, 4, MPI_DATATYPE_NULL, MPI_SUM, 0, comm)},
      {"MPI_OP_NULL", MPI_ERR_OP, OPTCOLL_Reduce(in, out, 4, MPI_INT, MPI_OP_NULL, 0, comm)},
      {"MPI_REPLACE", MPI_ERR_OP, OPTCOLL_Reduce(in, out, 4, MPI_INT, MPI_REPLACE, 0, comm)},
      {"MPI_NO_OP", MPI_ERR_OP, OPTCOLL_Reduce(in, out, 4, MPI_INT, MPI_NO_OP, 0, comm)},
      {"MPI_SUM on a struct", MPI_ERR_OP, OPTCOLL_Reduce(sin.data(), sout.data(), 2, pair, MPI_SUM, 0, comm)},
      {"MPI_SUM on contiguous ints", MPI_ERR_OP, OPTCOLL_Reduce(in, out, 2, ints3, MPI_SUM, 0, comm)},
      {"MPI_BAND on float", MPI_ERR_OP, OPTCOLL_Reduce(fin, fout, 4, MPI_FLOAT, MPI_BAND, 0, comm)},
      {"MPI_LAND on double", MPI_ERR_OP, OPTCOLL_Reduce(sin.data(), sout.data(), 4, MPI_DOUBLE, MPI_LAND, 0, comm)},
      {"MPI_MAXLOC on int", MPI_ERR_OP, OPTCOLL_Reduce(in, out, 4, MPI_INT, MPI_MAXLOC, 0, comm)},
      {"MPI_SUM on MPI_2INT", MPI_ERR_OP, OPTCOLL_Reduce(in, out, 4, MPI_2INT, MPI_SUM, 0, comm)},
      {"MPI_SUM on MPI_BYTE", MPI_ERR_OP, OPTCOLL_Reduce(in, out, 4, MPI_BYTE, MPI_SUM, 0, comm)},
      {"MPI_MAX on complex", MPI_ERR_OP,
       OPTCOLL_Reduce(sin.data(), sout.data(), 2, MPI_C_DOUBLE_COMPLEX, MPI_MAX, 0, comm)},
      {"NULL sendbuf", MPI_ERR_BUFFER, OPTCOLL_Reduce(nullptr, out, 4, MPI_INT, MPI_SUM, 0, comm)},
      {"MPI_IN_PLACE as recvbuf at the root", root0 ? MPI_ERR_BUFFER : MPI_SUCCESS,
       root0 ? OPTCOLL_Reduce(in, MPI_IN_PLACE, 4, MPI_INT, MPI_SUM, 0, comm) : MPI_SUCCESS},
      {"NULL recvbuf at the root", root0 ? MPI_ERR_BUFFER : MPI_SUCCESS,
       root0 ? OPTCOLL_Reduce(in, nullptr, 4, MPI_INT, MPI_SUM, 0, comm) : MPI_SUCCESS},
      // Count 0: the root returns at once, so only the others' check runs.
      {"MPI_IN_PLACE at a non-root", root0 ? MPI_SUCCESS : MPI_ERR_BUFFER,
       OPTCOLL_Reduce(MPI_IN_PLACE, out, 0, MPI_INT, MPI_SUM, 0, comm)},
  };
  expect_classes(cases);
  int expected_raised = 0;
  for (const Case& c : cases) expected_raised += c.expected != MPI_SUCCESS ? 1 : 0;
  EXPECT_EQ(g_raised, expected_raised);
  // Valid pairs pass: MPI_MAXLOC on MPI_2INT, MPI_BXOR on MPI_BYTE, a
  // predefined op on MPI_INT64_T, MPI_LAND on MPI_C_BOOL.
  EXPECT_EQ(OPTCOLL_Reduce(in, out, 2, MPI_2INT, MPI_MAXLOC, 0, comm), MPI_SUCCESS);
  EXPECT_EQ(OPTCOLL_Reduce(in, out, 8, MPI_BYTE, MPI_BXOR, 0, comm), MPI_SUCCESS);
  EXPECT_EQ(OPTCOLL_Reduce(in, out, 4, MPI_INT64_T, MPI_MAX, 0, comm), MPI_SUCCESS);
  EXPECT_EQ(OPTCOLL_Reduce(in, out, 8, MPI_C_BOOL, MPI_LAND, 0, comm), MPI_SUCCESS);
  MPI_Type_free(&pair);
  MPI_Type_free(&ints3);
  expect_usable(comm);
}

TEST(BadInput, AllToAllCollectives) {
  Comm comm;
  const int p = world_size();
  const int me = world_rank();
  std::vector<int> in(static_cast<std::size_t>(4 * p), 1);
  std::vector<int> out(static_cast<std::size_t>(4 * p), 0);
  std::vector<float> fin(static_cast<std::size_t>(4 * p), 1.0F);
  std::vector<float> fout(static_cast<std::size_t>(4 * p), 0.0F);
  std::vector<int> counts(static_cast<std::size_t>(p), 2);
  std::vector<int> displs(static_cast<std::size_t>(p));
  for (int g = 0; g < p; ++g) displs[static_cast<std::size_t>(g)] = 2 * g;
  std::vector<int> negative = counts;
  negative[static_cast<std::size_t>(p - 1)] = -1;
  MPI_Datatype pair = MPI_DATATYPE_NULL;
  const int lens[2] = {1, 1};
  const MPI_Aint disps[2] = {0, 8};
  const MPI_Datatype kinds[2] = {MPI_INT, MPI_DOUBLE};
  MPI_Type_create_struct(2, lens, disps, kinds, &pair);
  MPI_Type_commit(&pair);
  std::vector<double> sin(static_cast<std::size_t>(4 * p), 1.0);
  std::vector<double> sout(static_cast<std::size_t>(4 * p), 0.0);
  int merged = 0;
  g_raised = 0;
  const std::vector<Case> cases{
      {"allgather count -1", MPI_ERR_COUNT, OPTCOLL_Allgather(in.data(), -1, MPI_INT, out.data(), -1, MPI_INT, comm)},
      {"allgather MPI_DATATYPE_NULL", MPI_ERR_TYPE,
       OPTCOLL_Allgather(in.data(), 2, MPI_INT, out.data(), 2, MPI_DATATYPE_NULL, comm)},
      {"allgather NULL recvbuf", MPI_ERR_BUFFER, OPTCOLL_Allgather(in.data(), 2, MPI_INT, nullptr, 2, MPI_INT, comm)},
      {"allgather MPI_IN_PLACE recvbuf", MPI_ERR_BUFFER,
       OPTCOLL_Allgather(in.data(), 2, MPI_INT, MPI_IN_PLACE, 2, MPI_INT, comm)},
      {"allgather send 3 ints, receive 2", MPI_ERR_TRUNCATE,
       OPTCOLL_Allgather(in.data(), 3, MPI_INT, out.data(), 2, MPI_INT, comm)},
      {"allgatherv negative recvcount", MPI_ERR_COUNT,
       OPTCOLL_Allgatherv(in.data(), 2, MPI_INT, out.data(), negative.data(), displs.data(), MPI_INT, comm)},
      {"allgatherv sendcount != recvcounts[rank]", MPI_ERR_TRUNCATE,
       OPTCOLL_Allgatherv(in.data(), 1, MPI_INT, out.data(), counts.data(), displs.data(), MPI_INT, comm)},
      {"allgatherv NULL recvcounts", MPI_ERR_ARG,
       OPTCOLL_Allgatherv(in.data(), 2, MPI_INT, out.data(), nullptr, displs.data(), MPI_INT, comm)},
      {"reduce_scatter_block MPI_OP_NULL", MPI_ERR_OP,
       OPTCOLL_Reduce_scatter_block(in.data(), out.data(), 2, MPI_INT, MPI_OP_NULL, comm)},
      {"reduce_scatter_block MPI_BAND on float", MPI_ERR_OP,
       OPTCOLL_Reduce_scatter_block(fin.data(), fout.data(), 2, MPI_FLOAT, MPI_BAND, comm)},
      {"reduce_scatter_block NULL sendbuf", MPI_ERR_BUFFER,
       OPTCOLL_Reduce_scatter_block(nullptr, out.data(), 2, MPI_INT, MPI_SUM, comm)},
      {"reduce_scatter_block count -2", MPI_ERR_COUNT,
       OPTCOLL_Reduce_scatter_block(in.data(), out.data(), -2, MPI_INT, MPI_SUM, comm)},
      {"reduce_scatter negative recvcount", MPI_ERR_COUNT,
       OPTCOLL_Reduce_scatter(in.data(), out.data(), negative.data(), MPI_INT, MPI_SUM, comm)},
      {"reduce_scatter MPI_SUM on a struct", MPI_ERR_OP,
       OPTCOLL_Reduce_scatter(sin.data(), sout.data(), counts.data(), pair, MPI_SUM, comm)},
      {"reduce_scatter MPI_IN_PLACE recvbuf", MPI_ERR_BUFFER,
       OPTCOLL_Reduce_scatter(in.data(), MPI_IN_PLACE, counts.data(), MPI_INT, MPI_SUM, comm)},
      {"allreduce MPI_SUM on a struct", MPI_ERR_OP, OPTCOLL_Allreduce(sin.data(), sout.data(), 2, pair, MPI_SUM, comm)},
      {"allreduce MPI_LAND on double", MPI_ERR_OP,
       OPTCOLL_Allreduce(sin.data(), sout.data(), 2, MPI_DOUBLE, MPI_LAND, comm)},
      {"allreduce MPI_REPLACE", MPI_ERR_OP, OPTCOLL_Allreduce(in.data(), out.data(), 2, MPI_INT, MPI_REPLACE, comm)},
      {"allreduce MPI_IN_PLACE recvbuf", MPI_ERR_BUFFER,
       OPTCOLL_Allreduce(in.data(), MPI_IN_PLACE, 2, MPI_INT, MPI_SUM, comm)},
      {"allreduce NULL recvbuf", MPI_ERR_BUFFER, OPTCOLL_Allreduce(in.data(), nullptr, 2, MPI_INT, MPI_SUM, comm)},
      {"allreduce count -1", MPI_ERR_COUNT, OPTCOLL_Allreduce(in.data(), out.data(), -1, MPI_INT, MPI_SUM, comm)},
      {"allmerge negative sendcount", MPI_ERR_COUNT, OPTCOLL_Allmerge_int(in.data(), -1, out.data(), 4, &merged, comm)},
  };
  expect_classes(cases);
  EXPECT_EQ(g_raised, static_cast<int>(cases.size()));
  // Too small a receive buffer for the merged keys: every rank learns it
  // after the collective (the union's size is not known before).
  const int small = OPTCOLL_Allmerge_int(in.data(), 2, out.data(), 2 * p - 1, &merged, comm);
  EXPECT_EQ(error_class(small), MPI_ERR_TRUNCATE) << "allmerge capacity too small at rank " << me;
  MPI_Type_free(&pair);
  expect_usable(comm);
}

TEST(BadInput, ScanAndExscan) {
  Comm comm;
  std::vector<int> in(8, 1);
  std::vector<int> out(8, 0);
  std::vector<double> din(8, 1.0);
  std::vector<double> dout(8, 0.0);
  MPI_Datatype pair = MPI_DATATYPE_NULL;
  const int lens[2] = {1, 1};
  const MPI_Aint disps[2] = {0, 8};
  const MPI_Datatype kinds[2] = {MPI_INT, MPI_DOUBLE};
  MPI_Type_create_struct(2, lens, disps, kinds, &pair);
  MPI_Type_commit(&pair);
  MPI_Datatype uncommitted = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(2, MPI_INT, &uncommitted);
  g_raised = 0;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);  // MPI_COMM_NULL's errors go there
  std::vector<Case> cases;
  for (const bool ex : {false, true}) {
    const auto call = [&](const void* s, void* r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm on) {
      return ex ? OPTCOLL_Exscan(s, r, n, t, op, on) : OPTCOLL_Scan(s, r, n, t, op, on);
    };
    const std::string name = ex ? "exscan " : "scan ";
    const std::vector<Case> more{
        {name + "count -1", MPI_ERR_COUNT, call(in.data(), out.data(), -1, MPI_INT, MPI_SUM, comm)},
        {name + "MPI_DATATYPE_NULL", MPI_ERR_TYPE, call(in.data(), out.data(), 4, MPI_DATATYPE_NULL, MPI_SUM, comm)},
        {name + "uncommitted type", MPI_ERR_TYPE, call(in.data(), out.data(), 2, uncommitted, MPI_SUM, comm)},
        {name + "MPI_OP_NULL", MPI_ERR_OP, call(in.data(), out.data(), 4, MPI_INT, MPI_OP_NULL, comm)},
        {name + "MPI_REPLACE", MPI_ERR_OP, call(in.data(), out.data(), 4, MPI_INT, MPI_REPLACE, comm)},
        {name + "MPI_SUM on a struct", MPI_ERR_OP, call(din.data(), dout.data(), 2, pair, MPI_SUM, comm)},
        {name + "MPI_BOR on double", MPI_ERR_OP, call(din.data(), dout.data(), 4, MPI_DOUBLE, MPI_BOR, comm)},
        {name + "NULL sendbuf", MPI_ERR_BUFFER, call(nullptr, out.data(), 4, MPI_INT, MPI_SUM, comm)},
        {name + "MPI_IN_PLACE recvbuf", MPI_ERR_BUFFER, call(in.data(), MPI_IN_PLACE, 4, MPI_INT, MPI_SUM, comm)},
        {name + "sendbuf == recvbuf", MPI_ERR_BUFFER, call(in.data(), in.data(), 4, MPI_INT, MPI_SUM, comm)},
        {name + "MPI_COMM_NULL", MPI_ERR_COMM, call(in.data(), out.data(), 4, MPI_INT, MPI_SUM, MPI_COMM_NULL)},
    };
    cases.insert(cases.end(), more.begin(), more.end());
  }
  cases.push_back({"scan NULL recvbuf", MPI_ERR_BUFFER, OPTCOLL_Scan(in.data(), nullptr, 4, MPI_INT, MPI_SUM, comm)});
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  expect_classes(cases);
  EXPECT_EQ(g_raised, errors_in(cases) - 2);  // MPI_COMM_NULL raises on MPI_COMM_WORLD
  // Exscan's rank 0 receives nothing and may pass a NULL recvbuf.
  const int r = world_rank();
  std::vector<int> mine(4, r + 1);
  std::vector<int> got(4, -1);
  EXPECT_EQ(OPTCOLL_Exscan(mine.data(), r == 0 ? nullptr : got.data(), 4, MPI_INT, MPI_SUM, comm), MPI_SUCCESS);
  if (r > 0) {
    for (int x : got) EXPECT_EQ(x, r * (r + 1) / 2);
  }
  MPI_Type_free(&pair);
  MPI_Type_free(&uncommitted);
  expect_usable(comm);
}

TEST(BadInput, AlltoallAndAlltoallv) {
  Comm comm;
  const int p = world_size();
  std::vector<int> in(static_cast<std::size_t>(4 * p), 1);
  std::vector<int> out(static_cast<std::size_t>(4 * p), 0);
  std::vector<int> counts(static_cast<std::size_t>(p), 2);
  std::vector<int> displs(static_cast<std::size_t>(p));
  for (int g = 0; g < p; ++g) displs[static_cast<std::size_t>(g)] = 2 * g;
  std::vector<int> negative = counts;
  negative[0] = -1;
  MPI_Datatype uncommitted = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(2, MPI_INT, &uncommitted);
  int* o = out.data();
  const int* i = in.data();
  const int* c = counts.data();
  const int* d = displs.data();
  g_raised = 0;
  const std::vector<Case> cases{
      {"alltoall sendcount -1", MPI_ERR_COUNT, OPTCOLL_Alltoall(i, -1, MPI_INT, o, 2, MPI_INT, comm)},
      {"alltoall recvcount -1", MPI_ERR_COUNT, OPTCOLL_Alltoall(i, 2, MPI_INT, o, -1, MPI_INT, comm)},
      {"alltoall MPI_DATATYPE_NULL", MPI_ERR_TYPE, OPTCOLL_Alltoall(i, 2, MPI_DATATYPE_NULL, o, 2, MPI_INT, comm)},
      {"alltoall uncommitted type", MPI_ERR_TYPE, OPTCOLL_Alltoall(i, 1, uncommitted, o, 2, MPI_INT, comm)},
      {"alltoall NULL sendbuf", MPI_ERR_BUFFER, OPTCOLL_Alltoall(nullptr, 2, MPI_INT, o, 2, MPI_INT, comm)},
      {"alltoall NULL recvbuf", MPI_ERR_BUFFER, OPTCOLL_Alltoall(i, 2, MPI_INT, nullptr, 2, MPI_INT, comm)},
      {"alltoall MPI_IN_PLACE recvbuf", MPI_ERR_BUFFER,
       OPTCOLL_Alltoall(i, 2, MPI_INT, MPI_IN_PLACE, 2, MPI_INT, comm)},
      {"alltoall send 3 ints, receive 2", MPI_ERR_TRUNCATE, OPTCOLL_Alltoall(i, 3, MPI_INT, o, 2, MPI_INT, comm)},
      {"alltoallv NULL recvcounts", MPI_ERR_ARG, OPTCOLL_Alltoallv(i, c, d, MPI_INT, o, nullptr, d, MPI_INT, comm)},
      {"alltoallv NULL sdispls", MPI_ERR_ARG, OPTCOLL_Alltoallv(i, c, nullptr, MPI_INT, o, c, d, MPI_INT, comm)},
      {"alltoallv negative sendcount", MPI_ERR_COUNT,
       OPTCOLL_Alltoallv(i, negative.data(), d, MPI_INT, o, c, d, MPI_INT, comm)},
      {"alltoallv negative recvcount", MPI_ERR_COUNT,
       OPTCOLL_Alltoallv(i, c, d, MPI_INT, o, negative.data(), d, MPI_INT, comm)},
      {"alltoallv MPI_DATATYPE_NULL", MPI_ERR_TYPE,
       OPTCOLL_Alltoallv(i, c, d, MPI_INT, o, c, d, MPI_DATATYPE_NULL, comm)},
      {"alltoallv NULL sendbuf", MPI_ERR_BUFFER, OPTCOLL_Alltoallv(nullptr, c, d, MPI_INT, o, c, d, MPI_INT, comm)},
      {"alltoallv NULL recvbuf", MPI_ERR_BUFFER, OPTCOLL_Alltoallv(i, c, d, MPI_INT, nullptr, c, d, MPI_INT, comm)},
  };
  expect_classes(cases);
  EXPECT_EQ(g_raised, errors_in(cases));
  // The C++ API's spans shorter than the communicator.
  const std::vector<std::int64_t> short_counts(static_cast<std::size_t>(p - 1), 0);
  const std::vector<std::int64_t> long_counts(static_cast<std::size_t>(p), 0);
  try {
    alltoallv(i, short_counts, short_counts, MPI_INT, o, long_counts, long_counts, MPI_INT, comm);
    ADD_FAILURE() << "alltoallv with p-1 send counts";
  } catch (const MpiError& e) {
    EXPECT_EQ(e.mpi_class(), MPI_ERR_ARG);
  }
  MPI_Type_free(&uncommitted);
  expect_usable(comm);
}

// Every OPTCOLL_* call on an intercommunicator is MPI_ERR_COMM (raised on
// MPI_COMM_WORLD's handler, as for any unusable communicator), at every
// rank, before anything moves.
TEST(BadInput, Intercommunicator) {
  const int p = world_size();
  const int r = world_rank();
  if (p < 2) GTEST_SKIP() << "an intercommunicator needs two ranks";
  MPI_Comm half = MPI_COMM_NULL;
  MPI_Comm inter = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, r < p / 2 ? 0 : 1, r, &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, r < p / 2 ? p / 2 : 0, 77, &inter);
  MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
  std::vector<int> a(static_cast<std::size_t>(4 * p), 1);
  std::vector<int> b(static_cast<std::size_t>(4 * p), 0);
  std::vector<int> counts(static_cast<std::size_t>(p), 1);
  std::vector<int> displs(static_cast<std::size_t>(p));
  for (int g = 0; g < p; ++g) displs[static_cast<std::size_t>(g)] = g;
  const int* c = counts.data();
  const int* d = displs.data();
  int merged = 0;
  OPTCOLL_Request req = OPTCOLL_REQUEST_NULL;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const std::vector<Case> cases{
      {"bcast", MPI_ERR_COMM, OPTCOLL_Bcast(a.data(), 4, MPI_INT, 0, inter)},
      {"reduce", MPI_ERR_COMM, OPTCOLL_Reduce(a.data(), b.data(), 4, MPI_INT, MPI_SUM, 0, inter)},
      {"allgather", MPI_ERR_COMM, OPTCOLL_Allgather(a.data(), 1, MPI_INT, b.data(), 1, MPI_INT, inter)},
      {"allgatherv", MPI_ERR_COMM, OPTCOLL_Allgatherv(a.data(), 1, MPI_INT, b.data(), c, d, MPI_INT, inter)},
      {"reduce_scatter_block", MPI_ERR_COMM,
       OPTCOLL_Reduce_scatter_block(a.data(), b.data(), 1, MPI_INT, MPI_SUM, inter)},
      {"reduce_scatter", MPI_ERR_COMM, OPTCOLL_Reduce_scatter(a.data(), b.data(), c, MPI_INT, MPI_SUM, inter)},
      {"allreduce", MPI_ERR_COMM, OPTCOLL_Allreduce(a.data(), b.data(), 4, MPI_INT, MPI_SUM, inter)},
      {"scan", MPI_ERR_COMM, OPTCOLL_Scan(a.data(), b.data(), 4, MPI_INT, MPI_SUM, inter)},
      {"exscan", MPI_ERR_COMM, OPTCOLL_Exscan(a.data(), b.data(), 4, MPI_INT, MPI_SUM, inter)},
      {"gather", MPI_ERR_COMM, OPTCOLL_Gather(a.data(), 1, MPI_INT, b.data(), 1, MPI_INT, 0, inter)},
      {"gatherv", MPI_ERR_COMM, OPTCOLL_Gatherv(a.data(), 1, MPI_INT, b.data(), c, d, MPI_INT, 0, inter)},
      {"scatter", MPI_ERR_COMM, OPTCOLL_Scatter(a.data(), 1, MPI_INT, b.data(), 1, MPI_INT, 0, inter)},
      {"scatterv", MPI_ERR_COMM, OPTCOLL_Scatterv(a.data(), c, d, MPI_INT, b.data(), 1, MPI_INT, 0, inter)},
      {"alltoall", MPI_ERR_COMM, OPTCOLL_Alltoall(a.data(), 1, MPI_INT, b.data(), 1, MPI_INT, inter)},
      {"alltoallv", MPI_ERR_COMM, OPTCOLL_Alltoallv(a.data(), c, d, MPI_INT, b.data(), c, d, MPI_INT, inter)},
      {"allmerge", MPI_ERR_COMM, OPTCOLL_Allmerge_int(a.data(), 2, b.data(), 4 * p, &merged, inter)},
      {"gatherv_init", MPI_ERR_COMM,
       OPTCOLL_Gatherv_init(a.data(), 1, MPI_INT, b.data(), c, d, MPI_INT, 0, inter, MPI_INFO_NULL, &req)},
      {"scatterv_init", MPI_ERR_COMM,
       OPTCOLL_Scatterv_init(a.data(), c, d, MPI_INT, b.data(), 1, MPI_INT, 0, inter, MPI_INFO_NULL, &req)},
  };
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  expect_classes(cases);
  EXPECT_EQ(req, OPTCOLL_REQUEST_NULL);
  const std::vector<std::int64_t> wide(static_cast<std::size_t>(p), 1);
  try {
    many_to_many(a.data(), wide, wide, b.data(), wide, wide, MPI_INT, inter);
    ADD_FAILURE() << "many_to_many on an intercommunicator";
  } catch (const MpiError& e) {
    EXPECT_EQ(e.mpi_class(), MPI_ERR_COMM);
  }
  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);
}

// The C++ API: the same classes as MpiError, the handler not invoked; a
// 64-bit count whose byte span overflows is MPI_ERR_COUNT.
TEST(BadInput, CppExceptions) {
  Comm comm;
  int buf[4] = {};
  auto class_of = [](auto&& f) {
    try {
      f();
    } catch (const MpiError& e) {
      return e.mpi_class();
    }
    return MPI_SUCCESS;
  };
  g_raised = 0;
  EXPECT_EQ(class_of([&] { bcast(buf, 4, MPI_INT, -1, comm); }), MPI_ERR_ROOT);
  EXPECT_EQ(class_of([&] { bcast(MPI_IN_PLACE, 4, MPI_INT, 0, comm); }), MPI_ERR_BUFFER);
  EXPECT_EQ(class_of([&] { bcast(buf, std::int64_t{1} << 62, MPI_INT, 0, comm); }), MPI_ERR_COUNT);
  EXPECT_EQ(class_of([&] { reduce(buf, buf + 2, 1, MPI_FLOAT, MPI_BOR, 0, comm); }), MPI_ERR_OP);
  EXPECT_EQ(class_of([&] { reduce(buf, buf + 2, -1, MPI_INT, MPI_SUM, 0, comm); }), MPI_ERR_COUNT);
  EXPECT_EQ(g_raised, 0);
  expect_usable(comm);
}

}  // namespace
}  // namespace optcoll::test
