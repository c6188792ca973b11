#include "schedule_reference.hpp"

namespace optcoll::reference {

ReferenceSchedule::ReferenceSchedule(std::int64_t p) : p_(p) {
  while ((std::int64_t{1} << q_) < p) ++q_;
  // Alg. 2: repeated halving, rounding up.
  skip_[q_] = p;
  for (int k = q_; k > 0; --k) skip_[k - 1] = skip_[k] - skip_[k] / 2;
  skip_[q_ + 1] = 2 * p + 1;  // only read once all q blocks are found
}

int ReferenceSchedule::baseblock(std::int64_t r) const {
  // Alg. 3.
  int k = q_;
  std::int64_t rp = 0;
  while (k > 0) {
    --k;
    if (rp + skip_[k] == r) return k;
    if (rp + skip_[k] < r) rp += skip_[k];
  }
  return q_;
}

void ReferenceSchedule::unlink(int e) {
  next(prev(e)) = next(e);
  prev(next(e)) = prev(e);
}

int ReferenceSchedule::allblocks(std::int64_t r, std::int64_t rp, std::int64_t s, int e, int k, int* recv) {
  // Alg. 4, with a guard that stops once all q blocks are found.
  while (e != -1 && k < q_) {
    if (rp + skip_[e] <= r - skip_[k] && rp + skip_[e] < s) {
      if (rp + skip_[e] <= r - skip_[k + 1]) k = allblocks(r, rp + skip_[e], s, e, k, recv);
      if (k >= q_ || rp > r - skip_[k + 1]) return k;
      s = rp + skip_[e];
      recv[k] = e;
      ++k;
      unlink(e);
    }
    e = next(e);
  }
  return k;
}

void ReferenceSchedule::recv_schedule(std::int64_t r, int* recv) {
  // Alg. 5.
  for (int e = 0; e <= q_; ++e) {
    next(e) = e - 1;
    prev(e) = e + 1;
  }
  prev(q_) = -1;
  next(-1) = q_;
  prev(-1) = 0;
  const int b = baseblock(r);
  unlink(b);
  allblocks(p_ + r, 0, p_ + p_, q_, 0, recv);
  for (int k = 0; k < q_; ++k) recv[k] = recv[k] == q_ ? b : recv[k] - q_;
}

void ReferenceSchedule::send_schedule(std::int64_t r, int* send) {
  // Alg. 6.
  if (r == 0) {
    for (int k = 0; k < q_; ++k) send[k] = k;
    return;
  }
  const int b = baseblock(r);
  std::int64_t rp = r;
  std::int64_t e = p_;
  int c = b;
  int block[34];
  for (int k = q_ - 1; k >= 1; --k) {
    if (rp < skip_[k]) {
      if (rp + skip_[k] < e || e < skip_[k - 1] || (k == 1 && b > 0)) {
        send[k] = c;
      } else {
        recv_schedule((r + skip_[k]) % p_, block);
        send[k] = block[k];
      }
      if (e > skip_[k]) e = skip_[k];
    } else {
      c = k - q_;
      if (k == 1 || rp > skip_[k] || e - skip_[k] < skip_[k - 1]) {
        send[k] = c;
      } else if (rp + skip_[k] > e) {
        recv_schedule((r + skip_[k]) % p_, block);
        send[k] = block[k];
      } else {
        send[k] = c;
      }
      rp -= skip_[k];
      e -= skip_[k];
    }
  }
  if (q_ > 0) send[0] = b - q_;
}

}  // namespace optcoll::reference
