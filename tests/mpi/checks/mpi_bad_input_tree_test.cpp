// Bad input for the rooted tree collectives under a counting error handler
// (bad_input_util.hpp): Gather, Gatherv, Scatter, Scatterv, the persistent
// Gatherv_init / Scatterv_init and Start / Wait / Request_free. Errors that
// every rank detects run on a duplicate of MPI_COMM_WORLD; errors only the
// root can see (its counts, displacements, receive buffer) on a one-rank
// communicator, where the root is every rank, so that no rank is left
// waiting for it.
#include <gtest/gtest.h>

#include <vector>

#include "bad_input_util.hpp"
#include "optcoll/optcoll.hpp"

namespace optcoll::test {
namespace {

struct Buffers {
  std::vector<int> a, b, counts, displs, negative;
  explicit Buffers(int p)
      : a(static_cast<std::size_t>(4 * p), 1),
        b(static_cast<std::size_t>(4 * p), 0),
        counts(static_cast<std::size_t>(p), 2),
        displs(static_cast<std::size_t>(p)),
        negative(static_cast<std::size_t>(p), 2) {
    for (int g = 0; g < p; ++g) displs[static_cast<std::size_t>(g)] = 2 * g;
    negative[0] = -1;
  }
};

TEST(BadInputTree, EveryRankDetects) {
  BadInputComm comm;
  const int p = world_size();
  Buffers x(p);
  const int* a = x.a.data();
  int* b = x.b.data();
  const int* c = x.counts.data();
  const int* d = x.displs.data();
  MPI_Datatype uncommitted = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(2, MPI_INT, &uncommitted);
  OPTCOLL_Request req = OPTCOLL_REQUEST_NULL;
  g_raised = 0;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);  // MPI_COMM_NULL's errors go there
  const std::vector<Case> cases{
      {"gather root -1", MPI_ERR_ROOT, OPTCOLL_Gather(a, 2, MPI_INT, b, 2, MPI_INT, -1, comm)},
      {"gather root p", MPI_ERR_ROOT, OPTCOLL_Gather(a, 2, MPI_INT, b, 2, MPI_INT, p, comm)},
      {"gather sendcount -1", MPI_ERR_COUNT, OPTCOLL_Gather(a, -1, MPI_INT, b, -1, MPI_INT, 0, comm)},
      {"gather MPI_DATATYPE_NULL", MPI_ERR_TYPE,
       OPTCOLL_Gather(a, 2, MPI_DATATYPE_NULL, b, 2, MPI_DATATYPE_NULL, 0, comm)},
      {"gather uncommitted type", MPI_ERR_TYPE, OPTCOLL_Gather(a, 1, uncommitted, b, 1, uncommitted, 0, comm)},
      {"gather NULL sendbuf", MPI_ERR_BUFFER, OPTCOLL_Gather(nullptr, 2, MPI_INT, b, 2, MPI_INT, 0, comm)},
      {"gather MPI_COMM_NULL", MPI_ERR_COMM, OPTCOLL_Gather(a, 2, MPI_INT, b, 2, MPI_INT, 0, MPI_COMM_NULL)},
      {"gatherv root p", MPI_ERR_ROOT, OPTCOLL_Gatherv(a, 2, MPI_INT, b, c, d, MPI_INT, p, comm)},
      {"gatherv sendcount -1", MPI_ERR_COUNT, OPTCOLL_Gatherv(a, -1, MPI_INT, b, c, d, MPI_INT, 0, comm)},
      {"gatherv MPI_DATATYPE_NULL", MPI_ERR_TYPE,
       OPTCOLL_Gatherv(a, 2, MPI_DATATYPE_NULL, b, c, d, MPI_DATATYPE_NULL, 0, comm)},
      {"gatherv NULL sendbuf", MPI_ERR_BUFFER, OPTCOLL_Gatherv(nullptr, 2, MPI_INT, b, c, d, MPI_INT, 0, comm)},
      {"scatter root -1", MPI_ERR_ROOT, OPTCOLL_Scatter(a, 2, MPI_INT, b, 2, MPI_INT, -1, comm)},
      {"scatter recvcount -1", MPI_ERR_COUNT, OPTCOLL_Scatter(a, -1, MPI_INT, b, -1, MPI_INT, 0, comm)},
      {"scatter MPI_DATATYPE_NULL", MPI_ERR_TYPE,
       OPTCOLL_Scatter(a, 2, MPI_DATATYPE_NULL, b, 2, MPI_DATATYPE_NULL, 0, comm)},
      {"scatter NULL recvbuf", MPI_ERR_BUFFER, OPTCOLL_Scatter(a, 2, MPI_INT, nullptr, 2, MPI_INT, 0, comm)},
      {"scatter MPI_COMM_NULL", MPI_ERR_COMM, OPTCOLL_Scatter(a, 2, MPI_INT, b, 2, MPI_INT, 0, MPI_COMM_NULL)},
      {"scatterv root p", MPI_ERR_ROOT, OPTCOLL_Scatterv(a, c, d, MPI_INT, b, 2, MPI_INT, p, comm)},
      {"scatterv recvcount -1", MPI_ERR_COUNT, OPTCOLL_Scatterv(a, c, d, MPI_INT, b, -1, MPI_INT, 0, comm)},
      {"scatterv uncommitted type", MPI_ERR_TYPE, OPTCOLL_Scatterv(a, c, d, uncommitted, b, 1, uncommitted, 0, comm)},
      {"scatterv NULL recvbuf", MPI_ERR_BUFFER, OPTCOLL_Scatterv(a, c, d, MPI_INT, nullptr, 2, MPI_INT, 0, comm)},
      {"gatherv_init NULL request", MPI_ERR_ARG,
       OPTCOLL_Gatherv_init(a, 2, MPI_INT, b, c, d, MPI_INT, 0, comm, MPI_INFO_NULL, nullptr)},
      {"gatherv_init root -1", MPI_ERR_ROOT,
       OPTCOLL_Gatherv_init(a, 2, MPI_INT, b, c, d, MPI_INT, -1, comm, MPI_INFO_NULL, &req)},
      {"gatherv_init sendcount -1", MPI_ERR_COUNT,
       OPTCOLL_Gatherv_init(a, -1, MPI_INT, b, c, d, MPI_INT, 0, comm, MPI_INFO_NULL, &req)},
      {"gatherv_init NULL sendbuf", MPI_ERR_BUFFER,
       OPTCOLL_Gatherv_init(nullptr, 2, MPI_INT, b, c, d, MPI_INT, 0, comm, MPI_INFO_NULL, &req)},
      {"gatherv_init MPI_COMM_NULL", MPI_ERR_COMM,
       OPTCOLL_Gatherv_init(a, 2, MPI_INT, b, c, d, MPI_INT, 0, MPI_COMM_NULL, MPI_INFO_NULL, &req)},
      {"scatterv_init NULL request", MPI_ERR_ARG,
       OPTCOLL_Scatterv_init(a, c, d, MPI_INT, b, 2, MPI_INT, 0, comm, MPI_INFO_NULL, nullptr)},
      {"scatterv_init root p", MPI_ERR_ROOT,
       OPTCOLL_Scatterv_init(a, c, d, MPI_INT, b, 2, MPI_INT, p, comm, MPI_INFO_NULL, &req)},
      {"scatterv_init MPI_DATATYPE_NULL", MPI_ERR_TYPE,
       OPTCOLL_Scatterv_init(a, c, d, MPI_INT, b, 2, MPI_DATATYPE_NULL, 0, comm, MPI_INFO_NULL, &req)},
      {"scatterv_init NULL recvbuf", MPI_ERR_BUFFER,
       OPTCOLL_Scatterv_init(a, c, d, MPI_INT, nullptr, 2, MPI_INT, 0, comm, MPI_INFO_NULL, &req)},
      {"start NULL", MPI_ERR_REQUEST, OPTCOLL_Start(nullptr)},
      {"start OPTCOLL_REQUEST_NULL", MPI_ERR_REQUEST, OPTCOLL_Start(&req)},
      {"request_free OPTCOLL_REQUEST_NULL", MPI_ERR_REQUEST, OPTCOLL_Request_free(&req)},
      {"wait OPTCOLL_REQUEST_NULL (returns at once)", MPI_SUCCESS, OPTCOLL_Wait(&req, MPI_STATUS_IGNORE)},
  };
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  expect_classes(cases);
  // MPI_COMM_NULL (3 calls) and the null requests (3) raise on MPI_COMM_WORLD.
  EXPECT_EQ(g_raised, errors_in(cases) - 6);
  EXPECT_EQ(req, OPTCOLL_REQUEST_NULL);
  MPI_Type_free(&uncommitted);
  expect_usable(comm);
}

// What only the root sees: on a one-rank communicator (every rank alone).
TEST(BadInputTree, RootDetects) {
  MPI_Comm alone = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank(), 0, &alone);
  BadInputComm comm(alone);
  Buffers x(1);
  const int* a = x.a.data();
  int* b = x.b.data();
  const int* c = x.counts.data();
  const int* d = x.displs.data();
  const int* neg = x.negative.data();
  OPTCOLL_Request req = OPTCOLL_REQUEST_NULL;
  g_raised = 0;
  const std::vector<Case> cases{
      {"gather root recvcount -1", MPI_ERR_COUNT, OPTCOLL_Gather(a, 2, MPI_INT, b, -1, MPI_INT, 0, comm)},
      {"gather root NULL recvbuf", MPI_ERR_BUFFER, OPTCOLL_Gather(a, 2, MPI_INT, nullptr, 2, MPI_INT, 0, comm)},
      {"gather root recvtype NULL", MPI_ERR_TYPE, OPTCOLL_Gather(a, 2, MPI_INT, b, 2, MPI_DATATYPE_NULL, 0, comm)},
      {"gather root send 2, receive 3", MPI_ERR_TRUNCATE, OPTCOLL_Gather(a, 2, MPI_INT, b, 3, MPI_INT, 0, comm)},
      {"gatherv root NULL recvcounts", MPI_ERR_ARG, OPTCOLL_Gatherv(a, 2, MPI_INT, b, nullptr, d, MPI_INT, 0, comm)},
      {"gatherv root NULL displs", MPI_ERR_ARG, OPTCOLL_Gatherv(a, 2, MPI_INT, b, c, nullptr, MPI_INT, 0, comm)},
      {"gatherv root negative recvcount", MPI_ERR_COUNT, OPTCOLL_Gatherv(a, 2, MPI_INT, b, neg, d, MPI_INT, 0, comm)},
      {"gatherv root NULL recvbuf", MPI_ERR_BUFFER, OPTCOLL_Gatherv(a, 2, MPI_INT, nullptr, c, d, MPI_INT, 0, comm)},
      {"gatherv root send 3, receive 2", MPI_ERR_TRUNCATE, OPTCOLL_Gatherv(a, 3, MPI_INT, b, c, d, MPI_INT, 0, comm)},
      {"scatter root sendcount -1", MPI_ERR_COUNT, OPTCOLL_Scatter(a, -1, MPI_INT, b, 2, MPI_INT, 0, comm)},
      {"scatter root NULL sendbuf", MPI_ERR_BUFFER, OPTCOLL_Scatter(nullptr, 2, MPI_INT, b, 2, MPI_INT, 0, comm)},
      {"scatter root send 3, receive 2", MPI_ERR_TRUNCATE, OPTCOLL_Scatter(a, 3, MPI_INT, b, 2, MPI_INT, 0, comm)},
      {"scatterv root NULL sendcounts", MPI_ERR_ARG, OPTCOLL_Scatterv(a, nullptr, d, MPI_INT, b, 2, MPI_INT, 0, comm)},
      {"scatterv root negative sendcount", MPI_ERR_COUNT, OPTCOLL_Scatterv(a, neg, d, MPI_INT, b, 2, MPI_INT, 0, comm)},
      {"scatterv root NULL sendbuf", MPI_ERR_BUFFER, OPTCOLL_Scatterv(nullptr, c, d, MPI_INT, b, 2, MPI_INT, 0, comm)},
      {"scatterv root MPI_DATATYPE_NULL", MPI_ERR_TYPE,
       OPTCOLL_Scatterv(a, c, d, MPI_DATATYPE_NULL, b, 2, MPI_INT, 0, comm)},
      {"gatherv_init root negative recvcount", MPI_ERR_COUNT,
       OPTCOLL_Gatherv_init(a, 2, MPI_INT, b, neg, d, MPI_INT, 0, comm, MPI_INFO_NULL, &req)},
      {"gatherv_init root NULL displs", MPI_ERR_ARG,
       OPTCOLL_Gatherv_init(a, 2, MPI_INT, b, c, nullptr, MPI_INT, 0, comm, MPI_INFO_NULL, &req)},
      {"scatterv_init root NULL sendbuf", MPI_ERR_BUFFER,
       OPTCOLL_Scatterv_init(nullptr, c, d, MPI_INT, b, 2, MPI_INT, 0, comm, MPI_INFO_NULL, &req)},
      {"scatterv_init root send 2, receive 3", MPI_ERR_TRUNCATE,
       OPTCOLL_Scatterv_init(a, c, d, MPI_INT, b, 3, MPI_INT, 0, comm, MPI_INFO_NULL, &req)},
  };
  expect_classes(cases);
  EXPECT_EQ(g_raised, errors_in(cases));
  EXPECT_EQ(req, OPTCOLL_REQUEST_NULL);
  // Freeing an active request is an error; the request stays usable.
  ASSERT_EQ(OPTCOLL_Gatherv_init(a, 2, MPI_INT, b, c, d, MPI_INT, 0, comm, MPI_INFO_NULL, &req), MPI_SUCCESS);
  ASSERT_EQ(OPTCOLL_Start(&req), MPI_SUCCESS);
  EXPECT_EQ(error_class(OPTCOLL_Request_free(&req)), MPI_ERR_REQUEST);
  EXPECT_EQ(OPTCOLL_Wait(&req, MPI_STATUS_IGNORE), MPI_SUCCESS);
  EXPECT_EQ(b[0], 1);
  EXPECT_EQ(OPTCOLL_Request_free(&req), MPI_SUCCESS);
  EXPECT_EQ(req, OPTCOLL_REQUEST_NULL);
  expect_usable(comm);
  MPI_Comm_free(&alone);
}

}  // namespace
}  // namespace optcoll::test
