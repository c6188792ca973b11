// optcoll's Gather, Scatter, Gatherv, Scatterv and the persistent
// Gatherv/Scatterv_init against native MPI: the block size distributions of
// Traff 2018 §5.1 (same, random, zeros, spikes, skewed, two blocks,
// increasing, decreasing, and random with zeros), roots 0, p-1, p/2, every
// algorithm, displacements in reverse order with gaps, MPI_INT, a strided
// type whose holes must stay untouched, and different send and receive
// types with matching signatures (4 x MPI_INT against a contiguous type of
// 4 ints); MPI_IN_PLACE; count 0. The distributed adaptive construction is
// compared with the central one (plan::adaptive_binomial_view()) rank by
// rank, and relays the root's words to every rank meanwhile.
#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "mpi/collectives/rooted/rooted.hpp"
#include "mpi/comm/comm_state.hpp"
#include "mpi_test_util.hpp"
#include "optcoll/optcoll.h"
#include "optcoll/optcoll.hpp"
#include "optcoll/plan/tree_plan.hpp"
#include "optcoll/trees/block_sizes.hpp"

namespace optcoll::test {
namespace {

using trees::BlockDistribution;

struct Dist {
  std::string name;
  std::vector<std::int64_t> m;  // elements per rank
};

// The distributions at average block size b (deterministic: the same at
// every rank).
std::vector<Dist> distributions(int p, std::int64_t b) {
  std::vector<Dist> d;
  const auto add = [&](BlockDistribution x) {
    d.push_back({std::string(trees::to_string(x)), trees::block_sizes(x, p, b, 5, seed_of({p, b}))});
  };
  for (BlockDistribution x :
       {BlockDistribution::same, BlockDistribution::random, BlockDistribution::spikes, BlockDistribution::skewed,
        BlockDistribution::two_blocks, BlockDistribution::increasing, BlockDistribution::decreasing})
    add(x);
  d.push_back({"zeros", std::vector<std::int64_t>(static_cast<std::size_t>(p), 0)});
  std::vector<std::int64_t> z = trees::block_sizes(BlockDistribution::random, p, b, 5, seed_of({p, b, 7}));
  for (std::size_t i = 0; i < z.size(); i += 3) z[i] = 0;
  d.push_back({"random-zeros", z});
  // Lemma 2's shape: one large block (at a test root), the rest small.
  std::vector<std::int64_t> lemma(static_cast<std::size_t>(p), 2);
  lemma[static_cast<std::size_t>(p - 1)] = 40 * b;
  d.push_back({"lemma2", lemma});
  return d;
}

// Send / receive datatypes: same kind at both ends, or senders with the
// 4-int contiguous type and the root with 4 x MPI_INT.
struct TypePair {
  Kind mine;           // the non-root side (sendtype of Gatherv, recvtype of Scatterv)
  Kind all;            // the root's receive (Gatherv) / send (Scatterv) side
  std::int64_t ratio;  // elements of `all` per element of `mine`
};
const std::vector<TypePair>& type_pairs() {
  static const std::vector<TypePair> t{
      {Kind::int32, Kind::int32, 1}, {Kind::strided, Kind::strided, 1}, {Kind::matrix, Kind::int32, 4}};
  return t;
}

// The root's layout: rank i's block at displacement displs[i], in reverse
// rank order with a one-element gap between blocks.
struct RootLayout {
  std::vector<std::int64_t> counts, displs;
  std::int64_t total = 0;
};
RootLayout reversed_layout(const std::vector<std::int64_t>& m, std::int64_t ratio) {
  RootLayout l;
  const std::size_t p = m.size();
  l.counts.resize(p);
  l.displs.resize(p);
  for (std::size_t i = p; i-- > 0;) {
    l.counts[i] = m[i] * ratio;
    l.displs[i] = l.total;
    l.total += l.counts[i] + 1;
  }
  return l;
}

std::vector<int> as_int(const std::vector<std::int64_t>& v) {
  return {v.begin(), v.end()};
}

std::string where_v(const std::string& dist, int root, const TypePair& t, const std::string& alg) {
  return "dist=" + dist + " root=" + std::to_string(root) + " mine=" + name(t.mine) + " all=" + name(t.all) +
         " algorithm=" + (alg.empty() ? "default" : alg);
}

const std::vector<std::string> kAlgorithms{"", "adaptive_binomial", "binomial", "two", "linear"};

// MPICH's native collectives (the oracles) are slow on an oversubscribed
// node: beyond 4 ranks the larger cases run a subset.
bool trimmed() {
  return world_size() > 4;
}
std::vector<int> roots(int p) {
  std::vector<int> r = test_roots(p);
  if (trimmed()) r.pop_back();  // 0 and p-1
  return r;
}
// One communicator for the data tests: Gatherv's first call on a
// communicator calibrates alpha and beta (slow on an oversubscribed node
// under MPICH), so the tests share it. MPI_Finalize frees it.
MPI_Comm shared_comm() {
  static const MPI_Comm comm = [] {
    MPI_Comm c = MPI_COMM_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    return c;
  }();
  return comm;
}
bool skip_large(const Dist& d, std::int64_t b) {
  return b > 100 && trimmed() && d.name != "random" && d.name != "spikes" && d.name != "skewed";
}

TEST(MpiGather, GathervMatchesNative) {
  const int p = world_size(), rank = world_rank();
  const MPI_Comm comm = shared_comm();
  for (std::int64_t b : {std::int64_t{6}, std::int64_t{3000}}) {
    for (const Dist& d : distributions(p, b)) {
      if (skip_large(d, b)) continue;
      for (int root : roots(p)) {
        for (const TypePair& tp : type_pairs()) {
          if (b > 100 && tp.mine == Kind::strided) continue;  // (keeps the run short)
          const RootLayout lay = reversed_layout(d.m, tp.ratio);
          const std::int64_t mine = d.m[static_cast<std::size_t>(rank)];
          Buffer send(tp.mine, mine);
          send.fill(seed_of({b, root, rank}));
          Buffer expect(tp.all, rank == root ? lay.total : 0);
          ASSERT_EQ(MPI_Gatherv(send.data(), static_cast<int>(mine), send.type(), expect.data(),
                                as_int(lay.counts).data(), as_int(lay.displs).data(), expect.type(), root, comm),
                    MPI_SUCCESS);
          for (const std::string& alg : kAlgorithms) {
            SCOPED_TRACE(where_v(d.name, root, tp, alg) + " b=" + std::to_string(b));
            Buffer got(tp.all, rank == root ? lay.total : 0);
            gatherv(send.data(), mine, send.type(), got.data(), lay.counts, lay.displs, got.type(), root, comm,
                    Options{alg, 0});
            EXPECT_EQ(first_difference(got, expect), -1);
          }
        }
      }
    }
  }
}

TEST(MpiGather, ScattervMatchesNative) {
  const int p = world_size(), rank = world_rank();
  const MPI_Comm comm = shared_comm();
  for (std::int64_t b : {std::int64_t{6}, std::int64_t{3000}}) {
    for (const Dist& d : distributions(p, b)) {
      if (skip_large(d, b)) continue;
      for (int root : roots(p)) {
        for (const TypePair& tp : type_pairs()) {
          if (b > 100 && tp.mine == Kind::strided) continue;
          const RootLayout lay = reversed_layout(d.m, tp.ratio);
          const std::int64_t mine = d.m[static_cast<std::size_t>(rank)];
          Buffer send(tp.all, rank == root ? lay.total : 0);
          send.fill(seed_of({b, root}));
          Buffer expect(tp.mine, mine);
          ASSERT_EQ(MPI_Scatterv(send.data(), as_int(lay.counts).data(), as_int(lay.displs).data(), send.type(),
                                 expect.data(), static_cast<int>(mine), expect.type(), root, comm),
                    MPI_SUCCESS);
          for (const std::string& alg : kAlgorithms) {
            SCOPED_TRACE(where_v(d.name, root, tp, alg) + " b=" + std::to_string(b));
            Buffer got(tp.mine, mine);
            scatterv(send.data(), lay.counts, lay.displs, send.type(), got.data(), mine, got.type(), root, comm,
                     Options{alg, 0});
            EXPECT_EQ(first_difference(got, expect), -1);
          }
        }
      }
    }
  }
}

// MPI_IN_PLACE at the root, through the C API.
TEST(MpiGather, InPlace) {
  const int p = world_size(), rank = world_rank();
  const MPI_Comm comm = shared_comm();
  const std::vector<std::int64_t> m = distributions(p, 5)[1].m;  // random
  const RootLayout lay = reversed_layout(m, 1);
  for (int root : roots(p)) {
    const std::int64_t mine = m[static_cast<std::size_t>(rank)];
    Buffer send(Kind::int32, mine);
    send.fill(seed_of({root, rank}));
    Buffer expect(Kind::int32, lay.total);
    expect.fill(seed_of({root, 99}));
    Buffer got = expect;
    if (rank == root) {
      ASSERT_EQ(MPI_Gatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, expect.data(), as_int(lay.counts).data(),
                            as_int(lay.displs).data(), MPI_INT, root, comm),
                MPI_SUCCESS);
      EXPECT_EQ(OPTCOLL_Gatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, got.data(), as_int(lay.counts).data(),
                                as_int(lay.displs).data(), MPI_INT, root, comm),
                MPI_SUCCESS);
    } else {
      ASSERT_EQ(
          MPI_Gatherv(send.data(), static_cast<int>(mine), MPI_INT, nullptr, nullptr, nullptr, MPI_INT, root, comm),
          MPI_SUCCESS);
      EXPECT_EQ(OPTCOLL_Gatherv(send.data(), static_cast<int>(mine), MPI_INT, nullptr, nullptr, nullptr,
                                MPI_DATATYPE_NULL, root, comm),
                MPI_SUCCESS);
    }
    EXPECT_EQ(first_difference(got, expect), -1) << "gatherv root=" << root;

    // Scatterv: the root's own block stays where it is.
    Buffer all(Kind::int32, lay.total);
    all.fill(seed_of({root, 5}));
    const Buffer before = all;
    Buffer r1(Kind::int32, mine), r2(Kind::int32, mine);
    void* recv = rank == root ? MPI_IN_PLACE : r2.data();
    ASSERT_EQ(MPI_Scatterv(all.data(), as_int(lay.counts).data(), as_int(lay.displs).data(), MPI_INT,
                           rank == root ? MPI_IN_PLACE : r1.data(), static_cast<int>(mine), MPI_INT, root, comm),
              MPI_SUCCESS);
    EXPECT_EQ(OPTCOLL_Scatterv(all.data(), as_int(lay.counts).data(), as_int(lay.displs).data(), MPI_INT, recv,
                               static_cast<int>(mine), MPI_INT, root, comm),
              MPI_SUCCESS);
    EXPECT_EQ(first_difference(r1, r2), -1) << "scatterv root=" << root;
    EXPECT_EQ(first_difference(all, before), -1) << "scatterv changed sendbuf";
  }
}

// Regular Gather and Scatter: counts 0, 1, q-1, q+1, 1000, every root,
// IN_PLACE, the C API, different types with equal signatures.
TEST(MpiGather, GatherScatterMatchNative) {
  const int p = world_size(), rank = world_rank();
  const MPI_Comm comm = shared_comm();
  for (std::int64_t count : test_counts(p)) {
    if (trimmed() && count > 1 && count < 1000) continue;
    for (int root : roots(p)) {
      for (const TypePair& tp : type_pairs()) {
        if (trimmed() && tp.mine == Kind::strided && count > 1) continue;
        SCOPED_TRACE("count=" + std::to_string(count) + " " + where_v("regular", root, tp, ""));
        const int c = static_cast<int>(count), ca = static_cast<int>(count * tp.ratio);
        Buffer send(tp.mine, count);
        send.fill(seed_of({count, root, rank}));
        Buffer expect(tp.all, count * tp.ratio * p);
        Buffer got = expect;
        ASSERT_EQ(MPI_Gather(send.data(), c, send.type(), expect.data(), ca, expect.type(), root, comm), MPI_SUCCESS);
        EXPECT_EQ(OPTCOLL_Gather(send.data(), c, send.type(), got.data(), ca, got.type(), root, comm), MPI_SUCCESS);
        EXPECT_EQ(first_difference(got, expect), -1) << "gather";

        Buffer all(tp.all, count * tp.ratio * p);
        all.fill(seed_of({count, root}));
        Buffer r1(tp.mine, count), r2(tp.mine, count);
        ASSERT_EQ(MPI_Scatter(all.data(), ca, all.type(), r1.data(), c, r1.type(), root, comm), MPI_SUCCESS);
        scatter(all.data(), ca, all.type(), r2.data(), c, r2.type(), root, comm);
        EXPECT_EQ(first_difference(r2, r1), -1) << "scatter";
        // Each plan by name (the calls above take the selection's).
        if (&tp != &type_pairs().front()) continue;
        for (const char* alg : {"binomial", "linear"}) {
          Buffer g2(tp.all, count * tp.ratio * p), s2(tp.mine, count);
          gather(send.data(), count, send.type(), g2.data(), count * tp.ratio, g2.type(), root, comm, {alg, 0});
          EXPECT_EQ(first_difference(g2, expect), -1) << "gather " << alg;
          scatter(all.data(), count * tp.ratio, all.type(), s2.data(), count, s2.type(), root, comm, {alg, 0});
          EXPECT_EQ(first_difference(s2, r1), -1) << "scatter " << alg;
        }
      }
      // In place at the root.
      Buffer send(Kind::int32, count);
      send.fill(seed_of({count, root, rank, 1}));
      Buffer expect(Kind::int32, count * p);
      expect.fill(seed_of({count, root, 2}));
      Buffer got = expect;
      const bool is_root = rank == root;
      const int c = static_cast<int>(count);
      ASSERT_EQ(MPI_Gather(is_root ? MPI_IN_PLACE : send.data(), c, MPI_INT, expect.data(), c, MPI_INT, root, comm),
                MPI_SUCCESS);
      gather(is_root ? MPI_IN_PLACE : send.data(), count, MPI_INT, got.data(), count, MPI_INT, root, comm);
      EXPECT_EQ(first_difference(got, expect), -1) << "gather in place root=" << root;
      Buffer r1(Kind::int32, count), r2(Kind::int32, count);
      ASSERT_EQ(MPI_Scatter(expect.data(), c, MPI_INT, is_root ? MPI_IN_PLACE : r1.data(), c, MPI_INT, root, comm),
                MPI_SUCCESS);
      EXPECT_EQ(OPTCOLL_Scatter(expect.data(), c, MPI_INT, is_root ? MPI_IN_PLACE : r2.data(), c, MPI_INT, root, comm),
                MPI_SUCCESS);
      EXPECT_EQ(first_difference(r2, r1), -1) << "scatter in place root=" << root;
    }
  }
}

// The distributed construction equals the central one at every rank:
// adaptive against plan::adaptive_binomial_view(), oblivious against
// plan::binomial_view(), the same parents, levels, intervals, and link sizes
// equal to the sums of the blocks.
TEST(MpiGather, DistributedTreeEqualsCentral) {
  const int p = world_size(), rank = world_rank();
  const MPI_Comm comm = shared_comm();
  const mpi::ExecConfig e = mpi::tree_config(mpi::comm_state(comm));
  const auto sum = [](const std::vector<std::int64_t>& m, plan::rank_t lo, plan::rank_t hi) {
    return std::accumulate(m.begin() + lo, m.begin() + hi + 1, std::int64_t{0});
  };
  const auto same = [](const plan::TreeLink& a, const plan::TreeLink& b) {
    return a.peer == b.peer && a.round == b.round && a.lo == b.lo && a.hi == b.hi;
  };
  for (const Dist& d : distributions(p, 20)) {
    std::vector<plan::Segment> g;
    std::int64_t at = 0;
    for (std::int64_t x : d.m) g.push_back({at, x}), at += x;
    const plan::BlockLayout layout(g, 1);
    for (int root = 0; root < p; ++root) {
      if (trimmed() && root % 3 != 0 && root != p - 1) continue;
      for (bool adaptive : {true, false}) {
        SCOPED_TRACE(d.name + " root=" + std::to_string(root) + (adaptive ? " adaptive" : " oblivious"));
        // The adaptive construction relays words of the root's to every
        // rank inside its waits (Gatherv's decision, gatherv_scatterv.cpp); the
        // oblivious one relays nothing.
        std::array<std::int64_t, 4> words{};
        const auto word = [&](std::size_t i) { return std::int64_t{root} * 1000 + static_cast<std::int64_t>(i) + 1; };
        if (rank == root)
          for (std::size_t i = 0; i < words.size(); ++i) words[i] = word(i);
        std::optional<mpi::Relay> relay;
        if (adaptive) relay.emplace(e, p, rank, root, words.data(), static_cast<int>(sizeof words));
        const mpi::RankTree t = mpi::distributed_binomial_tree(e, p, rank, root, d.m[static_cast<std::size_t>(rank)],
                                                               adaptive, relay ? &*relay : nullptr);
        if (relay) {
          relay->finish();
          for (std::size_t i = 0; i < words.size(); ++i) EXPECT_EQ(words[i], word(i)) << "relayed word " << i;
        }
        const plan::TreeRankView c =
            adaptive ? plan::adaptive_binomial_view(d.m, root, rank) : plan::binomial_view(p, root, rank, layout);
        EXPECT_EQ(t.view.rounds, c.rounds);
        EXPECT_TRUE(same(t.view.up, c.up)) << "up: " << t.view.up.peer << " vs " << c.up.peer;
        if (t.view.up.peer >= 0) {
          EXPECT_EQ(t.up_bytes, sum(d.m, t.view.up.lo, t.view.up.hi));
        }
        ASSERT_EQ(t.view.down.size(), c.down.size());
        for (std::size_t i = 0; i < c.down.size(); ++i) {
          EXPECT_TRUE(same(t.view.down[i], c.down[i])) << "down " << i;
          EXPECT_EQ(t.down_bytes[i], sum(d.m, t.view.down[i].lo, t.view.down[i].hi));
        }
      }
    }
  }
}

// Persistent requests: several starts with new data each time, two requests
// active at once, against native MPI; the C API with its handle.
TEST(MpiGather, PersistentMatchesNative) {
  const int p = world_size(), rank = world_rank();
  const MPI_Comm comm = shared_comm();
  for (const Dist& d : distributions(p, 40)) {
    if (trimmed() && d.name != "random" && d.name != "two-blocks") continue;
    for (int root : roots(p)) {
      SCOPED_TRACE(d.name + " root=" + std::to_string(root));
      const RootLayout lay = reversed_layout(d.m, 1);
      const std::int64_t mine = d.m[static_cast<std::size_t>(rank)];
      Buffer send(Kind::int32, mine), got(Kind::int32, lay.total), expect(Kind::int32, lay.total);
      Buffer all(Kind::int32, lay.total), r1(Kind::int32, mine), r2(Kind::int32, mine);
      Request g = gatherv_init(send.data(), mine, MPI_INT, got.data(), lay.counts, lay.displs, MPI_INT, root, comm);
      OPTCOLL_Request s = OPTCOLL_REQUEST_NULL;
      ASSERT_EQ(OPTCOLL_Scatterv_init(all.data(), as_int(lay.counts).data(), as_int(lay.displs).data(), MPI_INT,
                                      r2.data(), static_cast<int>(mine), MPI_INT, root, comm, MPI_INFO_NULL, &s),
                MPI_SUCCESS);
      for (int it = 0; it < 2; ++it) {
        send.fill(seed_of({root, rank, it}));
        all.fill(seed_of({root, it, 3}));
        g.start();
        ASSERT_EQ(OPTCOLL_Start(&s), MPI_SUCCESS);
        EXPECT_TRUE(g.active());
        g.wait();
        ASSERT_EQ(OPTCOLL_Wait(&s, MPI_STATUS_IGNORE), MPI_SUCCESS);
        ASSERT_EQ(MPI_Gatherv(send.data(), static_cast<int>(mine), MPI_INT, expect.data(), as_int(lay.counts).data(),
                              as_int(lay.displs).data(), MPI_INT, root, comm),
                  MPI_SUCCESS);
        ASSERT_EQ(MPI_Scatterv(all.data(), as_int(lay.counts).data(), as_int(lay.displs).data(), MPI_INT, r1.data(),
                               static_cast<int>(mine), MPI_INT, root, comm),
                  MPI_SUCCESS);
        EXPECT_EQ(first_difference(got, expect), -1) << "gatherv_init iteration " << it;
        EXPECT_EQ(first_difference(r2, r1), -1) << "scatterv_init iteration " << it;
      }
      EXPECT_EQ(OPTCOLL_Wait(&s, MPI_STATUS_IGNORE), MPI_SUCCESS);  // inactive: returns at once
      ASSERT_EQ(OPTCOLL_Request_free(&s), MPI_SUCCESS);
      EXPECT_EQ(s, OPTCOLL_REQUEST_NULL);
    }
  }
}

// Negative displacements (recvbuf / sendbuf pointing into the middle).
TEST(MpiGather, NegativeDisplacements) {
  const int p = world_size(), rank = world_rank();
  const MPI_Comm comm = shared_comm();
  const std::vector<std::int64_t> m = distributions(p, 9)[1].m;  // random
  RootLayout lay = reversed_layout(m, 1);
  const std::int64_t mid = lay.total / 2;
  for (std::int64_t& d : lay.displs) d -= mid;
  const int root = p - 1;
  const std::int64_t mine = m[static_cast<std::size_t>(rank)];
  std::vector<int> send(static_cast<std::size_t>(mine) + 1, rank), expect(static_cast<std::size_t>(lay.total) + 1, -1);
  std::vector<int> got = expect;
  const auto at = [&](std::vector<int>& v) { return v.data() + mid; };
  ASSERT_EQ(MPI_Gatherv(send.data(), static_cast<int>(mine), MPI_INT, at(expect), as_int(lay.counts).data(),
                        as_int(lay.displs).data(), MPI_INT, root, comm),
            MPI_SUCCESS);
  gatherv(send.data(), mine, MPI_INT, at(got), lay.counts, lay.displs, MPI_INT, root, comm);
  EXPECT_EQ(got, expect);
  std::vector<int> r1(send.size(), -1), r2(send.size(), -1);
  ASSERT_EQ(MPI_Scatterv(at(expect), as_int(lay.counts).data(), as_int(lay.displs).data(), MPI_INT, r1.data(),
                         static_cast<int>(mine), MPI_INT, root, comm),
            MPI_SUCCESS);
  scatterv(at(expect), lay.counts, lay.displs, MPI_INT, r2.data(), mine, MPI_INT, root, comm);
  EXPECT_EQ(r2, r1);
}

// Messages cut into chunks (OPTCOLL_MAX_CHUNK_ELEMS, counted in bytes for
// gather/scatter): 8 bytes. MPI_INT at the root cuts at the same bytes
// (2 ints); a 12-byte type cannot, so the root works on a packed copy.
TEST(MpiGather, ChunkedMessages) {
  // (A fresh communicator, as the setting is read when its cache is built;
  // the adaptive tree needs no calibration.)
  const int p = world_size(), rank = world_rank();
  if (rank == 0) setenv("OPTCOLL_MAX_CHUNK_ELEMS", "8", 1);
  TestComm comm;
  MPI_Datatype triple = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(3, MPI_INT, &triple);
  MPI_Type_commit(&triple);
  const std::vector<std::int64_t> m = distributions(p, 7)[1].m;  // random
  for (const MPI_Datatype t : {MPI_INT, triple}) {
    const std::int64_t w = t == MPI_INT ? 1 : 3;  // ints per element
    const RootLayout lay = reversed_layout(m, 1);
    const int root = p / 2;
    const std::int64_t mine = m[static_cast<std::size_t>(rank)];
    std::vector<int> send(static_cast<std::size_t>(mine * w) + 1),
        expect(static_cast<std::size_t>(lay.total * w) + 1, -1);
    for (std::size_t i = 0; i < send.size(); ++i) send[i] = 1000 * rank + static_cast<int>(i);
    std::vector<int> got = expect;
    ASSERT_EQ(MPI_Gatherv(send.data(), static_cast<int>(mine), t, expect.data(), as_int(lay.counts).data(),
                          as_int(lay.displs).data(), t, root, comm),
              MPI_SUCCESS);
    gatherv(send.data(), mine, t, got.data(), lay.counts, lay.displs, t, root, comm, {"adaptive_binomial", 0});
    EXPECT_EQ(got, expect) << "gatherv, ints per element " << w;
    std::vector<int> r1(send.size(), -1), r2(send.size(), -1);
    ASSERT_EQ(MPI_Scatterv(expect.data(), as_int(lay.counts).data(), as_int(lay.displs).data(), t, r1.data(),
                           static_cast<int>(mine), t, root, comm),
              MPI_SUCCESS);
    scatterv(expect.data(), lay.counts, lay.displs, t, r2.data(), mine, t, root, comm, {"adaptive_binomial", 0});
    EXPECT_EQ(r2, r1) << "scatterv, ints per element " << w;
  }
  MPI_Type_free(&triple);
  if (rank == 0) unsetenv("OPTCOLL_MAX_CHUNK_ELEMS");
}

int error_class(int code) {
  int c = code;
  MPI_Error_class(code, &c);
  return c;
}

// Errors every rank detects (C API through MPI_ERRORS_RETURN, C++ as
// MpiError), and the root-only ones on MPI_COMM_SELF.
TEST(MpiGather, ArgumentErrors) {
  const int p = world_size();
  TestComm comm;
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  std::vector<int> buf(static_cast<std::size_t>(4 * p), 0), counts(static_cast<std::size_t>(p), 1),
      displs(static_cast<std::size_t>(p), 0);
  EXPECT_EQ(error_class(OPTCOLL_Gather(buf.data(), 1, MPI_INT, buf.data() + 1, 1, MPI_INT, p, comm)), MPI_ERR_ROOT);
  EXPECT_EQ(error_class(OPTCOLL_Scatter(buf.data(), 1, MPI_INT, buf.data(), 1, MPI_INT, -1, comm)), MPI_ERR_ROOT);
  EXPECT_EQ(error_class(OPTCOLL_Gatherv(buf.data(), 1, MPI_INT, buf.data(), counts.data(), displs.data(), MPI_INT,
                                        p + 3, comm)),
            MPI_ERR_ROOT);
  EXPECT_EQ(error_class(OPTCOLL_Gather(buf.data(), -1, MPI_INT, buf.data() + 1, -1, MPI_INT, 0, comm)), MPI_ERR_COUNT);
  EXPECT_EQ(error_class(
                OPTCOLL_Scatterv(buf.data(), counts.data(), displs.data(), MPI_INT, buf.data(), -2, MPI_INT, 0, comm)),
            MPI_ERR_COUNT);
  EXPECT_EQ(error_class(OPTCOLL_Gather(nullptr, 1, MPI_INT, buf.data(), 1, MPI_INT, 0, comm)), MPI_ERR_BUFFER);
  EXPECT_EQ(error_class(OPTCOLL_Gatherv(buf.data(), 1, MPI_DATATYPE_NULL, buf.data(), counts.data(), displs.data(),
                                        MPI_INT, 0, comm)),
            MPI_ERR_TYPE);
  try {
    gatherv(buf.data(), 1, MPI_INT, buf.data(), {}, {}, MPI_INT, p, comm);
    ADD_FAILURE() << "no exception";
  } catch (const MpiError& e) {
    EXPECT_EQ(e.mpi_class(), MPI_ERR_ROOT);
  }
  try {
    scatter(buf.data(), 1, MPI_INT, buf.data(), 1, MPI_INT, 0, comm, Options{"adaptive_binomial", 0});
    ADD_FAILURE() << "no exception";
  } catch (const MpiError& e) {
    EXPECT_EQ(e.mpi_class(), MPI_ERR_ARG);
  }
  // Root-only checks, on a communicator of one rank.
  MPI_Comm self = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_SELF, &self);
  MPI_Comm_set_errhandler(self, MPI_ERRORS_RETURN);
  int neg = -1, zero = 0;
  EXPECT_EQ(error_class(OPTCOLL_Gatherv(buf.data(), 1, MPI_INT, buf.data(), &neg, &zero, MPI_INT, 0, self)),
            MPI_ERR_COUNT);
  EXPECT_EQ(error_class(OPTCOLL_Gatherv(buf.data(), 1, MPI_INT, buf.data(), nullptr, &zero, MPI_INT, 0, self)),
            MPI_ERR_ARG);
  int one = 1;
  EXPECT_EQ(error_class(OPTCOLL_Scatterv(nullptr, &one, &zero, MPI_INT, buf.data(), 1, MPI_INT, 0, self)),
            MPI_ERR_BUFFER);
  EXPECT_EQ(error_class(OPTCOLL_Gatherv(MPI_IN_PLACE, 0, MPI_INT, nullptr, &one, &zero, MPI_INT, 0, self)),
            MPI_ERR_BUFFER);
  MPI_Comm_free(&self);
  // A null request reports on MPI_COMM_WORLD's handler.
  MPI_Errhandler old = MPI_ERRHANDLER_NULL;
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &old);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  OPTCOLL_Request r = OPTCOLL_REQUEST_NULL;
  EXPECT_EQ(error_class(OPTCOLL_Start(&r)), MPI_ERR_REQUEST);
  EXPECT_EQ(error_class(OPTCOLL_Request_free(&r)), MPI_ERR_REQUEST);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, old);
  MPI_Errhandler_free(&old);
}

}  // namespace
}  // namespace optcoll::test
