// Bad input under MPI_ERRORS_RETURN: every collective's cheap-to-detect
// argument errors return (and raise through the communicator's handler) the
// MPI error class, never crash or hang, and leave the communicator usable.
// Every rank passes the same bad argument, so every rank fails locally
// before communicating (a bad argument at one rank only is erroneous MPI
// that no local check can turn into an error everywhere).
#include <gtest/gtest.h>

#include <string>
#include <vector>

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

int g_raised = 0;
void count_raised(MPI_Comm*, int*, ...) {
  ++g_raised;
}

// A duplicate of MPI_COMM_WORLD whose handler counts and returns.
class Comm {
 public:
  Comm() {
    MPI_Comm_dup(MPI_COMM_WORLD, &comm_);
    MPI_Errhandler h = MPI_ERRHANDLER_NULL;
    MPI_Comm_create_errhandler(&count_raised, &h);
    MPI_Comm_set_errhandler(comm_, h);
    MPI_Errhandler_free(&h);
  }
  ~Comm() { MPI_Comm_free(&comm_); }
  Comm(const Comm&) = delete;
  Comm& operator=(const Comm&) = delete;
  operator MPI_Comm() const { return comm_; }  // NOLINT: used as MPI_Comm

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

struct Case {
  std::string what;
  int expected;
  int code;
};

void expect_classes(const std::vector<Case>& cases) {
  for (const Case& c : cases) EXPECT_EQ(error_class(c.code), c.expected) << c.what;
}

// The communicator still works: a broadcast and a reduction right after.
void expect_usable(MPI_Comm comm) {
  const int p = world_size();
  std::vector<int> v(37, world_rank() == p - 1 ? 7 : 0);
  ASSERT_EQ(OPTCOLL_Bcast(v.data(), 37, MPI_INT, p - 1, comm), MPI_SUCCESS);
  for (int x : v) ASSERT_EQ(x, 7);
  std::vector<int> sum(37, -1);
  ASSERT_EQ(OPTCOLL_Reduce(v.data(), sum.data(), 37, MPI_INT, MPI_SUM, 0, comm), MPI_SUCCESS);
  if (world_rank() == 0) {
    for (int x : sum) ASSERT_EQ(x, 7 * p);
  }
}

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
