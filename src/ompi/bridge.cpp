// The component's optcoll side: each collective of collectives.def runs the
// drop-in's shape (src/pmpi/shapes*.hpp: the same checks, policy,
// selection, byte views and counters as MPI_<Name> under LD_PRELOAD), with
// the module below as its native path; nonblocking and persistent calls
// make the optcoll request the drop-in makes, carried by an Open MPI
// request (request.c) that optcoll's progress completes.
//
// Recursion: optcoll's setup on a communicator (its duplicate, the
// agreement of settings, calibration) and its agreements issue MPI
// collectives on communicators that have this module. While this thread
// is inside optcoll, every entry goes straight to the module below, and
// comm_query declines new communicators (component.c).
#include <mpi.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "bridge.h"
#include "mpi/api/c_api.hpp"
#include "mpi/comm/comm_state.hpp"
#include "mpi/executor/transport.hpp"
#include "mpi/requests/request.hpp"
#include "optcoll/optcoll.h"
#include "runtime.hpp"
#include "shapes.hpp"
#include "shapes_alltoall.hpp"
#include "shapes_gather.hpp"
#include "shapes_reduction.hpp"

namespace optcoll::ompi {
namespace {

using pmpi::Op;
using pmpi::Staging;
namespace shapes = pmpi::shapes;

thread_local int t_inside = 0;
// depth: t_inside, looked up once by the caller (a lookup of a thread_local
// of a loaded library costs a call to __tls_get_addr).
struct Inside {
  explicit Inside(int& depth) noexcept : depth_(depth) { ++depth_; }
  ~Inside() { --depth_; }
  Inside(const Inside&) = delete;
  Inside& operator=(const Inside&) = delete;

 private:
  int& depth_;
};

// What a carrier holds: optcoll's request, the call's byte views, and a
// reference to each MPI object among the call's arguments (the program
// may free them while the request lives).
struct Entry {
  Request req;
  std::unique_ptr<Staging> staging;
  std::vector<void*> held;  // OBJ_RETAIN'ed
  MPI_Request carrier = MPI_REQUEST_NULL;
  bool persistent = false;
  bool running = false;  // in g_running
  ~Entry() {
    for (void* o : held) optcoll_ompi_release(o);
  }
  template <class A>
  void hold(A a) {
    if constexpr (std::is_same_v<A, MPI_Comm> || std::is_same_v<A, MPI_Op> || std::is_same_v<A, MPI_Datatype>) {
      if (a != nullptr) {
        optcoll_ompi_retain(a);
        held.push_back(a);
      }
    }
  }
};

std::mutex g_mutex;
std::vector<Entry*> g_running;
std::atomic<std::size_t> g_running_count{0};

void run(Entry* e) {
  const std::lock_guard<std::mutex> lock(g_mutex);
  e->running = true;
  g_running.push_back(e);
  g_running_count.store(g_running.size(), std::memory_order_release);
}
void stopped(Entry* e) {
  const std::lock_guard<std::mutex> lock(g_mutex);
  if (!e->running) return;
  e->running = false;
  std::erase(g_running, e);
  g_running_count.store(g_running.size(), std::memory_order_release);
}

// The request call being run: the request argument and info its shape's
// calls (shapes::Calls) complete, and the Staging its request keeps.
struct Pending {
  MPI_Request* request = nullptr;
  MPI_Info info = MPI_INFO_NULL;
  bool persistent = false;
  std::unique_ptr<Staging> staging;
};
// Runs a request call's shape: shape(pending).
template <class Shape>
int run_request(bool persistent, MPI_Request* request, MPI_Info info, Shape&& shape) {
  Pending p{request, info, persistent,
            std::make_unique<Staging>(persistent ? Staging::Mode::persistent : Staging::Mode::nonblocking)};
  return shape(p);
}

// The shape's k.optcoll for the request call pd: make(&h) makes optcoll's
// request (raising its own errors); its carrier becomes *pd.request.
template <class Make, class... A>
int carry(Pending& pd, Make&& make, A... a) {
  const MPI_Comm comm = shapes::comm_of(a...);
  OPTCOLL_Request h = OPTCOLL_REQUEST_NULL;
  if (const int rc = make(&h); rc != MPI_SUCCESS) return rc;
  const std::unique_ptr<OPTCOLL_Request_s> handle(h);
  return shapes::guarded(comm, [&] {
    if (pd.request == nullptr) throw MpiError(MPI_ERR_REQUEST, "optcoll: NULL request");
    auto e = std::make_unique<Entry>();
    e->req = std::move(handle->request);
    e->staging = std::move(pd.staging);
    e->persistent = pd.persistent;
    (e->hold(a), ...);
    e->carrier = optcoll_ompi_request_new(comm, pd.persistent ? 1 : 0, e.get());
    if (e->carrier == MPI_REQUEST_NULL) throw std::bad_alloc();
    if (!pd.persistent) run(e.get());  // (a nonblocking call's request is made started)
    *pd.request = e->carrier;
    e.release();
    return MPI_SUCCESS;
  });
}

// Whether a call's send and receive buffers are the same memory (not
// MPI_IN_PLACE). MPI makes that erroneous for programs, but Open MPI's own
// communicator construction makes such calls (an Iallreduce in place
// without MPI_IN_PLACE), and Open MPI's collectives accept them: they go to
// the module below, so that the component raises no error native MPI
// would not.
template <class... A>
bool aliased(A... a) {
  const auto t = std::make_tuple(a...);
  using T = std::remove_const_t<decltype(t)>;
  if constexpr (std::tuple_size_v<T> >= 2 && std::is_same_v<std::tuple_element_t<0, T>, const void*> &&
                std::is_same_v<std::tuple_element_t<1, T>, void*>)
    return std::get<0>(t) == std::get<1>(t) && std::get<0>(t) != MPI_IN_PLACE && std::get<1>(t) != nullptr;
  else
    return false;
}

const mpi::Transport kPml{&optcoll_ompi_pml_isend, &optcoll_ompi_pml_irecv, &optcoll_ompi_pml_send,
                          &optcoll_ompi_pml_recv, &optcoll_ompi_pml_sendrecv};

// OPTCOLL_VERBOSE's summary when MPI deletes MPI_COMM_SELF's attributes
// (first thing in MPI_Finalize).
int summary_hook(MPI_Comm, int, void*, void*) {
  pmpi::stop();
  return MPI_SUCCESS;
}
std::once_flag g_hook;
std::atomic<bool> g_hooked{false};
void finalize_hook() {
  // The flag first: std::call_once sets thread_locals at every call.
  if (g_hooked.load(std::memory_order_acquire)) return;
  std::call_once(g_hook, [] {
    int key = MPI_KEYVAL_INVALID;
    if (PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, &summary_hook, &key, nullptr) == MPI_SUCCESS)
      PMPI_Comm_set_attr(MPI_COMM_SELF, key, nullptr);
  });
  g_hooked.store(true, std::memory_order_release);
}

}  // namespace
}  // namespace optcoll::ompi

using optcoll::ompi::Inside;
using optcoll::ompi::Pending;
using optcoll::ompi::t_inside;
namespace oo = optcoll::ompi;
namespace shapes = optcoll::pmpi::shapes;
using optcoll::pmpi::Op;

extern "C" int optcoll_ompi_inside(void) {
  return t_inside > 0 ? 1 : 0;
}

extern "C" void optcoll_ompi_setup(void) {
  optcoll_ompi_pml_tags(optcoll::mpi::kTag);
  optcoll::mpi::set_transport(oo::kPml);
}

extern "C" void optcoll_ompi_set_choice(const char* env_name, const char* value) {
  if (value != nullptr && *value != '\0') setenv(env_name, value, 1);
}

extern "C" int optcoll_ompi_progress(void) {
  if (oo::g_running_count.load(std::memory_order_acquire) == 0 || t_inside > 0) return 0;
  const Inside inside(t_inside);
  std::vector<oo::Entry*> running;
  {
    const std::lock_guard<std::mutex> lock(oo::g_mutex);
    running = oo::g_running;
  }
  int done = 0;
  for (oo::Entry* e : running) {
    int error = MPI_SUCCESS;
    bool finished = false;
    try {
      finished = e->req.test();
      if (finished) e->staging->after_completion();
    } catch (const optcoll::MpiError& x) {
      finished = true;
      error = x.mpi_code();
    } catch (...) {
      finished = true;
      error = MPI_ERR_INTERN;
    }
    if (!finished) continue;
    oo::stopped(e);
    optcoll_ompi_request_complete(e->carrier, error);
    ++done;
  }
  return done;
}

extern "C" int optcoll_ompi_entry_start(void* entry) {
  auto* e = static_cast<oo::Entry*>(entry);
  const Inside inside(t_inside);
  const MPI_Comm comm = e->req.comm();
  return shapes::guarded(comm == MPI_COMM_NULL ? MPI_COMM_SELF : comm, [&] {
    e->staging->before_start();
    e->req.start();
    oo::run(e);
    return MPI_SUCCESS;
  });
}

extern "C" void optcoll_ompi_entry_free(void* entry) {
  auto* e = static_cast<oo::Entry*>(entry);
  const Inside inside(t_inside);
  if (e->running) {  // MPI lets a program free an active request: its run completes first
    try {
      e->req.wait();
      e->staging->after_completion();
    } catch (...) {
    }
    oo::stopped(e);
  }
  delete e;
}

// The three forms of each operation.
#define OPTCOLL_COLLECTIVE(Name, field, collective, shape, init)                                                      \
  extern "C" int optcoll_ompi_##Name OPTCOLL_PARAMS(shape, c_int) {                                                   \
    int& depth = t_inside;                                                                                            \
    if (depth > 0 || oo::aliased OPTCOLL_ARGS(shape)) return optcoll_ompi_native_##Name OPTCOLL_ARGS(shape);          \
    const Inside inside(depth);                                                                                       \
    oo::finalize_hook();                                                                                              \
    return shapes::shape<Op::Name>(shapes::Calls{&OPTCOLL_PMPI_API(Name), &optcoll_ompi_native_##Name},               \
                                   OPTCOLL_PLAIN_ARGS(shape));                                                        \
  }                                                                                                                   \
  extern "C" int optcoll_ompi_I##field OPTCOLL_OMPI_EXPAND(OPTCOLL_OMPI_WITH_REQUEST, OPTCOLL_PARAMS(shape, c_int)) { \
    if (t_inside > 0 || oo::aliased OPTCOLL_ARGS(shape))                                                              \
      return optcoll_ompi_native_I##field OPTCOLL_OMPI_EXPAND(OPTCOLL_OMPI_ARGS_REQUEST, OPTCOLL_ARGS(shape));        \
    const Inside inside(t_inside);                                                                                    \
    oo::finalize_hook();                                                                                              \
    return oo::run_request(false, request, MPI_INFO_NULL, [&](Pending& p) {                                           \
      const auto optcoll = [&p](const optcoll::mpi::CallInfo& c, auto... a) {                                         \
        return oo::carry(                                                                                             \
            p, [&](OPTCOLL_Request* h) { return OPTCOLL_PMPI_API(I##field)(c, a..., h); }, a...);                     \
      };                                                                                                              \
      const auto native = [&p](auto... a) { return optcoll_ompi_native_I##field(a..., p.request); };                  \
      return shapes::shape<Op::I##field>(shapes::Calls{optcoll, native, p.staging.get()}, OPTCOLL_PLAIN_ARGS(shape)); \
    });                                                                                                               \
  }                                                                                                                   \
  extern "C" int optcoll_ompi_##Name##_init OPTCOLL_OMPI_EXPAND(OPTCOLL_OMPI_WITH_INFO_REQUEST,                       \
                                                                OPTCOLL_PARAMS(shape, c_int)) {                       \
    if (t_inside > 0 || oo::aliased OPTCOLL_ARGS(shape))                                                              \
      return optcoll_ompi_native_##Name##_init OPTCOLL_OMPI_EXPAND(OPTCOLL_OMPI_ARGS_INFO_REQUEST,                    \
                                                                   OPTCOLL_ARGS(shape));                              \
    const Inside inside(t_inside);                                                                                    \
    oo::finalize_hook();                                                                                              \
    return oo::run_request(true, request, info, [&](Pending& p) {                                                     \
      const auto optcoll = [&p](const optcoll::mpi::CallInfo& c, auto... a) {                                         \
        return oo::carry(                                                                                             \
            p, [&](OPTCOLL_Request* h) { return OPTCOLL_PMPI_API(Name##_init)(c, a..., p.info, h); }, a...);          \
      };                                                                                                              \
      const auto native = [&p](auto... a) { return optcoll_ompi_native_##Name##_init(a..., p.info, p.request); };     \
      return shapes::shape<Op::Name##_init>(shapes::Calls{optcoll, native, p.staging.get()},                          \
                                            OPTCOLL_PLAIN_ARGS(shape));                                               \
    });                                                                                                               \
  }
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE
