// Schedule computations of Träff 2024 §2.
//
// Two ways to the receive schedule, one answer:
//
// 1. The search (Alg. 4-5), `search_impl`. Processor r is searched as
//    R = p + r so that every intermediate processor r'_k is positive and no
//    modulo is needed (Observation 2). For k = 0, 1, ..., q-1 it finds r'_k
//    with R - skip[k+1] <= r'_k <= R - skip[k], r'_0 > r'_1 > ..., reached by
//    a canonical skip sequence over the skip indices not yet used; the
//    smallest index of that sequence becomes recvblock[k] and is removed
//    (Lemma 4). The paper's doubly linked list of remaining indices is a
//    bitmask, its recursion an explicit stack of partial sums, and its
//    by-value argument s a single "last accepted point" (equivalent: every
//    point a deeper frame accepts exceeds every candidate left in the
//    shallower frames). Phase 1 (k = 0, where s never binds) is the greedy
//    descent towards R - 1 in a loop of its own; the rest is the general loop.
//
// 2. The fast path, `walk` (+ `recv_odd_entry` for a few entries).
//    Condition 1 says recvblock[k]_r = sendblock[k]_f, f = (r - skip[k]) mod
//    p, and Alg. 6 computes sendblock[k]_f from f's walk through the levels
//    q-1..k, except at its "violations". The walks of all q from-neighbours
//    are read off r's own walk, in O(1) per k in the common case:
//
//    Alg. 6's state (r', e, c) changes only through the lower/upper decision
//    at each level (lower: e = min(e, skip[j]); upper: r' -= skip[j],
//    e -= skip[j], c = j - q), and x's upper levels are its greedy
//    decomposition into skips. Let U be r's upper levels.
//    (A) k in U: f = r - skip[k] takes r's decisions above k (every remainder
//        there is at least skip[k]) and is in the lower part at k with
//        r'_f + skip[k] = r'_r < e_r: never a violation; the block is r's c
//        before level k, or the baseblock when U has nothing above k (f is
//        then r's remainder below k, with r's baseblock, or f = 0, the root,
//        which sends block k = b_r).
//    (B) k not in U: let j1 be the lowest level of U above k (j1 = q if none,
//        with r' = p + r and e = p: then r < skip[k], f = r - skip[k] + p).
//        f takes r's decisions above j1, the lower part at j1 (the borrow),
//        and continues from r' = r'_r(j1) - skip[k], e = min(e_r(j1),
//        skip[j1]). It stays in the upper part at every level of [k, j1) iff
//        r' >= skip[k] + ... + skip[j1-1] (monotone in the level), i.e. iff
//        r'_r(k) >= excess[j1] - excess[k] with excess[j] = skip[0] + ... +
//        skip[j-1] - skip[j] (in [-1, j-1), Lemma 1). Strictly above, f
//        reaches level k with r' > skip[k]: block k - q, no violation. The
//        other entries are odd: `recv_odd_entry` walks f's levels j1-1..k
//        as Alg. 6 does (O(1) when only the equality case is left).
//    k = 0: sendblock[0]_f = b_f - q with f = r - 1; b_{r-1} is the second
//        smallest index of r's canonical sequence when skip[0] is in it, and
//        otherwise baseblock(skip[b_r] - 1) (precomputed per p).
//
//    Where Alg. 6 would have a violation at (f, k) it needs recvblock[k]_r
//    itself, so the fast path takes that entry from the search (up to round k
//    only). The fast path therefore equals the search wherever Alg. 6
//    satisfies Condition 1; the verifier compares the two for every rank it
//    checks.
//
// The send schedule (Alg. 6) comes from the same walk: c at each level, and
// the violation tests (lower part at any level; upper part only where
// r' == skip[j], i.e. at j = b). A violation takes the to-neighbour's receive
// entry from the search, stopped after round k.
#include "optcoll/schedule/circulant.hpp"

#include <algorithm>
#include <bit>
#include <string>
#include <type_traits>

#include "optcoll/error.hpp"

namespace optcoll::schedule {

struct CirculantImpl {
  struct NoWork {
    void descent() {}
    void scan() {}
    void violation() {}
    void fallbacks(int) {}
  };
  // Counts in registers (a ScheduleWork* could alias the output arrays), then
  // adds them to the caller's ScheduleWork.
  struct CountWork {
    ScheduleWork counts;
    void descent() { ++counts.descents; }
    void scan() { ++counts.scans; }
    void violation() { ++counts.violations; }
    void fallbacks(int n) { counts.fallbacks += n; }
    void add_to(ScheduleWork& w) const {
      w.descents += counts.descents;
      w.scans += counts.scans;
      w.violations += counts.violations;
      w.fallbacks += counts.fallbacks;
    }
  };

  static constexpr int kViolation = -1000;
  static constexpr int kUnknownBase = -2000;

  // Algorithm 6's loop state of one rank x before each level j, q-1 >= j >= 1,
  // kept for the few entries the walk's own pass leaves open.
  struct Trajectory {
    rank_t rp[kMaxQ + 1];  // r' before level j; rp[q] = p + x (the virtual level q of case B)
    rank_t e[kMaxQ + 1];   // e before level j; e[q] = p
    std::uint64_t upper;   // bit j: x is in the upper part at level j (x's greedy skip decomposition)
    rank_t rest;           // r' after level 1: 1 iff x's canonical sequence ends with skip[0]
  };

  // What one pass over the levels q-1..1 of rank x's Alg. 6 walk yields.
  struct Pass {
    int b = 0;                    // baseblock (Alg. 3)
    std::uint64_t recv_odd = 0;   // receive entries case B cannot settle in O(1)
    std::uint64_t send_viol = 0;  // Alg. 6 violations of x's own send schedule
  };

  // The walk, writing on the way every receive entry of the common cases
  // (Recv) and every send entry but the violations (Send). O(q), a handful of
  // operations per level.
  template <bool Recv, bool Send>
  static Pass walk(const Circulant& g, rank_t x, Trajectory& t, int* recv, int* send) noexcept {
    using u64 = std::uint64_t;
    const int q = g.q_;
    const rank_t* skip = g.skip_.data();
    const rank_t* excess = g.excess_.data();
    rank_t rp = x;
    rank_t e = g.p_;
    // Per-level bits are accumulated as m = 2m + bit, level q-1 first, so
    // that level j ends up at bit j-1 (no variable shifts).
    u64 upper = 0;
    u64 odd = 0;
    u64 viol = 0;
    int c = 0;                                                  // Alg. 6's c (0 stands for the baseblock until the end)
    rank_t excess_up = g.excess_[static_cast<std::size_t>(q)];  // excess[j1], j1: lowest upper level above j
    t.rp[q] = g.p_ + x;
    t.e[q] = g.p_;
    // Everything below is a select on the lower/upper decision; the compiler
    // may branch on it (over consecutive ranks the high levels repeat).
    auto level = [&](int j, bool first) {
      const auto uj = static_cast<std::size_t>(j);
      t.rp[uj] = rp;
      t.e[uj] = e;
      const rank_t sj = skip[uj];
      const bool up = rp >= sj;
      const u64 lower = up ? 0 : 1;
      const int jq = j - q;
      // c before this level is r's block in case A; after it, x's own send
      // entry (Alg. 6's c).
      const int c_new = up ? jq : c;
      if constexpr (Recv) {
        // Case A (j upper): the block is c before level j. Case B: block
        // j - q unless r' <= excess[j1] - excess[j] (file comment); those
        // entries are odd.
        const rank_t ex = excess[uj];
        recv[j] = c + jq - c_new;  // the other one of {c, jq}
        odd = 2 * odd + (lower & static_cast<u64>(rp <= excess_up - ex));
        excess_up = up ? ex : excess_up;
      }
      if constexpr (Send) {
        // Alg. 6's violation test in the lower part: skip[j-1] <= e <=
        // r' + skip[j], and at level 1 also b = 0, i.e. r' == 1 (x != 0).
        // The upper part can violate only with r' == skip[j], i.e. at
        // j = b; see below.
        const rank_t sj1 = skip[uj - 1];
        u64 v = lower & static_cast<u64>(static_cast<u64>(e - sj1) <= static_cast<u64>(rp + sj - sj1));
        if (first) v &= static_cast<u64>(rp != 0);
        viol = 2 * viol + v;
        send[j] = c_new;
      }
      c = c_new;
      const rank_t e_lower = e < sj ? e : sj;
      e = up ? e - sj : e_lower;
      rp = up ? rp - sj : rp;
      upper = 2 * upper + (1 - lower);
    };
    for (int j = q - 1; j >= 2; --j) level(j, false);
    if (q >= 2) level(1, true);
    upper <<= 1;
    odd <<= 1;
    viol <<= 1;
    t.upper = upper;
    t.rest = rp;
    // The lowest upper level (q if none) gives b, and the k = 0 entry
    // b_{r-1} - q: the next index of r's canonical sequence when skip[0] is
    // in it (0 for r = 1: the root sends block 0), else baseblock(skip[j] - 1).
    const int low = std::countr_zero(upper | (u64{1} << q));
    const int rest = static_cast<int>(rp);  // 0 or 1
    Pass out;
    out.b = low & (rest - 1);
    if constexpr (Recv) {
      const int bb = g.base_below_skip_[static_cast<std::size_t>(low)];
      recv[0] = (bb ^ ((bb ^ low) & -rest)) - q;
      // Entry 0 at the highest upper level (no c above it) stands for b.
      const int top = static_cast<int>(std::bit_width(upper | 1)) - 1;
      recv[top] = top != 0 ? out.b : recv[top];
      out.recv_odd = odd;
    }
    if constexpr (Send) {
      // Entries 0 above the highest upper level: c is still the baseblock.
      for (int j = static_cast<int>(std::bit_width(upper | 1)); j < q; ++j) send[j] = out.b;
      send[0] = out.b - q;
      // The upper-part violation (r' == skip[j], e - skip[j] >= skip[j-1],
      // r' + skip[j] > e, j != 1) at the one level where r' can equal
      // skip[j]: j = b, when x's canonical sequence ends there.
      if (rest == 0 && low >= 2 && low < q) {
        const auto ub = static_cast<std::size_t>(low);
        const rank_t sb = skip[ub];
        const rank_t eb = t.e[ub];
        const bool v = t.rp[ub] == sb && eb - sb >= skip[ub - 1] && sb + sb > eb;
        viol |= static_cast<u64>(v) << low;
      }
      out.send_viol = viol;
    }
    return out;
  }

  // Alg. 6's block for a rank in the lower / upper part of level k with state
  // (rp, e) and current c, or kViolation. Level 1 asks whether the rank's
  // baseblock is positive, i.e. whether its walk ends with r' = 0 (rank != 0).
  static int lower_block(const Circulant& g, int k, rank_t rp, rank_t e, int c) noexcept {
    const rank_t sk = g.skip(k);
    return (rp + sk < e || e < g.skip(k - 1) || (k == 1 && rp == 0)) ? c : kViolation;
  }
  static int upper_block(const Circulant& g, int k, rank_t rp, rank_t e) noexcept {
    const rank_t sk = g.skip(k);
    const int c = k - g.q_;
    if (k == 1 || rp > sk || e - sk < g.skip(k - 1)) return c;
    return rp + sk > e ? kViolation : c;
  }

  // Case B for one odd entry k (file comment): f = r - skip[k] (mod p) enters
  // level j1-1 with r' = r'_r(j1) - skip[k], e = min(e_r(j1), skip[j1]); walk
  // its levels j1-1 .. k as Alg. 6 does (the upper part at every level
  // reaches level k in O(1)). Returns the block or kViolation.
  static int recv_odd_entry(const Circulant& g, rank_t r, const Trajectory& t, int k) noexcept {
    const int q = g.q_;
    const std::uint64_t U = t.upper;
    const int j1 = std::countr_zero((U | (std::uint64_t{1} << q)) >> (k + 1)) + k + 1;
    const auto uj1 = static_cast<std::size_t>(j1);
    const rank_t sk = g.skip(k);
    rank_t rp = t.rp[uj1] - sk;
    rank_t e = std::min(t.e[uj1], g.skip_[uj1]);
    const rank_t span = g.prefix(j1) - g.prefix(k);  // skip[k] + ... + skip[j1-1]
    if (rp >= span) {                                // upper part at every level of [k, j1)
      const rank_t d = span - sk;
      return upper_block(g, k, rp - d, e - d);
    }
    const std::uint64_t above_j1 = U >> (j1 + 1);  // j1 <= q <= 31
    int c = above_j1 != 0 ? std::countr_zero(above_j1) + j1 + 1 - q : kUnknownBase;
    int v = 0;
    for (int l = j1 - 1; l >= k; --l) {
      const rank_t sl = g.skip(l);
      if (rp < sl) {
        if (l == k) v = lower_block(g, k, rp, e, c);
        e = std::min(e, sl);
      } else {
        c = l - q;
        if (l == k) v = upper_block(g, k, rp, e);
        rp -= sl;
        e -= sl;
      }
    }
    if (v == kUnknownBase) {
      // f has no upper level at or above k: its c is still its baseblock.
      v = g.baseblock(r >= sk ? r - sk : r - sk + g.p_);
    }
    return v;
  }

  // Index of the highest remaining skip index below e, or -1.
  static int next_below(std::uint64_t remaining, int e) noexcept {
    return static_cast<int>(std::bit_width(remaining & ((std::uint64_t{1} << e) - 1))) - 1;
  }

  // The search (Alg. 4-5) for entries 0..kend-1, written in final form
  // (b for index q, e - q otherwise).
  template <class Work>
  static Work search_impl(const Circulant& g, rank_t r, int b, int* out, int kend, Work work) noexcept {
    const int q = g.q_;
    if (q == 0 || kend <= 0) return work;
    const rank_t p = g.p_;
    const rank_t R = p + r;

    rank_t frame_rp[kMaxQ + 2];
    int frame_e[kMaxQ + 2];
    int depth = 0;
    rank_t rp = 0;
    int e = q;
    int k = 0;
    rank_t s = p + p;           // last accepted point
    rank_t hi = R - 1;          // R - skip[k]
    rank_t lo = R - g.skip(1);  // R - skip[k+1]
    std::uint64_t remaining = ((std::uint64_t{2} << q) - 1) & ~(std::uint64_t{1} << b);

    // Phase 1 (k = 0, s = 2p never binds): greedy descent towards R - 1. A
    // scan descends iff x <= R - 2 and accepts iff x == R - 1. Rescanning the
    // same index after a descent can succeed only below the removed
    // baseblock; that rare case leaves for the general loop.
    for (; e >= 0; --e) {
      if (e == b) {
        if (e == q) work.scan();  // the paper starts at e = q even when b = q (r = 0)
        continue;
      }
      work.scan();
      const rank_t sk = g.skip(e);
      const rank_t x = rp + sk;
      if (x <= lo) {
        frame_rp[depth] = rp;
        frame_e[depth] = e;
        ++depth;
        rp = x;
        work.descent();
        if (rp + sk <= hi) goto scan;  // the rescan of e goes on
        work.scan();                   // the rescan of e in the new frame fails
      } else if (x == hi) {
        goto accept;
      }
    }
    goto exhausted;

  scan:
    while (e >= 0) {
      work.scan();
      const rank_t x = rp + g.skip(e);
      if (x <= hi && x < s) {
        if (x > lo) goto unwind;
        work.descent();
        frame_rp[depth] = rp;
        frame_e[depth] = e;
        ++depth;
        rp = x;
        continue;  // same e, as in the paper
      }
      e = next_below(remaining, e);
    }
  exhausted:
    // Frame exhausted: return to the caller frame, whose point rp + skip[e]
    // is the candidate.
    if (depth == 0) return work;  // unreachable for valid input (Lemma 4)
    --depth;
    rp = frame_rp[depth];
    e = frame_e[depth];
  unwind:
    // A candidate is kept for window k only if its prefix lies below the
    // window (rp <= R - skip[k+1]); otherwise that frame returns too.
    while (rp > lo) {
      if (depth == 0) return work;  // unreachable for valid input
      --depth;
      rp = frame_rp[depth];
      e = frame_e[depth];
    }
  accept:
    s = rp + g.skip(e);
    out[k] = e == q ? b : e - q;  // Alg. 5's final transformation
    ++k;
    if (k == kend) return work;
    hi = lo;
    lo = R - g.skip(k + 1);
    remaining &= ~(std::uint64_t{1} << e);
    e = next_below(remaining, e);
    goto scan;
  }

  // Where an entry of some rank's receive schedule comes from when the walk
  // cannot give it: the search (stopped after round k), or a table of every
  // rank's receive schedule (rank-major, q entries each).
  struct SearchEntries {
    int entry(const Circulant& g, rank_t v, int b, int k) const noexcept {
      int tmp[kMaxQ];
      search_impl(g, v, b < 0 ? g.baseblock(v) : b, tmp, k + 1, NoWork{});
      return tmp[k];
    }
  };
  struct TableEntries {
    const std::int8_t* table;
    int entry(const Circulant& g, rank_t v, int /*b*/, int k) const noexcept {
      return table[static_cast<std::size_t>(v) * static_cast<std::size_t>(g.q_) + static_cast<std::size_t>(k)];
    }
  };

  // The receive entries the walk left odd, and those that Alg. 6 itself
  // would take from this receive schedule (its violations). Returns how many
  // of the latter.
  template <class Entries>
  static int recv_finish(const Circulant& g, rank_t r, int b, const Trajectory& t, std::uint64_t odd, int* out,
                         const Entries& entries) noexcept {
    std::uint64_t need = 0;
    for (; odd != 0; odd &= odd - 1) {
      const int k = std::countr_zero(odd);
      const int v = recv_odd_entry(g, r, t, k);
      out[k] = v;
      need |= static_cast<std::uint64_t>(v == kViolation) << k;
    }
    if (need == 0) return 0;
    const int n = std::popcount(need);
    if constexpr (std::is_same_v<Entries, SearchEntries>) {
      int tmp[kMaxQ];  // one search up to the last entry needed
      search_impl(g, r, b, tmp, static_cast<int>(std::bit_width(need)), NoWork{});
      for (; need != 0; need &= need - 1) out[std::countr_zero(need)] = tmp[std::countr_zero(need)];
    } else {
      for (; need != 0; need &= need - 1) out[std::countr_zero(need)] = entries.entry(g, r, b, std::countr_zero(need));
    }
    return n;
  }

  // Alg. 6's violations take the to-neighbour's receive entry.
  template <class Work, class Entries>
  static void send_finish(const Circulant& g, rank_t r, std::uint64_t viol, int* out, Work& work,
                          const Entries& entries) noexcept {
    for (; viol != 0; viol &= viol - 1) {
      const int k = std::countr_zero(viol);
      work.violation();
      out[k] = entries.entry(g, g.to(r, k), -1, k);
    }
  }

  static void root_send(int q, int* out) noexcept {
    for (int k = 0; k < q; ++k) out[k] = k;
  }

  template <class Work, class Entries>
  static int schedule(const Circulant& g, rank_t r, int* recv, int* send, Work& work, const Entries& entries) noexcept;
};

Circulant::Circulant(rank_t p) : p_(p), q_(0) {
  if (p < 1 || p > kMaxP) {
    throw Error(Errc::invalid_p, "p must be in [1, 2^31-1], got " + std::to_string(p));
  }
  while ((rank_t{1} << q_) < p) ++q_;
  skip_[static_cast<std::size_t>(q_)] = p;
  for (int k = q_; k > 0; --k) {
    const rank_t s = skip_[static_cast<std::size_t>(k)];
    skip_[static_cast<std::size_t>(k - 1)] = s - s / 2;  // ceil(s / 2)
  }
  skip_[static_cast<std::size_t>(q_ + 1)] = 2 * p + 1;
  rank_t sum = 0;  // skip[0] + ... + skip[j-1]
  for (int j = 0; j <= q_; ++j) {
    const auto uj = static_cast<std::size_t>(j);
    excess_[uj] = sum - skip_[uj];
    sum += skip_[uj];
  }
  for (int j = 1; j <= q_; ++j) {
    const auto uj = static_cast<std::size_t>(j);
    base_below_skip_[uj] = static_cast<std::int8_t>(baseblock(skip_[uj] - 1));
  }
}

int Circulant::baseblock(rank_t r) const noexcept {
  // Alg. 3: greedy canonical skip sequence from the largest skip down.
  rank_t rp = 0;
  for (int k = q_ - 1; k >= 0; --k) {
    const rank_t x = rp + skip(k);
    if (x == r) return k;
    if (x < r) rp = x;
  }
  return q_;
}

void Circulant::recv_schedule(rank_t r, int b, std::span<int> out) const noexcept {
  if (q_ == 0) return;
  CirculantImpl::Trajectory t;
  const auto pass = CirculantImpl::walk<true, false>(*this, r, t, out.data(), nullptr);
  if (pass.recv_odd != 0)
    CirculantImpl::recv_finish(*this, r, b, t, pass.recv_odd, out.data(), CirculantImpl::SearchEntries{});
}
void Circulant::recv_schedule(rank_t r, int b, std::span<int> out, ScheduleWork& w) const noexcept {
  CirculantImpl::search_impl(*this, r, b, out.data(), q_, CirculantImpl::CountWork{}).add_to(w);
}
void Circulant::recv_schedule_search(rank_t r, int b, std::span<int> out) const noexcept {
  CirculantImpl::search_impl(*this, r, b, out.data(), q_, CirculantImpl::NoWork{});
}
void Circulant::send_schedule(rank_t r, int /*b: recomputed by the walk*/, std::span<int> out) const noexcept {
  if (q_ == 0) return;
  if (r == 0) return CirculantImpl::root_send(q_, out.data());
  CirculantImpl::Trajectory t;
  const auto pass = CirculantImpl::walk<false, true>(*this, r, t, nullptr, out.data());
  CirculantImpl::NoWork none;
  if (pass.send_viol != 0)
    CirculantImpl::send_finish(*this, r, pass.send_viol, out.data(), none, CirculantImpl::SearchEntries{});
}
void Circulant::send_schedule(rank_t r, int /*b*/, std::span<int> out, ScheduleWork& w) const noexcept {
  if (q_ == 0) return;
  if (r == 0) return CirculantImpl::root_send(q_, out.data());
  CirculantImpl::Trajectory t;
  const auto pass = CirculantImpl::walk<false, true>(*this, r, t, nullptr, out.data());
  CirculantImpl::CountWork work;
  CirculantImpl::send_finish(*this, r, pass.send_viol, out.data(), work, CirculantImpl::SearchEntries{});
  work.add_to(w);
}

template <class Work, class Entries>
int CirculantImpl::schedule(const Circulant& g, rank_t r, int* recv, int* send, Work& work,
                            const Entries& entries) noexcept {
  if (g.q_ == 0) return 0;
  Trajectory t;
  const auto pass = walk<true, true>(g, r, t, recv, send);
  if (pass.recv_odd != 0) work.fallbacks(recv_finish(g, r, pass.b, t, pass.recv_odd, recv, entries));
  if (r == 0) {
    root_send(g.q_, send);
  } else if (pass.send_viol != 0) {
    send_finish(g, r, pass.send_viol, send, work, entries);
  }
  return pass.b;
}

int Circulant::schedule(rank_t r, std::span<int> recv, std::span<int> send) const noexcept {
  CirculantImpl::NoWork none;
  return CirculantImpl::schedule(*this, r, recv.data(), send.data(), none, CirculantImpl::SearchEntries{});
}
int Circulant::schedule(rank_t r, std::span<int> recv, std::span<int> send, ScheduleWork& w) const noexcept {
  CirculantImpl::CountWork work;
  const int b = CirculantImpl::schedule(*this, r, recv.data(), send.data(), work, CirculantImpl::SearchEntries{});
  work.add_to(w);
  return b;
}
int Circulant::schedule(rank_t r, std::span<int> recv, std::span<int> send, std::span<const std::int8_t> all_recv,
                        ScheduleWork& w) const noexcept {
  CirculantImpl::CountWork work;
  const int b =
      CirculantImpl::schedule(*this, r, recv.data(), send.data(), work, CirculantImpl::TableEntries{all_recv.data()});
  work.add_to(w);
  return b;
}

RankSchedule make_rank_schedule(const Circulant& g, rank_t vrank) {
  if (vrank < 0 || vrank >= g.p()) {
    throw Error(Errc::invalid_rank, "rank " + std::to_string(vrank) + " outside [0, p)");
  }
  RankSchedule s;
  s.vrank = vrank;
  const auto q = static_cast<std::size_t>(g.q());
  s.baseblock = g.schedule(vrank, std::span<int>(s.recv.data(), q), std::span<int>(s.send.data(), q));
  return s;
}

}  // namespace optcoll::schedule
