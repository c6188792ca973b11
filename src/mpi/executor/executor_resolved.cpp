// The MPI executor's resolved form (executor.hpp): a compiled plan whose
// messages are all one segment, one MPI call, completed in their round is
// posted and applied from addresses resolved once per compilation and
// buffers (its local steps too: no send is left running in this form, so
// none of them waits for one).
//
// Invariant: a run in the resolved form posts and applies what the generic
// form would for the same entries (the same calls with the same arguments,
// the same combines in the same order); it skips only finding them again.
// Every MPI test of a small message runs it against the native collective;
// MpiExecutor.ResolvedFormFollowsTheBuffers (tests/mpi/executor/mpi_executor_test.cpp)
// checks that addresses are resolved again when the buffers or the staging
// copy move.
#include <algorithm>
#include <utility>

#include "mpi/executor/executor.hpp"

namespace optcoll::mpi {

bool MpiExecutor::resolve() {
  const plan::Compiled& c = *run_;
  if (c.independent || c.id == 0) return false;  // a sliding window; or not from compile()
  const TypeInfo& t = cfg_.type;
  if (resolved_.id != c.id) {
    // Once per compilation, O(entries): whether every message fits.
    resolved_ = Resolved{};
    resolved_.id = c.id;
    bool fits = true;
    std::int64_t stage = 0;
    for (const Entry& e : c.entries) {
      if (!plan::Compiled::is_message(e.kind)) continue;
      if (e.segs != 1 || e.count > cfg_.chunk || !completes_in_round(e.count * t.size)) {
        fits = false;
        break;
      }
      if (e.kind == Kind::recv_combine) stage = std::max(stage, t.span_bytes(e.count));
    }
    resolved_.fits = fits;
    resolved_.stage_bytes = stage;
    if (fits) posts_.resize(c.entries.size());
  }
  if (!resolved_.fits) return false;
  // A combine receives into a staging copy with the datatype's layout (the
  // generic form's staged receive), one per round: the same one serves all.
  std::byte* stage = resolved_.stage_bytes > 0 ? scratch_->recv.get(resolved_.stage_bytes) : nullptr;
  // (Any of them may be null: a rank that receives nothing has no receive
  // buffer.)
  if (resolved_.addresses && resolved_.base == base_ && resolved_.init == init_ && resolved_.groups == groups_ &&
      resolved_.stage == stage)
    return true;
  for (std::size_t k = 0; k < c.entries.size(); ++k) {
    const Entry& e = c.entries[k];
    Post& p = posts_[k];
    p.count = e.count;
    switch (e.kind) {
      case Kind::send:
      case Kind::recv:
        p.buf = at(e.at);
        break;
      case Kind::send_initial:
        p.buf = const_cast<std::byte*>(init_at(e.at));  // only read
        break;
      case Kind::recv_initial:
      case Kind::initial:
        p.buf = at(e.at);
        p.init = init_at(e.at);
        break;
      case Kind::recv_combine:
        p.buf = offset(stage, -t.true_lb);
        p.into = at(e.at);
        break;
      case Kind::local:
        p.buf = at(e.at);
        p.init = at(e.from);
        break;
    }
  }
  resolved_.addresses = true;
  resolved_.base = base_;
  resolved_.init = init_;
  resolved_.groups = groups_;
  resolved_.stage = stage;
  ++resolutions_;
  return true;
}

void MpiExecutor::post_resolved(std::size_t end) {
  for (; next_ < end; ++next_) {
    const Entry& e = run_->entries[next_];
    const Post& p = posts_[next_];
    if (!plan::Compiled::is_message(e.kind)) {
      apply_next();  // a copy of initial content a message needs first
      continue;
    }
    const bool is_send = plan::Compiled::is_send(e.kind);
    if (!is_send) {
      round_writes_ = true;
      open_recv_ = next_;
    }
    const int peer = static_cast<int>(e.peer);
    // post_typed() for one call, without its chunk loop (per message, these
    // are the instructions the resolved form exists to save).
    const int count = static_cast<int>(p.count);
    if (hold_) {
      (is_send ? held_send_ : held_recv_) = Held{p.buf, count, peer};
      continue;
    }
    MPI_Request r = MPI_REQUEST_NULL;
    const int rc = is_send ? tr_->isend(p.buf, count, cfg_.type.type, peer, cfg_.tag, cfg_.comm, &r)
                           : tr_->irecv(p.buf, count, cfg_.type.type, peer, cfg_.tag, cfg_.comm, &r);
    check(rc, is_send ? "MPI_Isend" : "MPI_Irecv");
    requests_.push_back(r);
  }
}

void MpiExecutor::finish_resolved(std::size_t k) {
  const Entry& e = run_->entries[k];
  const Post& p = posts_[k];
  if (e.kind == Kind::recv_initial) {  // buffer = initial (+) buffer
    if (own_loop(p.count))
      reduce_(p.init, p.buf, p.buf, p.count);
    else
      check(PMPI_Reduce_local(p.init, p.buf, static_cast<int>(p.count), cfg_.type.type, cfg_.op), "MPI_Reduce_local");
  } else if (e.kind == Kind::recv_combine) {
    combine(p.buf, p.into, p.count, e.action);
  }
}

}  // namespace optcoll::mpi
