// The C API's shared pieces (c_api.cpp, c_api_requests.cpp, and its calls
// on 64-bit counts, c_api_int64.cpp, c_api_int64_requests.cpp): MPI error codes raised through
// the communicator's error handler, requests, MPI's int arrays.
#pragma once

#include <cstdio>
#include <memory>
#include <new>
#include <vector>

#include "mpi/collectives/collectives.hpp"
#include "mpi/requests/request.hpp"
#include "optcoll/error.hpp"
#include "optcoll/optcoll.h"
#include "optcoll/optcoll.hpp"

// The C API's request handle: a C++ request (the drop-in takes it over,
// src/pmpi/requests.cpp).
struct OPTCOLL_Request_s {
  optcoll::Request request;
};

namespace optcoll::mpi {

// The MPI error class of an optcoll error code.
int error_class_of(Errc e);

// Raises code on comm's error handler; MPI_COMM_WORLD's where comm is
// unusable (null, freed, or what the error is about).
inline void raise_on(MPI_Comm comm, int code) noexcept {
  int cls = code;
  PMPI_Error_class(code, &cls);
  const MPI_Comm handler = (comm == MPI_COMM_NULL || cls == MPI_ERR_COMM) ? MPI_COMM_WORLD : comm;
  PMPI_Comm_call_errhandler(handler, code);
}

// Runs f; on failure raises the MPI error code on comm's error handler
// (MPI_COMM_WORLD's when comm itself is unusable) and returns it.
template <class F>
int guarded(MPI_Comm comm, F&& f) noexcept {
  int code = MPI_SUCCESS;
  try {
    f();
    return MPI_SUCCESS;
  } catch (const MpiError& e) {
    code = e.mpi_code();
  } catch (const Error& e) {
    code = error_class_of(e.code());
    std::fprintf(stderr, "optcoll: %s\n", e.what());
  } catch (const std::bad_alloc&) {
    code = MPI_ERR_NO_MEM;
  } catch (...) {
    code = MPI_ERR_INTERN;
  }
  raise_on(comm, code);
  return code;
}

// Makes *request from make() (an optcoll::Request), raising errors on comm.
template <class Make>
int new_request(MPI_Comm comm, OPTCOLL_Request* request, Make&& make) {
  return guarded(comm, [&] {
    if (request == nullptr) throw MpiError(MPI_ERR_ARG, "optcoll: NULL request");
    auto r = std::make_unique<OPTCOLL_Request_s>();
    r->request = make();
    *request = r.release();
  });
}

// *request: a persistent or nonblocking request of the blocking call impl.
template <class Impl>
int request_of(MPI_Comm comm, bool persistent, OPTCOLL_Request* request, Impl&& impl) {
  return new_request(comm, request, [&] { return make_request(comm, persistent, impl); });
}

// MPI's int count arrays as the layer's 64-bit ones (NULL: MPI_ERR_ARG).
std::vector<std::int64_t> widen(const int* v, MPI_Comm comm, const char* what);

// f(make()): MPI's int arrays made 64-bit by make, whose errors (a NULL
// array, an invalid communicator) are raised as the call's own.
template <class Make, class F>
int widened(MPI_Comm comm, Make&& make, F&& f) {
  decltype(make()) arrays;
  if (const int rc = guarded(comm, [&] { arrays = make(); }); rc != MPI_SUCCESS) return rc;
  return f(arrays);
}

// A v collective's count and displacement arrays as 64-bit ones.
struct Counts {
  std::vector<std::int64_t> counts, displs;
};
// Allgatherv's (NULL: MPI_ERR_ARG).
Counts all_counts(const int* counts, const int* displs, MPI_Comm comm);
// The root's (other ranks: empty, never read).
Counts root_counts(const int* counts, const int* displs, int root, MPI_Comm comm);

// Alltoallv's int arrays as 64-bit ones; with MPI_IN_PLACE the send
// arguments are ignored (and may be NULL).
struct ExchangeCounts {
  std::vector<std::int64_t> sc, sd, rc, rd;
};
ExchangeCounts exchange_counts(const void* sendbuf, const int* sendcounts, const int* sdispls, const int* recvcounts,
                               const int* rdispls, MPI_Comm comm);

}  // namespace optcoll::mpi
