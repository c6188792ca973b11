// The node-aware plans ("lanes", "leaders") over MPI, on nodes imposed with
// OPTCOLL_NODE_SIZE (CTest sets it; odd p and an uneven last node), named
// through Options and through OPTCOLL_<OP>: Bcast, Reduce, Allreduce,
// Allgather(v), Reduce_scatter(_block) against the native MPI call on the
// same data, word for word (holes of the strided type included); MPI_INT,
// MPI_SUM on integer-valued MPI_DOUBLE, a commutative user operator on a
// strided type, the non-commutative 2x2 matrix product (rank order);
// roots on every node; counts 0, 1, 7 and longer; MPI_IN_PLACE; blocking,
// nonblocking and persistent forms (started twice); a forced block count.
// The prepared plan is the composition on the communicator's nodes.
// Allreduce of inexact doubles: the same bits at every rank and on every
// call.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "mpi/comm/choose.hpp"
#include "mpi/comm/comm_state.hpp"
#include "mpi/executor/prepared_plan.hpp"
#include "mpi_test_util.hpp"
#include "node_aware_util.hpp"
#include "optcoll/optcoll.h"
#include "optcoll/optcoll.hpp"

namespace optcoll::test {
namespace {

// (MPI_SUM on integer-valued doubles is exact, so compared word for word.)
std::vector<OpCase> op_cases() {
  return {{Kind::float64, MPI_SUM, "MPI_SUM"},
          {Kind::strided, Ops::get().ring, "ring"},
          {Kind::matrix, Ops::get().matrix, "matrix"}};
}

const std::vector<std::int64_t> kCounts{0, 1, 7, 600};
// Block counts: automatic and 3 for the blocking form, automatic for the
// others (the same plans; a request only binds them differently).
std::vector<std::int64_t> blocks_for(Form f) {
  return f == Form::blocking ? std::vector<std::int64_t>{0, 3} : std::vector<std::int64_t>{0};
}

std::string trace(const std::string& alg, Form f, std::int64_t count, std::int64_t blocks, int root, bool in_place,
                  const char* op) {
  return alg + " " + name(f) + " count=" + std::to_string(count) + " blocks=" + std::to_string(blocks) +
         " root=" + std::to_string(root) + (in_place ? " MPI_IN_PLACE" : "") + " op=" + op;
}

TEST(MpiNodeAware, Bcast) {
  TestComm comm;
  if (!nodes_as_imposed(comm)) GTEST_SKIP() << "one node";
  const int p = world_size(), r = world_rank();
  for (const char* alg : {"lanes", "leaders"})
    for (const Kind kind : {Kind::int32, Kind::strided})
      for (const std::int64_t count : kCounts)
        for (const int root : test_roots(p))
          for (const Form f : kForms)
            for (const std::int64_t blocks : blocks_for(f)) {
              SCOPED_TRACE(trace(alg, f, count, blocks, root, false, name(kind)));
              Buffer expect(kind, count);
              expect.fill(seed_of({root, count, 1}));
              Buffer got(kind, count);
              const Options o{alg, blocks};
              const auto reset = [&] { refill(got, r == root ? &expect : nullptr); };
              run(
                  f, [&] { bcast(got.data(), count, got.type(), root, comm, o); },
                  [&](bool init) {
                    return init ? bcast_init(got.data(), count, got.type(), root, comm, o)
                                : ibcast(got.data(), count, got.type(), root, comm, o);
                  },
                  reset);
              EXPECT_EQ(first_difference(got, expect), -1);
            }
}

TEST(MpiNodeAware, Reduce) {
  TestComm comm;
  if (!nodes_as_imposed(comm)) GTEST_SKIP() << "one node";
  const int p = world_size(), r = world_rank();
  for (const OpCase& c : op_cases())
    for (const std::int64_t count : kCounts)
      for (const int root : test_roots(p)) {
        Buffer send(c.kind, count);
        send.fill(seed_of({r, count, 2}));
        Buffer expect(c.kind, count);
        ASSERT_EQ(MPI_Reduce(send.data(), expect.data(), static_cast<int>(count), send.type(), c.op, root, comm),
                  MPI_SUCCESS);
        for (const Form f : kForms)
          for (const std::int64_t blocks : blocks_for(f))
            for (const bool in_place : {false, true}) {
              SCOPED_TRACE(trace("lanes", f, count, blocks, root, in_place, c.name));
              const Options o{"lanes", blocks};
              Buffer got(c.kind, count);
              const bool ip = in_place && r == root;
              const void* sb = ip ? MPI_IN_PLACE : send.data();
              const auto reset = [&] { refill(got, ip ? &send : nullptr); };
              run(
                  f, [&] { reduce(sb, got.data(), count, send.type(), c.op, root, comm, o); },
                  [&](bool init) {
                    return init ? reduce_init(sb, got.data(), count, send.type(), c.op, root, comm, o)
                                : ireduce(sb, got.data(), count, send.type(), c.op, root, comm, o);
                  },
                  reset);
              if (r == root) {
                EXPECT_EQ(first_difference(got, expect), -1);
              }
            }
      }
}

TEST(MpiNodeAware, Allreduce) {
  TestComm comm;
  if (!nodes_as_imposed(comm)) GTEST_SKIP() << "one node";
  const int r = world_rank();
  for (const char* alg : {"lanes", "leaders"})
    for (const OpCase& c : op_cases())
      for (const std::int64_t count : kCounts) {
        Buffer send(c.kind, count);
        send.fill(seed_of({r, count, 3}));
        Buffer expect(c.kind, count);
        ASSERT_EQ(MPI_Allreduce(send.data(), expect.data(), static_cast<int>(count), send.type(), c.op, comm),
                  MPI_SUCCESS);
        for (const Form f : kForms)
          for (const std::int64_t blocks : blocks_for(f))
            for (const bool in_place : {false, true}) {
              SCOPED_TRACE(trace(alg, f, count, blocks, 0, in_place, c.name));
              const Options o{alg, blocks};
              Buffer got(c.kind, count);
              const void* sb = in_place ? MPI_IN_PLACE : send.data();
              const auto reset = [&] { refill(got, in_place ? &send : nullptr); };
              run(
                  f, [&] { allreduce(sb, got.data(), count, send.type(), c.op, comm, o); },
                  [&](bool init) {
                    return init ? allreduce_init(sb, got.data(), count, send.type(), c.op, comm, o)
                                : iallreduce(sb, got.data(), count, send.type(), c.op, comm, o);
                  },
                  reset);
              EXPECT_EQ(first_difference(got, expect), -1);
            }
      }
}

// Rounding: doubles of many magnitudes, whose sum depends on the order of
// the additions. Every rank must get rank 0's bits, on every call, close to
// the native sum.
TEST(MpiNodeAware, AllreduceSameBitsEverywhere) {
  TestComm comm;
  if (!nodes_as_imposed(comm)) GTEST_SKIP() << "one node";
  const int r = world_rank();
  constexpr std::int64_t kCount = 1001;
  std::mt19937_64 g(seed_of({r, 4}));
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> send(kCount);
  for (std::size_t i = 0; i < send.size(); ++i) send[i] = u(g) * std::pow(10.0, static_cast<double>(i % 17) - 8);
  std::vector<double> native(kCount);
  MPI_Allreduce(send.data(), native.data(), kCount, MPI_DOUBLE, MPI_SUM, comm);
  // Rounding is relative to the terms' sizes (a sum may cancel to near 0).
  std::vector<double> size(kCount);
  for (std::size_t i = 0; i < send.size(); ++i) size[i] = std::abs(send[i]);
  MPI_Allreduce(MPI_IN_PLACE, size.data(), kCount, MPI_DOUBLE, MPI_SUM, comm);
  for (const char* alg : {"lanes", "leaders"})
    for (const std::int64_t blocks : {std::int64_t{0}, std::int64_t{5}}) {
      SCOPED_TRACE(std::string(alg) + " blocks=" + std::to_string(blocks));
      std::vector<double> first(kCount), again(kCount), root(kCount);
      allreduce(send.data(), first.data(), kCount, MPI_DOUBLE, MPI_SUM, comm, Options{alg, blocks});
      allreduce(send.data(), again.data(), kCount, MPI_DOUBLE, MPI_SUM, comm, Options{alg, blocks});
      root = first;
      MPI_Bcast(root.data(), kCount, MPI_DOUBLE, 0, comm);
      EXPECT_EQ(std::memcmp(first.data(), again.data(), sizeof(double) * kCount), 0) << "a second call differs";
      EXPECT_EQ(std::memcmp(first.data(), root.data(), sizeof(double) * kCount), 0) << "rank " << r << " differs";
      std::int64_t far = 0;  // elements off the native sum by more than rounding
      for (std::size_t k = 0; k < first.size(); ++k) far += std::abs(first[k] - native[k]) > 1e-13 * size[k] ? 1 : 0;
      EXPECT_EQ(far, 0);
    }
}

TEST(MpiNodeAware, AllgatherAndAllgatherv) {
  TestComm comm;
  if (!nodes_as_imposed(comm)) GTEST_SKIP() << "one node";
  const int p = world_size(), r = world_rank();
  for (const Kind kind : {Kind::int32, Kind::strided})
    for (const Dist d : {Dist::regular, Dist::irregular, Dist::all_zero})
      for (const int m : {1, 150}) {
        const std::vector<int> counts = counts_of(d, p, m);
        std::vector<int> displs(counts.size());
        std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
        const std::int64_t total = std::accumulate(counts.begin(), counts.end(), std::int64_t{0});
        const std::vector<std::int64_t> counts64(counts.begin(), counts.end()), displs64(displs.begin(), displs.end());
        const std::int64_t mine = counts[static_cast<std::size_t>(r)];
        Buffer send(kind, mine);
        send.fill(seed_of({r, m, 5}));
        Buffer expect(kind, total);
        ASSERT_EQ(MPI_Allgatherv(send.data(), static_cast<int>(mine), send.type(), expect.data(), counts.data(),
                                 displs.data(), send.type(), comm),
                  MPI_SUCCESS);
        const bool regular = d == Dist::regular;
        for (const Form f : kForms)
          for (const std::int64_t blocks : blocks_for(f))
            for (const bool in_place : {false, true}) {
              SCOPED_TRACE(trace("lanes", f, m, blocks, 0, in_place, name(d)));
              const Options o{"lanes", blocks};
              Buffer got(kind, total);
              const void* sb = in_place ? MPI_IN_PLACE : send.data();
              const auto reset = [&] {
                refill(got, nullptr);
                if (in_place)  // the own part already in place
                  for (std::int64_t w = 0; w < mine * send.stride(); ++w)
                    got.words[static_cast<std::size_t>(displs[static_cast<std::size_t>(r)] * send.stride() + w)] =
                        send.words[static_cast<std::size_t>(w)];
              };
              if (regular) {
                run(
                    f, [&] { allgather(sb, got.data(), m, send.type(), comm, o); },
                    [&](bool init) {
                      return init ? allgather_init(sb, got.data(), m, send.type(), comm, o)
                                  : iallgather(sb, got.data(), m, send.type(), comm, o);
                    },
                    reset);
                EXPECT_EQ(first_difference(got, expect), -1) << "allgather";
              }
              run(
                  f, [&] { allgatherv(sb, mine, got.data(), counts64, displs64, send.type(), comm, o); },
                  [&](bool init) {
                    return init ? allgatherv_init(sb, mine, got.data(), counts64, displs64, send.type(), comm, o)
                                : iallgatherv(sb, mine, got.data(), counts64, displs64, send.type(), comm, o);
                  },
                  reset);
              EXPECT_EQ(first_difference(got, expect), -1) << "allgatherv";
            }
      }
}

TEST(MpiNodeAware, ReduceScatterAndBlock) {
  TestComm comm;
  if (!nodes_as_imposed(comm)) GTEST_SKIP() << "one node";
  const int p = world_size(), r = world_rank();
  for (const OpCase& c : op_cases())
    for (const Dist d : {Dist::regular, Dist::irregular, Dist::all_zero})
      for (const int m : {1, 120}) {
        const std::vector<int> counts = counts_of(d, p, m);
        const std::int64_t total = std::accumulate(counts.begin(), counts.end(), std::int64_t{0});
        const std::vector<std::int64_t> counts64(counts.begin(), counts.end());
        const std::int64_t mine = counts[static_cast<std::size_t>(r)];
        Buffer send(c.kind, total);
        send.fill(seed_of({r, m, 6}));
        Buffer expect(c.kind, mine);
        ASSERT_EQ(MPI_Reduce_scatter(send.data(), expect.data(), counts.data(), send.type(), c.op, comm), MPI_SUCCESS);
        const bool regular = d == Dist::regular;
        for (const Form f : kForms)
          for (const std::int64_t blocks : blocks_for(f))
            for (const bool in_place : {false, true}) {
              SCOPED_TRACE(trace("lanes", f, m, blocks, 0, in_place, c.name) + " " + name(d));
              const Options o{"lanes", blocks};
              Buffer got(c.kind, in_place ? total : mine);
              const void* sb = in_place ? MPI_IN_PLACE : send.data();
              const auto reset = [&] { refill(got, in_place ? &send : nullptr); };
              // The own part: the first `mine` elements of recvbuf (in
              // place: recvbuf held the whole input).
              const auto own = [&] {
                Buffer b(c.kind, mine);
                for (std::int64_t w = 0; w < mine * send.stride(); ++w)
                  b.words[static_cast<std::size_t>(w)] = got.words[static_cast<std::size_t>(w)];
                return b;
              };
              if (regular) {
                run(
                    f, [&] { reduce_scatter_block(sb, got.data(), m, send.type(), c.op, comm, o); },
                    [&](bool init) {
                      return init ? reduce_scatter_block_init(sb, got.data(), m, send.type(), c.op, comm, o)
                                  : ireduce_scatter_block(sb, got.data(), m, send.type(), c.op, comm, o);
                    },
                    reset);
                EXPECT_EQ(first_difference(own(), expect), -1) << "reduce_scatter_block";
              }
              run(
                  f, [&] { reduce_scatter(sb, got.data(), counts64, send.type(), c.op, comm, o); },
                  [&](bool init) {
                    return init ? reduce_scatter_init(sb, got.data(), counts64, send.type(), c.op, comm, o)
                                : ireduce_scatter(sb, got.data(), counts64, send.type(), c.op, comm, o);
                  },
                  reset);
              EXPECT_EQ(first_difference(own(), expect), -1) << "reduce_scatter";
            }
      }
}

// OPTCOLL_<OP>=lanes / leaders names the plan for the C API too: the
// decision says so, and the calls match native MPI.
TEST(MpiNodeAware, NamedThroughTheEnvironment) {
  ScopedEnv bcast_env("OPTCOLL_BCAST", "leaders");
  ScopedEnv allreduce_env("OPTCOLL_ALLREDUCE", "lanes");
  ScopedEnv reduce_env("OPTCOLL_REDUCE", "lanes");
  TestComm comm;
  if (!nodes_as_imposed(comm)) GTEST_SKIP() << "one node";
  const int p = world_size(), r = world_rank();
  EXPECT_EQ(mpi::describe(comm, plan::Collective::bcast, 100, MPI_INT, MPI_OP_NULL).algorithm, "leaders");
  EXPECT_EQ(mpi::describe(comm, plan::Collective::allreduce, 100, MPI_INT, MPI_SUM).algorithm, "lanes");
  EXPECT_EQ(mpi::describe(comm, plan::Collective::reduce, 100, MPI_INT, Ops::get().matrix).algorithm, "lanes");
  std::vector<int> buf(50, r == p - 1 ? 7 : 0);
  ASSERT_EQ(OPTCOLL_Bcast(buf.data(), 50, MPI_INT, p - 1, comm), MPI_SUCCESS);
  EXPECT_EQ(buf, std::vector<int>(50, 7));
  // The executor ran the composition on the communicator's nodes: the
  // prepared plan's peers are those of the plan made with the layout, which
  // differ from the flat plan's somewhere.
  const mpi::CommState& s = mpi::comm_state(comm);
  const mpi::PreparedPlan* prepared = s.plans[static_cast<std::size_t>(plan::Collective::bcast)].get();
  ASSERT_NE(prepared, nullptr);
  plan::PlanSpec spec;
  spec.op = plan::Collective::bcast;
  spec.p = p;
  spec.root = p - 1;
  spec.count = 50;
  const schedule::Circulant graph(p);
  plan::PlanContext ctx{spec, &graph};
  const plan::AlgorithmInfo& leaders = *plan::find_algorithm(plan::Collective::bcast, "leaders");
  const std::unique_ptr<plan::RankPlan> flat = leaders.make(ctx, r);
  ctx.nodes = &*s.nodes;
  const std::unique_ptr<plan::RankPlan> want = leaders.make(ctx, r);
  ASSERT_EQ(prepared->plan().rounds(), want->rounds());
  int differs = flat->rounds() != want->rounds() ? 1 : 0;
  for (std::int64_t i = 0; i < want->rounds(); ++i) {
    plan::Step a, b, c;
    prepared->plan().step(i, a);
    want->step(i, b);
    EXPECT_EQ(a.send_to, b.send_to) << "round " << i;
    EXPECT_EQ(a.recv_from, b.recv_from) << "round " << i;
    if (i < flat->rounds()) {
      flat->step(i, c);
      differs |= c.send_to != b.send_to || c.recv_from != b.recv_from ? 1 : 0;
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, &differs, 1, MPI_INT, MPI_MAX, comm);
  EXPECT_EQ(differs, 1) << "the flat plan has the same peers: the check proves nothing";
  std::vector<int> send(50), got(50), expect(50);
  std::iota(send.begin(), send.end(), r);
  ASSERT_EQ(MPI_Allreduce(send.data(), expect.data(), 50, MPI_INT, MPI_SUM, comm), MPI_SUCCESS);
  ASSERT_EQ(OPTCOLL_Allreduce(send.data(), got.data(), 50, MPI_INT, MPI_SUM, comm), MPI_SUCCESS);
  EXPECT_EQ(got, expect);
}

}  // namespace
}  // namespace optcoll::test
