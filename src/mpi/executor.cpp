// The MPI executor, posting side: binding a call, message forms, chunking,
// waiting (see optcoll/mpi/executor.hpp). What happens to arrived data is in
// executor_apply.cpp.
#include <time.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstring>
#include <utility>

#include "mpi/executor.hpp"
#include "optcoll/error.hpp"

namespace optcoll::mpi {

using plan::Action;
using plan::BlockRun;
using plan::Segment;

namespace {

int rank_of(plan::rank_t r) {
  if (r < 0 || r > INT_MAX) throw Error(Errc::internal, "plan names a rank outside the communicator");
  return static_cast<int>(r);
}

}  // namespace

void Scratch::trim(std::int64_t keep_bytes) noexcept {
  for (ByteBuffer* b : {&send, &recv, &in, &copy, &groups})
    if (b->capacity() > keep_bytes) b->release();
}

void wait_all(std::span<MPI_Request> requests, WaitMode mode, int spin) {
  if (requests.empty()) return;
  const int n = static_cast<int>(requests.size());
  int done = 0;
  if (mode == WaitMode::block) {
    // Small sends are usually complete when posted: Testall finds that
    // without the progress pass Open MPI's Waitall makes regardless
    // (about 8000 instructions per call, measured with callgrind).
    check(PMPI_Testall(n, requests.data(), &done, MPI_STATUSES_IGNORE), "MPI_Testall");
    if (done == 0) check(PMPI_Waitall(n, requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    return;
  }
  for (int polls = 0;; ++polls) {
    check(PMPI_Testall(n, requests.data(), &done, MPI_STATUSES_IGNORE), "MPI_Testall");
    if (done != 0) return;
    if (polls >= spin) {
      // A zero sleep still gives up the CPU for the timer slack (about
      // 50 us), long enough for the ranks we wait for to run.
      const timespec nap{0, 0};
      nanosleep(&nap, nullptr);
    }
  }
}

void MpiExecutor::bind(const ExecConfig& cfg, void* base, const plan::BlockLayout& layout, Scratch& scratch) {
  cfg_ = cfg;
  base_ = static_cast<std::byte*>(base);
  layout_ = &layout;
  scratch_ = &scratch;
  data_extent_ = layout.data_extent();
  groups_ = nullptr;
  if (layout.extent() > data_extent_)
    groups_ = offset(scratch.groups.get(cfg.type.span_bytes(layout.extent() - data_extent_)), -cfg.type.true_lb);
  packed_chunk_bytes_ = -1;
  parts_.clear();
  init_ = nullptr;
  fresh_.clear();
  out_.form = in_.form = Form::none;
  requests_.clear();
  deferred_.clear();
  locals_.clear();
  rec_ = nullptr;
}

void MpiExecutor::set_parts(std::span<const Part> parts) {
  parts_.assign(parts.begin(), parts.end());
  if (!parts_.empty()) base_ = static_cast<std::byte*>(parts_[0].base);
}

void MpiExecutor::start(const plan::RankPlan& plan) {
  started_ = &plan;
  replay_ = nullptr;
  next_round_ = 0;
  round_open_ = false;
  if (plan.rounds() > 0) post_next();
}

void MpiExecutor::start_replay(const Compiled& compiled, const void* init) {
  started_ = nullptr;
  replay_ = &compiled;
  init_ = static_cast<const std::byte*>(init);
  fresh_.clear();
  next_round_ = 0;
  replay_next_ = 0;
  round_open_ = false;
  if (!compiled.round_end.empty()) post_next();
}

void MpiExecutor::post_next() {
  if (replay_ == nullptr) {
    plan::post_round(*started_, next_round_++, step_, *this);
    round_open_ = true;
    return;
  }
  const auto r = static_cast<std::size_t>(next_round_++);
  const std::size_t end = replay_->apply[r];
  replay_in_ = nullptr;
  replay_writes_ = replay_->round_end[r] > end;
  for (; replay_next_ < end; ++replay_next_) {
    const Compiled::Entry& e = replay_->entries[replay_next_];
    if (e.kind == Compiled::Kind::send)
      replay_send(e);  // most entries of most compiled plans: no dispatch
    else
      replay_apply(e);
  }
  round_open_ = true;
}

void MpiExecutor::replay_send(const Compiled::Entry& e) {
  MPI_Request r = MPI_REQUEST_NULL;
  check(PMPI_Isend(at(e.at), static_cast<int>(e.count), cfg_.type.type, e.peer, cfg_.tag, cfg_.comm, &r), "MPI_Isend");
  defer(r, Segment{e.at, e.count});
}

// One entry of a compiled plan: a post, or what the executor did between
// posts and at the end of a round (see Compiled).
void MpiExecutor::replay_apply(const Compiled::Entry& e) {
  using K = Compiled::Kind;
  const TypeInfo& ty = cfg_.type;
  const Segment seg{e.at, e.count};
  const int n = static_cast<int>(e.count);  // messages: <= largest <= chunk
  MPI_Request r = MPI_REQUEST_NULL;
  switch (e.kind) {
    case K::send:
      return replay_send(e);
    case K::send_initial:  // the initial content is never written: conflicts with nothing
      check(PMPI_Isend(init_at(e.at), n, ty.type, e.peer, cfg_.tag, cfg_.comm, &r), "MPI_Isend");
      defer(r, Segment{0, 0});
      return;
    case K::recv:
    case K::recv_initial:
    case K::recv_combine: {
      if (!deferred_.empty()) complete_deferred({&seg, 1}, false);
      std::byte* into = at(e.at);
      if (e.kind == K::recv_combine)
        into = replay_stage_ = offset(scratch_->recv.get(ty.span_bytes(e.count)), -ty.true_lb);
      check(PMPI_Irecv(into, n, ty.type, e.peer, cfg_.tag, cfg_.comm, &r), "MPI_Irecv");
      requests_.push_back(r);
      replay_in_ = &e;
      replay_writes_ = true;
      return;
    }
    case K::initial:
      copy_elements(init_at(e.at), at(e.at), e.count, ty, scratch_->copy);
      return;
    case K::local:
      apply_piece(e.from, e.at, e.count, e.action);
      return;
  }
}

void MpiExecutor::close_round() {
  round_open_ = false;
  if (replay_ == nullptr) return wait();
  wait_all(requests_, cfg_.wait, cfg_.spin);
  requests_.clear();
  if (!replay_writes_) {  // sends only: nothing arrives, nothing is applied
    replay_next_ = replay_->round_end[static_cast<std::size_t>(next_round_ - 1)];
    return;
  }
  if (const Compiled::Entry* in = replay_in_; in != nullptr) {
    const Segment seg{in->at, in->count};
    if (!deferred_.empty()) complete_deferred({&seg, 1}, false);
    if (in->kind == Compiled::Kind::recv_initial) {
      check(PMPI_Reduce_local(init_at(in->at), at(in->at), static_cast<int>(in->count), cfg_.type.type, cfg_.op),
            "MPI_Reduce_local");
    } else if (in->kind == Compiled::Kind::recv_combine) {
      combine(replay_stage_, at(in->at), in->count, in->action);
    }
  }
  const std::size_t end = replay_->round_end[static_cast<std::size_t>(next_round_ - 1)];
  for (; replay_next_ < end; ++replay_next_) replay_apply(replay_->entries[replay_next_]);
}

void MpiExecutor::end_run() {
  if (replay_ != nullptr) {
    complete_deferred({}, true);
    for (; replay_next_ < replay_->entries.size(); ++replay_next_) replay_apply(replay_->entries[replay_next_]);
    replay_ = nullptr;
    return;
  }
  started_ = nullptr;
  finish();
}

void MpiExecutor::complete() {
  if (started_ == nullptr && replay_ == nullptr) return;  // progress() finished the run
  if (round_open_) close_round();
  while (next_round_ < total_rounds()) {
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
  if (started_ == nullptr && replay_ == nullptr) return true;
  std::array<MPI_Request, kMaxDeferred> deferred{};
  const auto deferred_done = [&] {  // then complete_deferred() waits for nothing
    std::size_t n = 0;
    for (const Deferred& d : deferred_) deferred[n++] = d.request;
    if (!test_all({deferred.data(), n})) return false;
    for (std::size_t k = 0; k < n; ++k) deferred_[k].request = MPI_REQUEST_NULL;
    return true;
  };
  for (;;) {
    if (round_open_) {
      if (!test_all(requests_)) return false;
      if (open_round_needs_deferred() && !deferred_done()) return false;
      close_round();
    }
    if (next_round_ < total_rounds()) {
      post_next();
      continue;
    }
    if (!deferred_done()) return false;
    end_run();
    return true;
  }
}

// A compiled plan longer than this is not kept (a pipelined plan of many
// blocks: there the messages, not the bookkeeping, cost the time).
constexpr std::size_t kMaxCompiled = 4096;

void MpiExecutor::record(Compiled* compiled) {
  rec_ = compiled;
  if (rec_ == nullptr) return;
  Compiled& c = *rec_;
  c.entries.clear();  // keeps the capacity: a re-recording allocates nothing
  c.apply.clear();
  c.round_end.clear();
  c.largest = 0;
  c.with_initial = init_ != nullptr;
  c.commutative = commutative_;
  c.complete = materialize_at_end_;
  c.valid = parts_.empty();
}

void MpiExecutor::note(Compiled::Kind kind, std::int64_t at, std::int64_t count, int peer, plan::Action action,
                       std::int64_t from) {
  if (rec_ == nullptr || !rec_->valid) return;
  const bool message = kind <= Compiled::Kind::recv_combine;
  if (rec_->entries.size() >= kMaxCompiled || (message && count > cfg_.chunk)) {
    rec_->valid = false;
    return;
  }
  rec_->entries.push_back({kind, action, peer, at, from, count});
  if (message) rec_->largest = std::max(rec_->largest, count);
}

void MpiExecutor::finish() {
  complete_deferred({}, true);
  if (materialize_at_end_ && !fresh_.empty()) {
    const plan::BlockRun all{0, static_cast<std::int64_t>(fresh_.size())};
    materialize({&all, 1});
  }
  rec_ = nullptr;
}

void MpiExecutor::defer(MPI_Request r, Segment seg) {
  if (cfg_.wait == WaitMode::block) {  // a rank per core: the send completes in its round (executor.hpp)
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

// The element segments of runs, split where the caller's buffer ends (the
// plan's scratch groups live elsewhere), adjacent ones merged.
void MpiExecutor::gather(std::span<const BlockRun> runs, std::vector<Segment>& segs, std::int64_t& elements) const {
  segs.clear();
  elements = 0;
  const auto add = [&](Segment s) {
    if (s.count == 0) return;
    if (!segs.empty() && segs.back().offset + segs.back().count == s.offset && !is_boundary(s.offset))
      segs.back().count += s.count;
    else
      segs.push_back(s);
    elements += s.count;
  };
  const auto split_at = [&](Segment& s, std::int64_t b) {
    if (s.offset < b && s.offset + s.count > b) {
      add({s.offset, b - s.offset});
      s = {b, s.offset + s.count - b};
    }
  };
  for (const BlockRun& r : runs) {
    if (!layout_->valid(r)) throw Error(Errc::internal, "plan names an invalid block run");
    Segment s = layout_->run(r);
    for (const Part& pt : parts_) split_at(s, pt.first);
    split_at(s, data_extent_);
    add(s);
  }
}

void MpiExecutor::post_typed(bool is_send, int peer, std::byte* elem0, std::int64_t elements) {
  for (std::int64_t done = 0; done < elements; done += cfg_.chunk) {
    const int c = static_cast<int>(std::min(cfg_.chunk, elements - done));
    std::byte* p = offset(elem0, done * cfg_.type.extent);
    MPI_Request r = MPI_REQUEST_NULL;
    if (is_send)
      check(PMPI_Isend(p, c, cfg_.type.type, peer, cfg_.tag, cfg_.comm, &r), "MPI_Isend");
    else
      check(PMPI_Irecv(p, c, cfg_.type.type, peer, cfg_.tag, cfg_.comm, &r), "MPI_Irecv");
    requests_.push_back(r);
  }
}

// Below this many bytes copying the segments costs less than building,
// committing and freeing a datatype (a few microseconds).
constexpr std::int64_t kIndexedMinBytes = 16 << 10;

bool MpiExecutor::post_indexed(bool is_send, int peer, const Message& m) {
  if (m.elements > cfg_.chunk || m.elements * cfg_.type.size < kIndexedMinBytes) return false;
  index_lengths_.clear();
  index_addresses_.clear();
  for (const Segment& s : m.segs) {
    MPI_Aint a = 0;
    check(PMPI_Get_address(at(s.offset), &a), "MPI_Get_address");
    index_lengths_.push_back(static_cast<int>(s.count));  // <= elements <= chunk <= INT_MAX
    index_addresses_.push_back(a);
  }
  MPI_Datatype type = MPI_DATATYPE_NULL;
  check(PMPI_Type_create_hindexed(static_cast<int>(m.segs.size()), index_lengths_.data(), index_addresses_.data(),
                                  cfg_.type.type, &type),
        "MPI_Type_create_hindexed");
  check(PMPI_Type_commit(&type), "MPI_Type_commit");
  MPI_Request r = MPI_REQUEST_NULL;
  const int rc = is_send ? PMPI_Isend(MPI_BOTTOM, 1, type, peer, cfg_.tag, cfg_.comm, &r)
                         : PMPI_Irecv(MPI_BOTTOM, 1, type, peer, cfg_.tag, cfg_.comm, &r);
  // Freeing the type leaves the pending operation intact (MPI 4.0 §5.1.5).
  check(PMPI_Type_free(&type), "MPI_Type_free");
  check(rc, is_send ? "MPI_Isend" : "MPI_Irecv");
  requests_.push_back(r);
  return true;
}

// Bytes reserved for packed chunk k of m (every chunk but the last is full).
int MpiExecutor::packed_capacity(std::int64_t k, const Message& m) {
  if (packed_chunk_bytes_ < 0) {
    int bytes = 0;
    check(PMPI_Pack_size(static_cast<int>(cfg_.chunk), cfg_.type.type, cfg_.comm, &bytes), "MPI_Pack_size");
    packed_chunk_bytes_ = bytes;
  }
  const std::int64_t chunks = (m.elements + cfg_.chunk - 1) / cfg_.chunk;
  if (k + 1 < chunks) return static_cast<int>(packed_chunk_bytes_);
  int bytes = 0;
  check(PMPI_Pack_size(static_cast<int>(m.elements - (chunks - 1) * cfg_.chunk), cfg_.type.type, cfg_.comm, &bytes),
        "MPI_Pack_size");
  return bytes;
}

void MpiExecutor::post_packed(bool is_send, int peer, Message& m) {
  const std::int64_t chunks = (m.elements + cfg_.chunk - 1) / cfg_.chunk;
  const int last = packed_capacity(chunks - 1, m);
  m.buf = (is_send ? scratch_->send : scratch_->recv).get((chunks - 1) * packed_chunk_bytes_ + last);
  if (!is_send) {
    for (std::int64_t k = 0; k < chunks; ++k) {
      MPI_Request r = MPI_REQUEST_NULL;
      check(
          PMPI_Irecv(m.buf + k * packed_chunk_bytes_, packed_capacity(k, m), MPI_PACKED, peer, cfg_.tag, cfg_.comm, &r),
          "MPI_Irecv");
      requests_.push_back(r);
    }
    return;
  }
  // Pack the element stream piece by piece, cut at every chunk boundary.
  int pos = 0;
  std::int64_t k = 0;
  std::int64_t in_chunk = 0;
  const auto flush = [&] {
    MPI_Request r = MPI_REQUEST_NULL;
    check(PMPI_Isend(m.buf + k * packed_chunk_bytes_, pos, MPI_PACKED, peer, cfg_.tag, cfg_.comm, &r), "MPI_Isend");
    requests_.push_back(r);
    pos = 0;
    in_chunk = 0;
    ++k;
  };
  for (const Segment& s : m.segs) {
    for (std::int64_t a = 0; a < s.count;) {
      const std::int64_t c = std::min(s.count - a, cfg_.chunk - in_chunk);
      check(PMPI_Pack(at(s.offset + a), static_cast<int>(c), cfg_.type.type, m.buf + k * packed_chunk_bytes_,
                      packed_capacity(k, m), &pos, cfg_.comm),
            "MPI_Pack");
      a += c;
      in_chunk += c;
      if (in_chunk == cfg_.chunk) flush();
    }
  }
  if (in_chunk > 0) flush();
}

void MpiExecutor::send(plan::rank_t to, std::span<const BlockRun> runs) {
  if (out_.form != Form::none) throw Error(Errc::internal, "plan posts two sends in one round");
  gather(runs, out_.segs, out_.elements);
  if (out_.elements == 0) return;
  const int peer = rank_of(to);
  const TypeInfo& t = cfg_.type;
  if (in_.first_touch) {
    // This round's receive (posted first) lands straight in blocks that were
    // untouched when the round began, and the plan sends some of them: the
    // send must carry their content before the round, the initial content,
    // not the buffer the receive is writing (found by mpi_scan at np 3: the
    // doubling scan sends its partial while combining into it).
    const Segment& r = in_.segs[0];
    const auto overlaps = [&](const Segment& s) {
      return s.offset < r.offset + r.count && r.offset < s.offset + s.count;
    };
    if (std::any_of(out_.segs.begin(), out_.segs.end(), overlaps)) {
      const Segment& s = out_.segs[0];
      if (out_.segs.size() != 1 || s.offset < r.offset || s.offset + s.count > r.offset + r.count)
        throw Error(Errc::internal, "plan sends part of a block it first combines into in the same round");
      out_.form = Form::direct;
      if (out_.elements > cfg_.chunk) {  // chunked; completes in this round (the initial content is never written)
        untraceable();
        post_typed(true, peer, const_cast<std::byte*>(init_at(s.offset)), out_.elements);
        return;
      }
      note(Compiled::Kind::send_initial, s.offset, out_.elements, peer);
      MPI_Request req = MPI_REQUEST_NULL;
      check(PMPI_Isend(init_at(s.offset), static_cast<int>(out_.elements), t.type, peer, cfg_.tag, cfg_.comm, &req),
            "MPI_Isend");
      defer(req, Segment{0, 0});
      return;
    }
  }
  if (!fresh_.empty() && any_fresh(runs)) {
    if (all_fresh(runs) && out_.segs.size() == 1 && out_.elements <= cfg_.chunk) {
      // Untouched: straight from the initial content, which is never written
      // (so the deferred send conflicts with nothing: empty segment).
      out_.form = Form::direct;
      MPI_Request r = MPI_REQUEST_NULL;
      check(PMPI_Isend(init_at(out_.segs[0].offset), static_cast<int>(out_.elements), t.type, peer, cfg_.tag, cfg_.comm,
                       &r),
            "MPI_Isend");
      defer(r, Segment{0, 0});
      note(Compiled::Kind::send_initial, out_.segs[0].offset, out_.elements, peer);
      return;
    }
    materialize(runs);
  }
  if (out_.segs.size() == 1 && out_.elements <= cfg_.chunk) {
    // Completes in the background (see executor.hpp).
    out_.form = Form::direct;
    MPI_Request r = MPI_REQUEST_NULL;
    check(PMPI_Isend(at(out_.segs[0].offset), static_cast<int>(out_.elements), t.type, peer, cfg_.tag, cfg_.comm, &r),
          "MPI_Isend");
    defer(r, out_.segs[0]);
    note(Compiled::Kind::send, out_.segs[0].offset, out_.elements, peer);
  } else if (out_.segs.size() == 1) {
    untraceable();
    out_.form = Form::direct;
    post_typed(true, peer, at(out_.segs[0].offset), out_.elements);
  } else if (post_indexed(true, peer, out_)) {
    untraceable();
    out_.form = Form::indexed;
  } else if (t.contiguous) {
    untraceable();
    out_.form = Form::staged;
    std::byte* stage = scratch_->send.get(out_.elements * t.size);
    std::int64_t pos = 0;
    for (const Segment& s : out_.segs) {
      std::memcpy(stage + pos * t.size, offset(at(s.offset), t.true_lb), static_cast<std::size_t>(s.count * t.size));
      pos += s.count;
    }
    out_.buf = offset(stage, -t.true_lb);
    post_typed(true, peer, out_.buf, out_.elements);
  } else {
    untraceable();
    out_.form = Form::packed;
    post_packed(true, peer, out_);
  }
}

void MpiExecutor::recv(plan::rank_t from, std::span<const BlockRun> runs, Action action) {
  if (in_.form != Form::none) throw Error(Errc::internal, "plan posts two receives in one round");
  gather(runs, in_.segs, in_.elements);
  if (in_.elements == 0) return;
  if (!deferred_.empty()) complete_deferred(in_.segs, false);
  in_.action = action;
  const int peer = rank_of(from);
  const TypeInfo& t = cfg_.type;
  const bool single = in_.segs.size() == 1;
  if (!fresh_.empty() && any_fresh(runs)) {
    if (action == Action::copy) {
      mark_written(runs);  // the message overwrites every element
    } else if (single && all_fresh(runs) && (action == Action::combine_after || commutative_)) {
      // own = init (+) in, computed in the buffer after the data arrives.
      mark_written(runs);
      in_.form = Form::direct;
      in_.first_touch = true;
      post_typed(false, peer, at(in_.segs[0].offset), in_.elements);
      note(Compiled::Kind::recv_initial, in_.segs[0].offset, in_.elements, peer);
      return;
    } else {
      materialize(runs);
    }
  }
  if (action == Action::copy && single) {
    in_.form = Form::direct;
    post_typed(false, peer, at(in_.segs[0].offset), in_.elements);
    note(Compiled::Kind::recv, in_.segs[0].offset, in_.elements, peer);
  } else if (action == Action::copy && post_indexed(false, peer, in_)) {
    untraceable();
    in_.form = Form::indexed;
  } else if (t.contiguous || single) {
    if (single)
      note(Compiled::Kind::recv_combine, in_.segs[0].offset, in_.elements, peer, action);
    else
      untraceable();
    // A scratch copy with the datatype's layout (for a contiguous type the
    // elements are simply back to back).
    in_.form = Form::staged;
    in_.buf = offset(scratch_->recv.get(t.span_bytes(in_.elements)), -t.true_lb);
    post_typed(false, peer, in_.buf, in_.elements);
  } else {
    untraceable();
    in_.form = Form::packed;
    post_packed(false, peer, in_);
  }
}

void MpiExecutor::local(const plan::LocalOp& op) {
  locals_.push_back(op);
}

void MpiExecutor::wait() {
  wait_all(requests_, cfg_.wait, cfg_.spin);
  requests_.clear();
  if (rec_ != nullptr && rec_->valid) rec_->apply.push_back(rec_->entries.size());
  // A round may send a block and combine into it (the dissemination
  // allreduce sends W and receives into W): the send, posted after the
  // receive and deferred, must finish before finish_recv() writes.
  if (in_.form != Form::none && !deferred_.empty()) complete_deferred(in_.segs, false);
  if (in_.form != Form::none) finish_recv();
  for (const plan::LocalOp& op : locals_) apply_local(op);
  locals_.clear();
  in_.form = Form::none;
  in_.first_touch = false;
  out_.form = Form::none;
  if (rec_ != nullptr && rec_->valid) rec_->round_end.push_back(rec_->entries.size());
}

}  // namespace optcoll::mpi
