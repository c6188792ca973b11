// The MPI executor, applying side: unpacking arrived messages, combining
// with MPI_Reduce_local (small combines of predefined operators on
// predefined types: optcoll's own loop, mpi/local_reduce.hpp), and the
// plan's local copies and combinations.
#include <algorithm>
#include <cstring>

#include "mpi/executor.hpp"
#include "optcoll/error.hpp"

namespace optcoll::mpi {

using plan::Action;
using plan::Segment;

// Unpacks a packed receive into the working buffer (dst0 == nullptr) or into
// a scratch copy whose element j (of the message) is at dst0 + j*extent.
void MpiExecutor::unpack(Message& m, std::byte* dst0) {
  int pos = 0;
  std::int64_t k = 0;
  std::int64_t in_chunk = 0;
  std::int64_t stream = 0;
  for (const Segment& s : m.segs) {
    for (std::int64_t a = 0; a < s.count;) {
      const std::int64_t c = std::min(s.count - a, cfg_.chunk - in_chunk);
      std::byte* dst = dst0 == nullptr ? at(s.offset + a) : offset(dst0, stream * cfg_.type.extent);
      check(PMPI_Unpack(m.buf + k * packed_chunk_bytes_, packed_capacity(k, m), &pos, dst, static_cast<int>(c),
                        cfg_.type.type, cfg_.comm),
            "MPI_Unpack");
      a += c;
      stream += c;
      in_chunk += c;
      if (in_chunk == cfg_.chunk) {
        pos = 0;
        in_chunk = 0;
        ++k;
      }
    }
  }
}

// own (+)= in for count elements at element-0 addresses in and own, in
// chunks: combine_before own = in (+) own; combine_after own = own (+) in
// (computed into in, then copied to own without touching its holes).
void MpiExecutor::combine(std::byte* in, std::byte* own, std::int64_t count, Action action) {
  if (own_loop(count)) {  // straight into own
    if (action == Action::combine_before)
      reduce_(in, own, own, count);
    else
      reduce_(own, in, own, count);
    return;
  }
  for (std::int64_t done = 0; done < count; done += cfg_.chunk) {
    const std::int64_t c = std::min(cfg_.chunk, count - done);
    std::byte* i = offset(in, done * cfg_.type.extent);
    std::byte* o = offset(own, done * cfg_.type.extent);
    if (action == Action::combine_before) {
      check(PMPI_Reduce_local(i, o, static_cast<int>(c), cfg_.type.type, cfg_.op), "MPI_Reduce_local");
    } else {
      check(PMPI_Reduce_local(o, i, static_cast<int>(c), cfg_.type.type, cfg_.op), "MPI_Reduce_local");
      copy_elements(i, o, c, cfg_.type, scratch_->copy);
    }
  }
}

void MpiExecutor::finish_recv() {
  Message& m = in_;
  const TypeInfo& t = cfg_.type;
  if (m.entry->kind == Kind::recv_initial) {
    // own = initial (+) in, in place: Reduce_local(initial, buffer).
    const Segment& s = m.segs[0];
    if (own_loop(s.count)) {
      reduce_(init_at(s.offset), at(s.offset), at(s.offset), s.count);
      return;
    }
    for (std::int64_t done = 0; done < s.count; done += cfg_.chunk) {
      const std::int64_t c = std::min(cfg_.chunk, s.count - done);
      check(PMPI_Reduce_local(init_at(s.offset + done), at(s.offset + done), static_cast<int>(c), t.type, cfg_.op),
            "MPI_Reduce_local");
    }
    return;
  }
  const Action action = m.entry->action;
  if (m.form == Form::packed) {
    if (action == Action::copy) {
      unpack(m, nullptr);
      return;
    }
    std::byte* stage0 = offset(scratch_->in.get(t.span_bytes(m.elements)), -t.true_lb);
    unpack(m, stage0);
    std::int64_t pos = 0;
    for (const Segment& s : m.segs) {
      combine(offset(stage0, pos * t.extent), at(s.offset), s.count, action);
      pos += s.count;
    }
    return;
  }
  if (m.form != Form::staged) return;
  std::int64_t pos = 0;
  for (const Segment& s : m.segs) {
    std::byte* src = offset(m.buf, pos * t.extent);
    if (action == Action::copy)
      std::memcpy(offset(at(s.offset), t.true_lb), offset(src, t.true_lb), static_cast<std::size_t>(s.count * t.size));
    else
      combine(src, at(s.offset), s.count, action);
    pos += s.count;
  }
}

// What the compiled plan does between messages: a copy of initial content
// into the buffer, or a piece of the plan's local copies and combinations.
void MpiExecutor::apply(const Entry& e) {
  if (e.kind == Kind::initial) {
    copy_elements(init_at(e.at), at(e.at), e.count, cfg_.type, scratch_->copy);
    return;
  }
  apply_piece(e.from, e.at, e.count, e.action);
}

void MpiExecutor::apply_piece(std::int64_t from, std::int64_t to, std::int64_t count, Action action) {
  const TypeInfo& t = cfg_.type;
  if (!deferred_.empty()) {
    const Segment s{to, count};
    complete_deferred({&s, 1}, false);
  }
  std::byte* f = at(from);
  std::byte* d = at(to);
  if (action == Action::copy) {
    copy_elements(f, d, count, t, scratch_->copy);
  } else if (action == Action::combine_before) {
    combine(f, d, count, Action::combine_before);
  } else if (own_loop(count)) {
    reduce_(d, f, d, count);  // writes d only
  } else {
    // to = to (+) from without writing `from`: combine on a copy of it.
    std::byte* tmp = offset(scratch_->in.get(t.span_bytes(count)), -t.true_lb);
    copy_elements(f, tmp, count, t, scratch_->copy);
    combine(tmp, d, count, Action::combine_after);
  }
}

}  // namespace optcoll::mpi
