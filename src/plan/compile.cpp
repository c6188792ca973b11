// Compiling one rank's plan (optcoll/plan/compiled.hpp): a walk of the plan
// with an executor that writes entries instead of moving data, and keeps the
// untouched-block bookkeeping of the initial content.
#include <algorithm>
#include <atomic>
#include <climits>
#include <vector>

#include "optcoll/error.hpp"
#include "optcoll/plan/compiled.hpp"
#include "optcoll/plan/executor.hpp"

namespace optcoll::plan {
namespace {

using Kind = Compiled::Kind;

std::uint64_t next_id() noexcept {
  static std::atomic<std::uint64_t> last{0};
  return last.fetch_add(1, std::memory_order_relaxed) + 1;
}

class Compiler final : public Executor {
 public:
  Compiler(const BlockLayout& layout, const CompileOptions& o, Compiled& c) : layout_(layout), c_(c) {
    c.id = 0;           // until finished (a failed compile leaves none)
    c.entries.clear();  // keeps the capacity: recompiling allocates nothing
    c.segments.clear();
    c.apply.clear();
    c.round_end.clear();
    c.largest = 0;
    c.data_extent = layout.data_extent();
    c.extent = layout.extent();
    c.with_initial = o.with_initial;
    c.commutative = o.commutative;
    c.complete = o.complete;
    c.final_messages = o.final_messages;
    c.in_flight = o.in_flight;
    c.boundaries.assign(o.boundaries.begin(), o.boundaries.end());
    if (o.with_initial) fresh_.assign(static_cast<std::size_t>(layout.data_groups() * layout.blocks_per_group()), 1);
  }

  void send(rank_t to, std::span<const BlockRun> runs) override {
    if (sent_) throw Error(Errc::internal, "plan posts two sends in one round");
    sent_ = true;
    if (gather(runs) == 0) return;
    if (first_touch_) {
      // This round's receive (posted first) lands straight in blocks that
      // were untouched when the round began, and the plan sends some of
      // them: the send must carry their content before the round, the
      // initial content, not the buffer the receive is writing (the
      // doubling scan sends its partial while combining into it).
      const Segment r = first_touch_seg_;
      const auto overlaps = [&](const Segment& s) {
        return s.offset < r.offset + r.count && r.offset < s.offset + s.count;
      };
      if (std::any_of(segs_.begin(), segs_.end(), overlaps)) {
        const Segment& s = segs_[0];
        if (segs_.size() != 1 || s.offset < r.offset || s.offset + s.count > r.offset + r.count)
          throw Error(Errc::internal, "plan sends part of a block it first combines into in the same round");
        return message(Kind::send_initial, to, Action::copy);
      }
    }
    if (!fresh_.empty() && any_fresh(runs)) {
      if (all_fresh(runs) && segs_.size() == 1) return message(Kind::send_initial, to, Action::copy);
      materialize(runs);
    }
    message(Kind::send, to, Action::copy);
  }

  void recv(rank_t from, std::span<const BlockRun> runs, Action action) override {
    if (received_) throw Error(Errc::internal, "plan posts two receives in one round");
    received_ = true;
    if (gather(runs) == 0) return;
    if (!fresh_.empty() && any_fresh(runs)) {
      if (action == Action::copy) {
        mark_written(runs);  // the message overwrites every element
      } else if (segs_.size() == 1 && all_fresh(runs) && (action == Action::combine_after || c_.commutative)) {
        // own = initial (+) in, computed in the buffer after the data arrives.
        mark_written(runs);
        first_touch_ = true;
        first_touch_seg_ = segs_[0];
        return message(Kind::recv_initial, from, action);
      } else {
        materialize(runs);
      }
    }
    message(action == Action::copy ? Kind::recv : Kind::recv_combine, from, action);
  }

  void local(const LocalOp& op) override { locals_.push_back(op); }

  void wait() override {
    c_.apply.push_back(c_.entries.size());
    for (const LocalOp& op : locals_) local_pieces(op);
    locals_.clear();
    sent_ = received_ = first_touch_ = false;
    c_.round_end.push_back(c_.entries.size());
  }

  // After the last round: the blocks still untouched, when the buffer must
  // end complete.
  void finish() {
    if (!c_.complete || fresh_.empty()) return;
    const BlockRun all{0, static_cast<std::int64_t>(fresh_.size())};
    materialize({&all, 1});
  }

 private:
  // segs_ = the element segments of runs (see compiled.hpp); returns their
  // elements.
  std::int64_t gather(std::span<const BlockRun> runs) {
    segs_.clear();
    std::int64_t elements = 0;
    const auto add = [&](Segment s) {
      if (s.count == 0) return;
      if (!segs_.empty() && segs_.back().offset + segs_.back().count == s.offset && !is_boundary(s.offset))
        segs_.back().count += s.count;
      else
        segs_.push_back(s);
      elements += s.count;
    };
    const auto split_at = [&](Segment& s, std::int64_t b) {
      if (s.offset < b && s.offset + s.count > b) {
        add({s.offset, b - s.offset});
        s = {b, s.offset + s.count - b};
      }
    };
    for (const BlockRun& r : runs) {
      if (!layout_.valid(r)) throw Error(Errc::internal, "plan names an invalid block run");
      Segment s = layout_.run(r);
      for (const std::int64_t b : c_.boundaries) split_at(s, b);
      split_at(s, c_.data_extent);
      add(s);
    }
    return elements;
  }
  bool is_boundary(std::int64_t e) const noexcept {
    return e == c_.data_extent || std::find(c_.boundaries.begin(), c_.boundaries.end(), e) != c_.boundaries.end();
  }

  // The message of segs_.
  void message(Kind kind, rank_t peer, Action action) {
    if (peer < 0 || peer > INT_MAX) throw Error(Errc::internal, "plan names a rank outside the communicator");
    Compiled::Entry e{kind, action, 1, peer, segs_[0].offset, 0, 0};
    for (const Segment& s : segs_) e.count += s.count;
    if (segs_.size() > 1) {
      e.segs = static_cast<std::int32_t>(segs_.size());
      e.from = static_cast<std::int64_t>(c_.segments.size());
      c_.segments.insert(c_.segments.end(), segs_.begin(), segs_.end());
    }
    c_.entries.push_back(e);
    c_.largest = std::max(c_.largest, e.count);
  }

  // to (action)= from, piece by piece over the two runs' segments (which
  // hold the same number of elements).
  void local_pieces(const LocalOp& op) {
    if (!fresh_.empty()) {
      materialize({&op.from, 1});
      materialize({&op.to, 1});
    }
    const std::int64_t nf = gather({&op.from, 1});
    from_.assign(segs_.begin(), segs_.end());
    const std::int64_t nt = gather({&op.to, 1});
    if (nf != nt) throw Error(Errc::internal, "plan's local operation joins runs of different sizes");
    std::size_t fi = 0, ti = 0;
    std::int64_t fa = 0, ta = 0;
    while (fi < from_.size() && ti < segs_.size()) {
      const std::int64_t n = std::min(from_[fi].count - fa, segs_[ti].count - ta);
      c_.entries.push_back({Kind::local, op.action, 1, 0, segs_[ti].offset + ta, from_[fi].offset + fa, n});
      fa += n;
      ta += n;
      if (fa == from_[fi].count) ++fi, fa = 0;
      if (ta == segs_[ti].count) ++ti, ta = 0;
    }
  }

  // Untouched-block bookkeeping: whether some / all data blocks of runs are
  // still only in the initial content, and copying them in.
  bool any_fresh(std::span<const BlockRun> runs) const noexcept {
    for (const BlockRun& r : runs)
      for (std::int64_t id = r.first; id < r.first + r.count; ++id)
        if (static_cast<std::size_t>(id) < fresh_.size() && fresh_[static_cast<std::size_t>(id)] != 0) return true;
    return false;
  }
  bool all_fresh(std::span<const BlockRun> runs) const noexcept {
    for (const BlockRun& r : runs)
      for (std::int64_t id = r.first; id < r.first + r.count; ++id)
        if (static_cast<std::size_t>(id) >= fresh_.size() || fresh_[static_cast<std::size_t>(id)] == 0) return false;
    return true;
  }
  void mark_written(std::span<const BlockRun> runs) noexcept {
    for (const BlockRun& r : runs)
      for (std::int64_t id = r.first; id < r.first + r.count; ++id)
        if (static_cast<std::size_t>(id) < fresh_.size()) fresh_[static_cast<std::size_t>(id)] = 0;
  }
  // Copies adjacent in the buffer become one (blocks of a run are: one
  // copy of the run instead of one per block).
  void materialize(std::span<const BlockRun> runs) {
    const std::size_t first = c_.entries.size();
    for (const BlockRun& r : runs)
      for (std::int64_t id = r.first; id < r.first + r.count; ++id) {
        const auto i = static_cast<std::size_t>(id);
        if (i >= fresh_.size() || fresh_[i] == 0) continue;
        fresh_[i] = 0;
        const Segment s = layout_.block(id);
        if (s.count == 0) continue;
        Compiled::Entry* last = c_.entries.size() > first ? &c_.entries.back() : nullptr;
        if (last != nullptr && last->at + last->count == s.offset && !is_boundary(s.offset))
          last->count += s.count;
        else
          c_.entries.push_back({Kind::initial, Action::copy, 1, 0, s.offset, 0, s.count});
      }
  }

  const BlockLayout& layout_;
  Compiled& c_;
  std::vector<std::uint8_t> fresh_;  // per data block: 1 while its content is only the initial content
  std::vector<Segment> segs_, from_;
  std::vector<LocalOp> locals_;
  bool sent_ = false, received_ = false;
  bool first_touch_ = false;  // this round's receive is a recv_initial, into first_touch_seg_
  Segment first_touch_seg_;
};

// Compiled::independent for c's entries. The last round's steps and the
// end's copies are not checked: they run after every message, in flight or
// not.
bool rounds_independent(const Compiled& c) {
  if (c.rounds() < 2) return false;
  thread_local std::vector<Segment> writes, reads;  // their capacity stays: a recompile allocates nothing
  writes.clear();
  reads.clear();
  const std::size_t after = c.apply.back();
  for (std::size_t k = 0; k < after; ++k) {
    const Compiled::Entry& e = c.entries[k];
    if (e.segs != 1) return false;
    switch (e.kind) {
      case Kind::send:
        reads.push_back({e.at, e.count});
        break;
      case Kind::send_initial:  // reads the initial content, which nothing writes
        break;
      case Kind::recv:
        writes.push_back({e.at, e.count});
        break;
      case Kind::local:
        if (e.action != Action::copy) return false;
        reads.push_back({e.from, e.count});
        writes.push_back({e.at, e.count});
        break;
      default:
        return false;
    }
  }
  const auto by_offset = [](const Segment& a, const Segment& b) { return a.offset < b.offset; };
  std::sort(writes.begin(), writes.end(), by_offset);
  for (std::size_t k = 1; k < writes.size(); ++k)
    if (writes[k - 1].offset + writes[k - 1].count > writes[k].offset) return false;
  // The first write ending after a read starts is the only one that can
  // overlap it (the writes are disjoint and sorted).
  for (const Segment& r : reads) {
    const auto w = std::upper_bound(writes.begin(), writes.end(), r.offset,
                                    [](std::int64_t at, const Segment& s) { return at < s.offset + s.count; });
    if (w != writes.end() && w->offset < r.offset + r.count) return false;
  }
  return true;
}

}  // namespace

void compile(const RankPlan& plan, const CompileOptions& options, Compiled& c) {
  Compiler compiler(plan.layout(), options, c);
  run(plan, compiler);
  compiler.finish();
  c.independent = options.final_messages && rounds_independent(c);
  c.id = next_id();
}

void compile_exchange(rank_t to, Segment send, rank_t from, Segment recv, std::int64_t extent, Compiled& c) {
  const auto inside = [extent](const Segment& g) {
    return g.offset >= 0 && g.count >= 0 && g.offset + g.count <= extent;
  };
  if (!inside(send) || !inside(recv)) throw Error(Errc::internal, "compile_exchange: a message leaves the buffer");
  const bool sends = to >= 0 && send.count > 0, receives = from >= 0 && recv.count > 0;
  if (sends && receives && send.offset < recv.offset + recv.count && recv.offset < send.offset + send.count)
    throw Error(Errc::internal, "compile_exchange: the receive overwrites the send");
  c.id = 0;
  c.entries.clear();
  c.segments.clear();
  c.apply.clear();
  c.round_end.clear();
  c.boundaries.clear();
  c.data_extent = c.extent = extent;
  c.independent = c.with_initial = c.final_messages = false;
  c.in_flight = 0;
  c.commutative = c.complete = true;
  // A round posts its receive first, then its send (Compiled::apply).
  if (receives) c.entries.push_back({.kind = Kind::recv, .peer = from, .at = recv.offset, .count = recv.count});
  if (sends) c.entries.push_back({.kind = Kind::send, .peer = to, .at = send.offset, .count = send.count});
  c.largest = std::max(sends ? send.count : 0, receives ? recv.count : 0);
  c.apply.push_back(c.entries.size());
  c.round_end.push_back(c.entries.size());
  c.id = next_id();
}

Compiled compile(const RankPlan& plan, const CompileOptions& options) {
  Compiled c;
  compile(plan, options, c);
  return c;
}

}  // namespace optcoll::plan
