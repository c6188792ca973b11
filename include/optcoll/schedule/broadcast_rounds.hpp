// The per-round view of Algorithm 1 (Träff 2024): for one rank of an n-block
// broadcast, which block it sends to whom and receives from whom in round i.
// O(log p) set-up (one receive and one send schedule), then O(1) per round.
//
// Rounds are numbered 0 .. n-2+q. The paper's x = (q - (n-1) mod q) mod q
// virtual rounds that precede them are folded into the block offsets: round i
// is the paper's round i + x, with k = (i + x) mod q and
//     block = schedule[k] - x + q * floor((i + x) / q).
// A negative block is neither sent nor received; a block above n-1 is sent
// and received as n-1; nothing is sent to the root, and the root receives
// nothing.
#pragma once

#include <array>
#include <cstdint>

#include "optcoll/schedule/circulant.hpp"

namespace optcoll::schedule {

struct RoundStep {
  rank_t to = -1;                // real rank to send to, or -1: no send
  std::int64_t send_block = -1;  // block index in [0, n), or -1
  rank_t from = -1;              // real rank to receive from, or -1: no receive
  std::int64_t recv_block = -1;  // block index in [0, n), or -1
};

// About 100 bytes, so that a simulator can hold one per rank for p = 10^6.
// Keeps a pointer to g, which must outlive it.
class BroadcastRounds {
 public:
  // Throws optcoll::Error for root or rank outside [0, p) or n < 0.
  BroadcastRounds(const Circulant& g, rank_t root, rank_t rank, std::int64_t n);

  // n - 1 + q rounds; 0 when n == 0 or p == 1.
  std::int64_t rounds() const noexcept { return rounds_; }
  // The paper's x: number of virtual rounds skipped at the start.
  int virtual_rounds() const noexcept { return x_; }
  rank_t vrank() const noexcept { return vrank_; }
  rank_t root() const noexcept { return root_; }
  std::int64_t blocks() const noexcept { return n_; }
  const Circulant& graph() const noexcept { return *g_; }

  // Precondition: 0 <= i < rounds(). Inline: simulators call it p times a round.
  RoundStep step(std::int64_t i) const noexcept;

  // Raw (uncapped, possibly negative) block indices of round i, before the
  // none/cap rules: used by the reduction, which must see the cap explicitly.
  std::int64_t raw_send_block(std::int64_t i) const noexcept;
  std::int64_t raw_recv_block(std::int64_t i) const noexcept;
  int round_k(std::int64_t i) const noexcept { return static_cast<int>((i + x_) % g_->q()); }

 private:
  const Circulant* g_;
  rank_t root_;
  rank_t vrank_;
  std::int64_t n_;
  std::int64_t rounds_ = 0;
  int x_ = 0;
  std::array<std::int8_t, kMaxQ> recv_{};
  std::array<std::int8_t, kMaxQ> send_{};
};

inline RoundStep BroadcastRounds::step(std::int64_t i) const noexcept {
  RoundStep s;
  const int q = g_->q();
  // Round i is the paper's round j = i + x: k = j mod q, phase j div q (one
  // division for both).
  const std::int64_t j = i + x_;
  const std::int64_t phase = j / q;
  const auto k = static_cast<int>(j - phase * q);
  const std::int64_t offset = q * phase - x_;
  const rank_t p = g_->p();
  const rank_t v = vrank_;
  auto real = [&](rank_t u) { return u + root_ >= p ? u + root_ - p : u + root_; };
  const rank_t t = g_->to(v, k);
  if (t != 0) {
    const std::int64_t b = send_[static_cast<std::size_t>(k)] + offset;
    if (b >= 0) {
      s.to = real(t);
      s.send_block = b < n_ ? b : n_ - 1;
    }
  }
  if (v != 0) {
    const std::int64_t b = recv_[static_cast<std::size_t>(k)] + offset;
    if (b >= 0) {
      s.from = real(g_->from(v, k));
      s.recv_block = b < n_ ? b : n_ - 1;
    }
  }
  return s;
}

}  // namespace optcoll::schedule
