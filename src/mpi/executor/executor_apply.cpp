// The MPI executor's messages of several segments (an hindexed datatype, or
// MPI_Pack'ed in chunks) and its applying side: unpacking arrived messages,
// combining with MPI_Reduce_local (small combines of predefined operators
// on predefined types: optcoll's own loop, mpi/executor/local_reduce.hpp), and the
// plan's local copies and combinations.
#include <algorithm>
#include <cstring>

#include "mpi/executor/executor.hpp"
#include "optcoll/error.hpp"

namespace optcoll::mpi {

using plan::Action;
using plan::Segment;

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
  const int rc = is_send ? tr_->isend(MPI_BOTTOM, 1, type, peer, cfg_.tag, cfg_.comm, &r)
                         : tr_->irecv(MPI_BOTTOM, 1, type, peer, cfg_.tag, cfg_.comm, &r);
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
          tr_->irecv(m.buf + k * packed_chunk_bytes_, packed_capacity(k, m), MPI_PACKED, peer, cfg_.tag, cfg_.comm, &r),
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
    check(tr_->isend(m.buf + k * packed_chunk_bytes_, pos, MPI_PACKED, peer, cfg_.tag, cfg_.comm, &r), "MPI_Isend");
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
  if (e.kind == Kind::initial) return apply_at(e, init_at(e.at), at(e.at));  // (nothing sent reads a fresh block)
  if (!deferred_.empty()) {
    const Segment s{e.at, e.count};
    complete_deferred({&s, 1}, false);
  }
  apply_at(e, at(e.from), at(e.at));
}

void MpiExecutor::apply_at(const Entry& e, const std::byte* from, std::byte* to) {
  const TypeInfo& t = cfg_.type;
  const std::int64_t count = e.count;
  const Action action = e.kind == Kind::initial ? Action::copy : e.action;
  if (action == Action::copy) {
    if (t.contiguous)  // (copy_elements' own test, without its call)
      std::memmove(offset(to, t.true_lb), offset(from, t.true_lb), static_cast<std::size_t>(count * t.size));
    else
      copy_elements(from, to, count, t, scratch_->copy);
  } else if (action == Action::combine_before) {
    combine(const_cast<std::byte*>(from), to, count, Action::combine_before);  // reads `from` only
  } else if (own_loop(count)) {
    reduce_(to, from, to, count);  // writes `to` only
  } else {
    // to = to (+) from without writing `from`: combine on a copy of it.
    std::byte* tmp = offset(scratch_->in.get(t.span_bytes(count)), -t.true_lb);
    copy_elements(from, tmp, count, t, scratch_->copy);
    combine(tmp, to, count, Action::combine_after);
  }
}

}  // namespace optcoll::mpi
