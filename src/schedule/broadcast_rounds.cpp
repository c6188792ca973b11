#include "optcoll/schedule/broadcast_rounds.hpp"

#include <string>

#include "optcoll/error.hpp"

namespace optcoll::schedule {

BroadcastRounds::BroadcastRounds(const Circulant& g, rank_t root, rank_t rank, std::int64_t n)
    : g_(&g), root_(root), vrank_(0), n_(n) {
  const rank_t p = g.p();
  if (root < 0 || root >= p) {
    throw Error(Errc::invalid_root, "root " + std::to_string(root) + " outside [0, " + std::to_string(p) + ")");
  }
  if (rank < 0 || rank >= p) {
    throw Error(Errc::invalid_rank, "rank " + std::to_string(rank) + " outside [0, " + std::to_string(p) + ")");
  }
  if (n < 0) throw Error(Errc::invalid_count, "block count must be >= 0, got " + std::to_string(n));
  const int q = g.q();
  vrank_ = rank >= root ? rank - root : rank - root + p;
  const RankSchedule s = make_rank_schedule(g, vrank_);
  for (int k = 0; k < q; ++k) {
    recv_[static_cast<std::size_t>(k)] = static_cast<std::int8_t>(s.recv[static_cast<std::size_t>(k)]);
    send_[static_cast<std::size_t>(k)] = static_cast<std::int8_t>(s.send[static_cast<std::size_t>(k)]);
  }
  if (q == 0 || n == 0) return;
  x_ = static_cast<int>((q - (n - 1) % q) % q);
  rounds_ = n - 1 + q;
}

std::int64_t BroadcastRounds::raw_send_block(std::int64_t i) const noexcept {
  const std::int64_t j = i + x_;
  const int q = g_->q();
  return send_[static_cast<std::size_t>(j % q)] - x_ + q * (j / q);
}

std::int64_t BroadcastRounds::raw_recv_block(std::int64_t i) const noexcept {
  const std::int64_t j = i + x_;
  const int q = g_->q();
  return recv_[static_cast<std::size_t>(j % q)] - x_ + q * (j / q);
}

}  // namespace optcoll::schedule
