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

void capture_plan(CommState& s, const Choice& choice, const plan::PlanSpec& spec, void* base, const TypeInfo& t,
                  MPI_Op op, const void* init, bool complete, const plan::BlockLayout* layout,
                  std::span<const MpiExecutor::Part> parts) {
  detail::Persistent& r = *t_capture;
  ExecConfig cfg = exec_config(s, t, op);
  if (r.persistent) {
    // Collective: every rank builds a plan for the same call.
    check(PMPI_Comm_dup(s.comm, &r.dup), "MPI_Comm_dup");
    check(PMPI_Comm_set_errhandler(r.dup, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    cfg.comm = r.dup;
  } else {
    cfg.tag = kTag + 16 + static_cast<int>(s.request_calls++ % kRequestTags);
  }
  r.plan = std::make_unique<PreparedPlan>(s, choice, spec, layout);
  r.plan->bind(cfg, {base, init, complete, parts}, r.ex, r.scratch);
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

Request bcast_init(void* buffer, std::int64_t count, MPI_Datatype type, int root, MPI_Comm comm,
                   const Options& options) {
  return mpi::make_request(comm, true, [&] { mpi::bcast_impl(buffer, count, type, root, comm, options); });
}
Request ibcast(void* buffer, std::int64_t count, MPI_Datatype type, int root, MPI_Comm comm, const Options& options) {
  return mpi::make_request(comm, false, [&] { mpi::bcast_impl(buffer, count, type, root, comm, options); });
}
Request reduce_init(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, int root,
                    MPI_Comm comm, const Options& options) {
  return mpi::make_request(comm, true,
                           [&] { mpi::reduce_impl(sendbuf, recvbuf, count, type, op, root, comm, options); });
}
Request ireduce(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, int root,
                MPI_Comm comm, const Options& options) {
  return mpi::make_request(comm, false,
                           [&] { mpi::reduce_impl(sendbuf, recvbuf, count, type, op, root, comm, options); });
}
Request allreduce_init(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op,
                       MPI_Comm comm, const Options& options) {
  return mpi::make_request(comm, true, [&] { mpi::allreduce_impl(sendbuf, recvbuf, count, type, op, comm, options); });
}
Request iallreduce(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                   const Options& options) {
  return mpi::make_request(comm, false, [&] { mpi::allreduce_impl(sendbuf, recvbuf, count, type, op, comm, options); });
}

Request allgather_init(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Comm comm,
                       const Options& options) {
  return mpi::make_request(comm, true,
                           [&] { mpi::allgather_impl(sendbuf, count, type, recvbuf, count, type, comm, options); });
}
Request iallgather(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Comm comm,
                   const Options& options) {
  return mpi::make_request(comm, false,
                           [&] { mpi::allgather_impl(sendbuf, count, type, recvbuf, count, type, comm, options); });
}
Request allgatherv_init(const void* sendbuf, std::int64_t sendcount, void* recvbuf,
                        std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> displs,
                        MPI_Datatype type, MPI_Comm comm, const Options& options) {
  return mpi::make_request(comm, true, [&] {
    mpi::allgatherv_impl(sendbuf, sendcount, type, recvbuf, recvcounts, displs, type, comm, options);
  });
}
Request iallgatherv(const void* sendbuf, std::int64_t sendcount, void* recvbuf,
                    std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> displs, MPI_Datatype type,
                    MPI_Comm comm, const Options& options) {
  return mpi::make_request(comm, false, [&] {
    mpi::allgatherv_impl(sendbuf, sendcount, type, recvbuf, recvcounts, displs, type, comm, options);
  });
}
Request reduce_scatter_block_init(const void* sendbuf, void* recvbuf, std::int64_t recvcount, MPI_Datatype type,
                                  MPI_Op op, MPI_Comm comm, const Options& options) {
  return mpi::make_request(
      comm, true, [&] { mpi::reduce_scatter_block_impl(sendbuf, recvbuf, recvcount, type, op, comm, options); });
}
Request ireduce_scatter_block(const void* sendbuf, void* recvbuf, std::int64_t recvcount, MPI_Datatype type, MPI_Op op,
                              MPI_Comm comm, const Options& options) {
  return mpi::make_request(
      comm, false, [&] { mpi::reduce_scatter_block_impl(sendbuf, recvbuf, recvcount, type, op, comm, options); });
}
Request reduce_scatter_init(const void* sendbuf, void* recvbuf, std::span<const std::int64_t> recvcounts,
                            MPI_Datatype type, MPI_Op op, MPI_Comm comm, const Options& options) {
  return mpi::make_request(comm, true,
                           [&] { mpi::reduce_scatter_impl(sendbuf, recvbuf, recvcounts, type, op, comm, options); });
}
Request ireduce_scatter(const void* sendbuf, void* recvbuf, std::span<const std::int64_t> recvcounts, MPI_Datatype type,
                        MPI_Op op, MPI_Comm comm, const Options& options) {
  return mpi::make_request(comm, false,
                           [&] { mpi::reduce_scatter_impl(sendbuf, recvbuf, recvcounts, type, op, comm, options); });
}
Request scan_init(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                  const Options& options) {
  return mpi::make_request(
      comm, true, [&] { mpi::scan_impl(plan::Collective::scan, sendbuf, recvbuf, count, type, op, comm, options); });
}
Request iscan(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
              const Options& options) {
  return mpi::make_request(
      comm, false, [&] { mpi::scan_impl(plan::Collective::scan, sendbuf, recvbuf, count, type, op, comm, options); });
}
Request exscan_init(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                    const Options& options) {
  return mpi::make_request(
      comm, true, [&] { mpi::scan_impl(plan::Collective::exscan, sendbuf, recvbuf, count, type, op, comm, options); });
}
Request iexscan(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                const Options& options) {
  return mpi::make_request(
      comm, false, [&] { mpi::scan_impl(plan::Collective::exscan, sendbuf, recvbuf, count, type, op, comm, options); });
}

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
