// Persistent (bcast_init, reduce_init, allreduce_init) and nonblocking
// (ibcast, ireduce, iallreduce) requests against native MPI: many starts of
// one request on new data, every registry algorithm, several requests
// outstanding on one communicator and on several, completion by test()
// alone, a start that must not wait for other ranks, and the C API's
// handles.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <functional>
#include <new>
#include <string>
#include <vector>

#include "mpi_test_util.hpp"
#include "optcoll/optcoll.h"
#include "optcoll/optcoll.hpp"
#include "optcoll/plan/algorithms.hpp"

// Every C++ allocation of this program is counted (a start must make none):
// every replaceable form but the aligned ones, so that new and delete pair up
// under AddressSanitizer too.
namespace {
std::atomic<std::int64_t> g_allocations{0};
}  // namespace
void* operator new(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);

  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
// GCC sees free() meet operator new's pointer after inlining: by design here.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(n == 0 ? 1 : n);
}
void* operator new[](std::size_t n) {
  return operator new(n);
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept {
  return operator new(n, t);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

namespace optcoll::test {
namespace {

// The native result of one call of op (bcast: buf is the root's data).
void native(plan::Collective op, const Buffer& send, Buffer& out, int root, MPI_Op mop, MPI_Comm comm) {
  const auto n = static_cast<int>(send.count);
  if (n == 0) return;
  switch (op) {
    case plan::Collective::bcast:
      out = send;
      ASSERT_EQ(MPI_Bcast(out.data(), n, send.type(), root, comm), MPI_SUCCESS);
      break;
    case plan::Collective::reduce:
      ASSERT_EQ(MPI_Reduce(send.data(), out.data(), n, send.type(), mop, root, comm), MPI_SUCCESS);
      break;
    default:
      ASSERT_EQ(MPI_Allreduce(send.data(), out.data(), n, send.type(), mop, comm), MPI_SUCCESS);
      break;
  }
}

// A request of op on (send, got): persistent or nonblocking (started).
Request make(plan::Collective op, bool persistent, Buffer& send, Buffer& got, bool in_place, int root, MPI_Op mop,
             MPI_Comm comm, const Options& o) {
  const std::int64_t n = send.count;
  // Reduce: MPI_IN_PLACE at the root only.
  const bool here = in_place && (op != plan::Collective::reduce || world_rank() == root);
  const void* sb = here ? MPI_IN_PLACE : send.data();
  switch (op) {
    case plan::Collective::bcast:
      return persistent ? bcast_init(got.data(), n, got.type(), root, comm, o)
                        : ibcast(got.data(), n, got.type(), root, comm, o);
    case plan::Collective::reduce:
      return persistent ? reduce_init(sb, got.data(), n, got.type(), mop, root, comm, o)
                        : ireduce(sb, got.data(), n, got.type(), mop, root, comm, o);
    default:
      return persistent ? allreduce_init(sb, got.data(), n, got.type(), mop, comm, o)
                        : iallreduce(sb, got.data(), n, got.type(), mop, comm, o);
  }
}

// Fills the inputs of run `it` (bcast: got at the root; in place: got).
void fill(plan::Collective op, Buffer& send, Buffer& got, bool in_place, int root, std::uint64_t seed) {
  const int r = world_rank();
  send.fill(seed);
  if (op == plan::Collective::bcast) {
    if (r == root)
      got = send;
    else
      got.fill(seed + 7);
  } else if (in_place && (op == plan::Collective::allreduce || r == root)) {
    got = send;
  } else {
    got.fill(seed + 7);
  }
}

// Whether rank r holds a result of op.
bool has_result(plan::Collective op, int root) {
  return op != plan::Collective::reduce || world_rank() == root;
}

struct Case {
  plan::Collective op;
  Kind kind;
  MPI_Op mop;
  const char* mop_name;
};

std::vector<Case> cases() {
  return {{plan::Collective::bcast, Kind::int32, MPI_OP_NULL, "-"},
          {plan::Collective::bcast, Kind::strided, MPI_OP_NULL, "-"},
          {plan::Collective::reduce, Kind::int32, MPI_SUM, "MPI_SUM"},
          {plan::Collective::reduce, Kind::matrix, Ops::get().matrix, "matrix"},
          {plan::Collective::reduce, Kind::strided, Ops::get().ring, "ring"},
          {plan::Collective::allreduce, Kind::int32, MPI_SUM, "MPI_SUM"},
          {plan::Collective::allreduce, Kind::float64, MPI_SUM, "MPI_SUM"},
          {plan::Collective::allreduce, Kind::matrix, Ops::get().matrix, "matrix"}};
}

// Every registry algorithm of c.op (and the automatic choice) as a
// persistent request started three times on new data, with a blocking
// optcoll call between starts; in place too where MPI allows it.
TEST(MpiRequests, PersistentEqualsNativeOnEveryStart) {
  TestComm comm;
  const int p = world_size();
  for (const Case& c : cases()) {
    for (std::int64_t count : {std::int64_t{0}, std::int64_t{1}, std::int64_t{1000}}) {
      std::vector<std::string> algs{""};
      if (c.kind == Kind::int32 || c.kind == Kind::matrix)
        for (const plan::AlgorithmInfo& a : plan::algorithms())
          if (a.op == c.op) algs.emplace_back(a.name);
      for (const std::string& alg : algs) {
        for (bool in_place : {false, true}) {
          if (in_place && c.op == plan::Collective::bcast) continue;
          const int root = p / 2;
          SCOPED_TRACE(std::string(plan::to_string(c.op)) + " " + name(c.kind) + " " + c.mop_name + " alg=" + alg +
                       " count=" + std::to_string(count) + (in_place ? " in place" : ""));
          Buffer send(c.kind, count), got(c.kind, count), expect(c.kind, count);
          Request req = make(c.op, true, send, got, in_place, root, c.mop, comm, Options{alg, 0});
          EXPECT_FALSE(req.active());
          for (int it = 0; it < 3; ++it) {
            fill(c.op, send, got, in_place, root, seed_of({world_rank(), it, count}));
            native(c.op, send, expect, root, c.mop, comm);
            req.start();
            EXPECT_TRUE(req.active());
            req.wait();
            EXPECT_FALSE(req.active());
            if (count > 0 && has_result(c.op, root)) {
              EXPECT_EQ(first_difference(got, expect), -1) << "start " << it;
            }
            int other = world_rank();
            allreduce(MPI_IN_PLACE, &other, 1, MPI_INT, MPI_MAX, comm);
            EXPECT_EQ(other, p - 1);
          }
        }
      }
    }
  }
}

// Every other collective: each as a persistent request started three times
// on new data and as a nonblocking call, against the native blocking call
// on the same input (irregular counts for the v-variants, a count of 0 at
// rank 1, roots 0 and p - 1).
TEST(MpiRequests, OtherCollectivesEqualNative) {
  TestComm comm;
  const int p = world_size(), r = world_rank();
  std::vector<std::int64_t> counts(static_cast<std::size_t>(p)), displs(static_cast<std::size_t>(p));
  std::vector<int> icounts(static_cast<std::size_t>(p)), idispls(static_cast<std::size_t>(p));
  std::int64_t total = 0;
  for (int i = 0; i < p; ++i) {
    const auto u = static_cast<std::size_t>(i);
    counts[u] = i == 1 ? 0 : 3 + (i * 7) % 11;
    displs[u] = total;
    icounts[u] = static_cast<int>(counts[u]);
    idispls[u] = static_cast<int>(total);
    total += counts[u];
  }
  const std::int64_t n = 40;  // regular calls: elements per rank
  const std::int64_t mine = counts[static_cast<std::size_t>(r)];
  // Alltoallv: every rank receives `mine` elements from each rank.
  std::vector<std::int64_t> mine_counts(static_cast<std::size_t>(p), mine), mine_displs(static_cast<std::size_t>(p));
  std::vector<int> imine_counts(static_cast<std::size_t>(p), static_cast<int>(mine)), imine_displs;
  for (int i = 0; i < p; ++i) {
    mine_displs[static_cast<std::size_t>(i)] = (p - 1 - i) * mine;  // reversed order
    imine_displs.push_back(static_cast<int>((p - 1 - i) * mine));
  }
  struct Op {
    const char* name;
    std::int64_t in, out;  // elements of the input and the result
    std::function<Request(bool, const int*, int*)> optcoll;
    std::function<void(const int*, int*)> native;
  };
  const std::vector<Op> ops{
      {"allgather", n, n * p,
       [&](bool pers, const int* in, int* out) {
         return pers ? allgather_init(in, out, n, MPI_INT, comm) : iallgather(in, out, n, MPI_INT, comm);
       },
       [&](const int* in, int* out) { MPI_Allgather(in, int(n), MPI_INT, out, int(n), MPI_INT, comm); }},
      {"allgatherv", mine, total,
       [&](bool pers, const int* in, int* out) {
         return pers ? allgatherv_init(in, mine, out, counts, displs, MPI_INT, comm)
                     : iallgatherv(in, mine, out, counts, displs, MPI_INT, comm);
       },
       [&](const int* in, int* out) {
         MPI_Allgatherv(in, int(mine), MPI_INT, out, icounts.data(), idispls.data(), MPI_INT, comm);
       }},
      {"reduce_scatter_block", n * p, n,
       [&](bool pers, const int* in, int* out) {
         return pers ? reduce_scatter_block_init(in, out, n, MPI_INT, MPI_SUM, comm)
                     : ireduce_scatter_block(in, out, n, MPI_INT, MPI_SUM, comm);
       },
       [&](const int* in, int* out) { MPI_Reduce_scatter_block(in, out, int(n), MPI_INT, MPI_SUM, comm); }},
      {"reduce_scatter", total, mine,
       [&](bool pers, const int* in, int* out) {
         return pers ? reduce_scatter_init(in, out, counts, MPI_INT, MPI_SUM, comm)
                     : ireduce_scatter(in, out, counts, MPI_INT, MPI_SUM, comm);
       },
       [&](const int* in, int* out) { MPI_Reduce_scatter(in, out, icounts.data(), MPI_INT, MPI_SUM, comm); }},
      {"scan", n, n,
       [&](bool pers, const int* in, int* out) {
         return pers ? scan_init(in, out, n, MPI_INT, Ops::get().ring, comm)
                     : iscan(in, out, n, MPI_INT, Ops::get().ring, comm);
       },
       [&](const int* in, int* out) { MPI_Scan(in, out, int(n), MPI_INT, Ops::get().ring, comm); }},
      {"gather", n, r == p - 1 ? n * p : 0,
       [&](bool pers, const int* in, int* out) {
         return pers ? gather_init(in, n, MPI_INT, out, n, MPI_INT, p - 1, comm)
                     : igather(in, n, MPI_INT, out, n, MPI_INT, p - 1, comm);
       },
       [&](const int* in, int* out) { MPI_Gather(in, int(n), MPI_INT, out, int(n), MPI_INT, p - 1, comm); }},
      {"scatter", r == 0 ? n * p : 0, n,
       [&](bool pers, const int* in, int* out) {
         return pers ? scatter_init(in, n, MPI_INT, out, n, MPI_INT, 0, comm)
                     : iscatter(in, n, MPI_INT, out, n, MPI_INT, 0, comm);
       },
       [&](const int* in, int* out) { MPI_Scatter(in, int(n), MPI_INT, out, int(n), MPI_INT, 0, comm); }},
      {"gatherv", mine, r == 0 ? total : 0,
       [&](bool pers, const int* in, int* out) {
         return pers ? gatherv_init(in, mine, MPI_INT, out, counts, displs, MPI_INT, 0, comm)
                     : igatherv(in, mine, MPI_INT, out, counts, displs, MPI_INT, 0, comm);
       },
       [&](const int* in, int* out) {
         MPI_Gatherv(in, int(mine), MPI_INT, out, icounts.data(), idispls.data(), MPI_INT, 0, comm);
       }},
      {"scatterv", r == p - 1 ? total : 0, mine,
       [&](bool pers, const int* in, int* out) {
         return pers ? scatterv_init(in, counts, displs, MPI_INT, out, mine, MPI_INT, p - 1, comm)
                     : iscatterv(in, counts, displs, MPI_INT, out, mine, MPI_INT, p - 1, comm);
       },
       [&](const int* in, int* out) {
         MPI_Scatterv(in, icounts.data(), idispls.data(), MPI_INT, out, int(mine), MPI_INT, p - 1, comm);
       }},
      {"alltoall", n * p, n * p,
       [&](bool pers, const int* in, int* out) {
         return pers ? alltoall_init(in, n, MPI_INT, out, n, MPI_INT, comm)
                     : ialltoall(in, n, MPI_INT, out, n, MPI_INT, comm);
       },
       [&](const int* in, int* out) { MPI_Alltoall(in, int(n), MPI_INT, out, int(n), MPI_INT, comm); }},
      {"alltoallv", total, mine * p,
       [&](bool pers, const int* in, int* out) {
         // Rank r sends counts[j] to j and receives mine from everyone.
         return pers ? alltoallv_init(in, counts, displs, MPI_INT, out, mine_counts, mine_displs, MPI_INT, comm)
                     : ialltoallv(in, counts, displs, MPI_INT, out, mine_counts, mine_displs, MPI_INT, comm);
       },
       [&](const int* in, int* out) {
         MPI_Alltoallv(in, icounts.data(), idispls.data(), MPI_INT, out, imine_counts.data(), imine_displs.data(),
                       MPI_INT, comm);
       }},
      {"exscan", n, n,
       [&](bool pers, const int* in, int* out) {
         return pers ? exscan_init(in, out, n, MPI_INT, MPI_SUM, comm) : iexscan(in, out, n, MPI_INT, MPI_SUM, comm);
       },
       [&](const int* in, int* out) { MPI_Exscan(in, out, int(n), MPI_INT, MPI_SUM, comm); }},
  };
  for (const Op& op : ops) {
    for (bool pers : {true, false}) {
      SCOPED_TRACE(std::string(op.name) + (pers ? " persistent" : " nonblocking"));
      std::vector<int> in(static_cast<std::size_t>(op.in) + 1), out(static_cast<std::size_t>(op.out) + 1, -1);
      std::vector<int> expect = out;
      Request req;
      const int starts = pers ? 3 : 1;
      for (int it = 0; it < starts; ++it) {
        for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(seed_of({r, it, std::int64_t(i)}) % 1000);
        op.native(in.data(), expect.data());
        if (it == 0) req = op.optcoll(pers, in.data(), out.data());
        if (pers) req.start();
        req.wait();
        // Exscan's rank 0 has no result (MPI leaves recvbuf undefined).
        if (std::string(op.name) != "exscan" || r != 0) {
          EXPECT_EQ(out, expect) << "start " << it;
        }
      }
    }
  }
}

// Nonblocking calls of every case outstanding at once on one communicator,
// then on two, completed in the reverse order by wait(), or all by test()
// alone; against native MPI_I* calls outstanding beside them.
TEST(MpiRequests, ManyOutstandingOnOneAndTwoCommunicators) {
  TestComm a, b;
  const int p = world_size();
  const std::vector<Case> cs = cases();
  for (int mode = 0; mode < 3; ++mode) {  // 0: one comm, wait; 1: two comms, wait; 2: two comms, test
    SCOPED_TRACE("mode " + std::to_string(mode));
    std::vector<Buffer> send, got, expect;
    std::vector<Request> reqs;
    std::vector<MPI_Request> natives;
    for (std::size_t i = 0; i < cs.size(); ++i) {
      send.emplace_back(cs[i].kind, 300 + 50 * static_cast<std::int64_t>(i));
      got.emplace_back(cs[i].kind, send.back().count);
      expect.emplace_back(cs[i].kind, send.back().count);
    }
    for (std::size_t i = 0; i < cs.size(); ++i) {
      const Case& c = cs[i];
      const int root = static_cast<int>(i) % p;
      const MPI_Comm comm = mode > 0 && i % 2 == 1 ? static_cast<MPI_Comm>(b) : static_cast<MPI_Comm>(a);
      fill(c.op, send[i], got[i], false, root, seed_of({world_rank(), mode, static_cast<std::int64_t>(i)}));
      reqs.push_back(make(c.op, false, send[i], got[i], false, root, c.mop, comm, {}));
      MPI_Request n = MPI_REQUEST_NULL;
      const auto cnt = static_cast<int>(send[i].count);
      if (c.op == plan::Collective::bcast) {
        expect[i] = send[i];
        ASSERT_EQ(MPI_Ibcast(expect[i].data(), cnt, send[i].type(), root, comm, &n), MPI_SUCCESS);
      } else if (c.op == plan::Collective::reduce) {
        ASSERT_EQ(MPI_Ireduce(send[i].data(), expect[i].data(), cnt, send[i].type(), c.mop, root, comm, &n),
                  MPI_SUCCESS);
      } else {
        ASSERT_EQ(MPI_Iallreduce(send[i].data(), expect[i].data(), cnt, send[i].type(), c.mop, comm, &n), MPI_SUCCESS);
      }
      natives.push_back(n);
    }
    if (mode < 2) {
      for (std::size_t i = reqs.size(); i-- > 0;) reqs[i].wait();
    } else {
      for (bool all = false; !all;) {
        all = true;
        for (Request& r : reqs) all = r.test() && all;
      }
    }
    ASSERT_EQ(MPI_Waitall(static_cast<int>(natives.size()), natives.data(), MPI_STATUSES_IGNORE), MPI_SUCCESS);
    for (std::size_t i = 0; i < cs.size(); ++i) {
      SCOPED_TRACE("call " + std::to_string(i));
      EXPECT_FALSE(reqs[i].active());
      if (has_result(cs[i].op, static_cast<int>(i) % p)) {
        EXPECT_EQ(first_difference(got[i], expect[i]), -1);
      }
    }
  }
}

// A start posts and returns: rank 1 (the Bcast's root, a contributor to
// every Allreduce result) starts only after rank 0's start has returned and
// sent it a token; a start that waited for other ranks would hang here.
TEST(MpiRequests, StartDoesNotWaitForOtherRanks) {
  TestComm comm;
  const int p = world_size(), r = world_rank();
  if (p == 1) GTEST_SKIP() << "one rank";
  // The first optcoll call on a communicator measures it (collective):
  // done here, before the calls whose start must not wait.
  int warm = 0;
  allreduce(MPI_IN_PLACE, &warm, 1, MPI_INT, MPI_SUM, comm);
  for (plan::Collective op : {plan::Collective::bcast, plan::Collective::allreduce}) {
    for (bool persistent : {true, false}) {
      SCOPED_TRACE(std::string(plan::to_string(op)) + (persistent ? " persistent" : " nonblocking"));
      Buffer send(Kind::int32, 20), got(Kind::int32, 20), expect(Kind::int32, 20);
      fill(op, send, got, false, 1, seed_of({r, 5}));
      native(op, send, expect, 1, MPI_SUM, comm);
      int token = 0;
      Request req;
      if (persistent) {
        req = make(op, true, send, got, false, 1, MPI_SUM, comm, {});  // collective
        if (r == 1) {
          ASSERT_EQ(MPI_Recv(&token, 1, MPI_INT, 0, 9, comm, MPI_STATUS_IGNORE), MPI_SUCCESS);
        }
        req.start();
      } else {
        if (r == 1) {
          ASSERT_EQ(MPI_Recv(&token, 1, MPI_INT, 0, 9, comm, MPI_STATUS_IGNORE), MPI_SUCCESS);
        }
        req = make(op, false, send, got, false, 1, MPI_SUM, comm, {});
      }
      if (r == 0) {
        ASSERT_EQ(MPI_Send(&token, 1, MPI_INT, 1, 9, comm), MPI_SUCCESS);
      }
      req.wait();
      EXPECT_EQ(first_difference(got, expect), -1);
    }
  }
}

// A start and its wait allocate nothing once the request has run once
// (its executor, scratch and working buffer keep their capacity): Bcast,
// Reduce (a non-root's working buffer) and Allreduce, small and pipelined,
// with test() polling as well as wait().
// Requests progress whenever optcoll is entered, not only in their own
// test and wait: a Bcast of several rounds (circulant, 3 blocks) started at
// every rank, then blocking optcoll Allreduces on the same communicator
// (the request has its own duplicate; each Allreduce a synchronization, and an entry that advances the Bcast a round or
// more), then a barrier: the first test finds the Bcast complete. Without
// progress on entry it cannot be: a test posts a round only when the
// previous one has arrived, and no rank had posted beyond round 0 (p >= 3:
// more than one round).
TEST(MpiRequests, ProgressInsideOtherCalls) {
  TestComm comm;
  const int p = world_size();
  const int r = world_rank();
  if (p < 3) GTEST_SKIP() << "one round: complete at the first test anyway";
  const int root = p - 1;
  std::vector<int> data(3000, r == root ? 7 : -1);
  Request req = bcast_init(data.data(), 3000, MPI_INT, root, comm, Options{"circulant", 3});
  req.start();
  std::vector<int> x(4, r), y(4, 0);
  for (int i = 0; i < 4 * p; ++i) allreduce(x.data(), y.data(), 4, MPI_INT, MPI_SUM, comm);
  ASSERT_EQ(MPI_Barrier(comm), MPI_SUCCESS);
  EXPECT_TRUE(req.test());
  req.wait();
  EXPECT_EQ(data, std::vector<int>(3000, 7));
}

// MPI lets ranks complete outstanding collectives in different orders, and
// call a blocking collective while others are outstanding: a wait, or the
// blocking call's own waiting, must advance the other requests. Even ranks
// wait for A (a Bcast of several rounds) and then B (an Allreduce), odd
// ranks B then A; then rank 0 runs a blocking Allreduce before waiting for
// C (another Bcast), the others after. A wait that only drives its own
// request hangs here (p >= 3: the plans have more than one round).
TEST(MpiRequests, RanksMayWaitInDifferentOrders) {
  TestComm comm;
  const int p = world_size();
  const int r = world_rank();
  if (p < 3) GTEST_SKIP() << "one round: nothing to wait for in another request";
  const std::int64_t n = 3000;
  std::vector<int> a(n, r == 0 ? 5 : -1), c(n, r == 1 ? 9 : -1), x(n, r), b(n, 0);
  Request ra = ibcast(a.data(), n, MPI_INT, 0, comm, Options{"circulant", 3});
  Request rb = iallreduce(x.data(), b.data(), n, MPI_INT, MPI_SUM, comm, {});
  if (r % 2 == 0) {
    ra.wait();
    rb.wait();
  } else {
    rb.wait();
    ra.wait();
  }
  EXPECT_EQ(a, std::vector<int>(n, 5));
  EXPECT_EQ(b, std::vector<int>(n, p * (p - 1) / 2));
  Request rc = ibcast(c.data(), n, MPI_INT, 1, comm, Options{"circulant", 3});
  std::vector<int> y(4, 1), z(4, 0);
  if (r == 0) allreduce(y.data(), z.data(), 4, MPI_INT, MPI_SUM, comm);
  rc.wait();
  if (r != 0) allreduce(y.data(), z.data(), 4, MPI_INT, MPI_SUM, comm);
  EXPECT_EQ(c, std::vector<int>(n, 9));
  EXPECT_EQ(z, std::vector<int>(4, p));
}

TEST(MpiRequests, StartAllocatesNothing) {
  TestComm comm;
  const int p = world_size();
  for (const Case& c : cases()) {
    if (c.kind != Kind::int32) continue;
    for (std::int64_t count : {std::int64_t{2}, std::int64_t{100000}}) {
      SCOPED_TRACE(std::string(plan::to_string(c.op)) + " count=" + std::to_string(count));
      Buffer send(c.kind, count), got(c.kind, count);
      fill(c.op, send, got, false, p - 1, seed_of({world_rank(), count}));
      Request req = make(c.op, true, send, got, false, p - 1, c.mop, comm, {});
      req.start();
      req.wait();
      const std::int64_t before = g_allocations.load();
      for (int it = 0; it < 3; ++it) {
        req.start();
        if (it == 1) {
          while (!req.test()) {
          }
        }
        req.wait();
      }
      EXPECT_EQ(g_allocations.load() - before, 0);
    }
  }
}

// Nonblocking calls with the same plan one after the other: each gives its
// plan back when freed and the next takes it (comm_state.hpp SparePlans),
// with new buffers, in place or not, and two outstanding at once (the
// second builds its own). Results against native on every call. The
// allocations tell a reused plan from a new one: after a blocking call of
// the same shape (a persistent request's init: the decision and the
// communicator's state are cached)
// and a nonblocking one of another count (its spare plan does not match),
// the first call builds and compiles its plan, the next ones allocate less.
TEST(MpiRequests, RepeatedNonblockingCallsReuseTheirPlan) {
  const int p = world_size();
  for (const Case& c : cases()) {
    TestComm comm;  // its own: no spare plan of the case before (the datatype is not part of a plan)
    const std::int64_t count = 1000;
    const int root = p - 1;
    SCOPED_TRACE(std::string(plan::to_string(c.op)) + " " + name(c.kind) + " " + c.mop_name);
    {
      Buffer send(c.kind, count - 1), got(c.kind, count - 1);
      fill(c.op, send, got, false, root, 1);
      make(c.op, false, send, got, false, root, c.mop, comm, {}).wait();
      Buffer send1(c.kind, count), got1(c.kind, count);
      fill(c.op, send1, got1, false, root, 2);
      make(c.op, true, send1, got1, false, root, c.mop, comm, {});  // the decision for count
    }
    std::vector<std::int64_t> allocations;
    for (int it = 0; it < 6; ++it) {
      const bool in_place = it == 4 && c.op != plan::Collective::bcast;
      Buffer send(c.kind, count), got(c.kind, count), expect(c.kind, count);
      Buffer send2(c.kind, count), got2(c.kind, count), expect2(c.kind, count);
      fill(c.op, send, got, in_place, root, seed_of({world_rank(), it}));
      fill(c.op, send2, got2, false, root, seed_of({world_rank(), it, 2}));
      native(c.op, send, expect, root, c.mop, comm);
      native(c.op, send2, expect2, root, c.mop, comm);
      const std::int64_t before = g_allocations.load();
      {
        Request req = make(c.op, false, send, got, in_place, root, c.mop, comm, {});
        if (it == 5) {  // a second one outstanding: no spare plan for it
          Request other = make(c.op, false, send2, got2, false, root, c.mop, comm, {});
          other.wait();
        }
        req.wait();
      }
      allocations.push_back(g_allocations.load() - before);
      if (has_result(c.op, root)) {
        EXPECT_EQ(first_difference(got, expect), -1) << "call " << it;
        if (it == 5) {
          EXPECT_EQ(first_difference(got2, expect2), -1) << "call " << it << ", the second";
        }
      }
    }
    if (p == 1) continue;  // a copy, no plan
    for (int it = 1; it < 4; ++it) EXPECT_LT(allocations[static_cast<std::size_t>(it)], allocations[0]) << it;
  }
}

}  // namespace
}  // namespace optcoll::test
