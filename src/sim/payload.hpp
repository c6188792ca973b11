// Symbolic payloads of the simulator (internal). A tracker holds, for every
// rank and every tracked block ("slot"), what that block of the rank's
// working buffer stands for, and checks each transfer:
//   snapshot(from, slot)      -> the value leaving `from` this round (taken
//                                before any receive of the round is applied)
//   apply(to, slot, v, a)     -> what `to` does with it (copy or combine)
//   complete(rank, slot, lo, hi) -> whether the block is the final result:
//                                the contributions of ranks [lo, hi) (copy
//                                collectives: the source data)
// Each returns an error text, empty when fine.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "optcoll/plan/plan.hpp"

namespace optcoll::sim::detail {

using plan::Action;
using plan::rank_t;

// Copy collectives: does the rank hold the source data of this block? One
// bit per rank and slot.
class HeldTracker {
 public:
  struct Value {
    bool held = false;
  };
  static double entry_bytes(rank_t) { return 0.125; }
  HeldTracker(rank_t p, std::int64_t slots)
      : slots_(slots), bits_(static_cast<std::size_t>((p * slots + 63) / 64), 0) {}
  void new_round() {}
  void set_initial(rank_t r, std::int64_t s) { set(idx(r, s)); }
  std::string snapshot(rank_t from, std::int64_t s, Value& v) const {
    v.held = get(idx(from, s));
    return v.held ? std::string() : "sends a block it does not hold";
  }
  std::string apply(rank_t to, std::int64_t s, const Value& v, Action a) {
    if (a != Action::copy) return "combines in a copy collective";
    if (v.held) set(idx(to, s));
    return {};
  }
  bool complete(rank_t r, std::int64_t s, rank_t, rank_t) const { return get(idx(r, s)); }

 private:
  std::size_t idx(rank_t r, std::int64_t s) const { return static_cast<std::size_t>(r * slots_ + s); }
  bool get(std::size_t i) const { return ((bits_[i / 64] >> (i % 64)) & 1) != 0; }
  void set(std::size_t i) { bits_[i / 64] |= std::uint64_t{1} << (i % 64); }
  std::int64_t slots_;
  std::vector<std::uint64_t> bits_;
};

// Commutative reductions, exact: the set of contributing ranks as a bitset.
class SetTracker {
 public:
  struct Value {
    std::size_t at = 0;  // offset of the snapshot in the round buffer
  };
  static double entry_bytes(rank_t p) { return static_cast<double>((p + 63) / 64 * 8); }
  SetTracker(rank_t p, std::int64_t slots)
      : p_(p),
        words_(static_cast<std::size_t>((p + 63) / 64)),
        slots_(slots),
        bits_(static_cast<std::size_t>(p * slots) * words_, 0) {}
  void new_round() { round_.clear(); }
  void set_initial(rank_t r, std::int64_t s) { at(r, s)[r / 64] |= std::uint64_t{1} << (r % 64); }
  std::string snapshot(rank_t from, std::int64_t s, Value& v) {
    v.at = round_.size();
    const std::uint64_t* src = at(from, s);
    round_.insert(round_.end(), src, src + words_);
    return {};
  }
  std::string apply(rank_t to, std::int64_t s, const Value& v, Action a) {
    std::uint64_t* own = at(to, s);
    const std::uint64_t* in = round_.data() + v.at;
    if (a == Action::copy) {
      std::copy(in, in + words_, own);
      return {};
    }
    for (std::size_t w = 0; w < words_; ++w) {
      if ((own[w] & in[w]) != 0) {
        const int bit = __builtin_ctzll(own[w] & in[w]);
        return "counts the contribution of rank " + std::to_string(w * 64 + static_cast<std::size_t>(bit)) + " twice";
      }
      own[w] |= in[w];
    }
    return {};
  }
  // Exactly the ranks [lo, hi).
  bool complete(rank_t r, std::int64_t s, rank_t lo, rank_t hi) const {
    const std::uint64_t* b = bits_.data() + idx(r, s);
    for (rank_t i = 0; i < p_; ++i)
      if ((((b[i / 64] >> (i % 64)) & 1) != 0) != (i >= lo && i < hi)) return false;
    return true;
  }

 private:
  std::size_t idx(rank_t r, std::int64_t s) const { return static_cast<std::size_t>(r * slots_ + s) * words_; }
  std::uint64_t* at(rank_t r, std::int64_t s) { return bits_.data() + idx(r, s); }
  rank_t p_;
  std::size_t words_;
  std::int64_t slots_;
  std::vector<std::uint64_t> bits_;
  std::vector<std::uint64_t> round_;
};

// Commutative reductions for large p: a contribution count and the sum of
// per-rank 64-bit hashes. A duplicate plus a missing contribution would have
// to collide in the hash sum to go unnoticed.
class FingerprintTracker {
 public:
  struct Value {
    std::int64_t count = 0;
    std::uint64_t hash = 0;
  };
  FingerprintTracker(rank_t p, std::int64_t slots)
      : p_(p), slots_(slots), v_(static_cast<std::size_t>(p * slots)), prefix_(static_cast<std::size_t>(p) + 1, 0) {
    for (rank_t r = 0; r < p; ++r)
      prefix_[static_cast<std::size_t>(r) + 1] = prefix_[static_cast<std::size_t>(r)] + hash(r);
  }
  static std::uint64_t hash(rank_t r) {
    std::uint64_t z = static_cast<std::uint64_t>(r) + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  static double entry_bytes(rank_t) { return sizeof(Value); }
  void new_round() {}
  void set_initial(rank_t r, std::int64_t s) { v_[idx(r, s)] = {1, hash(r)}; }
  std::string snapshot(rank_t from, std::int64_t s, Value& v) const {
    v = v_[idx(from, s)];
    return {};
  }
  std::string apply(rank_t to, std::int64_t s, const Value& in, Action a) {
    Value& own = v_[idx(to, s)];
    if (a == Action::copy) {
      own = in;
      return {};
    }
    own.count += in.count;
    own.hash += in.hash;
    return own.count > p_ ? "holds more than p contributions" : std::string();
  }
  bool complete(rank_t r, std::int64_t s, rank_t lo, rank_t hi) const {
    const Value& v = v_[idx(r, s)];
    return v.count == hi - lo &&
           v.hash == prefix_[static_cast<std::size_t>(hi)] - prefix_[static_cast<std::size_t>(lo)];
  }

 private:
  std::size_t idx(rank_t r, std::int64_t s) const { return static_cast<std::size_t>(r * slots_ + s); }
  rank_t p_;
  std::int64_t slots_;
  std::vector<Value> v_;
  std::vector<std::uint64_t> prefix_;  // sums of hash(0..r-1)
};

// Non-commutative reductions: the rank interval [lo, hi) a partial covers.
class IntervalTracker {
 public:
  struct Value {
    rank_t lo = 0;
    rank_t hi = 0;
  };
  IntervalTracker(rank_t p, std::int64_t slots) : p_(p), slots_(slots), v_(static_cast<std::size_t>(p * slots)) {}
  static double entry_bytes(rank_t) { return sizeof(Value); }
  void new_round() {}
  void set_initial(rank_t r, std::int64_t s) { v_[idx(r, s)] = {r, r + 1}; }
  std::string snapshot(rank_t from, std::int64_t s, Value& v) const {
    v = v_[idx(from, s)];
    return {};
  }
  std::string apply(rank_t to, std::int64_t s, const Value& in, Action a) {
    Value& own = v_[idx(to, s)];
    if (a == Action::copy || own.lo == own.hi) {  // [x, x): nothing yet
      own = in;
    } else if (in.lo == in.hi) {
    } else if (a == Action::combine_before && in.hi == own.lo) {
      own.lo = in.lo;
    } else if (a == Action::combine_after && own.hi == in.lo) {
      own.hi = in.hi;
    } else {
      return "combines ranks [" + std::to_string(in.lo) + ", " + std::to_string(in.hi) + ") " +
             (a == Action::combine_before ? "before" : "after") + " [" + std::to_string(own.lo) + ", " +
             std::to_string(own.hi) + "), out of rank order";
    }
    return {};
  }
  bool complete(rank_t r, std::int64_t s, rank_t lo, rank_t hi) const {
    const Value& v = v_[idx(r, s)];
    return v.lo == lo && v.hi == hi;
  }

 private:
  std::size_t idx(rank_t r, std::int64_t s) const { return static_cast<std::size_t>(r * slots_ + s); }
  rank_t p_;
  std::int64_t slots_;
  std::vector<Value> v_;
};

// A reduction tracker plus the expression each block stands for: a 64-bit
// hash of its tree, a leaf per contributing rank and a node per combination
// with its operands in order (0: nothing yet). Ranks holding the same hash
// applied the same operations to the same operands in the same order and
// association (up to a hash collision), so they hold the same bits for any
// deterministic operator; the plans that combine in an order depending on
// the rank (AlgorithmInfo::needs_exact) end with different hashes.
template <class Inner>
class ExpressionTracker {
 public:
  struct Value {
    typename Inner::Value inner{};
    std::uint64_t expr = 0;
  };
  static double entry_bytes(rank_t p) { return Inner::entry_bytes(p) + sizeof(std::uint64_t); }
  ExpressionTracker(rank_t p, std::int64_t slots)
      : inner_(p, slots), slots_(slots), expr_(static_cast<std::size_t>(p * slots), 0) {}
  void new_round() { inner_.new_round(); }
  void set_initial(rank_t r, std::int64_t s) {
    inner_.set_initial(r, s);
    expr_[idx(r, s)] = mix(static_cast<std::uint64_t>(r) ^ 0x6a09e667f3bcc909ULL) | 1;
  }
  std::string snapshot(rank_t from, std::int64_t s, Value& v) {
    v.expr = expr_[idx(from, s)];
    return inner_.snapshot(from, s, v.inner);
  }
  std::string apply(rank_t to, std::int64_t s, const Value& v, Action a) {
    std::uint64_t& own = expr_[idx(to, s)];
    if (a == Action::copy)
      own = v.expr;
    else
      own = a == Action::combine_before ? node(v.expr, own) : node(own, v.expr);
    return inner_.apply(to, s, v.inner, a);
  }
  bool complete(rank_t r, std::int64_t s, rank_t lo, rank_t hi) const { return inner_.complete(r, s, lo, hi); }
  std::uint64_t expression(rank_t r, std::int64_t s) const { return expr_[idx(r, s)]; }

 private:
  static std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Ordered: node(a, b) != node(b, a); combining with nothing is no operation.
  static std::uint64_t node(std::uint64_t left, std::uint64_t right) {
    if (left == 0 || right == 0) return left | right;
    return mix(left * 0x9e3779b97f4a7c15ULL + ((right << 29) | (right >> 35)) + 0x3c6ef372fe94f82bULL) | 1;
  }
  std::size_t idx(rank_t r, std::int64_t s) const { return static_cast<std::size_t>(r * slots_ + s); }
  Inner inner_;
  std::int64_t slots_;
  std::vector<std::uint64_t> expr_;
};

// Personalized exchanges (alltoall, alltoallv, many_to_many): which piece of
// which message a block holds, as a token ((src * p + dst) * c + piece), -1
// for nothing. Blocks travel to other block ids (a send piece becomes a
// receive piece), so every block is tracked; the send pieces, slots
// [read_only_lo, read_only_hi), are the user's send buffer: never written.
class TokenTracker {
 public:
  struct Value {
    std::int64_t token = -1;
  };
  static double entry_bytes(rank_t) { return sizeof(std::int64_t); }
  TokenTracker(rank_t, std::int64_t slots) : slots_(slots) {}
  void new_round() {}
  void resize(rank_t p) { v_.assign(static_cast<std::size_t>(p * slots_), -1); }
  void read_only(std::int64_t lo, std::int64_t hi) {
    lo_ = lo;
    hi_ = hi;
  }
  void set_initial(rank_t, std::int64_t) {}
  void put(rank_t r, std::int64_t s, std::int64_t token) { v_[idx(r, s)] = token; }
  std::int64_t token(rank_t r, std::int64_t s) const { return v_[idx(r, s)]; }
  std::string snapshot(rank_t from, std::int64_t s, Value& v) const {
    v.token = v_[idx(from, s)];
    return v.token >= 0 ? std::string() : "sends a block it does not hold";
  }
  std::string apply(rank_t to, std::int64_t s, const Value& v, Action a) {
    if (a != Action::copy) return "combines in a copy collective";
    if (s >= lo_ && s < hi_) return "writes into its send buffer";
    v_[idx(to, s)] = v.token;
    return {};
  }
  bool complete(rank_t, std::int64_t, rank_t, rank_t) const { return true; }

 private:
  std::size_t idx(rank_t r, std::int64_t s) const { return static_cast<std::size_t>(r * slots_ + s); }
  std::int64_t slots_;
  std::int64_t lo_ = 0, hi_ = 0;
  std::vector<std::int64_t> v_;
};

}  // namespace optcoll::sim::detail
