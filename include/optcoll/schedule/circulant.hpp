// Round-optimal n-block broadcast schedules on a circulant graph
// (Träff 2024, "Optimal Broadcast Schedules in Logarithmic Time", §2).
//
// For p processes, q = ceil(log2 p) and skip[k] = ceil(p / 2^(q-k)) (Alg. 2),
// so skip[0] = 1, skip[1] = 2 (p > 2) and skip[q] = p. In round k of every
// phase, virtual rank r sends to (r + skip[k]) mod p and receives from
// (r - skip[k]) mod p. Each rank's receive and send schedules (q entries,
// the paper's relative block indices) are computed in O(log p) time with no
// communication and no heap allocation.
//
// Ranks are virtual: the root is virtual rank 0, real rank = (v + root) mod p.
// All rank arithmetic is 64-bit: p may be as large as 2^31 - 1, and p + p is
// used internally.
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace optcoll::schedule {

using rank_t = std::int64_t;

inline constexpr rank_t kMaxP = (rank_t{1} << 31) - 1;
inline constexpr int kMaxQ = 31;  // ceil(log2(2^31 - 1))

// Work done by one schedule computation; the verifier checks these against
// the paper's bounds (Lemma 5: at most q-1 descents of the receive-schedule
// search; Theorem 3: a few send-schedule violations, at most 5 for p < 2^31,
// not the paper's 4, see verify.cpp).
struct ScheduleWork {
  int descents = 0;    // "recursive calls" of ALLBLOCKS in the iterative search
  int scans = 0;       // candidate skip indices examined (<= 2q + 2*descents)
  int violations = 0;  // send-schedule entries that needed a neighbour's receive entry
  int fallbacks = 0;   // receive entries the fast path took from the search (see recv_schedule)
};

// The circulant graph of p processes and the schedule computations on it.
// A plain value type (about 570 bytes): build once per p, share freely.
class Circulant {
 public:
  // Throws optcoll::Error(Errc::invalid_p) unless 1 <= p <= kMaxP.
  explicit Circulant(rank_t p);

  rank_t p() const noexcept { return p_; }
  int q() const noexcept { return q_; }
  // skip[k] for 0 <= k <= q; skip(q) == p.
  rank_t skip(int k) const noexcept { return skip_[static_cast<std::size_t>(k)]; }

  // Baseblock b_r (Alg. 3): the smallest skip index of r's canonical skip
  // sequence; b_0 = q. O(q).
  int baseblock(rank_t r) const noexcept;

  // Receive schedule of virtual rank r (Alg. 4-5): out[k] for 0 <= k < q.
  // Exactly one entry is non-negative, the baseblock b (Condition 3); the
  // others are {-1..-q} \ {b-q}. b must be baseblock(r). O(q).
  // Computed from the from-neighbours' send entries (Condition 1, read off
  // r's own walk through Alg. 6); entries where Alg. 6 would need this very
  // receive entry come from the search. Same result as recv_schedule_search.
  void recv_schedule(rank_t r, int b, std::span<int> out) const noexcept;

  // The receive-schedule search of Alg. 4-5 itself. O(q).
  void recv_schedule_search(rank_t r, int b, std::span<int> out) const noexcept;

  // Send schedule of virtual rank r (Alg. 6): out[k] == recv_schedule of
  // (r + skip[k]) mod p at k (Conditions 1-2). b must be baseblock(r). O(q).
  void send_schedule(rank_t r, int b, std::span<int> out) const noexcept;

  // Baseblock, receive and send schedule of virtual rank r in one pass
  // (cheaper than the three calls); returns the baseblock. O(q).
  int schedule(rank_t r, std::span<int> recv, std::span<int> send) const noexcept;
  // The same, counting send violations and receive fallbacks.
  int schedule(rank_t r, std::span<int> recv, std::span<int> send, ScheduleWork& work) const noexcept;
  // The same, with every rank's receive schedule at hand (all_recv: p*q
  // entries, rank-major, e.g. from AllRootsSchedule or a verifier's search):
  // the entries that would need the search read all_recv instead.
  int schedule(rank_t r, std::span<int> recv, std::span<int> send, std::span<const std::int8_t> all_recv,
               ScheduleWork& work) const noexcept;

  // Instrumented variants, for the verifier: the receive variant runs the
  // search (counting descents and scans), the send variant counts violations.
  void recv_schedule(rank_t r, int b, std::span<int> out, ScheduleWork& work) const noexcept;
  void send_schedule(rank_t r, int b, std::span<int> out, ScheduleWork& work) const noexcept;

  // Neighbours of virtual rank r in round k.
  rank_t to(rank_t r, int k) const noexcept { return wrap(r + skip(k)); }
  rank_t from(rank_t r, int k) const noexcept { return wrap(r - skip(k) + p_); }

 private:
  friend struct CirculantImpl;
  rank_t wrap(rank_t v) const noexcept { return v >= p_ ? v - p_ : v; }

  rank_t p_;
  int q_;
  std::array<rank_t, kMaxQ + 2> skip_{};  // skip_[q+1] is a guard (> 2p)
  // excess_[j] = skip[0] + ... + skip[j-1] - skip[j], in [-1, j-1) (Lemma 1)
  std::array<rank_t, kMaxQ + 1> excess_{};
  std::array<std::int8_t, kMaxQ + 1> base_below_skip_{};  // [j] = baseblock(skip[j] - 1), 1 <= j <= q
  rank_t prefix(int j) const noexcept { return excess_[static_cast<std::size_t>(j)] + skip(j); }
};

// One rank's complete schedule: a value type of O(q) size.
struct RankSchedule {
  rank_t vrank = 0;
  int baseblock = 0;
  std::array<int, kMaxQ> recv{};
  std::array<int, kMaxQ> send{};
};

RankSchedule make_rank_schedule(const Circulant& g, rank_t vrank);

}  // namespace optcoll::schedule
