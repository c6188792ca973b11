// The MPI executor, posting side: binding a call, running a compiled plan
// round by round, message forms, chunking, waiting (see mpi/executor/executor.hpp). What happens to arrived data is in
// executor_apply.cpp.
#include <time.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstring>
#include <utility>

#include "mpi/executor/executor.hpp"
#include "mpi/requests/request.hpp"
#include "optcoll/error.hpp"
#include "optcoll/model/alltoall.hpp"

namespace optcoll::mpi {

using plan::Action;
using plan::BlockRun;
using plan::Segment;

void Scratch::trim(std::int64_t keep_bytes) noexcept {
  const auto keep = [keep_bytes](ByteBuffer& b) {
    if (b.capacity() > keep_bytes) b.release();
  };
  keep(send);
  keep(recv);
  keep(in);
  keep(copy);
  keep(groups);
}

namespace {
// One test: of all requests (indices null; MPI_Testall: 1 when all are
// done, else 0) or of any (MPI_Testsome into indices: how many completed;
// they become MPI_REQUEST_NULL).
int test_once(std::span<MPI_Request> requests, int* indices) {
  const int n = static_cast<int>(requests.size());
  int done = 0;
  if (indices == nullptr)
    check(PMPI_Testall(n, requests.data(), &done, MPI_STATUSES_IGNORE), "MPI_Testall");
  else
    check(PMPI_Testsome(n, requests.data(), &done, indices, MPI_STATUSES_IGNORE), "MPI_Testsome");
  return done > 0 ? done : 0;  // (Testsome: MPI_UNDEFINED only for no active request, excluded by the callers)
}

// wait_all(), or until any request has completed (indices non-null: how
// many did).
int wait_for(std::span<MPI_Request> requests, int* indices, WaitMode mode, int spin) {
  // Small sends are usually complete when posted: a test finds that
  // without the progress pass Open MPI's Waitall makes regardless
  // (about 8000 instructions per call, measured with callgrind).
  if (const int done = test_once(requests, indices); done > 0) return done;
  // Other requests running: they advance while this waits (another rank
  // may be waiting for them before it sends what this waits for).
  const bool others = other_requests_running();
  const int n = static_cast<int>(requests.size());
  if (mode == WaitMode::block && !others) {
    int done = 1;
    if (indices == nullptr)
      check(PMPI_Waitall(n, requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    else
      check(PMPI_Waitsome(n, requests.data(), &done, indices, MPI_STATUSES_IGNORE), "MPI_Waitsome");
    return done;
  }
  for (int polls = 0;; ++polls) {
    if (others) progress_requests();
    if (const int done = test_once(requests, indices); done > 0) return done;
    if (mode == WaitMode::poll && polls >= spin) {
      // A zero sleep still gives up the CPU for the timer slack (about
      // 50 us), long enough for the ranks we wait for to run.
      const timespec nap{0, 0};
      nanosleep(&nap, nullptr);
    }
  }
}
}  // namespace

void wait_all(std::span<MPI_Request> requests, WaitMode mode, int spin) {
  if (!requests.empty()) wait_for(requests, nullptr, mode, spin);
}

int wait_some(std::span<MPI_Request> requests, int* indices, WaitMode mode, int spin) {
  return wait_for(requests, indices, mode, spin);
}

bool MpiExecutor::some_done(bool block) {
  some_.resize(requests_.size());  // (its capacity stays: no allocation once the window has been full)
  if (!block) return test_once(requests_, some_.data()) > 0;
  wait_for(requests_, some_.data(), cfg_.wait, cfg_.spin);
  return true;
}

void MpiExecutor::bind(const ExecConfig& cfg, void* base, Scratch& scratch, const void* owner) {
  cfg_ = cfg;
  reduce_ = cfg.op == MPI_OP_NULL ? nullptr : local_reduce(cfg.type.type, cfg.op);
  owner_ = owner;
  base_ = static_cast<std::byte*>(base);
  scratch_ = &scratch;
  packed_chunk_bytes_ = -1;
  parts_.clear();
  run_ = nullptr;
  resolved_ = {};
}

void MpiExecutor::set_parts(std::span<const Part> parts) {
  parts_.assign(parts.begin(), parts.end());
  if (!parts_.empty()) base_ = static_cast<std::byte*>(parts_[0].base);
  resolved_ = {};
}

void MpiExecutor::part_boundaries(std::span<const Part> parts, std::vector<std::int64_t>& out) {
  out.clear();
  for (std::size_t k = 1; k < parts.size(); ++k) out.push_back(parts[k].first);
}

void MpiExecutor::start(const plan::Compiled& compiled, const void* init, bool post_first) {
  run_ = &compiled;
  init_ = static_cast<const std::byte*>(init);
  if (compiled.with_initial && init_ == nullptr)
    throw Error(Errc::internal, "compiled with initial content, none given");
  data_extent_ = compiled.data_extent;
  groups_ = nullptr;
  if (compiled.extent > data_extent_)
    groups_ = offset(scratch_->groups.get(cfg_.type.span_bytes(compiled.extent - data_extent_)), -cfg_.type.true_lb);
  // The state of a run (a failed one may have left requests behind), so
  // that a bound executor can start again without bind().
  requests_.clear();
  // A round posts at most one send and one receive of one call each, or
  // a message in chunks: the first run of a plan reaches the capacity its
  // later runs need, also when it took the blocking form and a later run
  // (a request tested) does not.
  if (requests_.capacity() < 2) requests_.reserve(2);
  deferred_.clear();
  in_.form = Form::none;
  next_round_ = 0;
  next_ = 0;
  round_open_ = false;
  hold_ = false;
  held_send_ = held_recv_ = Held{};
  open_recv_ = kNoRecv;
  fast_ = resolve();
  if (!post_first) return;  // (complete() skips the empty rounds)
  skip_empty();
  if (next_round_ < compiled.rounds()) post_next();
}

void MpiExecutor::post_next() {
  // Independent: the first window of rounds (their copies touch no
  // message's elements; the last round's steps wait for end_run()).
  if (run_->independent) {
    in_.form = Form::none;
    round_writes_ = false;  // every receive lands in place: nothing to apply at the close
    round_open_ = true;
    post_window();
    return;
  }
  const auto r = static_cast<std::size_t>(next_round_++);
  const std::size_t end = run_->apply[r];
  in_.form = Form::none;
  round_writes_ = run_->round_end[r] > end;
  if (fast_)
    post_resolved(end);
  else
    for (; next_ < end; ++next_) post(run_->entries[next_]);
  round_open_ = true;
}

void MpiExecutor::post_window() {
  // A round posts a send and a receive, or one of them: rounds in flight
  // are counted by their requests (a message in chunks counts more).
  const std::int64_t window = run_->in_flight > 0 ? run_->in_flight : model::kRoundsInFlight;
  const auto budget = static_cast<std::size_t>(2 * window);
  // The last round's steps wait for end_run(), after every message (the
  // linear scan's fold; Compiled::independent).
  const std::int64_t last = run_->rounds() - 1;
  for (; next_round_ <= last && requests_.size() < budget; ++next_round_) {
    const auto r = static_cast<std::size_t>(next_round_);
    for (const std::size_t end = next_round_ == last ? run_->apply[r] : run_->round_end[r]; next_ < end; ++next_)
      post(run_->entries[next_]);
  }
}

bool MpiExecutor::slide(bool block) {
  for (;;) {
    post_window();
    if (requests_.empty()) return true;  // (the window stops posting only when full or at the end)
    if (!some_done(block)) return false;
    std::erase(requests_, MPI_REQUEST_NULL);
  }
}

void MpiExecutor::post(const Entry& e) {
  switch (e.kind) {
    case Kind::send:
    case Kind::send_initial:
      return post_send(e);
    case Kind::recv:
    case Kind::recv_initial:
    case Kind::recv_combine:
      round_writes_ = true;
      return post_recv(e);
    case Kind::initial:
    case Kind::local:
      return apply(e);
  }
}

bool MpiExecutor::hold(bool is_send, int peer, std::byte* buf, std::int64_t elements) {
  if (!hold_ || elements > cfg_.chunk) return false;
  (is_send ? held_send_ : held_recv_) = Held{buf, static_cast<int>(elements), peer};
  return true;
}

void MpiExecutor::run_held() {
  const MPI_Datatype t = cfg_.type.type;
  const Held s = std::exchange(held_send_, Held{});
  const Held r = std::exchange(held_recv_, Held{});
  if (s.peer >= 0 && r.peer >= 0) {
    check(tr_->sendrecv(s.buf, s.count, t, s.peer, cfg_.tag, r.buf, r.count, t, r.peer, cfg_.tag, cfg_.comm,
                        MPI_STATUS_IGNORE),
          "MPI_Sendrecv");
  } else if (s.peer >= 0) {
    check(tr_->send(s.buf, s.count, t, s.peer, cfg_.tag, cfg_.comm), "MPI_Send");
  } else if (r.peer >= 0) {
    check(tr_->recv(r.buf, r.count, t, r.peer, cfg_.tag, cfg_.comm, MPI_STATUS_IGNORE), "MPI_Recv");
  }
}

void MpiExecutor::close_round() {
  round_open_ = false;
  if (run_->independent) {  // the sliding window, to its end
    slide(true);
    return;
  }
  if (hold_) {
    hold_ = false;
    run_held();  // after the round's other messages are posted
  }
  wait_all(requests_, cfg_.wait, cfg_.spin);
  requests_.clear();
  const std::size_t end = run_->round_end[static_cast<std::size_t>(next_round_ - 1)];
  if (!round_writes_) {  // sends only: nothing arrives, nothing is applied
    next_ = end;
    return;
  }
  if (open_recv_ != kNoRecv) {
    finish_resolved(std::exchange(open_recv_, kNoRecv));
  } else if (in_.form != Form::none) {
    // A round may send a block and combine into it (the dissemination
    // allreduce sends W and receives into W): the send, deferred, must
    // finish before the receive's data is applied.
    if (!deferred_.empty()) complete_deferred(in_.segs, false);
    if (in_.form != Form::direct || in_.entry->kind != Kind::recv) finish_recv();  // a copy straight in: done
    in_.form = Form::none;
  }
  for (; next_ < end; ++next_) apply_next();
}

void MpiExecutor::end_run() {
  if (!deferred_.empty()) complete_deferred({}, true);
  for (; next_ < run_->entries.size(); ++next_) apply_next();
  run_ = nullptr;
}

void MpiExecutor::complete() {
  if (run_ == nullptr) return;  // progress() finished the run
  if (round_open_) close_round();
  const bool hold = cfg_.wait == WaitMode::block && !run_->independent && !other_requests_running();
  for (skip_empty(); next_round_ < run_->rounds(); skip_empty()) {
    hold_ = hold;
    post_next();
    close_round();
  }
  end_run();
}

namespace {
// Whether every request has completed (then each is MPI_REQUEST_NULL);
// otherwise none is changed (MPI_Testall).
bool test_all(std::span<MPI_Request> requests) {
  if (requests.empty()) return true;
  int done = 0;
  check(PMPI_Testall(static_cast<int>(requests.size()), requests.data(), &done, MPI_STATUSES_IGNORE), "MPI_Testall");
  return done != 0;
}
}  // namespace

bool MpiExecutor::progress() {
  if (run_ == nullptr) return true;
  std::array<MPI_Request, kMaxDeferred> deferred{};
  const auto deferred_done = [&] {  // then complete_deferred() waits for nothing
    std::size_t n = 0;
    for (const Deferred& d : deferred_) deferred[n++] = d.request;
    if (!test_all({deferred.data(), n})) return false;
    for (std::size_t k = 0; k < n; ++k) deferred_[k].request = MPI_REQUEST_NULL;
    return true;
  };
  for (;;) {
    if (round_open_ && run_->independent) {
      if (!slide(false)) return false;
      round_open_ = false;
    } else if (round_open_) {
      if (!test_all(requests_)) return false;
      if (round_writes_ && !deferred_done()) return false;
      close_round();
      skip_empty();
    }
    if (next_round_ < run_->rounds()) {
      post_next();
      continue;
    }
    if (!deferred_done()) return false;
    end_run();
    return true;
  }
}

void MpiExecutor::defer(MPI_Request r, Segment seg, std::int64_t bytes) {
  // A rank per core: completes in its round unless of a middle size on one node (executor.hpp).
  if (completes_in_round(bytes)) {
    requests_.push_back(r);
    return;
  }
  if (deferred_.size() >= kMaxDeferred) {
    wait_all({&deferred_.front().request, 1}, cfg_.wait, cfg_.spin);
    deferred_.erase(deferred_.begin());
  }
  deferred_.push_back({r, seg});
}

void MpiExecutor::complete_deferred(std::span<const Segment> segs, bool all) {
  if (all) {  // one test for all of them
    std::array<MPI_Request, kMaxDeferred> r{};
    std::size_t n = 0;
    for (const Deferred& d : deferred_) r[n++] = d.request;
    deferred_.clear();
    wait_all({r.data(), n}, cfg_.wait, cfg_.spin);
    return;
  }
  const auto overlaps = [&](const Segment& d) {
    for (const Segment& s : segs)
      if (s.offset < d.offset + d.count && d.offset < s.offset + s.count) return true;
    return false;
  };
  std::size_t keep = 0;
  for (std::size_t i = 0; i < deferred_.size(); ++i) {
    if (all || overlaps(deferred_[i].seg))
      wait_all({&deferred_[i].request, 1}, cfg_.wait, cfg_.spin);
    else
      deferred_[keep++] = deferred_[i];
  }
  deferred_.resize(keep);
}

void MpiExecutor::post_typed(bool is_send, int peer, std::byte* elem0, std::int64_t elements) {
  if (hold(is_send, peer, elem0, elements)) return;
  for (std::int64_t done = 0; done < elements; done += cfg_.chunk) {
    const int c = static_cast<int>(std::min(cfg_.chunk, elements - done));
    std::byte* p = offset(elem0, done * cfg_.type.extent);
    MPI_Request r = MPI_REQUEST_NULL;
    if (is_send)
      check(tr_->isend(p, c, cfg_.type.type, peer, cfg_.tag, cfg_.comm, &r), "MPI_Isend");
    else
      check(tr_->irecv(p, c, cfg_.type.type, peer, cfg_.tag, cfg_.comm, &r), "MPI_Irecv");
    requests_.push_back(r);
  }
}

void MpiExecutor::post_send(const Entry& e) {
  const TypeInfo& t = cfg_.type;
  const int peer = static_cast<int>(e.peer);  // compile() checked the range
  if (e.segs == 1) {
    const bool initial = e.kind == Kind::send_initial;
    std::byte* from = initial ? const_cast<std::byte*>(init_at(e.at)) : at(e.at);
    if (e.count > cfg_.chunk) return post_typed(true, peer, from, e.count);  // completes in its round
    if (completes_in_round(e.count * t.size) && hold(true, peer, from, e.count)) return;
    // Completes in the background (see executor.hpp). The initial content
    // is never written, so a send from it conflicts with nothing.
    MPI_Request r = MPI_REQUEST_NULL;
    check(tr_->isend(from, static_cast<int>(e.count), t.type, peer, cfg_.tag, cfg_.comm, &r), "MPI_Isend");
    defer(r, initial ? Segment{0, 0} : Segment{e.at, e.count}, e.count * t.size);
    return;
  }
  Message& m = out_;
  m.entry = &e;
  m.elements = e.count;
  m.segs = run_->segments_of(e, m.one);
  if (post_indexed(true, peer, m)) {
    m.form = Form::indexed;
  } else if (t.contiguous) {
    m.form = Form::staged;
    std::byte* stage = scratch_->send.get(m.elements * t.size);
    std::int64_t pos = 0;
    for (const Segment& s : m.segs) {
      std::memcpy(stage + pos * t.size, offset(at(s.offset), t.true_lb), static_cast<std::size_t>(s.count * t.size));
      pos += s.count;
    }
    m.buf = offset(stage, -t.true_lb);
    post_typed(true, peer, m.buf, m.elements);
  } else {
    m.form = Form::packed;
    post_packed(true, peer, m);
  }
}

void MpiExecutor::post_recv(const Entry& e) {
  const TypeInfo& t = cfg_.type;
  const int peer = static_cast<int>(e.peer);
  Message& m = in_;
  m.entry = &e;
  m.elements = e.count;
  m.segs = run_->segments_of(e, m.one);
  if (!deferred_.empty()) complete_deferred(m.segs, false);
  const bool single = e.segs == 1;
  if (e.kind != Kind::recv_combine && single) {  // recv, recv_initial: straight into the buffer
    m.form = Form::direct;
    post_typed(false, peer, at(e.at), e.count);
  } else if (e.kind == Kind::recv && post_indexed(false, peer, m)) {
    m.form = Form::indexed;
  } else if (t.contiguous || single) {
    // A scratch copy with the datatype's layout (for a contiguous type the
    // elements are simply back to back).
    m.form = Form::staged;
    m.buf = offset(scratch_->recv.get(t.span_bytes(m.elements)), -t.true_lb);
    post_typed(false, peer, m.buf, m.elements);
  } else {
    m.form = Form::packed;
    post_packed(false, peer, m);
  }
}

}  // namespace optcoll::mpi
