// Persistent and nonblocking requests (see request.hpp).
#include "mpi/requests/request.hpp"

#include <atomic>
#include <iterator>
#include <mutex>
#include <utility>
#include <vector>

#include "mpi/collectives/collectives.hpp"
#include "optcoll/error.hpp"

namespace optcoll {
namespace detail {
namespace {

// A spin lock: held for a few instructions (the running list) or for a
// test's or wait's duration (a request, against progress_requests(), which
// only tries it). Cheaper than std::mutex on the per-start path.
class SpinLock {
 public:
  explicit SpinLock(std::atomic<bool>& flag) noexcept : flag_(flag) {
    while (flag_.exchange(true, std::memory_order_acquire)) {
    }
  }
  ~SpinLock() { flag_.store(false, std::memory_order_release); }
  SpinLock(const SpinLock&) = delete;
  SpinLock& operator=(const SpinLock&) = delete;
  static bool try_lock(std::atomic<bool>& flag) noexcept { return !flag.exchange(true, std::memory_order_acquire); }

 private:
  std::atomic<bool>& flag_;
};

// The requests whose run has started and not finished, advanced by
// mpi::progress_requests(). Lock order: a request's `busy`, then this
// list's; progress_requests() holds the list's and only tries the
// requests'.
std::atomic<bool> g_running_lock{false};
std::vector<Persistent*> g_running;
std::atomic<std::size_t> g_running_count{0};
thread_local bool t_progressing = false;
// 1 while this thread's Persistent::wait completes a request in the list.
thread_local std::size_t t_waiting = 0;

// Invariant (under the list's lock): r->slot is r's index in g_running,
// or kNoSlot when r is not in it.
void enlist(Persistent* r) {
  const SpinLock lock(g_running_lock);
  r->slot = g_running.size();
  g_running.push_back(r);
  g_running_count.fetch_add(1, std::memory_order_release);
}

void delist(Persistent* r) {
  const SpinLock lock(g_running_lock);
  if (r->slot == Persistent::kNoSlot) return;  // progress_requests() took it off
  Persistent* last = g_running.back();
  g_running[r->slot] = last;  // the order of the list does not matter
  last->slot = r->slot;
  g_running.pop_back();
  r->slot = Persistent::kNoSlot;
  g_running_count.fetch_sub(1, std::memory_order_release);
}

}  // namespace

Persistent::~Persistent() {
  if (running) delist(this);
  // A finished nonblocking call's plan serves the next call like it (its
  // run left nothing behind: bind() starts the next one afresh).
  if (!persistent && !running && !failed && plan != nullptr && plan->from_registry() && state != nullptr) {
    mpi::SparePlans& to = state->spare;
    const std::lock_guard lock(to.lock);
    if (to.plans.size() >= mpi::SparePlans::kMax) to.plans.erase(to.plans.begin());
    to.plans.push_back(std::move(plan));
  }
  int done = 0;
  PMPI_Finalized(&done);
  if (done == 0 && dup != MPI_COMM_NULL) PMPI_Comm_free(&dup);
}

void Persistent::start() {
  const SpinLock lock(busy);
  if (failed) failed = nullptr;
  if (before) before();
  if (plan != nullptr) plan->start();
  running = plan != nullptr;
  active = true;  // until a test or wait completes it (MPI), even with nothing to run
  if (running)
    enlist(this);
  else
    ran();
}

bool Persistent::advance() {
  if (running && plan->progress()) {
    running = false;
    ran();
  }
  return !running;
}

void Persistent::finish_run() {
  delist(this);
  if (failed) {
    active = false;
    std::rethrow_exception(std::exchange(failed, nullptr));
  }
}

bool Persistent::test() {
  const SpinLock lock(busy);
  if (!active) return true;
  if (failed || (running && advance())) finish_run();
  // A test advances the other running requests too (MPI_Test's progress
  // rule): the ranks this one waits for may be waiting for them.
  if (running) mpi::progress_requests();  // skips this one: `busy` is held
  if (!running) active = false;
  return !active;
}

void Persistent::wait() {
  const SpinLock lock(busy);
  if (!active) return;
  if (failed) finish_run();
  if (running) {
    try {
      t_waiting = 1;  // running, under `busy`: in the running list
      plan->complete();
      t_waiting = 0;
    } catch (...) {
      t_waiting = 0;
      running = false;
      active = false;
      delist(this);
      throw;
    }
    running = false;
    ran();
    finish_run();
  }
  active = false;
}

void Persistent::ran() {
  if (after) after();
}

}  // namespace detail

namespace mpi {

bool other_requests_running() noexcept {
  const std::size_t running = detail::g_running_count.load(std::memory_order_acquire);
  return running > 0 && running > detail::t_waiting;  // (the thread_local only where some run)
}

void progress_requests() noexcept {
  using detail::g_running;
  if (detail::g_running_count.load(std::memory_order_acquire) == 0 || detail::t_progressing) return;
  if (!detail::SpinLock::try_lock(detail::g_running_lock)) return;  // another thread is at it
  detail::t_progressing = true;
  std::size_t keep = 0;
  for (detail::Persistent* r : g_running) {
    bool finished = false;
    if (detail::SpinLock::try_lock(r->busy)) {
      try {
        finished = r->advance();
      } catch (...) {
        r->failed = std::current_exception();  // raised by its next test or wait
        r->running = false;
        finished = true;
      }
      r->busy.store(false, std::memory_order_release);
    }
    if (finished) {
      r->slot = detail::Persistent::kNoSlot;
    } else {
      r->slot = keep;
      g_running[keep++] = r;
    }
  }
  detail::g_running_count.fetch_sub(g_running.size() - keep, std::memory_order_release);
  g_running.resize(keep);
  detail::t_progressing = false;
  detail::g_running_lock.store(false, std::memory_order_release);
}

namespace {
// The settings of the request being built: its own duplicate (persistent;
// made here, collective) or its own tag (nonblocking).
ExecConfig request_config(detail::Persistent& r, CommState& s, ExecConfig cfg) {
  if (r.persistent) {
    check(PMPI_Comm_dup(s.comm, &r.dup), "MPI_Comm_dup");
    check(PMPI_Comm_set_errhandler(r.dup, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    cfg.comm = r.dup;
  } else {
    cfg.tag = kTag + 16 + static_cast<int>(s.request_calls++ % kRequestTags);
  }
  return cfg;
}
}  // namespace

void capture_plan(detail::Persistent& r, CommState& s, const Choice& choice, const plan::PlanSpec& spec, void* base,
                  const TypeInfo& t, MPI_Op op, const void* init, bool complete, const plan::BlockLayout* layout,
                  std::span<const MpiExecutor::Part> parts) {
  r.state = s.shared_from_this();
  const ExecConfig cfg = request_config(r, s, exec_config(s, t, op));
  if (!r.persistent) {  // the plan of an earlier nonblocking call like this one, if one is spare
    const std::lock_guard lock(s.spare.lock);
    std::vector<std::unique_ptr<PreparedPlan>>& spare = s.spare.plans;
    for (auto it = spare.rbegin(); it != spare.rend(); ++it) {
      if (!(*it)->matches(choice, spec, layout)) continue;
      r.plan = std::move(*it);
      spare.erase(std::next(it).base());
      break;
    }
  }
  if (r.plan == nullptr) r.plan = std::make_unique<PreparedPlan>(s, choice, spec, layout);
  r.plan->bind(cfg, {base, init, complete, parts}, r.ex, r.scratch);
}

void capture_prepared(detail::Persistent& r, CommState& s, std::unique_ptr<PreparedPlan> plan, const ExecConfig& cfg,
                      void* base) {
  r.state = s.shared_from_this();
  r.plan = std::move(plan);
  r.plan->bind(request_config(r, s, cfg), {base}, r.ex, r.scratch);
}

ByteBuffer& request_buffer(ByteBuffer& call_buffer, detail::Persistent* into) noexcept {
  return into != nullptr ? into->stage[into->stages++ % 2] : call_buffer;
}

ByteBuffer& work_buffer(CommState& s, detail::Persistent* into) noexcept {
  return into != nullptr ? into->work : s.work;
}

Scratch& call_scratch(CommState& s, detail::Persistent* into) noexcept {
  return into != nullptr ? into->scratch : s.scratch;
}

namespace {
void add_step(std::function<void()>& steps, std::function<void()> f) {
  if (!steps) {
    steps = std::move(f);
    return;
  }
  steps = [first = std::move(steps), then = std::move(f)] {
    first();
    then();
  };
}
}  // namespace

void before_each_run(detail::Persistent* into, std::function<void()> f) {
  if (into == nullptr) return f();
  add_step(into->before, std::move(f));
}

void after_each_run(detail::Persistent* into, std::function<void()> f) {
  if (into == nullptr) return f();
  add_step(into->after, std::move(f));
}

void copy_each_start(detail::Persistent* into, const void* from, void* to, std::int64_t count, const TypeInfo& t) {
  before_each_run(into, [from, to, count, t] {
    ByteBuffer tmp;
    copy_elements(from, to, count, t, tmp);
  });
}

Request make_request(MPI_Comm comm, bool persistent,
                     const std::function<void(HeldHandles&, detail::Persistent* into)>& call) {
  auto impl = std::make_unique<detail::Persistent>();
  impl->user = comm;
  impl->persistent = persistent;
  call(impl->held, impl.get());
  CommState& s = comm_state(comm);
  s.made_requests = true;
  if (impl->state == nullptr) impl->state = s.shared_from_this();  // a request with no plan to run (p = 1, no data)
  if (!persistent) impl->start();
  return Request(std::move(impl));
}

}  // namespace mpi

Request::Request() noexcept = default;
Request::Request(std::unique_ptr<detail::Persistent> impl) noexcept : impl_(std::move(impl)) {}
Request::Request(Request&&) noexcept = default;
Request& Request::operator=(Request&& o) noexcept {
  if (this != &o) {
    Request gone(std::move(*this));
    impl_ = std::move(o.impl_);
  }
  return *this;
}
Request::~Request() {
  if (impl_ == nullptr || !impl_->active) return;
  try {
    wait();
  } catch (...) {  // a destructor cannot report it; the request is freed regardless
  }
}

void Request::start() {
  if (impl_ == nullptr) throw MpiError(MPI_ERR_REQUEST, "optcoll: start of a null request");
  if (!impl_->persistent) throw MpiError(MPI_ERR_REQUEST, "optcoll: start of a nonblocking call's request");
  if (impl_->active) throw MpiError(MPI_ERR_REQUEST, "optcoll: start of an active request");
  impl_->start();
}

void Request::wait() {
  if (impl_ != nullptr) impl_->wait();
}

bool Request::test() {
  return impl_ == nullptr || impl_->test();
}

bool Request::active() const noexcept {
  return impl_ != nullptr && impl_->active;
}

bool Request::persistent() const noexcept {
  return impl_ == nullptr || impl_->persistent;
}

MPI_Comm Request::comm() const noexcept {
  if (impl_ == nullptr || (impl_->state != nullptr && !impl_->state->user_alive.load(std::memory_order_acquire)))
    return MPI_COMM_NULL;
  return impl_->user;
}

}  // namespace optcoll
