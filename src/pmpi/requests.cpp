// liboptcoll_pmpi.so's nonblocking and persistent collectives
// (collectives.def) and the request functions that complete them.
//
// An optcoll request travels through the program as a real MPI request, a
// carrier, so that any MPI function may hold it: a generalized request
// (MPI_Grequest_start) for a nonblocking call; for a persistent one a
// persistent receive of 0 bytes from this process itself on a private
// duplicate of MPI_COMM_SELF, with a tag of its own. The carrier is
// complete as far as MPI is concerned only when optcoll's run is: the
// generalized request is marked complete, the receive gets its message
// (sent when the run has finished). (A persistent receive from
// MPI_PROC_NULL, complete at once, would be simpler, but MPICH 4.0.2 then
// loses track of a persistent collective started beside it after such a
// receive was freed: a plain MPI program shows it.) A carrier is never
// handed to PMPI_* while optcoll's run is still going:
// the Wait / Test functions below advance optcoll's runs (Request::test,
// which also drives MPI's progress engine), leave unfinished carriers out
// of the arrays they pass down, and hand finished ones down with the
// others, so that arrays mixing native and optcoll requests work and MPI
// frees and deactivates requests as it always does. A program with no
// optcoll request outstanding pays one atomic load per call.
//
// A carrier's status is the empty status of a collective.
#include <mpi.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

#include <atomic>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "bytes.hpp"
#include "mpi/api/c_api.hpp"
#include "mpi/executor/datatype.hpp"
#include "mpi/requests/request.hpp"
#include "optcoll/optcoll.hpp"
#include "requests.hpp"
#include "runtime.hpp"
#include "shapes.hpp"

namespace optcoll::pmpi::requests {
namespace {

struct Entry {
  Request req;
  std::unique_ptr<Staging> staging;  // the call's byte views (bytes.hpp)
  bool persistent = false;
  int tag = 0;       // persistent: the carrier's tag on self_comm()
  bool done = true;  // the run has finished (or, persistent, none was started)
};

// The persistent carriers talk on mpi::self_comm() (MPI_COMM_SELF's
// duplicate, freed by optcoll's MPI_Finalize hook).
using mpi::self_comm;
std::atomic<int> g_next_tag{0};

std::mutex g_mutex;
std::unordered_map<MPI_Request, std::unique_ptr<Entry>> g_entries;
std::atomic<std::size_t> g_count{0};

bool none() noexcept {
  return g_count.load(std::memory_order_acquire) == 0;
}

Entry* find(MPI_Request r) {
  if (r == MPI_REQUEST_NULL) return nullptr;
  const std::lock_guard<std::mutex> lock(g_mutex);
  const auto it = g_entries.find(r);
  return it == g_entries.end() ? nullptr : it->second.get();
}

void erase(MPI_Request r) {
  const std::lock_guard<std::mutex> lock(g_mutex);
  if (g_entries.erase(r) != 0) g_count.fetch_sub(1, std::memory_order_release);
}

int query(void*, MPI_Status* status) {
  MPI_Status_set_elements(status, MPI_BYTE, 0);
  MPI_Status_set_cancelled(status, 0);
  status->MPI_SOURCE = MPI_ANY_SOURCE;
  status->MPI_TAG = MPI_ANY_TAG;
  return MPI_SUCCESS;
}
int free_state(void*) {
  return MPI_SUCCESS;
}
int cancel(void*, int) {
  return MPI_SUCCESS;
}

void empty_status(MPI_Status* status) {
  if (status == MPI_STATUS_IGNORE) return;
  status->MPI_SOURCE = MPI_ANY_SOURCE;
  status->MPI_TAG = MPI_ANY_TAG;
  status->MPI_ERROR = MPI_SUCCESS;
}

// The run of e (carried by c) has finished: MPI may complete the carrier.
void finished(Entry& e, MPI_Request c) {
  e.done = true;
  e.staging->after_completion();
  if (!e.persistent) {
    mpi::check(PMPI_Grequest_complete(c), "MPI_Grequest_complete");
    return;
  }
  MPI_Request s = MPI_REQUEST_NULL;
  mpi::check(PMPI_Isend(nullptr, 0, MPI_BYTE, 0, e.tag, self_comm(), &s), "MPI_Isend");
  mpi::check(PMPI_Request_free(&s), "MPI_Request_free");
}
void advance(Entry& e, MPI_Request c) {
  if (!e.done && e.req.test()) finished(e, c);
}
void complete(Entry& e, MPI_Request c) {
  if (e.done) return;
  e.req.wait();
  finished(e, c);
}

MPI_Status* status_at(MPI_Status* statuses, int i) {
  return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : statuses + i;
}

// The carriers of an array, by index (nullptr: a native request).
struct Array {
  std::vector<Entry*> entry;
  std::vector<MPI_Request> visible;  // the array with unfinished carriers as MPI_REQUEST_NULL
  bool any = false;

  Array(int n, const MPI_Request* reqs) {
    if (none() || n <= 0) return;
    entry.assign(static_cast<std::size_t>(n), nullptr);
    for (std::size_t i = 0; i < entry.size(); ++i) {
      entry[i] = find(reqs[i]);
      any = any || entry[i] != nullptr;
    }
  }
  // Advances every unfinished run once; true if one is still going.
  bool advance_all(const MPI_Request* reqs) {
    bool pending = false;
    for (std::size_t i = 0; i < entry.size(); ++i)
      if (entry[i] != nullptr) {
        advance(*entry[i], reqs[i]);
        pending = pending || !entry[i]->done;
      }
    return pending;
  }
  MPI_Request* hide(const MPI_Request* reqs) {
    visible.assign(reqs, reqs + entry.size());
    for (std::size_t i = 0; i < entry.size(); ++i)
      if (entry[i] != nullptr && !entry[i]->done) visible[i] = MPI_REQUEST_NULL;
    return visible.data();
  }
  // After PMPI_Waitall / Testall completed every request (before: the
  // handles they were given): carriers' statuses emptied, nonblocking ones
  // forgotten.
  void all_completed(const std::vector<MPI_Request>& before, MPI_Status* statuses) {
    for (std::size_t i = 0; i < entry.size(); ++i) {
      if (entry[i] == nullptr) continue;
      empty_status(status_at(statuses, static_cast<int>(i)));
      if (!entry[i]->persistent) erase(before[i]);
    }
  }
  // After PMPI_* completed index i (its handle now visible[i]): back into
  // the caller's array; a carrier's status emptied; a freed one forgotten.
  void completed(MPI_Request* reqs, std::size_t i, MPI_Status* status) {
    const MPI_Request before = reqs[i];
    reqs[i] = visible[i];
    if (entry[i] == nullptr) return;
    empty_status(status);
    if (!entry[i]->persistent) erase(before);
  }
};

}  // namespace

int carry_request(Pending& pd, MPI_Comm comm, OPTCOLL_Request h) {
  const std::unique_ptr<OPTCOLL_Request_s> handle(h);
  return shapes::guarded(comm, [&] {
    if (pd.request == nullptr) throw MpiError(MPI_ERR_REQUEST, "optcoll: NULL request");
    auto e = std::make_unique<Entry>();
    e->persistent = pd.persistent;
    e->req = std::move(handle->request);
    e->staging = std::move(pd.staging);
    MPI_Request c = MPI_REQUEST_NULL;
    if (pd.persistent) {
      e->tag = g_next_tag.fetch_add(1) % 32768;  // MPI_TAG_UB is at least 32767
      mpi::check(PMPI_Recv_init(nullptr, 0, MPI_BYTE, 0, e->tag, self_comm(), &c), "MPI_Recv_init");
    } else {
      mpi::check(PMPI_Grequest_start(&query, &free_state, &cancel, nullptr, &c), "MPI_Grequest_start");
      e->done = false;
    }
    {
      const std::lock_guard<std::mutex> lock(g_mutex);
      g_entries[c] = std::move(e);
      g_count.fetch_add(1, std::memory_order_release);
    }
    *pd.request = c;
    return MPI_SUCCESS;
  });
}

}  // namespace optcoll::pmpi::requests

using optcoll::pmpi::Op;
namespace shapes = optcoll::pmpi::shapes;
namespace rq = optcoll::pmpi::requests;

// ---- Completing and starting requests ----

namespace {
using optcoll::mpi::other_requests_running;
using optcoll::pmpi::requests::poll_native;
}  // namespace

extern "C" int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  rq::Entry* e = rq::none() || request == nullptr ? nullptr : rq::find(*request);
  if (e == nullptr) return request == nullptr ? PMPI_Wait(request, status) : rq::wait_native(*request, status);
  const MPI_Request c = *request;
  rq::complete(*e, c);
  const int rc = PMPI_Wait(request, status);
  rq::empty_status(status);
  if (!e->persistent) rq::erase(c);
  return rc;
}

extern "C" int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  rq::Entry* e = rq::none() || request == nullptr ? nullptr : rq::find(*request);
  if (e == nullptr) return PMPI_Test(request, flag, status);
  const MPI_Request c = *request;
  rq::advance(*e, c);
  if (!e->done) {
    *flag = 0;
    return MPI_SUCCESS;
  }
  const int rc = PMPI_Test(request, flag, status);
  if (*flag != 0) {
    rq::empty_status(status);
    if (!e->persistent) rq::erase(c);
  }
  return rc;
}

extern "C" int MPI_Request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
  rq::Entry* e = rq::none() ? nullptr : rq::find(request);
  if (e == nullptr) return PMPI_Request_get_status(request, flag, status);
  rq::advance(*e, request);
  if (!e->done) {
    *flag = 0;
    return MPI_SUCCESS;
  }
  const int rc = PMPI_Request_get_status(request, flag, status);
  if (*flag != 0) rq::empty_status(status);
  return rc;
}

extern "C" int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  rq::Array a(count, requests);
  if (!a.any && !other_requests_running()) return PMPI_Waitall(count, requests, statuses);
  if (!a.any) {
    return poll_native([&](bool& done) {
      int flag = 0;
      const int rc = PMPI_Testall(count, requests, &flag, statuses);
      done = flag != 0;
      return rc;
    });
  }
  while (a.advance_all(requests)) {
  }
  std::vector<MPI_Request> before(requests, requests + count);
  const int rc = PMPI_Waitall(count, requests, statuses);
  a.all_completed(before, statuses);
  return rc;
}

extern "C" int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  rq::Array a(count, requests);
  if (!a.any) return PMPI_Testall(count, requests, flag, statuses);
  if (a.advance_all(requests)) {  // not all complete: nothing changes
    *flag = 0;
    return MPI_SUCCESS;
  }
  std::vector<MPI_Request> before(requests, requests + count);
  const int rc = PMPI_Testall(count, requests, flag, statuses);
  if (*flag != 0) a.all_completed(before, statuses);
  return rc;
}

namespace {
// One pass of Testany over requests with unfinished carriers hidden; flag
// 0 and index MPI_UNDEFINED while a carrier is unfinished and nothing else
// completed.
int testany(rq::Array& a, int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  const bool pending = a.advance_all(requests);
  MPI_Request* visible = a.hide(requests);
  const int rc = PMPI_Testany(count, visible, index, flag, status);
  if (rc != MPI_SUCCESS) return rc;
  if (*flag != 0 && *index != MPI_UNDEFINED) {
    a.completed(requests, static_cast<std::size_t>(*index), status);
  } else if (pending) {
    *flag = 0;
    *index = MPI_UNDEFINED;
  }
  return rc;
}

int testsome(rq::Array& a, int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  const bool pending = a.advance_all(requests);
  MPI_Request* visible = a.hide(requests);
  const int rc = PMPI_Testsome(incount, visible, outcount, indices, statuses);
  if (rc != MPI_SUCCESS) return rc;
  if (*outcount == MPI_UNDEFINED) {
    if (pending) *outcount = 0;
    return rc;
  }
  for (int k = 0; k < *outcount; ++k)
    a.completed(requests, static_cast<std::size_t>(indices[k]), rq::status_at(statuses, k));
  return rc;
}
}  // namespace

extern "C" int MPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  rq::Array a(count, requests);
  if (!a.any) return PMPI_Testany(count, requests, index, flag, status);
  return testany(a, count, requests, index, flag, status);
}

extern "C" int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  rq::Array a(count, requests);
  if (!a.any && !other_requests_running()) return PMPI_Waitany(count, requests, index, status);
  if (!a.any) {
    return poll_native([&](bool& done) {
      int flag = 0;
      const int rc = PMPI_Testany(count, requests, index, &flag, status);
      done = flag != 0;  // also when none is active (index MPI_UNDEFINED)
      return rc;
    });
  }
  for (;;) {
    int flag = 0;
    const int rc = testany(a, count, requests, index, &flag, status);
    if (rc != MPI_SUCCESS || flag != 0) return rc;
  }
}

extern "C" int MPI_Testsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  rq::Array a(incount, requests);
  if (!a.any) return PMPI_Testsome(incount, requests, outcount, indices, statuses);
  return testsome(a, incount, requests, outcount, indices, statuses);
}

extern "C" int MPI_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  rq::Array a(incount, requests);
  if (!a.any && !other_requests_running()) return PMPI_Waitsome(incount, requests, outcount, indices, statuses);
  if (!a.any) {
    return poll_native([&](bool& done) {
      const int rc = PMPI_Testsome(incount, requests, outcount, indices, statuses);
      done = *outcount != 0;  // MPI_UNDEFINED: none is active
      return rc;
    });
  }
  for (;;) {
    const int rc = testsome(a, incount, requests, outcount, indices, statuses);
    if (rc != MPI_SUCCESS || *outcount != 0) return rc;
  }
}

extern "C" int MPI_Start(MPI_Request* request) {
  rq::Entry* e = rq::none() || request == nullptr ? nullptr : rq::find(*request);
  if (e == nullptr) return PMPI_Start(request);
  MPI_Comm comm = e->req.comm();
  return optcoll::pmpi::shapes::guarded(comm, [&] {
    if (!e->done) throw optcoll::MpiError(MPI_ERR_REQUEST, "optcoll: MPI_Start of an active request");
    e->staging->before_start();
    e->req.start();
    e->done = false;
    return PMPI_Start(request);
  });
}

extern "C" int MPI_Startall(int count, MPI_Request requests[]) {
  if (rq::none()) return PMPI_Startall(count, requests);
  for (int i = 0; i < count; ++i)
    if (const int rc = MPI_Start(&requests[i]); rc != MPI_SUCCESS) return rc;
  return MPI_SUCCESS;
}

extern "C" int MPI_Request_free(MPI_Request* request) {
  rq::Entry* e = rq::none() || request == nullptr ? nullptr : rq::find(*request);
  if (e == nullptr) return PMPI_Request_free(request);
  const MPI_Request c = *request;
  // An active request may be freed (MPI): its run completes first here.
  rq::complete(*e, c);
  const int rc = PMPI_Request_free(request);
  rq::erase(c);
  return rc;
}
