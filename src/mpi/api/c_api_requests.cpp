// The C API's requests (optcoll/optcoll.h): OPTCOLL_Start / Test / Wait /
// Request_free, and OPTCOLL_Op_free (an operator that requests still use).
// The nonblocking and persistent collectives that make them: c_api.cpp.
#include <memory>
#include <vector>

#include "mpi/api/c_api.hpp"
#include "mpi/requests/request.hpp"
#include "optcoll/optcoll.h"
#include "optcoll/optcoll.hpp"

namespace {

MPI_Comm request_comm(const OPTCOLL_Request* request) {
  return request != nullptr && *request != nullptr ? (*request)->request.comm() : MPI_COMM_WORLD;
}
void check_request(const OPTCOLL_Request* request) {
  if (request == nullptr || *request == nullptr) throw optcoll::MpiError(MPI_ERR_REQUEST, "optcoll: null request");
}
void empty_status(MPI_Status* status) {
  if (status == MPI_STATUS_IGNORE) return;
  status->MPI_SOURCE = MPI_ANY_SOURCE;
  status->MPI_TAG = MPI_ANY_TAG;
  status->MPI_ERROR = MPI_SUCCESS;
}
// A completed nonblocking call's request is freed (MPI: set to null).
void release_if_done(OPTCOLL_Request* request) {
  if ((*request)->request.persistent() || (*request)->request.active()) return;
  std::unique_ptr<OPTCOLL_Request_s> gone(*request);
  *request = OPTCOLL_REQUEST_NULL;
}

}  // namespace

extern "C" int OPTCOLL_Start(OPTCOLL_Request* request) {
  return optcoll::mpi::guarded(request_comm(request), [&] {
    check_request(request);
    (*request)->request.start();
  });
}

extern "C" int OPTCOLL_Test(OPTCOLL_Request* request, int* flag, MPI_Status* status) {
  return optcoll::mpi::guarded(request_comm(request), [&] {
    if (flag == nullptr) throw optcoll::MpiError(MPI_ERR_ARG, "optcoll: NULL flag");
    *flag = 1;
    if (request != nullptr && *request != nullptr) {
      *flag = (*request)->request.test() ? 1 : 0;
      if (*flag != 0) release_if_done(request);
    }
    if (*flag != 0) empty_status(status);
  });
}

extern "C" int OPTCOLL_Wait(OPTCOLL_Request* request, MPI_Status* status) {
  return optcoll::mpi::guarded(request_comm(request), [&] {
    empty_status(status);
    if (request == nullptr || *request == nullptr) return;  // MPI: waiting on a null request returns at once
    (*request)->request.wait();
    release_if_done(request);
  });
}

extern "C" int OPTCOLL_Request_free(OPTCOLL_Request* request) {
  return optcoll::mpi::guarded(request_comm(request), [&] {
    check_request(request);
    if ((*request)->request.active())
      throw optcoll::MpiError(MPI_ERR_REQUEST, "optcoll: free of an active request (wait first)");
    std::unique_ptr<OPTCOLL_Request_s> gone(*request);
    *request = OPTCOLL_REQUEST_NULL;
  });
}

extern "C" int OPTCOLL_Op_free(MPI_Op* op) {
  if (op != nullptr && optcoll::mpi::defer_op_free(*op)) {
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
  }
  return PMPI_Op_free(op);
}
