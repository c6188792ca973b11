// OPTCOLL_RANK_GROUP (plan/locality.hpp) over MPI: with ranks renumbered
// for locality, every circulant collective still equals native MPI (Bcast
// and Reduce at roots other than 0, Allgather, Allgatherv with uneven
// counts, Reduce_scatter(_block), Allreduce; one and three blocks), and the
// plan really runs renumbered: its first send goes where the test's own
// placement formula puts the virtual peer.
#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

#include "mpi/comm/comm_state.hpp"
#include "mpi/executor/prepared_plan.hpp"
#include "mpi_test_util.hpp"
#include "optcoll/optcoll.hpp"

namespace optcoll::test {
namespace {

// The divisors g of p with 1 < g < p.
std::vector<int> groups_of(int p) {
  std::vector<int> g;
  for (int d = 2; d < p; ++d)
    if (p % d == 0) g.push_back(d);
  return g;
}

// The first send of rank r's compiled plan (-1: none).
std::int64_t first_peer(const mpi::PreparedPlan& pp) {
  for (const plan::Compiled::Entry& e : pp.compiled().entries)
    if (plan::Compiled::is_send(e.kind)) return e.peer;
  return -1;
}

TEST(MpiLocality, RenumberedCirculantCollectivesMatchNative) {
  const int p = world_size();
  const int r = world_rank();
  if (groups_of(p).empty()) GTEST_SKIP() << "p = " << p << " has no group size between 1 and p";
  for (const int g : groups_of(p)) {
    const std::string group = std::to_string(g);
    ScopedEnv env("OPTCOLL_RANK_GROUP", group.c_str());
    TestComm comm;
    const int k = p / g;
    for (const std::int64_t n : {1, 3}) {
      SCOPED_TRACE("p=" + std::to_string(p) + " OPTCOLL_RANK_GROUP=" + group + " n=" + std::to_string(n));
      const Options o{"circulant", n};
      const std::int64_t m = 2 * p + 5;
      std::vector<int> in(static_cast<std::size_t>(m));
      std::iota(in.begin(), in.end(), 100 * r);
      // Bcast from the last rank.
      std::vector<int> got = in, expect = in;
      bcast(got.data(), m, MPI_INT, p - 1, comm, o);
      ASSERT_EQ(MPI_Bcast(expect.data(), static_cast<int>(m), MPI_INT, p - 1, comm), MPI_SUCCESS);
      EXPECT_EQ(got, expect) << "bcast";
      // Its first round: virtual rank v = (r mod g) k + r / g sends to a
      // virtual peer, placed at ((peer mod k) g + peer / k); in rank order
      // the same plan would send to r's own virtual peer.
      const mpi::PreparedPlan& pp = *mpi::comm_state(comm).plans[static_cast<std::size_t>(plan::Collective::bcast)];
      const plan::PlanSetup setup({plan::Collective::bcast, p, (p - 1) % g * k + (p - 1) / g, m, n, true});
      const plan::rank_t v = (r % g) * k + r / g;
      plan::Step step;
      std::int64_t want = -1;
      for (std::int64_t i = 0; i < pp.plan().rounds() && want < 0; ++i) {
        step.clear();
        plan::make_bcast_circulant(setup.context(), v)->step(i, step);
        if (step.send_to >= 0) want = (step.send_to % k) * g + step.send_to / k;
      }
      EXPECT_EQ(first_peer(pp), want) << "the renumbered Bcast's first send";
      // Reduce to rank 1.
      std::vector<int> red(in.size(), -1), nred(in.size(), -1);
      reduce(in.data(), red.data(), m, MPI_INT, MPI_SUM, 1, comm, o);
      ASSERT_EQ(MPI_Reduce(in.data(), nred.data(), static_cast<int>(m), MPI_INT, MPI_SUM, 1, comm), MPI_SUCCESS);
      if (r == 1) {
        EXPECT_EQ(red, nred) << "reduce";
      }
      // Allgather, and Allgatherv with rank i holding i mod 3 + 1 elements.
      const std::int64_t c = 3;
      std::vector<int> all(static_cast<std::size_t>(c * p), -1), nall = all;
      allgather(in.data(), all.data(), c, MPI_INT, comm, o);
      ASSERT_EQ(MPI_Allgather(in.data(), 3, MPI_INT, nall.data(), 3, MPI_INT, comm), MPI_SUCCESS);
      EXPECT_EQ(all, nall) << "allgather";
      std::vector<std::int64_t> counts(static_cast<std::size_t>(p)), displs(counts.size());
      std::vector<int> icounts(counts.size()), idispls(counts.size());
      std::int64_t total = 0;
      for (int i = p - 1; i >= 0; --i) {  // groups in reverse rank order in memory
        counts[static_cast<std::size_t>(i)] = i % 3 + 1;
        displs[static_cast<std::size_t>(i)] = total;
        icounts[static_cast<std::size_t>(i)] = i % 3 + 1;
        idispls[static_cast<std::size_t>(i)] = static_cast<int>(total);
        total += i % 3 + 1;
      }
      std::vector<int> allv(static_cast<std::size_t>(total), -1), nallv = allv;
      allgatherv(in.data(), r % 3 + 1, allv.data(), counts, displs, MPI_INT, comm, o);
      ASSERT_EQ(
          MPI_Allgatherv(in.data(), r % 3 + 1, MPI_INT, nallv.data(), icounts.data(), idispls.data(), MPI_INT, comm),
          MPI_SUCCESS);
      EXPECT_EQ(allv, nallv) << "allgatherv";
      // Reduce_scatter_block and Reduce_scatter (uneven parts).
      std::vector<int> vec(static_cast<std::size_t>(c * p));
      std::iota(vec.begin(), vec.end(), 7 * r);
      std::vector<int> part(static_cast<std::size_t>(c), -1), npart = part;
      reduce_scatter_block(vec.data(), part.data(), c, MPI_INT, MPI_SUM, comm, o);
      ASSERT_EQ(MPI_Reduce_scatter_block(vec.data(), npart.data(), 3, MPI_INT, MPI_SUM, comm), MPI_SUCCESS);
      EXPECT_EQ(part, npart) << "reduce_scatter_block";
      std::vector<std::int64_t> parts(static_cast<std::size_t>(p));
      std::vector<int> iparts(parts.size());
      std::int64_t sum = 0;
      for (int i = 0; i < p; ++i)
        sum += parts[static_cast<std::size_t>(i)] = iparts[static_cast<std::size_t>(i)] = i % 3;
      std::vector<int> svec(static_cast<std::size_t>(sum));
      std::iota(svec.begin(), svec.end(), 3 * r);
      std::vector<int> mine(static_cast<std::size_t>(r % 3 + 1), -1), nmine = mine;
      reduce_scatter(svec.data(), mine.data(), parts, MPI_INT, MPI_SUM, comm, o);
      ASSERT_EQ(MPI_Reduce_scatter(svec.data(), nmine.data(), iparts.data(), MPI_INT, MPI_SUM, comm), MPI_SUCCESS);
      EXPECT_EQ(mine, nmine) << "reduce_scatter";
      // Allreduce, in place and not.
      std::vector<int> ar(in.size(), -1), nar(in.size(), -1);
      allreduce(in.data(), ar.data(), m, MPI_INT, MPI_SUM, comm, o);
      ASSERT_EQ(MPI_Allreduce(in.data(), nar.data(), static_cast<int>(m), MPI_INT, MPI_SUM, comm), MPI_SUCCESS);
      EXPECT_EQ(ar, nar) << "allreduce";
      std::vector<int> ip = in;
      allreduce(MPI_IN_PLACE, ip.data(), m, MPI_INT, MPI_SUM, comm, o);
      EXPECT_EQ(ip, nar) << "allreduce in place";
    }
  }
}

}  // namespace
}  // namespace optcoll::test
