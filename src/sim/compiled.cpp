// Running compiled plans over p virtual ranks (optcoll/sim/compiled.hpp).
#include "optcoll/sim/compiled.hpp"

#include <algorithm>

namespace optcoll::sim {
namespace {

using plan::Action;
using plan::Segment;
using Kind = plan::Compiled::Kind;
using Entry = plan::Compiled::Entry;

constexpr std::uint64_t kUnset = 0x6f7074636f6c6c21;  // no expression: never written

std::uint64_t mix(std::uint64_t x) noexcept {  // splitmix64's finalizer
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9;
  x ^= x >> 27;
  x *= 0x94d049bb133111eb;
  return x ^ (x >> 31);
}

struct Rank {
  const plan::Compiled* c = nullptr;
  std::vector<std::uint64_t> buf;  // extent elements
  const std::vector<std::uint64_t>* init = nullptr;
  std::size_t next = 0;             // the next entry
  const Entry* in = nullptr;        // this round's receive
  const Entry* out = nullptr;       // this round's send
  std::vector<std::uint64_t> sent;  // the send's values at its post
};

class Runner {
 public:
  Runner(std::span<const plan::Compiled> ranks, std::span<const std::vector<std::uint64_t>> initial, bool commutative)
      : commutative_(commutative), ranks_(ranks.size()) {
    res_.rounds = ranks.empty() ? 0 : ranks[0].rounds();
    for (std::size_t r = 0; r < ranks.size(); ++r) {
      Rank& k = ranks_[r];
      k.c = &ranks[r];
      k.init = &initial[r];
      k.buf.assign(static_cast<std::size_t>(k.c->extent), kUnset);
      if (static_cast<std::int64_t>(initial[r].size()) != k.c->data_extent)
        error(r, "initial content of the wrong size");
      else if (!k.c->with_initial)
        std::copy(initial[r].begin(), initial[r].end(), k.buf.begin());
      if (k.c->rounds() != res_.rounds) error(r, "has another number of rounds than rank 0");
    }
  }

  CompiledRun run() {
    for (std::int64_t i = 0; i < res_.rounds && res_.ok(); ++i) {
      for (std::size_t r = 0; r < ranks_.size(); ++r) post(r, i);
      for (std::size_t r = 0; r < ranks_.size() && res_.ok(); ++r) receive(r, i);
      for (std::size_t r = 0; r < ranks_.size(); ++r) {
        Rank& k = ranks_[r];
        for (const std::size_t end = k.c->round_end[static_cast<std::size_t>(i)]; k.next < end; ++k.next)
          apply(r, k.c->entries[k.next]);
      }
    }
    for (std::size_t r = 0; r < ranks_.size() && res_.ok(); ++r) {
      Rank& k = ranks_[r];
      for (; k.next < k.c->entries.size(); ++k.next) apply(r, k.c->entries[k.next]);
      res_.buffers.emplace_back(k.buf.begin(), k.buf.begin() + std::min<std::int64_t>(k.c->data_extent, k.c->extent));
    }
    return std::move(res_);
  }

 private:
  void error(std::size_t r, const std::string& e) {
    if (res_.errors.size() < 8) res_.errors.push_back("rank " + std::to_string(r) + " " + e);
  }
  bool inside(const Rank& k, const Segment& s, bool initial) const {
    const std::int64_t end = initial ? k.c->data_extent : k.c->extent;
    return s.offset >= 0 && s.count >= 0 && s.offset + s.count <= end;
  }

  // Round i's posts of rank r: copies of initial content, the receive, the
  // send (its values now).
  void post(std::size_t r, std::int64_t i) {
    Rank& k = ranks_[r];
    k.in = k.out = nullptr;
    for (const std::size_t end = k.c->apply[static_cast<std::size_t>(i)]; k.next < end; ++k.next) {
      const Entry& e = k.c->entries[k.next];
      if (!plan::Compiled::is_message(e.kind)) {
        apply(r, e);
        continue;
      }
      (plan::Compiled::is_send(e.kind) ? k.out : k.in) = &e;
      if (!plan::Compiled::is_send(e.kind)) continue;
      const bool initial = e.kind == Kind::send_initial;
      k.sent.clear();
      Segment one;
      for (const Segment& s : k.c->segments_of(e, one)) {
        if (!inside(k, s, initial)) return error(r, "sends elements outside its buffer");
        const auto* from = initial ? k.init->data() : k.buf.data();
        k.sent.insert(k.sent.end(), from + s.offset, from + s.offset + s.count);
      }
    }
    if (k.in != nullptr && k.out != nullptr && k.in->kind != Kind::recv_combine && k.out->kind == Kind::send) {
      Segment a, b;
      for (const Segment& x : k.c->segments_of(*k.in, a))
        for (const Segment& y : k.c->segments_of(*k.out, b))
          if (x.offset < y.offset + y.count && y.offset < x.offset + x.count)
            return error(r, "receives into elements it sends in round " + std::to_string(i));
    }
  }

  // Round i's receive of rank r, and the check that its peer sent it.
  void receive(std::size_t r, std::int64_t i) {
    Rank& k = ranks_[r];
    const std::string round = " in round " + std::to_string(i);
    if (k.out != nullptr) {
      const auto t = static_cast<std::size_t>(k.out->peer);
      if (t >= ranks_.size() || ranks_[t].in == nullptr || ranks_[t].in->peer != static_cast<plan::rank_t>(r))
        return error(r, "sends to " + std::to_string(k.out->peer) + ", which does not receive from it" + round);
      ++res_.messages;
      res_.total_elements += k.out->count;
    }
    if (k.in == nullptr) return;
    const Entry& e = *k.in;
    const auto f = static_cast<std::size_t>(e.peer);
    if (f >= ranks_.size() || ranks_[f].out == nullptr || ranks_[f].out->peer != static_cast<plan::rank_t>(r))
      return error(r, "waits for a message from " + std::to_string(e.peer) + " that is never sent" + round);
    const std::vector<std::uint64_t>& v = ranks_[f].sent;
    if (static_cast<std::int64_t>(v.size()) != e.count)
      return error(r, "receives " + std::to_string(e.count) + " elements, " + std::to_string(e.peer) + " sends " +
                          std::to_string(v.size()) + round);
    std::size_t j = 0;
    Segment one;
    for (const Segment& s : k.c->segments_of(e, one)) {
      if (!inside(k, s, false)) return error(r, "receives into elements outside its buffer");
      for (std::int64_t x = s.offset; x < s.offset + s.count; ++x, ++j) {
        std::uint64_t& own = k.buf[static_cast<std::size_t>(x)];
        if (e.kind == Kind::recv)
          own = v[j];
        else if (e.kind == Kind::recv_initial)
          own = combine_values((*k.init)[static_cast<std::size_t>(x)], v[j], commutative_);
        else
          own = e.action == Action::combine_before ? combine_values(v[j], own, commutative_)
                                                   : combine_values(own, v[j], commutative_);
      }
    }
  }

  // An initial copy or a local piece.
  void apply(std::size_t r, const Entry& e) {
    Rank& k = ranks_[r];
    const bool initial = e.kind == Kind::initial;
    if (!inside(k, {e.at, e.count}, false) || !inside(k, {initial ? e.at : e.from, e.count}, initial))
      return error(r, "copies or combines elements outside its buffer");
    for (std::int64_t x = 0; x < e.count; ++x) {
      std::uint64_t& own = k.buf[static_cast<std::size_t>(e.at + x)];
      if (initial) {
        own = (*k.init)[static_cast<std::size_t>(e.at + x)];
        continue;
      }
      const std::uint64_t from = k.buf[static_cast<std::size_t>(e.from + x)];
      if (e.action == Action::copy)
        own = from;
      else
        own = e.action == Action::combine_before ? combine_values(from, own, commutative_)
                                                 : combine_values(own, from, commutative_);
    }
  }

  bool commutative_;
  std::vector<Rank> ranks_;
  CompiledRun res_;
};

}  // namespace

std::uint64_t combine_values(std::uint64_t a, std::uint64_t b, bool commutative) noexcept {
  if (commutative && b < a) std::swap(a, b);
  return mix(mix(a) + 0x9e3779b97f4a7c15 * (b | 1) + b);
}

CompiledRun run_compiled(std::span<const plan::Compiled> ranks, std::span<const std::vector<std::uint64_t>> initial,
                         bool commutative) {
  CompiledRun bad;
  if (initial.size() != ranks.size()) {
    bad.errors.push_back("one initial content per rank is needed");
    return bad;
  }
  return Runner(ranks, initial, commutative).run();
}

}  // namespace optcoll::sim
