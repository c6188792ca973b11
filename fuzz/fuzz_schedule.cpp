// libFuzzer target: the circulant schedules (Träff 2024) for any p up to
// 2^31-1, any root, rank and block count n.
//  - the fused Circulant::schedule equals the three separate calls
//    (baseblock, recv_schedule, send_schedule) and the search (Algorithms
//    4-5, recv_schedule_search);
//  - verify_ranks (conditions 1-4 and the work bounds) holds for the rank;
//  - the per-round view (BroadcastRounds) of the rank pairs up with its
//    neighbours' in every round (what it sends to t, t receives from it, as
//    the same block; likewise for what it receives), blocks lie in [0, n),
//    the root receives nothing, a block is sent only once held, and a
//    non-root holds every block at the end.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <vector>

#include "fuzz_common.hpp"
#include "optcoll/schedule/broadcast_rounds.hpp"
#include "optcoll/schedule/circulant.hpp"
#include "optcoll/schedule/verify.hpp"

using namespace optcoll::schedule;

namespace {

// p: small, near a power of two, or anything up to 2^31-1.
rank_t pick_p(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange(0, 3)) {
    case 0:
      return in.ConsumeIntegralInRange<rank_t>(1, 300);
    case 1: {
      const int k = in.ConsumeIntegralInRange(0, 30);
      return std::max<rank_t>(1, std::min<rank_t>(kMaxP, (rank_t{1} << k) + in.ConsumeIntegralInRange(-2, 2)));
    }
    default:
      return in.ConsumeIntegralInRange<rank_t>(1, kMaxP);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const rank_t p = pick_p(in);
  const rank_t root = in.ConsumeIntegralInRange<rank_t>(0, p - 1);
  const rank_t rank = in.ConsumeIntegralInRange<rank_t>(0, p - 1);
  const std::int64_t n = in.ConsumeIntegralInRange<std::int64_t>(0, 600);
  const Circulant g(p);
  const auto q = static_cast<std::size_t>(g.q());

  // Fused vs separate vs search, for the virtual rank.
  const rank_t v = rank >= root ? rank - root : rank - root + p;
  int recv[kMaxQ], send[kMaxQ], recv2[kMaxQ], send2[kMaxQ], search[kMaxQ];
  const int b = g.schedule(v, std::span<int>(recv, q), std::span<int>(send, q));
  const int b2 = g.baseblock(v);
  g.recv_schedule(v, b2, std::span<int>(recv2, q));
  g.send_schedule(v, b2, std::span<int>(send2, q));
  g.recv_schedule_search(v, b2, std::span<int>(search, q));
  FUZZ_CHECK(b == b2, "p=%lld r=%lld: baseblock %d vs %d", (long long)p, (long long)v, b, b2);
  for (std::size_t k = 0; k < q; ++k) {
    FUZZ_CHECK(recv[k] == recv2[k] && recv[k] == search[k], "p=%lld r=%lld k=%zu: recv fused %d separate %d search %d",
               (long long)p, (long long)v, k, recv[k], recv2[k], search[k]);
    FUZZ_CHECK(send[k] == send2[k], "p=%lld r=%lld k=%zu: send fused %d separate %d", (long long)p, (long long)v, k,
               send[k], send2[k]);
  }
  const VerifyReport rep = verify_ranks(p, {v});
  FUZZ_CHECK(rep.ok(), "p=%lld r=%lld: verify_ranks: %s", (long long)p, (long long)v,
             rep.messages.empty() ? "?" : rep.messages.front().c_str());

  // The per-round view and its pairing with the neighbours.
  const BroadcastRounds me(g, root, rank, n);
  FUZZ_CHECK(me.rounds() == (n == 0 || p == 1 ? 0 : n - 1 + g.q()), "rounds %lld", (long long)me.rounds());
  std::vector<bool> held(static_cast<std::size_t>(n), rank == root);
  for (std::int64_t i = 0; i < me.rounds(); ++i) {
    const RoundStep s = me.step(i);
    if (s.from >= 0) {
      FUZZ_CHECK(rank != root, "root receives in round %lld", (long long)i);
      FUZZ_CHECK(s.recv_block >= 0 && s.recv_block < n, "recv block %lld", (long long)s.recv_block);
      const RoundStep f = BroadcastRounds(g, root, s.from, n).step(i);
      FUZZ_CHECK(f.to == rank && f.send_block == s.recv_block,
                 "p=%lld root=%lld n=%lld round %lld: %lld receives %lld from %lld, which sends %lld to %lld",
                 (long long)p, (long long)root, (long long)n, (long long)i, (long long)rank, (long long)s.recv_block,
                 (long long)s.from, (long long)f.send_block, (long long)f.to);
    }
    if (s.to >= 0) {
      FUZZ_CHECK(s.to != root, "sends to the root");
      FUZZ_CHECK(s.send_block >= 0 && s.send_block < n, "send block %lld", (long long)s.send_block);
      FUZZ_CHECK(held[static_cast<std::size_t>(s.send_block)],
                 "p=%lld root=%lld n=%lld round %lld: %lld sends block %lld before holding it", (long long)p,
                 (long long)root, (long long)n, (long long)i, (long long)rank, (long long)s.send_block);
      const RoundStep t = BroadcastRounds(g, root, s.to, n).step(i);
      FUZZ_CHECK(t.from == rank && t.recv_block == s.send_block, "round %lld: send to %lld unmatched", (long long)i,
                 (long long)s.to);
    }
    // Received blocks count from the end of the round (sends of round i
    // use blocks held before it).
    if (s.from >= 0) held[static_cast<std::size_t>(s.recv_block)] = true;
  }
  if (p > 1)
    for (std::int64_t blk = 0; blk < n; ++blk)
      FUZZ_CHECK(held[static_cast<std::size_t>(blk)], "p=%lld root=%lld n=%lld: rank %lld never gets block %lld",
                 (long long)p, (long long)root, (long long)n, (long long)rank, (long long)blk);
  return 0;
}
