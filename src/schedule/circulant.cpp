// Schedule computations of Träff 2024 §2, in iterative form.
//
// Receive schedule (Alg. 4-5). Processor r is searched as R = p + r so that
// every intermediate processor r'_k is positive and no modulo is needed
// (Observation 2). For k = 0, 1, ..., q-1 the search finds r'_k with
//     R - skip[k+1] <= r'_k <= R - skip[k],   r'_0 > r'_1 > ... > r'_{q-1},
// reached by a canonical skip sequence over the skip indices not yet used;
// the smallest index of that sequence (the baseblock of r'_k) becomes
// recvblock[k] and is removed (Lemma 4). The paper's doubly linked list of
// remaining indices is a bitmask here, and its recursion an explicit stack of
// partial sums; the paper's by-value argument s is a single "last accepted
// point", which is equivalent because every point accepted by a deeper frame
// exceeds all candidates left in the shallower frames.
#include "optcoll/schedule/circulant.hpp"

#include <bit>
#include <string>

#include "optcoll/error.hpp"

namespace optcoll::schedule {
namespace {

// Highest set bit of mask at or below e, or -1.
inline int highest_at_or_below(std::uint64_t mask, int e) noexcept {
  if (e < 0) return -1;
  const std::uint64_t m = mask & ((std::uint64_t{2} << e) - 1);
  return m == 0 ? -1 : 63 - std::countl_zero(m);
}

struct NoWork {
  void descent() {}
  void scan() {}
  void violation() {}
};
struct CountWork {
  ScheduleWork* w;
  void descent() { ++w->descents; }
  void scan() { ++w->scans; }
  void violation() { ++w->violations; }
};

template <class Work>
void recv_impl(const Circulant& g, rank_t r, int b, std::span<int> out, Work work) noexcept {
  const int q = g.q();
  if (q == 0) return;
  const rank_t p = g.p();
  const rank_t R = p + r;
  std::uint64_t remaining = ((std::uint64_t{2} << q) - 1) & ~(std::uint64_t{1} << b);

  rank_t frame_rp[kMaxQ + 2];
  int frame_e[kMaxQ + 2];
  int depth = 0;

  rank_t rp = 0;     // r': partial sum of the current path
  int e = q;         // current candidate skip index
  rank_t s = p + p;  // last accepted intermediate processor
  int k = 0;
  // guard: skip(q+1) > 2p so that R - skip(k+1) is never satisfied for k = q
  for (;;) {
    bool accept_from_return = false;
    // Scan the remaining indices of the current frame, largest first.
    while (e >= 0 && k < q) {
      work.scan();
      const rank_t x = rp + g.skip(e);
      if (x <= R - g.skip(k) && x < s) {
        if (x <= R - g.skip(k + 1)) {
          // Descend: try to get closer to R - skip[k] through x.
          work.descent();
          frame_rp[depth] = rp;
          frame_e[depth] = e;
          ++depth;
          rp = x;
          continue;  // same e, as in the paper
        }
        accept_from_return = true;  // accept x directly
        break;
      }
      e = highest_at_or_below(remaining, e - 1);
    }
    if (!accept_from_return) {
      // Frame exhausted (or all q blocks found): return to the caller frame.
      if (depth == 0 || k >= q) return;
      --depth;
      rp = frame_rp[depth];
      e = frame_e[depth];
    }
    // A point is kept for window k only if the prefix r' it extends lies
    // below the window (r' <= R - skip[k+1]); otherwise this frame returns,
    // and so on up the stack, until a prefix below the window is found.
    while (rp > R - g.skip(k + 1)) {
      if (depth == 0) return;
      --depth;
      rp = frame_rp[depth];
      e = frame_e[depth];
    }
    // Accept rp + skip[e] as r'_k; its baseblock is e.
    s = rp + g.skip(e);
    out[static_cast<std::size_t>(k)] = e;
    ++k;
    remaining &= ~(std::uint64_t{1} << e);
    e = highest_at_or_below(remaining, e - 1);
    if (k >= q) break;
  }
  // (unreached when k < q)
}

void finish_recv(int q, int b, std::span<int> out) noexcept {
  // Make the baseblock the only non-negative entry (Condition 3): the path
  // through skip[q] (processor p, i.e. the root) delivers b itself.
  for (int k = 0; k < q; ++k) {
    int& v = out[static_cast<std::size_t>(k)];
    v = (v == q) ? b : v - q;
  }
}

template <class Work>
void send_impl(const Circulant& g, rank_t r, int b, std::span<int> out, Work work) noexcept {
  const int q = g.q();
  if (q == 0) return;
  if (r == 0) {
    for (int k = 0; k < q; ++k) out[static_cast<std::size_t>(k)] = k;
    return;
  }
  // Violation: the block to send is whatever the to-processor receives in
  // round k; compute its receive schedule (O(q), at most 4 times: Thm. 3).
  auto neighbour_entry = [&](int k) {
    work.violation();
    const rank_t t = g.to(r, k);
    int tmp[kMaxQ];
    const int bt = g.baseblock(t);
    recv_impl(g, t, bt, std::span<int>(tmp, static_cast<std::size_t>(q)), NoWork{});
    finish_recv(q, bt, std::span<int>(tmp, static_cast<std::size_t>(q)));
    return tmp[k];
  };
  rank_t rp = r;     // r': virtual processor index, invariant 0 <= r' < e
  rank_t e = g.p();  // upper bound of the virtual processor range
  int c = b;         // block a lower-part processor repeats
  for (int k = q - 1; k >= 1; --k) {
    const rank_t sk = g.skip(k);
    int& sb = out[static_cast<std::size_t>(k)];
    if (rp < sk) {  // lower part
      if (rp + sk < e || e < g.skip(k - 1) || (k == 1 && b > 0)) {
        sb = c;
      } else {
        sb = neighbour_entry(k);
      }
      if (e > sk) e = sk;
    } else {  // upper part
      c = k - q;
      if (k == 1 || rp > sk || e - sk < g.skip(k - 1)) {
        sb = c;
      } else if (rp + sk > e) {
        sb = neighbour_entry(k);
      } else {
        sb = c;
      }
      rp -= sk;
      e -= sk;
    }
  }
  out[0] = b - q;
}

}  // namespace

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
  recv_impl(*this, r, b, out, NoWork{});
  finish_recv(q_, b, out);
}
void Circulant::recv_schedule(rank_t r, int b, std::span<int> out, ScheduleWork& w) const noexcept {
  recv_impl(*this, r, b, out, CountWork{&w});
  finish_recv(q_, b, out);
}
void Circulant::send_schedule(rank_t r, int b, std::span<int> out) const noexcept {
  send_impl(*this, r, b, out, NoWork{});
}
void Circulant::send_schedule(rank_t r, int b, std::span<int> out, ScheduleWork& w) const noexcept {
  send_impl(*this, r, b, out, CountWork{&w});
}

RankSchedule make_rank_schedule(const Circulant& g, rank_t vrank) {
  if (vrank < 0 || vrank >= g.p()) {
    throw Error(Errc::invalid_rank, "rank " + std::to_string(vrank) + " outside [0, p)");
  }
  RankSchedule s;
  s.vrank = vrank;
  s.baseblock = g.baseblock(vrank);
  const auto q = static_cast<std::size_t>(g.q());
  g.recv_schedule(vrank, s.baseblock, std::span<int>(s.recv.data(), q));
  g.send_schedule(vrank, s.baseblock, std::span<int>(s.send.data(), q));
  return s;
}

}  // namespace optcoll::schedule
