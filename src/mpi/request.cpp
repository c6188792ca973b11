// Persistent and nonblocking requests (see request.hpp).
#include "mpi/request.hpp"

#include "collectives.hpp"
#include "optcoll/error.hpp"

namespace optcoll {
namespace detail {

Persistent::~Persistent() {
  int done = 0;
  PMPI_Finalized(&done);
  if (done == 0 && dup != MPI_COMM_NULL) PMPI_Comm_free(&dup);
}

void Persistent::start() {
  if (before) before();
  if (tree != nullptr)
    tree->start(ex, scratch, work);
  else if (plan != nullptr)
    plan->start();
  running = tree != nullptr || plan != nullptr;
  active = true;  // until a test or wait completes it (MPI), even with nothing to run
  if (!running) ran();
}

bool Persistent::test() {
  if (!active) return true;
  if (running && (tree != nullptr ? tree->test() : plan->progress())) {
    running = false;
    ran();
  }
  if (!running) active = false;
  return !active;
}

void Persistent::wait() {
  if (!active) return;
  if (running) {
    if (tree != nullptr)
      tree->complete();
    else
      plan->complete();
    running = false;
    ran();
  }
  active = false;
}

void Persistent::ran() {
  if (after) after();
}

}  // namespace detail

namespace mpi {
namespace {
thread_local detail::Persistent* t_capture = nullptr;
}  // namespace

Capture::Capture(detail::Persistent& r) noexcept {
  t_capture = &r;
}
Capture::~Capture() {
  t_capture = nullptr;
}

detail::Persistent* capturing() noexcept {
  return t_capture;
}

namespace {
// The settings of the request being built: its own duplicate (persistent;
// made here, collective) or its own tag (nonblocking).
ExecConfig request_config(CommState& s, ExecConfig cfg) {
  detail::Persistent& r = *t_capture;
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

void capture_plan(CommState& s, const Choice& choice, const plan::PlanSpec& spec, void* base, const TypeInfo& t,
                  MPI_Op op, const void* init, bool complete, const plan::BlockLayout* layout,
                  std::span<const MpiExecutor::Part> parts) {
  detail::Persistent& r = *t_capture;
  const ExecConfig cfg = request_config(s, exec_config(s, t, op));
  r.plan = std::make_unique<PreparedPlan>(s, choice, spec, layout);
  r.plan->bind(cfg, {base, init, complete, parts}, r.ex, r.scratch);
}

void run_tree(CommState& s, TreeArgs a, RankTree t) {
  if (t_capture == nullptr) {
    TreeRun run(std::move(a), std::move(t), tree_config(s));
    run.run(s.executor, s.scratch, s.work);
    release_call_buffers(s);
    return;
  }
  t_capture->tree = std::make_unique<TreeRun>(std::move(a), std::move(t), request_config(s, tree_config(s)));
}

ByteBuffer& request_buffer(ByteBuffer& call_buffer) noexcept {
  return t_capture != nullptr ? t_capture->stage[t_capture->stages++ % 2] : call_buffer;
}

ByteBuffer& work_buffer(CommState& s) noexcept {
  return t_capture != nullptr ? t_capture->work : s.work;
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

void before_each_run(std::function<void()> f) {
  if (t_capture == nullptr) return f();
  add_step(t_capture->before, std::move(f));
}

void after_each_run(std::function<void()> f) {
  if (t_capture == nullptr) return f();
  add_step(t_capture->after, std::move(f));
}

void copy_each_start(const void* from, void* to, std::int64_t count, const TypeInfo& t) {
  before_each_run([from, to, count, t] {
    ByteBuffer tmp;
    copy_elements(from, to, count, t, tmp);
  });
}

Request make_request(MPI_Comm comm, bool persistent, const std::function<void()>& call) {
  auto impl = std::make_unique<detail::Persistent>();
  impl->user = comm;
  impl->persistent = persistent;
  {
    Capture capture(*impl);
    call();
  }
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
  return impl_ == nullptr ? MPI_COMM_NULL : impl_->user;
}

}  // namespace optcoll
