// Scan and Exscan through one rank per node ("leaders",
// plan/scan_leaders.cpp) over MPI, on nodes imposed with OPTCOLL_NODE_SIZE
// (CTest sets it; odd p and an uneven last node), named through Options and
// through OPTCOLL_SCAN / OPTCOLL_EXSCAN: against native MPI_Scan and
// MPI_Exscan on the same data, word for word (holes of the strided type
// included); MPI_SUM on integer-valued MPI_DOUBLE, a commutative user
// operator on a strided type, the non-commutative 2x2 matrix product (rank
// order across the nodes); counts 0, 1, 7 and longer; MPI_IN_PLACE;
// blocking, nonblocking and persistent forms (started twice). Exscan's rank
// 0 keeps its recvbuf. The prepared plan is the composition on the
// communicator's nodes.
#include <gtest/gtest.h>

#include <memory>
#include <numeric>
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

using plan::Collective;

const char* name(Collective op) {
  return op == Collective::scan ? "scan" : "exscan";
}

void call(Collective op, const void* sb, void* rb, std::int64_t count, MPI_Datatype t, MPI_Op mop, MPI_Comm comm,
          const Options& o) {
  if (op == Collective::scan)
    scan(sb, rb, count, t, mop, comm, o);
  else
    exscan(sb, rb, count, t, mop, comm, o);
}

Request request(Collective op, bool init, const void* sb, void* rb, std::int64_t count, MPI_Datatype t, MPI_Op mop,
                MPI_Comm comm, const Options& o) {
  if (op == Collective::scan)
    return init ? scan_init(sb, rb, count, t, mop, comm, o) : iscan(sb, rb, count, t, mop, comm, o);
  return init ? exscan_init(sb, rb, count, t, mop, comm, o) : iexscan(sb, rb, count, t, mop, comm, o);
}

TEST(MpiNodeAwareScan, ScanAndExscan) {
  TestComm comm;
  if (!nodes_as_imposed(comm)) GTEST_SKIP() << "one node";
  const int r = world_rank();
  const std::vector<OpCase> cases{{Kind::float64, MPI_SUM, "MPI_SUM"},
                                  {Kind::strided, Ops::get().ring, "ring"},
                                  {Kind::matrix, Ops::get().matrix, "matrix"}};
  for (const Collective op : {Collective::scan, Collective::exscan})
    for (const OpCase& c : cases)
      for (const std::int64_t count : {0, 1, 7, 600}) {
        Buffer send(c.kind, count);
        send.fill(seed_of({r, count, 7}));
        Buffer expect(c.kind, count);
        const int n = static_cast<int>(count);
        ASSERT_EQ(op == Collective::scan ? MPI_Scan(send.data(), expect.data(), n, send.type(), c.op, comm)
                                         : MPI_Exscan(send.data(), expect.data(), n, send.type(), c.op, comm),
                  MPI_SUCCESS);
        // Rank 0's Exscan recvbuf: untouched (here: holes, or its input in place).
        const bool undefined = op == Collective::exscan && r == 0;
        for (const Form f : kForms)
          for (const bool in_place : {false, true}) {
            SCOPED_TRACE(std::string(name(op)) + " " + name(f) + " count=" + std::to_string(count) +
                         (in_place ? " MPI_IN_PLACE" : "") + " op=" + c.name);
            const Options o{"leaders", 0};
            Buffer got(c.kind, count);
            const void* sb = in_place ? MPI_IN_PLACE : send.data();
            const auto reset = [&] { refill(got, in_place ? &send : nullptr); };
            run(
                f, [&] { call(op, sb, got.data(), count, send.type(), c.op, comm, o); },
                [&](bool init) { return request(op, init, sb, got.data(), count, send.type(), c.op, comm, o); }, reset);
            if (undefined) {
              Buffer before(c.kind, count);
              refill(before, in_place ? &send : nullptr);
              EXPECT_EQ(first_difference(got, before), -1) << "rank 0's recvbuf changed";
            } else {
              EXPECT_EQ(first_difference(got, expect), -1);
            }
          }
      }
}

// OPTCOLL_SCAN / OPTCOLL_EXSCAN = leaders names the plan for the C API:
// the decision says so, the prepared plan has the composition's rounds and
// peers (which differ from the flat doubling scan's), and the calls match
// native MPI with the non-commutative operator.
TEST(MpiNodeAwareScan, NamedThroughTheEnvironment) {
  ScopedEnv scan_env("OPTCOLL_SCAN", "leaders");
  ScopedEnv exscan_env("OPTCOLL_EXSCAN", "leaders");
  TestComm comm;
  if (!nodes_as_imposed(comm)) GTEST_SKIP() << "one node";
  const int p = world_size(), r = world_rank();
  const Ops& ops = Ops::get();
  for (const Collective op : {Collective::scan, Collective::exscan}) {
    SCOPED_TRACE(name(op));
    Buffer send(Kind::matrix, 12), got(Kind::matrix, 12), expect(Kind::matrix, 12);
    EXPECT_EQ(mpi::describe(comm, op, 12, send.type(), ops.matrix).algorithm, "leaders");
    send.fill(seed_of({r, 8}));
    refill(got, nullptr);
    const bool scan = op == Collective::scan;
    ASSERT_EQ(scan ? MPI_Scan(send.data(), expect.data(), 12, send.type(), ops.matrix, comm)
                   : MPI_Exscan(send.data(), expect.data(), 12, send.type(), ops.matrix, comm),
              MPI_SUCCESS);
    ASSERT_EQ(scan ? OPTCOLL_Scan(send.data(), got.data(), 12, send.type(), ops.matrix, comm)
                   : OPTCOLL_Exscan(send.data(), got.data(), 12, send.type(), ops.matrix, comm),
              MPI_SUCCESS);
    if (scan || r > 0) {
      EXPECT_EQ(first_difference(got, expect), -1);
    }
    const mpi::CommState& s = mpi::comm_state(comm);
    const mpi::PreparedPlan* prepared = s.plans[static_cast<std::size_t>(op)].get();
    ASSERT_NE(prepared, nullptr);
    plan::PlanSpec spec;
    spec.op = op;
    spec.p = p;
    spec.count = 12;
    spec.commutative = false;
    const schedule::Circulant graph(p);
    plan::PlanContext ctx{spec, &graph};
    const std::unique_ptr<plan::RankPlan> flat = plan::find_algorithm(op, "doubling")->make(ctx, r);
    ctx.nodes = &*s.nodes;
    const std::unique_ptr<plan::RankPlan> want = plan::find_algorithm(op, "leaders")->make(ctx, r);
    ASSERT_EQ(prepared->plan().rounds(), want->rounds());
    int differs = flat->rounds() != want->rounds() ? 1 : 0;
    for (std::int64_t i = 0; i < want->rounds(); ++i) {
      plan::Step a, b;
      prepared->plan().step(i, a);
      want->step(i, b);
      EXPECT_EQ(a.send_to, b.send_to) << "round " << i;
      EXPECT_EQ(a.recv_from, b.recv_from) << "round " << i;
      if (i < flat->rounds()) {
        plan::Step c;
        flat->step(i, c);
        differs |= c.send_to != b.send_to || c.recv_from != b.recv_from ? 1 : 0;
      }
    }
    MPI_Allreduce(MPI_IN_PLACE, &differs, 1, MPI_INT, MPI_MAX, comm);
    EXPECT_EQ(differs, 1) << "the flat plan has the same peers: the check proves nothing";
  }
}

}  // namespace
}  // namespace optcoll::test
