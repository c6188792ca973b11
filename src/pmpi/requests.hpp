// The drop-in's request calls (request_ops.cpp) and the carriers that
// hold them (requests.cpp, which says how): what a nonblocking or
// persistent call's shape needs while it runs.
#pragma once

#include <mpi.h>

#include <memory>

#include "bytes.hpp"
#include "mpi/requests/request.hpp"
#include "optcoll/optcoll.h"
#include "shapes.hpp"

namespace optcoll::pmpi::requests {

// The nonblocking or persistent call being run: the request argument its
// shape's calls (shapes::Calls) complete, its info, and the Staging its
// request keeps (the shape's k.staging).
struct Pending {
  MPI_Request* request = nullptr;
  MPI_Info info = MPI_INFO_NULL;
  bool persistent = false;
  std::unique_ptr<Staging> staging;
};

// Runs a request call's shape: shape(pending).
template <class Shape>
int run(bool persistent, MPI_Request* request, MPI_Info info, Shape&& shape) {
  Pending pending{request, info, persistent,
                  std::make_unique<Staging>(persistent ? Staging::Mode::persistent : Staging::Mode::nonblocking)};
  return shape(pending);
}

// Makes *p.request the carrier of h (an optcoll request just made, taken
// over, with p's staging). Errors raised on comm.
int carry_request(Pending& p, MPI_Comm comm, OPTCOLL_Request h);

// The shape's k.optcoll: make(&handle) makes the optcoll request (the C
// API, which raises its own errors); *p.request becomes its carrier.
template <class Make>
int carry(Pending& p, MPI_Comm comm, Make&& make) {
  OPTCOLL_Request h = OPTCOLL_REQUEST_NULL;
  if (const int rc = make(&h); rc != MPI_SUCCESS) return rc;
  return carry_request(p, comm, h);
}

using shapes::comm_of;

// A wait for native requests only, while optcoll runs are going (the Wait
// functions, requests.cpp, and the blocking calls, blocking.cpp): MPI's own
// wait would not advance them, and the rank it waits for may be waiting
// for one of them (MPI lets ranks complete collectives in any order). So
// it tests (test(done), an MPI error code) until done and advances
// optcoll's runs between tests.
template <class Test>
int poll_native(Test test) {
  for (;;) {
    bool done = false;
    if (const int rc = test(done); rc != MPI_SUCCESS || done) return rc;
    mpi::progress_requests();
  }
}

// Waits for the native request r: PMPI_Wait while no optcoll run is going,
// else poll_native().
inline int wait_native(MPI_Request& r, MPI_Status* status) {
  if (!mpi::other_requests_running()) return PMPI_Wait(&r, status);
  return poll_native([&](bool& done) {
    int flag = 0;
    const int rc = PMPI_Test(&r, &flag, status);
    done = flag != 0;
    return rc;
  });
}

// Whether optcoll has made a nonblocking or persistent collective on comm
// (CommState::made_requests: the same at every rank of comm between two of
// its collectives).
inline bool made_requests(MPI_Comm comm) noexcept {
  if (comm == MPI_COMM_NULL) return false;
  try {
    const mpi::CommState* s = mpi::find_comm_state(comm);
    return s != nullptr && s->made_requests;
  } catch (...) {
    return false;  // an invalid communicator: the native call reports it
  }
}

// The native path of a blocking collective (Blocking, PMPI_<Op>; Nonblocking,
// PMPI_I<op>). On a communicator where optcoll has made requests it is the
// nonblocking form and wait_native(): a rank that blocks in MPI's own call
// would not advance its optcoll runs while another rank waits for them
// before it enters the collective (MPI lets ranks complete outstanding
// collectives in any order). A blocking collective does not match a
// nonblocking one, so the choice rests on made_requests(), which every rank
// of comm sees alike; elsewhere it is MPI's own call.
template <auto Blocking, auto Nonblocking>
inline constexpr auto native_blocking = [](auto... a) {
  if (!made_requests(comm_of(a...))) return Blocking(a...);
  MPI_Request r = MPI_REQUEST_NULL;
  if (const int rc = Nonblocking(a..., &r); rc != MPI_SUCCESS) return rc;
  return wait_native(r, MPI_STATUS_IGNORE);
};

}  // namespace optcoll::pmpi::requests
