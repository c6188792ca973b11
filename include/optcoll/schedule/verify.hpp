// Verifier for circulant broadcast schedules (Träff 2024 §2).
//
// Exhaustive mode checks, for every rank of one p:
//  1. recvblock[k]_r == sendblock[k]_f, f = (r - skip[k]) mod p
//  2. sendblock[k]_r == recvblock[k]_t, t = (r + skip[k]) mod p
//  3. {recvblock[k]_r} == {-1..-q} \ {b_r - q}  U  {b_r}      (r != 0)
//  4. sendblock[k]_r is b_r - q or some recvblock[j]_r, j < k  (r != 0)
// on the receive schedules of the search (Alg. 4-5) and the send schedules of
// the fast path; that the fast receive path (Circulant::schedule) and the
// all-roots schedules equal the search; the work bounds (descents <= q-1 per
// receive search, Lemma 5; scans <= 2q + 2*descents, Lemma 6 corrected; send
// violations <= 5, Theorem 3 corrected: see verify.cpp); that the O(p)
// baseblock listing agrees with Alg. 3; and then simulates Algorithm 1 round
// by round (simulate_broadcast) for several block counts n: every rank must
// hold all n blocks after exactly n-1+q rounds, and nobody may send a block it
// does not hold.
//
// Sampled mode checks the same per chosen rank (conditions 1-4, search
// against fast path, the bounds), computing just their neighbours'
// schedules: usable for p up to 2^31-1.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "optcoll/schedule/circulant.hpp"

namespace optcoll::schedule {

struct VerifyReport {
  rank_t p = 0;
  std::int64_t ranks_checked = 0;
  int max_descents = 0;
  int max_scans = 0;
  int max_violations = 0;
  std::int64_t broadcast_rounds_simulated = 0;
  std::int64_t failures = 0;
  std::vector<std::string> messages;  // first few failures, human-readable

  bool ok() const noexcept { return failures == 0; }
  void merge(const VerifyReport& o);
};

// Conditions 1-4 over all ranks' schedules given as arrays (p*q entries,
// rank-major) and baseblocks (p entries).
void check_conditions(const Circulant& g, std::span<const std::int8_t> base, std::span<const std::int8_t> recv,
                      std::span<const std::int8_t> send, VerifyReport& rep);

// The default block counts simulated for p: 1, q-1, q, q+1 and 4q+1.
std::vector<std::int64_t> default_block_counts(const Circulant& g);

// Exhaustive verification of one p. block_counts empty: no simulation.
VerifyReport verify_exhaustive(rank_t p, const std::vector<std::int64_t>& block_counts);

// Algorithm 1 for all ranks at once through the per-round view
// (BroadcastRounds), rooted anywhere: each send matches a receive, senders
// hold what they send, and all ranks hold all n blocks after n-1+q rounds.
// O(p (n + q)) time.
VerifyReport simulate_broadcast(rank_t p, rank_t root, std::int64_t n);

// Sampled verification of the given virtual ranks of p.
VerifyReport verify_ranks(rank_t p, const std::vector<rank_t>& ranks);

// Ranks worth sampling: 0, 1, p-1, both sides of every skip[k], plus `random`
// uniformly drawn ranks (seeded).
std::vector<rank_t> sample_ranks(const Circulant& g, std::int64_t random, std::uint64_t seed);

}  // namespace optcoll::schedule
