// The C API's shared pieces (c_api.cpp, c_api_requests.cpp, and its calls
// on 64-bit counts, c_api_int64.cpp): MPI error codes raised through the
// communicator's error handler, requests, MPI's int arrays.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <new>
#include <span>
#include <type_traits>
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
// (MPI_COMM_WORLD's when comm itself is unusable) and returns it. f returns
// nothing, or an MPI code of its own (an error in it already raised).
template <class F>
int guarded(MPI_Comm comm, F&& f) noexcept {
  int code = MPI_SUCCESS;
  try {
    if constexpr (std::is_void_v<std::invoke_result_t<F&>>) {
      f();
      return MPI_SUCCESS;
    } else {
      return f();
    }
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

// MPI's int count and displacement arrays as the 64-bit calls take them,
// for one call on comm: an array MPI reads is widened to the
// communicator's size of entries; one it ignores (a non-root's Gatherv
// counts, Alltoallv's send arrays with MPI_IN_PLACE), a NULL one and any
// on an invalid communicator become empty, which the call reports where
// it needs the entries (MPI_ERR_ARG, MPI_ERR_COMM).
class Widen {
 public:
  explicit Widen(MPI_Comm comm) noexcept : comm_(comm) {}
  std::span<const std::int64_t> all(const int* v) { return v == nullptr ? std::span<const std::int64_t>{} : keep(v); }
  std::span<const std::int64_t> at_root(const int* v, int root) { return rank() == root ? all(v) : all(nullptr); }
  std::span<const std::int64_t> unless_in_place(const int* v, const void* sendbuf) {
    return sendbuf == MPI_IN_PLACE ? all(nullptr) : all(v);
  }

 private:
  std::span<const std::int64_t> keep(const int* v);
  int rank() noexcept;

  MPI_Comm comm_;
  int size_ = -1;
  int rank_ = -1;
  std::array<std::vector<std::int64_t>, 4> kept_;  // Alltoallv's four arrays at most
  std::size_t used_ = 0;
};

// f(w) for the int binding's call on comm, w widening its arrays; a failed
// allocation is the call's MPI_ERR_NO_MEM.
template <class F>
int widened(MPI_Comm comm, F&& f) noexcept {
  try {
    Widen w(comm);
    return f(w);
  } catch (...) {
    raise_on(comm, MPI_ERR_NO_MEM);
    return MPI_ERR_NO_MEM;
  }
}

}  // namespace optcoll::mpi
