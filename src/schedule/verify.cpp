#include "optcoll/schedule/verify.hpp"

#include <algorithm>
#include <random>
#include <span>

#include "optcoll/schedule/all_roots.hpp"
#include "optcoll/schedule/broadcast_rounds.hpp"

namespace optcoll::schedule {
namespace {

constexpr std::size_t kMaxMessages = 8;
constexpr int kMaxViolations = 5;

void fail(VerifyReport& rep, const std::string& msg) {
  ++rep.failures;
  if (rep.messages.size() < kMaxMessages) rep.messages.push_back("p=" + std::to_string(rep.p) + ": " + msg);
}

std::string at(rank_t r, int k) {
  return "r=" + std::to_string(r) + " k=" + std::to_string(k);
}

// Condition 3 and 4 for one rank, given its own schedules.
template <class T>
void check_local(const Circulant& g, rank_t r, int b, std::span<const T> recv, std::span<const T> send,
                 VerifyReport& rep) {
  const int q = g.q();
  if (r == 0) {
    for (int k = 0; k < q; ++k)
      if (send[static_cast<std::size_t>(k)] != k) fail(rep, at(r, k) + ": root must send block k in round k");
    return;
  }
  // Condition 3: every value in {-q..-1} except b-q, plus b, exactly once.
  std::uint64_t seen = 0;  // bit v+q for v in [-q, q)
  for (int k = 0; k < q; ++k) {
    const int v = recv[static_cast<std::size_t>(k)];
    if (v < -q || v >= q) {
      fail(rep, at(r, k) + ": recvblock " + std::to_string(v) + " out of range");
      return;
    }
    const bool allowed = (v == b) || (v >= -q && v <= -1 && v != b - q);
    const std::uint64_t bit = std::uint64_t{1} << (v + q);
    if (!allowed || (seen & bit) != 0) {
      fail(rep, at(r, k) + ": condition 3 violated by recvblock " + std::to_string(v));
      return;
    }
    seen |= bit;
  }
  // Condition 4: only blocks already held are sent. held: bit v+q for each
  // block v in {b-q} U {recvblock[j] : j < k} (all in [-q, q) by now).
  std::uint64_t held = std::uint64_t{1} << b;  // b - q + q
  for (int k = 0; k < q; ++k) {
    const int v = send[static_cast<std::size_t>(k)];
    if (v < -q || v >= q || ((held >> (v + q)) & 1) == 0)
      fail(rep, at(r, k) + ": condition 4 violated, sends unheld block " + std::to_string(v));
    held |= std::uint64_t{1} << (recv[static_cast<std::size_t>(k)] + q);
  }
}

void check_work(const Circulant& g, rank_t r, const ScheduleWork& w, VerifyReport& rep) {
  const int q = g.q();
  rep.max_descents = std::max(rep.max_descents, w.descents);
  rep.max_scans = std::max(rep.max_scans, w.scans);
  rep.max_violations = std::max(rep.max_violations, w.violations);
  if (q > 0 && w.descents > q - 1) fail(rep, "r=" + std::to_string(r) + ": more than q-1 descents (Lemma 5)");
  // Lemma 6 states 2q + R loop iterations; that is off by one per descent,
  // since each recursive call starts its scan at the same index e and so
  // examines e again (p = 257, r = 2: 25 iterations, R = 6, 2q + R = 24).
  // 2q + 2R holds and is tight (checked for every p <= 20000).
  if (w.scans > 2 * q + 2 * w.descents) fail(rep, "r=" + std::to_string(r) + ": more than 2q+2R scans (Lemma 6)");
  // Theorem 3 claims at most 4 violations; that fails from p = 2^28 + 1
  // (q = 29, r = 3 * 2^26 needs 5). 5 is the most found for any p < 2^31.
  if (w.violations > kMaxViolations)
    fail(rep, "r=" + std::to_string(r) + ": more than " + std::to_string(kMaxViolations) + " violations (Theorem 3)");
}

}  // namespace

VerifyReport simulate_broadcast(rank_t p, rank_t root, std::int64_t n) {
  VerifyReport rep;
  rep.p = p;
  const Circulant g(p);
  std::vector<BroadcastRounds> views;
  views.reserve(static_cast<std::size_t>(p));
  for (rank_t r = 0; r < p; ++r) views.emplace_back(g, root, r, n);
  const std::int64_t rounds = views[0].rounds();
  const std::int64_t expected = (n == 0 || p == 1) ? 0 : n - 1 + g.q();
  if (rounds != expected) {
    fail(rep,
         "n=" + std::to_string(n) + ": " + std::to_string(rounds) + " rounds, expected " + std::to_string(expected));
    return rep;
  }
  // held[r * words + w]: bit set for each block rank r holds.
  const auto words = static_cast<std::size_t>((std::max<std::int64_t>(n, 1) + 63) / 64);
  std::vector<std::uint64_t> held(static_cast<std::size_t>(p) * words, 0);
  auto bit = [&](rank_t r, std::int64_t b) -> std::uint64_t& {
    return held[static_cast<std::size_t>(r) * words + (static_cast<std::size_t>(b) >> 6)];
  };
  auto holds = [&](rank_t r, std::int64_t b) { return ((bit(r, b) >> (static_cast<std::size_t>(b) & 63)) & 1U) != 0; };
  for (std::int64_t b = 0; b < n; ++b) bit(root, b) |= std::uint64_t{1} << (static_cast<std::size_t>(b) & 63);
  std::vector<RoundStep> steps(static_cast<std::size_t>(p));
  const std::string tag = "root=" + std::to_string(root) + " n=" + std::to_string(n) + " round ";
  for (std::int64_t i = 0; i < rounds; ++i) {
    for (rank_t r = 0; r < p; ++r) steps[static_cast<std::size_t>(r)] = views[static_cast<std::size_t>(r)].step(i);
    // Every send is matched by the receive at the other end, the sender holds
    // the block before the round (one-ported: one of each per rank), and then
    // the receive lands (rank r's own send was checked first).
    bool bad = false;
    for (rank_t r = 0; r < p; ++r) {
      const RoundStep& s = steps[static_cast<std::size_t>(r)];
      if (s.to >= 0) {
        const RoundStep& d = steps[static_cast<std::size_t>(s.to)];
        bad |= (d.from != r) | (d.recv_block != s.send_block) | !holds(r, s.send_block);
      }
      if (s.from >= 0) {
        bad |= steps[static_cast<std::size_t>(s.from)].to != r;
        bit(r, s.recv_block) |= std::uint64_t{1} << (static_cast<std::size_t>(s.recv_block) & 63);
      }
    }
    if (bad) {
      // Explain the first failure; the held sets are already past the round,
      // so "does not hold" is judged on a sender that received nothing else.
      for (rank_t r = 0; r < p; ++r) {
        const RoundStep& s = steps[static_cast<std::size_t>(r)];
        if (s.to >= 0) {
          const RoundStep& d = steps[static_cast<std::size_t>(s.to)];
          if (d.from != r || d.recv_block != s.send_block) {
            fail(rep, tag + std::to_string(i) + ": rank " + std::to_string(r) + " sends block " +
                          std::to_string(s.send_block) + " to " + std::to_string(s.to) + ", which expects block " +
                          std::to_string(d.recv_block) + " from " + std::to_string(d.from));
            return rep;
          }
        }
        if (s.from >= 0 && steps[static_cast<std::size_t>(s.from)].to != r) {
          fail(rep, tag + std::to_string(i) + ": rank " + std::to_string(r) + " waits for an unsent block");
          return rep;
        }
      }
      fail(rep, tag + std::to_string(i) + ": a rank sends a block it does not hold");
      return rep;
    }
    ++rep.broadcast_rounds_simulated;
  }
  for (rank_t r = 0; r < p; ++r)
    for (std::int64_t b = 0; b < n; ++b)
      if (!holds(r, b)) {
        fail(rep, "root=" + std::to_string(root) + " n=" + std::to_string(n) + ": rank " + std::to_string(r) +
                      " lacks block " + std::to_string(b) + " after " + std::to_string(rounds) + " rounds");
        return rep;
      }
  return rep;
}

void VerifyReport::merge(const VerifyReport& o) {
  p = std::max(p, o.p);
  ranks_checked += o.ranks_checked;
  max_descents = std::max(max_descents, o.max_descents);
  max_scans = std::max(max_scans, o.max_scans);
  max_violations = std::max(max_violations, o.max_violations);
  broadcast_rounds_simulated += o.broadcast_rounds_simulated;
  failures += o.failures;
  for (const auto& m : o.messages)
    if (messages.size() < kMaxMessages) messages.push_back(m);
}

std::vector<std::int64_t> default_block_counts(const Circulant& g) {
  const std::int64_t q = g.q();
  std::vector<std::int64_t> ns{1, q - 1, q, q + 1, 4 * q + 1};
  std::erase_if(ns, [](std::int64_t n) { return n < 1; });
  std::sort(ns.begin(), ns.end());
  ns.erase(std::unique(ns.begin(), ns.end()), ns.end());
  return ns;
}

namespace {

// Conditions 1-4 for all ranks without messages, branch-free per entry: the
// common case of check_conditions (which explains failures in a second pass).
bool conditions_hold(const Circulant& g, std::span<const std::int8_t> base, std::span<const std::int8_t> recv,
                     std::span<const std::int8_t> send) {
  using u64 = std::uint64_t;
  const rank_t p = g.p();
  const int q = g.q();
  const auto uq = static_cast<std::size_t>(q);
  const auto range = static_cast<unsigned>(2 * q);  // v + q in [0, 2q) for v in [-q, q)
  const u64 negatives = (u64{1} << q) - 1;          // bits v + q for v in [-q, -1]
  u64 bad = 0;
  for (rank_t r = 0; r < p; ++r) {
    const auto ur = static_cast<std::size_t>(r);
    const std::int8_t* rr = recv.data() + ur * uq;
    const std::int8_t* sr = send.data() + ur * uq;
    if (r == 0) {
      for (int k = 0; k < q; ++k) bad |= static_cast<u64>(sr[k] != k);
    } else {
      const int b = base[ur];
      bad |= static_cast<u64>(b < 0 || b >= q);
      // Condition 3: the q entries are in range and cover exactly
      // {-q..-1} \ {b-q} U {b}. Condition 4: each send is b-q or an
      // earlier receive.
      u64 seen = 0;
      u64 held = u64{1} << (b & 63);
      for (int k = 0; k < q; ++k) {
        const auto iv = static_cast<unsigned>(rr[k] + q);
        const auto is = static_cast<unsigned>(sr[k] + q);
        bad |= static_cast<u64>(iv >= range) | static_cast<u64>(is >= range);
        bad |= ~(held >> (is & 63)) & 1;
        const u64 bit = u64{1} << (iv & 63);
        seen |= bit;
        held |= bit;
      }
      const u64 expected = (negatives & ~(u64{1} << (b & 63))) | (u64{1} << ((b + q) & 63));
      bad |= static_cast<u64>(seen != expected);
    }
  }
  // Condition 1 for every rank r and round k: recv[r][k] == send[f][k],
  // f = r - skip[k] mod p. Over all r this is also Condition 2 (r = t - skip[k]
  // runs through all ranks as t does). Per k, two ranges of r without a wrap.
  for (int k = 0; k < q; ++k) {
    const auto uk = static_cast<std::size_t>(k);
    const auto sk = static_cast<std::size_t>(g.skip(k));
    const auto up = static_cast<std::size_t>(p);
    const std::int8_t* rr = recv.data() + uk;
    const std::int8_t* sf = send.data() + (up - sk) * uq + uk;  // f = r - skip[k] + p for r < skip[k]
    for (std::size_t r = 0; r < sk; ++r) bad |= static_cast<u64>(rr[r * uq] != sf[r * uq]);
    rr += sk * uq;
    sf = send.data() + uk;  // f = r - skip[k] for r >= skip[k]
    for (std::size_t r = 0; r < up - sk; ++r) bad |= static_cast<u64>(rr[r * uq] != sf[r * uq]);
  }
  return bad == 0;
}

}  // namespace

void check_conditions(const Circulant& g, std::span<const std::int8_t> base, std::span<const std::int8_t> recv,
                      std::span<const std::int8_t> send, VerifyReport& rep) {
  const rank_t p = g.p();
  const int q = g.q();
  const auto uq = static_cast<std::size_t>(q);
  if (conditions_hold(g, base, recv, send)) {
    rep.ranks_checked += p;
    return;
  }
  for (rank_t r = 0; r < p; ++r) {
    const auto ur = static_cast<std::size_t>(r);
    check_local(g, r, base[ur], recv.subspan(ur * uq, uq), send.subspan(ur * uq, uq), rep);
    // Conditions 1 and 2: each round's edge carries the same block at both ends.
    for (int k = 0; k < q; ++k) {
      const auto t = static_cast<std::size_t>(g.to(r, k));
      const auto f = static_cast<std::size_t>(g.from(r, k));
      const auto uk = static_cast<std::size_t>(k);
      if (recv[ur * uq + uk] != send[f * uq + uk]) fail(rep, at(r, k) + ": condition 1 violated");
      if (send[ur * uq + uk] != recv[t * uq + uk]) fail(rep, at(r, k) + ": condition 2 violated");
    }
    ++rep.ranks_checked;
  }
}

VerifyReport verify_exhaustive(rank_t p, const std::vector<std::int64_t>& block_counts) {
  VerifyReport rep;
  rep.p = p;
  const Circulant g(p);
  const int q = g.q();
  const auto uq = static_cast<std::size_t>(q);
  // The all-roots schedules: the O(p) baseblock listing and every receive
  // schedule (the fast path, and Observation 2 for even p).
  const AllRootsSchedule all(g);
  std::vector<std::int8_t> base(static_cast<std::size_t>(p));
  std::vector<std::int8_t> recv(static_cast<std::size_t>(p) * uq);
  std::vector<std::int8_t> send(static_cast<std::size_t>(p) * uq);
  int rb[kMaxQ];
  // Pass 1: the search (Alg. 4-5) for every rank, the reference for every
  // receive schedule, with its work bounds; Alg. 3 against the listing.
  for (rank_t r = 0; r < p; ++r) {
    const auto ur = static_cast<std::size_t>(r);
    const int b = g.baseblock(r);
    if (b != all.baseblock(r)) fail(rep, "r=" + std::to_string(r) + ": baseblock listing disagrees");
    base[ur] = static_cast<std::int8_t>(b);
    ScheduleWork ws;
    g.recv_schedule(r, b, std::span<int>(rb, uq), ws);
    check_work(g, r, ws, rep);
    for (std::size_t k = 0; k < uq; ++k) recv[ur * uq + k] = static_cast<std::int8_t>(rb[k]);
  }
  // Pass 2: the fused fast path (the entries it would search for read pass
  // 1's table) and the all-roots schedules must reproduce the search; the
  // send schedules go to the conditions.
  int rf[kMaxQ];
  int sf[kMaxQ];
  for (rank_t r = 0; r < p; ++r) {
    const auto ur = static_cast<std::size_t>(r);
    ScheduleWork wf;
    if (g.schedule(r, std::span<int>(rf, uq), std::span<int>(sf, uq), recv, wf) != base[ur])
      fail(rep, "r=" + std::to_string(r) + ": fast path baseblock disagrees");
    check_work(g, r, wf, rep);
    const std::int8_t* ref = recv.data() + ur * uq;
    const auto from_all = all.recv(r);
    bool differ = false;
    for (std::size_t k = 0; k < uq; ++k) {
      differ |= (rf[k] != ref[k]) | (from_all[k] != ref[k]);
      send[ur * uq + k] = static_cast<std::int8_t>(sf[k]);
    }
    if (differ) {
      for (std::size_t k = 0; k < uq; ++k) {
        if (rf[k] != ref[k])
          fail(rep, at(r, static_cast<int>(k)) + ": fast receive path " + std::to_string(rf[k]) + ", search " +
                        std::to_string(ref[k]));
        if (from_all[k] != ref[k])
          fail(rep, at(r, static_cast<int>(k)) + ": all-roots schedule " + std::to_string(from_all[k]) + ", search " +
                        std::to_string(ref[k]));
      }
    }
  }
  check_conditions(g, base, recv, send, rep);
  if (rep.failures == 0)
    for (std::int64_t n : block_counts) rep.merge(simulate_broadcast(p, 0, n));
  return rep;
}

VerifyReport verify_ranks(rank_t p, const std::vector<rank_t>& ranks) {
  VerifyReport rep;
  rep.p = p;
  const Circulant g(p);
  const int q = g.q();
  const auto uq = static_cast<std::size_t>(q);
  int rb[kMaxQ];
  int rf[kMaxQ];
  int sf[kMaxQ];
  int other[kMaxQ];
  int other_send[kMaxQ];
  for (rank_t r : ranks) {
    const int b = g.baseblock(r);
    ScheduleWork ws;
    ScheduleWork wf;
    g.recv_schedule(r, b, std::span<int>(rb, uq), ws);  // the search: the reference
    if (g.schedule(r, std::span<int>(rf, uq), std::span<int>(sf, uq), wf) != b)
      fail(rep, "r=" + std::to_string(r) + ": fast path baseblock disagrees");
    for (std::size_t k = 0; k < uq; ++k)
      if (rf[k] != rb[k]) fail(rep, at(r, static_cast<int>(k)) + ": fast receive path disagrees with the search");
    ws.violations = wf.violations;
    check_work(g, r, ws, rep);
    check_local<int>(g, r, b, std::span<const int>(rb, uq), std::span<const int>(sf, uq), rep);
    for (int k = 0; k < q; ++k) {
      const rank_t f = g.from(r, k);
      g.schedule(f, std::span<int>(other, uq), std::span<int>(other_send, uq));
      if (other_send[k] != rb[k]) fail(rep, at(r, k) + ": condition 1 violated");
      const rank_t t = g.to(r, k);
      g.recv_schedule_search(t, g.baseblock(t), std::span<int>(other, uq));
      if (other[k] != sf[k]) fail(rep, at(r, k) + ": condition 2 violated");
    }
    ++rep.ranks_checked;
  }
  return rep;
}

std::vector<rank_t> sample_ranks(const Circulant& g, std::int64_t random, std::uint64_t seed) {
  const rank_t p = g.p();
  std::vector<rank_t> rs{0, 1, p - 1};
  for (int k = 0; k <= g.q(); ++k) {
    for (rank_t d = -2; d <= 2; ++d) {
      rs.push_back(g.skip(k) + d);
      rs.push_back(p - g.skip(k) + d);
    }
  }
  // Ranks c * 2^j are where the send schedule needs the most violations
  // (e.g. p = 2^28 + 1, r = 3 * 2^26).
  for (int j = 0; j <= g.q(); ++j)
    for (rank_t c : {1, 3, 5, 7}) {
      rs.push_back(c << j);
      rs.push_back(p - (c << j));
      rs.push_back((c << j) + 1);
    }
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<rank_t> dist(0, p - 1);
  for (std::int64_t i = 0; i < random; ++i) rs.push_back(dist(rng));
  std::erase_if(rs, [p](rank_t r) { return r < 0 || r >= p; });
  std::sort(rs.begin(), rs.end());
  rs.erase(std::unique(rs.begin(), rs.end()), rs.end());
  return rs;
}

}  // namespace optcoll::schedule
