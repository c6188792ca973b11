// Persistent and nonblocking requests (optcoll::Request): what one holds,
// and how start, test and wait drive it.
//
// A request is made by running the blocking call's own code (its checks,
// its selection, its buffers) with the request to build passed down as
// `into` (null: the call runs now): run_plan() then builds the
// PreparedPlan into the request, bound to the request's own executor and
// scratch, instead of running it; what the call does locally before and
// after the run (the copies at p = 1, the own block, a result copied out
// of the working buffer) becomes the request's `before` and `after` steps.
// So a request runs exactly the plan the blocking call runs.
//
// A request keeps what it runs on alive until it is freed, whatever the
// program frees meanwhile (MPI's rule): its communicator's CommState (with
// optcoll's duplicate), duplicates of its derived datatypes and a use of
// its user operators (held_handles.hpp).
//
// Messages of requests never match those of other calls: a persistent
// request runs on its own duplicate of optcoll's communicator (made at
// init, collective); a nonblocking call runs on optcoll's communicator with
// a tag of its own, the next of kRequestTags in call order (every rank
// issues collectives on a communicator in the same order, MPI's rule).
#pragma once

#include <mpi.h>

#include <atomic>
#include <exception>
#include <functional>
#include <memory>

#include "mpi/executor/prepared_plan.hpp"
#include "mpi/requests/held_handles.hpp"
#include "optcoll/optcoll.hpp"

namespace optcoll::detail {

struct Persistent {
  // Declared first, released last: what the members below run on.
  std::shared_ptr<mpi::CommState> state;    // the communicator's (set when the plan is built)
  mpi::HeldHandles held;                    // the datatypes and operators the call runs on
  MPI_Comm user = MPI_COMM_NULL;            // for the error handler of the C API
  MPI_Comm dup = MPI_COMM_NULL;             // a persistent request's own communicator (owned)
  bool persistent = true;                   // false: a nonblocking call, inactive for good once complete
  std::unique_ptr<mpi::PreparedPlan> plan;  // what it runs (a registry plan or a tree's)
  std::function<void()> before;             // at each start, before the run
  std::function<void()> after;              // when each run has completed
  mpi::MpiExecutor ex;
  mpi::Scratch scratch;
  mpi::ByteBuffer work;
  mpi::ByteBuffer stage[2];  // the exchanges' staging buffers
  int stages = 0;
  bool active = false;   // started, not yet completed by test or wait
  bool running = false;  // the run has not finished (then it is in the running list, below)
  static constexpr std::size_t kNoSlot = ~std::size_t{0};
  std::size_t slot = kNoSlot;  // its index in the running list (request.cpp), under the list's lock

  Persistent() = default;
  Persistent(const Persistent&) = delete;
  Persistent& operator=(const Persistent&) = delete;
  ~Persistent();

  void start();
  bool test();  // true: complete (or inactive)
  void wait();
  // While running: advances the run without blocking (see
  // mpi::progress_requests); true when it has finished. Holds `busy`.
  bool advance();

  // Held by test, wait, start and progress_requests (which only tries it):
  // a run is advanced by one thread at a time.
  std::atomic<bool> busy{false};
  std::exception_ptr failed;  // an error of advance() outside test / wait, raised by the next of them

 private:
  void ran();  // the run has completed: `after`
  void finish_run();
};

}  // namespace optcoll::detail

namespace optcoll::mpi {

inline constexpr int kRequestTags = 4096;  // tags kTag + 16 ... of nonblocking calls

// Advances every running request of this process (each one as far as it
// goes without blocking): called whenever optcoll is entered (comm_state),
// so that requests progress inside other optcoll calls too, not only in
// their own test and wait. O(1) when none is running; skips a request
// that another thread is testing or waiting for.
void progress_requests() noexcept;

// Whether requests other than the one this thread is completing (in
// Persistent::wait) are running: then a blocking wait must advance them.
bool other_requests_running() noexcept;

// A request of the blocking call `call` (an mpi::*_impl on comm, given the
// request as its `into`): its checks and selection run now, the plan built
// into the request; a nonblocking call's request (persistent false) is
// returned started. call passes every datatype and operator through the
// HeldHandles it is given (held.type(t), held.op(op)), so that the request
// runs on handles the program cannot free under it.
Request make_request(MPI_Comm comm, bool persistent,
                     const std::function<void(HeldHandles&, detail::Persistent* into)>& call);

// run_plan() into a request: the plan built and bound into it.
void capture_plan(detail::Persistent& into, CommState& s, const Choice& choice, const plan::PlanSpec& spec, void* base,
                  const TypeInfo& t, MPI_Op op, const void* init, bool complete, const plan::BlockLayout* layout,
                  std::span<const MpiExecutor::Part> parts);

// run_plan() of a plan the caller prepared (a tree's), into a request: the
// plan bound into it.
void capture_prepared(detail::Persistent& into, CommState& s, std::unique_ptr<PreparedPlan> plan, const ExecConfig& cfg,
                      void* base);

// The call's working buffer and scratch: the request's own where the call
// is built into one (into), else the communicator's.
ByteBuffer& work_buffer(CommState& s, detail::Persistent* into) noexcept;
Scratch& call_scratch(CommState& s, detail::Persistent* into) noexcept;
// A buffer of the call's own (staging): one of the request's two where the
// call is built into one, else call_buffer.
ByteBuffer& request_buffer(ByteBuffer& call_buffer, detail::Persistent* into) noexcept;

// A blocking call's local step: run now (into null), or at each start of
// the request it is built into (before its run) / when each run has
// completed (after).
void before_each_run(detail::Persistent* into, std::function<void()> f);
void after_each_run(detail::Persistent* into, std::function<void()> f);

// Copies count elements of t from `from` to `to` (copy_elements) as a step
// before the run.
void copy_each_start(detail::Persistent* into, const void* from, void* to, std::int64_t count, const TypeInfo& t);

}  // namespace optcoll::mpi
