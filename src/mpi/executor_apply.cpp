// The MPI executor, applying side: unpacking arrived messages, combining
// with MPI_Reduce_local, and the plan's local copies and combinations.
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
  if (m.first_touch) {
    // own = init (+) in, in place: Reduce_local(init, buffer).
    const Segment& s = m.segs[0];
    for (std::int64_t done = 0; done < s.count; done += cfg_.chunk) {
      const std::int64_t c = std::min(cfg_.chunk, s.count - done);
      check(PMPI_Reduce_local(init_at(s.offset + done), at(s.offset + done), static_cast<int>(c), t.type, cfg_.op),
            "MPI_Reduce_local");
    }
    return;
  }
  if (m.form == Form::packed) {
    if (m.action == Action::copy) {
      unpack(m, nullptr);
      return;
    }
    std::byte* stage0 = offset(scratch_->in.get(t.span_bytes(m.elements)), -t.true_lb);
    unpack(m, stage0);
    std::int64_t pos = 0;
    for (const Segment& s : m.segs) {
      combine(offset(stage0, pos * t.extent), at(s.offset), s.count, m.action);
      pos += s.count;
    }
    return;
  }
  if (m.form != Form::staged) return;
  std::int64_t pos = 0;
  for (const Segment& s : m.segs) {
    std::byte* src = offset(m.buf, pos * t.extent);
    if (m.action == Action::copy)
      std::memcpy(offset(at(s.offset), t.true_lb), offset(src, t.true_lb), static_cast<std::size_t>(s.count * t.size));
    else
      combine(src, at(s.offset), s.count, m.action);
    pos += s.count;
  }
}

// to (+)= from, as the plan's LocalOp says, piece by piece over the two
// runs' segments (which hold the same number of elements).
void MpiExecutor::apply_local(const plan::LocalOp& op) {
  if (!fresh_.empty()) {
    materialize({&op.from, 1});
    materialize({&op.to, 1});
  }
  std::int64_t nf = 0;
  std::int64_t nt = 0;
  gather({&op.from, 1}, from_, nf);
  gather({&op.to, 1}, to_, nt);
  if (nf != nt) throw Error(Errc::internal, "plan's local operation joins runs of different sizes");
  std::size_t fi = 0;
  std::size_t ti = 0;
  std::int64_t fa = 0;
  std::int64_t ta = 0;
  while (fi < from_.size() && ti < to_.size()) {
    const std::int64_t c = std::min(from_[fi].count - fa, to_[ti].count - ta);
    note(Compiled::Kind::local, to_[ti].offset + ta, c, 0, op.action, from_[fi].offset + fa);
    apply_piece(from_[fi].offset + fa, to_[ti].offset + ta, c, op.action);
    fa += c;
    ta += c;
    if (fa == from_[fi].count) {
      ++fi;
      fa = 0;
    }
    if (ta == to_[ti].count) {
      ++ti;
      ta = 0;
    }
  }
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
  } else {
    // to = to (+) from without writing `from`: combine on a copy of it.
    std::byte* tmp = offset(scratch_->in.get(t.span_bytes(count)), -t.true_lb);
    copy_elements(f, tmp, count, t, scratch_->copy);
    combine(tmp, d, count, Action::combine_after);
  }
}

void MpiExecutor::set_initial(const void* init, bool commutative, bool materialize_at_end) {
  init_ = static_cast<const std::byte*>(init);
  commutative_ = commutative;
  materialize_at_end_ = materialize_at_end;
  fresh_.assign(init == nullptr ? 0 : static_cast<std::size_t>(layout_->data_groups() * layout_->blocks_per_group()),
                1);
}

bool MpiExecutor::any_fresh(std::span<const plan::BlockRun> runs) const noexcept {
  for (const plan::BlockRun& r : runs)
    for (std::int64_t id = r.first; id < r.first + r.count; ++id)
      if (static_cast<std::size_t>(id) < fresh_.size() && fresh_[static_cast<std::size_t>(id)] != 0) return true;
  return false;
}

bool MpiExecutor::all_fresh(std::span<const plan::BlockRun> runs) const noexcept {
  for (const plan::BlockRun& r : runs)
    for (std::int64_t id = r.first; id < r.first + r.count; ++id)
      if (static_cast<std::size_t>(id) >= fresh_.size() || fresh_[static_cast<std::size_t>(id)] == 0) return false;
  return true;
}

void MpiExecutor::mark_written(std::span<const plan::BlockRun> runs) noexcept {
  for (const plan::BlockRun& r : runs)
    for (std::int64_t id = r.first; id < r.first + r.count; ++id)
      if (static_cast<std::size_t>(id) < fresh_.size()) fresh_[static_cast<std::size_t>(id)] = 0;
}

void MpiExecutor::materialize(std::span<const plan::BlockRun> runs) {
  for (const plan::BlockRun& r : runs) {
    for (std::int64_t id = r.first; id < r.first + r.count; ++id) {
      const auto i = static_cast<std::size_t>(id);
      if (i >= fresh_.size() || fresh_[i] == 0) continue;
      const Segment s = layout_->block(id);
      note(Compiled::Kind::initial, s.offset, s.count);
      copy_elements(init_at(s.offset), at(s.offset), s.count, cfg_.type, scratch_->copy);
      fresh_[i] = 0;
    }
  }
}

}  // namespace optcoll::mpi
