// The problem-adaptive binomial tree of Gatherv/Scatterv (Traff 2018,
// Proposition 1; the bottom-up construction of its reference [20]), built
// by the ranks themselves in ceil(log2 p) rounds although only the root
// knows all counts: each rank knows its own block, and the tree needs per
// group only a summary.
//
// Level k merges the aligned groups L = [a, a+2^k) and R = [a+2^k,
// a+2^(k+1)) ∩ [0, p), as the oblivious binomial tree does; what adapts is
// which of the two group roots receives: the group holding the MPI root,
// else the larger group (the smaller side sends; ties: R receives), i.e.
// trees::adaptive_binomial() with gamma = 0. The oblivious binomial tree is
// the same construction with "R receives" as the only rule.
//
// Every group has a *contact* known to all without communication: its
// oblivious root (the MPI root if inside, else its last rank). Invariant:
// after level k-1 the contact of every level-k group knows the group's
// summary (S = its bytes, x = its adaptive root). Phase 1, level k: the two
// contacts exchange their summaries (two words each way; one partner per
// rank and level) and both compute the merge: the receiving root, and S_L +
// S_R. The merged group's contact is one of the two, so the invariant holds
// at level k+1. Each contact then tells its own side's adaptive root its
// role (receive from / send to whom, and the sizes) unless that root is
// itself. Phase 2: every rank that is still a group root at level k takes
// its level-k notice, until it learns that it sends. No rank holds more than
// O(log p) words; phase 1 needs no notice, so the notices overlap it and the
// whole construction costs about ceil(log2 p) + 1 message latencies.
#include <array>
#include <climits>

#include "mpi/collectives/collectives.hpp"
#include "mpi/collectives/rooted/rooted.hpp"
#include "optcoll/model/log2.hpp"

namespace optcoll::mpi {
namespace {

struct Notice {
  std::int64_t receives = 0;  // 1: receive the partner's group, 0: send own group
  std::int64_t partner = -1;
  std::int64_t other_bytes = 0;  // the partner's group
  std::int64_t own_bytes = 0;    // this root's group
};

// Group bounds of level k around `rank`: L = [a, r0), R = [r0, end).
struct Level {
  plan::rank_t a = 0, r0 = 0, end = 0;
  bool exists = false;
};
Level level(plan::rank_t p, plan::rank_t rank, std::int64_t k) {
  const plan::rank_t w = plan::rank_t{1} << k;
  Level l;
  l.a = rank / (2 * w) * (2 * w);
  l.r0 = l.a + w;
  l.end = std::min(l.a + 2 * w, p);
  l.exists = l.r0 < p;
  return l;
}

plan::rank_t contact(plan::rank_t lo, plan::rank_t end, plan::rank_t root) {
  return root >= lo && root < end ? root : end - 1;
}

void wait_for(const ExecConfig& e, std::span<MPI_Request> r, Relay* relay) {
  if (relay != nullptr)
    relay->wait_relaying(r);
  else
    wait_all(r, e.wait, e.spin);
}

void exchange(const ExecConfig& e, int peer, const std::int64_t* out, std::int64_t* in, int words, int tag,
              Relay* relay) {
  std::array<MPI_Request, 2> r{MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  check(PMPI_Irecv(in, words, MPI_INT64_T, peer, tag, e.comm, &r[0]), "MPI_Irecv");
  check(PMPI_Isend(out, words, MPI_INT64_T, peer, tag, e.comm, &r[1]), "MPI_Isend");
  wait_for(e, r, relay);
}

}  // namespace

RankTree distributed_binomial_tree(const ExecConfig& e, plan::rank_t p, plan::rank_t rank, plan::rank_t root,
                                   std::int64_t my_bytes, bool adaptive, Relay* relay) {
  const std::int64_t q = model::ceil_log2(p);
  const int summary_tag = e.tag + 1, notice_tag = e.tag + 2;
  // Phase 1. `mine` is the summary of this rank's group while it is the
  // group's contact.
  std::array<std::int64_t, 2> mine{my_bytes, rank};
  std::vector<Notice> own(static_cast<std::size_t>(q));  // notices this rank gives itself
  std::vector<bool> has_own(static_cast<std::size_t>(q), false);
  std::vector<Notice> outbox(static_cast<std::size_t>(q));  // stable storage of the sends
  std::vector<MPI_Request> sends;
  for (std::int64_t k = 0; k < q; ++k) {
    const Level l = level(p, rank, k);
    if (!l.exists) continue;
    const bool left = rank < l.r0;
    const plan::rank_t cl = contact(l.a, l.r0, root), cr = contact(l.r0, l.end, root);
    if (rank != (left ? cl : cr)) continue;
    std::array<std::int64_t, 2> other{};
    exchange(e, static_cast<int>(left ? cr : cl), mine.data(), other.data(), 2, summary_tag, relay);
    const std::array<std::int64_t, 2>& sl = left ? mine : other;
    const std::array<std::int64_t, 2>& sr = left ? other : mine;
    bool left_receives = false;
    if (root >= l.a && root < l.r0)
      left_receives = true;
    else if (root >= l.r0 && root < l.end)
      left_receives = false;
    else
      left_receives = adaptive && sr[0] < sl[0];
    const std::int64_t receiver = left_receives ? sl[1] : sr[1], sender = left_receives ? sr[1] : sl[1];
    const std::int64_t recv_bytes = left_receives ? sl[0] : sr[0], send_bytes = left_receives ? sr[0] : sl[0];
    Notice n;
    if (mine[1] == receiver)
      n = {1, sender, send_bytes, recv_bytes};
    else
      n = {0, receiver, recv_bytes, send_bytes};
    const auto ku = static_cast<std::size_t>(k);
    if (mine[1] == rank) {
      own[ku] = n;
      has_own[ku] = true;
    } else {
      outbox[ku] = n;
      sends.push_back(MPI_REQUEST_NULL);
      check(PMPI_Isend(&outbox[ku], 4, MPI_INT64_T, static_cast<int>(mine[1]), notice_tag, e.comm, &sends.back()),
            "MPI_Isend");
    }
    mine = {sl[0] + sr[0], receiver};
  }
  // Phase 2: this rank's role at each level while it is a group root.
  RankTree t;
  t.view.rounds = q;
  t.self = rank;
  for (std::int64_t k = 0; k < q; ++k) {
    const Level l = level(p, rank, k);
    if (!l.exists) continue;
    const bool left = rank < l.r0;
    Notice n;
    if (has_own[static_cast<std::size_t>(k)]) {
      n = own[static_cast<std::size_t>(k)];
    } else {
      const plan::rank_t c = left ? contact(l.a, l.r0, root) : contact(l.r0, l.end, root);
      std::array<MPI_Request, 1> r{MPI_REQUEST_NULL};
      check(PMPI_Irecv(&n, 4, MPI_INT64_T, static_cast<int>(c), notice_tag, e.comm, &r[0]), "MPI_Irecv");
      wait_for(e, r, relay);
    }
    const plan::rank_t olo = left ? l.r0 : l.a, ohi = left ? l.end - 1 : l.r0 - 1;
    if (n.receives != 0) {
      if (n.other_bytes > 0) {
        t.view.down.push_back({n.partner, k, olo, ohi});
        t.down_bytes.push_back(n.other_bytes);
      }
      continue;
    }
    if (n.own_bytes > 0) {
      t.view.up = {n.partner, k, left ? l.a : l.r0, left ? l.r0 - 1 : l.end - 1};
      t.up_bytes = n.own_bytes;
    }
    break;
  }
  wait_all(sends, e.wait, e.spin);
  return t;
}

}  // namespace optcoll::mpi
