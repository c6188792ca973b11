// Reference for benchmarks and cross-checks: a direct transcription of the
// recursive Algorithms 2-6 of Träff 2024 (linked list of skip indices,
// recursive ALLBLOCKS, violations recompute the neighbour's whole receive
// schedule). Deliberately unoptimised; not part of the library.
#pragma once

#include <cstdint>

namespace optcoll::reference {

class ReferenceSchedule {
 public:
  explicit ReferenceSchedule(std::int64_t p);
  int q() const { return q_; }
  int baseblock(std::int64_t r) const;
  void recv_schedule(std::int64_t r, int* recv);
  void send_schedule(std::int64_t r, int* send);

 private:
  int allblocks(std::int64_t r, std::int64_t rp, std::int64_t s, int e, int k, int* recv);
  void unlink(int e);
  int& next(int e) { return next_[e + 1]; }
  int& prev(int e) { return prev_[e + 1]; }

  std::int64_t p_;
  int q_ = 0;
  std::int64_t skip_[34] = {};
  int next_[34] = {};
  int prev_[34] = {};
};

}  // namespace optcoll::reference
