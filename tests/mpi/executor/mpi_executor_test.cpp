// The executor's message forms that the registry's plans do not reach:
// messages of several runs (memcpy-packed for contiguous types, MPI_Pack'ed
// for strided ones, received for copy and for both combine actions) and
// chunking (messages and MPI_Reduce_local calls cut into pieces), driven by
// three test-only plans (one with a scratch group and local operations)
// and compared with native MPI.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "mpi/comm/choose.hpp"
#include "mpi/comm/comm_state.hpp"
#include "mpi/executor/datatype.hpp"
#include "mpi/executor/executor.hpp"
#include "mpi/executor/prepared_plan.hpp"
#include "mpi_test_util.hpp"
#include "optcoll/optcoll.hpp"
#include "optcoll/plan/executor.hpp"

namespace optcoll::test {
namespace {

using plan::Action;
using plan::BlockRun;
using plan::rank_t;

// n blocks as runs of 1, 2, 1, 2, ... blocks, listed last, first,
// second-last, second, ...: no two consecutive runs are adjacent.
std::vector<BlockRun> scattered_runs(std::int64_t n) {
  std::vector<BlockRun> runs;
  for (std::int64_t b = 0; b < n;) {
    const std::int64_t len = std::min<std::int64_t>(runs.size() % 2 == 0 ? 1 : 2, n - b);
    runs.push_back({b, len});
    b += len;
  }
  std::vector<BlockRun> order;
  for (std::size_t lo = 0, hi = runs.size(); lo < hi;) {
    order.push_back(runs[--hi]);
    if (lo < hi) order.push_back(runs[lo++]);
  }
  return order;
}

// Test plan: the root sends the whole buffer, as scattered runs, to every
// other rank in turn (round i: to root+1+i).
class ScatteredBcast final : public plan::RankPlan {
 public:
  ScatteredBcast(rank_t p, rank_t root, rank_t rank, std::int64_t count, std::int64_t n)
      : layout_(count, n), runs_(scattered_runs(n)), p_(p), root_(root), rank_(rank) {}
  std::int64_t rounds() const noexcept override { return p_ - 1; }
  const plan::BlockLayout& layout() const noexcept override { return layout_; }
  void step(std::int64_t i, plan::Step& out) const override {
    const rank_t to = (root_ + 1 + i) % p_;
    if (rank_ == root_) {
      out.send_to = to;
      out.send = runs_;
    }
    if (rank_ == to) {
      out.recv_from = root_;
      out.recv = runs_;
      out.on_recv = Action::copy;
    }
  }

 private:
  plan::BlockLayout layout_;
  std::vector<BlockRun> runs_;
  rank_t p_, root_, rank_;
};

// Test plan: a rank-ordered linear reduction of whole buffers as scattered
// runs. combine_after: root 0 receives from 1, 2, ..., p-1 (own = own (+)
// in); combine_before: root p-1 receives from p-2, ..., 0 (own = in (+) own).
class LinearReduce final : public plan::RankPlan {
 public:
  LinearReduce(rank_t p, rank_t rank, std::int64_t count, std::int64_t n, Action a)
      : layout_(count, n), runs_(scattered_runs(n)), p_(p), rank_(rank), action_(a) {}
  static rank_t root(rank_t p, Action a) { return a == Action::combine_after ? 0 : p - 1; }
  std::int64_t rounds() const noexcept override { return p_ - 1; }
  const plan::BlockLayout& layout() const noexcept override { return layout_; }
  void step(std::int64_t i, plan::Step& out) const override {
    const rank_t r = root(p_, action_);
    const rank_t from = action_ == Action::combine_after ? i + 1 : p_ - 2 - i;
    if (rank_ == from) {
      out.send_to = r;
      out.send = runs_;
    }
    if (rank_ == r) {
      out.recv_from = from;
      out.recv = runs_;
      out.on_recv = action_;
    }
  }

 private:
  plan::BlockLayout layout_;
  std::vector<BlockRun> runs_;
  rank_t p_, rank_;
  Action action_;
};

// Test plan: LinearReduce through a scratch group. Round 0: every non-root
// copies its data into the scratch group (local copy). Round i >= 1: the
// i-th sender sends its scratch group as scattered runs; the root receives
// them into its own scratch group and combines each block into its data
// with a local operation.
class ScratchReduce final : public plan::RankPlan {
 public:
  ScratchReduce(rank_t p, rank_t rank, std::int64_t count, std::int64_t n, Action a)
      : layout_(count, n), p_(p), rank_(rank), n_(n), action_(a) {
    layout_.add_scratch(0);
    for (const BlockRun& r : scattered_runs(n)) runs_.push_back({r.first + n, r.count});
  }
  std::int64_t rounds() const noexcept override { return p_; }
  const plan::BlockLayout& layout() const noexcept override { return layout_; }
  void step(std::int64_t i, plan::Step& out) const override {
    const rank_t r = LinearReduce::root(p_, action_);
    if (i == 0) {
      if (rank_ != r) out.local.push_back({{0, n_}, {n_, n_}, Action::copy});
      return;
    }
    const rank_t from = action_ == Action::combine_after ? i : p_ - 1 - i;
    if (rank_ == from) {
      out.send_to = r;
      out.send = runs_;
    }
    if (rank_ == r) {
      out.recv_from = from;
      out.recv = runs_;
      out.on_recv = Action::copy;
      for (std::int64_t j = 0; j < n_; ++j) out.local.push_back({{n_ + j, 1}, {j, 1}, action_});
    }
  }

 private:
  plan::BlockLayout layout_;
  std::vector<BlockRun> runs_;
  rank_t p_, rank_;
  std::int64_t n_;
  Action action_;
};

// Runs plan with the MPI executor; init: the working buffer's initial
// content if base does not hold it (MpiExecutor::set_initial).
void run_plan(MPI_Comm comm, const plan::RankPlan& plan, void* base, MPI_Datatype type, MPI_Op op, std::int64_t chunk,
              const void* init = nullptr, bool commutative = true, bool complete = true) {
  mpi::CommState& s = mpi::comm_state(comm);
  mpi::ExecConfig cfg;
  cfg.comm = s.comm;
  cfg.tag = mpi::kTag;
  cfg.type = mpi::TypeInfo::of(type);
  cfg.op = op;
  cfg.chunk = mpi::chunk_elements(cfg.type, chunk);
  cfg.wait = s.wait;
  cfg.spin = s.spin;
  const plan::Compiled compiled = plan::compile(plan, {init != nullptr, commutative, complete});
  mpi::MpiExecutor ex;
  ex.bind(cfg, base, s.scratch);
  ex.run(compiled, init);
}

const std::int64_t kCounts[] = {1, 5, 7, 100, 1001};
// Chunk limits for a message of `count` elements: none, and small ones that
// cut messages (and pieces of runs) into at most about 35 chunks.
std::vector<std::int64_t> chunks(std::int64_t count) {
  std::vector<std::int64_t> c{std::int64_t{1} << 40};
  for (std::int64_t x : {1, 3, 64})
    if (x < count && count / x <= 35) c.push_back(x);
  return c;
}

TEST(MpiExecutor, ScatteredRunsBcast) {
  TestComm comm;
  const int p = world_size();
  const int r = world_rank();
  for (Kind k : {Kind::int32, Kind::float64, Kind::strided, Kind::matrix}) {
    for (std::int64_t count : kCounts) {
      const int root = p / 2;
      Buffer input(k, count);
      input.fill(r == root ? 5u : 6u + static_cast<unsigned>(r));
      Buffer expect = input;
      ASSERT_EQ(MPI_Bcast(expect.data(), static_cast<int>(count), expect.type(), root, comm), MPI_SUCCESS);
      for (std::int64_t chunk : chunks(count)) {
        SCOPED_TRACE(where(p, root, count, k, "scattered", 7) + " chunk=" + std::to_string(chunk));
        Buffer got = input;
        run_plan(comm, ScatteredBcast(p, root, r, count, 7), got.data(), got.type(), MPI_OP_NULL, chunk);
        EXPECT_EQ(first_difference(got, expect), -1);
      }
    }
  }
}

TEST(MpiExecutor, ScatteredRunsReduceBothActions) {
  TestComm comm;
  const int p = world_size();
  const int r = world_rank();
  struct Case {
    Kind k;
    MPI_Op op;
  };
  for (const Case c : {Case{Kind::int32, MPI_SUM}, Case{Kind::float64, MPI_MAX}, Case{Kind::strided, Ops::get().ring},
                       Case{Kind::matrix, Ops::get().matrix}}) {
    for (std::int64_t count : kCounts) {
      Buffer send(c.k, count);
      send.fill(100u + static_cast<unsigned>(r));
      Buffer expect(c.k, count);  // rank-ordered, at every rank
      ASSERT_EQ(MPI_Allreduce(send.data(), expect.data(), static_cast<int>(count), send.type(), c.op, comm),
                MPI_SUCCESS);
      for (Action a : {Action::combine_after, Action::combine_before}) {
        const int root = static_cast<int>(LinearReduce::root(p, a));
        for (std::int64_t chunk : chunks(count)) {
          SCOPED_TRACE(where(p, root, count, c.k, a == Action::combine_after ? "linear_after" : "linear_before", 7) +
                       " chunk=" + std::to_string(chunk));
          Buffer work = send;
          run_plan(comm, LinearReduce(p, r, count, 7, a), work.data(), work.type(), c.op, chunk);
          if (r == root) {
            EXPECT_EQ(first_difference(work, expect), -1);
          }
          Buffer work2 = send;
          run_plan(comm, ScratchReduce(p, r, count, 7, a), work2.data(), work2.type(), c.op, chunk);
          if (r == root) {
            EXPECT_EQ(first_difference(work2, expect), -1) << "through a scratch group";
          }
          // The input left in place (set_initial), with several runs per
          // message and with one (n = 1: the first combination computed in
          // place when the op allows it).
          int commutative = 0;
          MPI_Op_commutative(c.op, &commutative);
          for (std::int64_t n : {7, 1}) {
            Buffer work3(c.k, count);
            work3.fill(seed_of({r, n}));  // garbage: the input is read from `send`
            run_plan(comm, LinearReduce(p, r, count, n, a), work3.data(), work3.type(), c.op, chunk, send.data(),
                     commutative != 0, r == root);
            if (r == root) {
              EXPECT_EQ(first_difference(work3, expect), -1) << "input left in place, n=" << n;
            }
          }
        }
      }
    }
  }
}

// Repeated calls run the first call's compiled plan again (plan::Compiled):
// every call of Bcast, Reduce and Allreduce, with any datatype of the same
// count, commutative or not, in place or not (each change of setting
// compiles again), still equals native MPI. The compiled Bcast has each
// non-root receive its one message.
TEST(MpiExecutor, ReplayedCallsMatchNative) {
  TestComm comm;
  const int p = world_size();
  const int r = world_rank();
  const std::int64_t count = 10;
  const int root = p > 1 ? 1 : 0;
  const Ops& ops = Ops::get();
  const OpCase cases[] = {
      {Kind::int32, MPI_SUM, "sum"}, {Kind::strided, ops.ring, "ring"}, {Kind::matrix, ops.matrix, "matrix"}};
  for (const OpCase& c : cases) {
    // The matrix operator is not commutative: Reduce then runs its
    // automatic choice (a warning says so), on every call alike.
    for (unsigned call = 0; call < 4; ++call) {
      const bool in_place = call % 2 == 1;
      SCOPED_TRACE(where(p, root, count, c.kind, c.name, 1) + " call " + std::to_string(call));
      Buffer expect(c.kind, count);
      expect.fill(r == root ? 11u + call : 2u + static_cast<unsigned>(r));
      Buffer got = expect;
      ASSERT_EQ(MPI_Bcast(expect.data(), static_cast<int>(count), expect.type(), root, comm), MPI_SUCCESS);
      bcast(got.data(), count, got.type(), root, comm, Options{"circulant", 1});
      EXPECT_EQ(first_difference(got, expect), -1);

      Buffer in(c.kind, count);
      in.fill(3u + call * 7u + static_cast<unsigned>(r));
      Buffer native_out = in, reduced = in, all = in;
      ASSERT_EQ(MPI_Reduce(in.data(), native_out.data(), static_cast<int>(count), in.type(), c.op, root, comm),
                MPI_SUCCESS);
      reduce(in_place && r == root ? MPI_IN_PLACE : in.data(), reduced.data(), count, in.type(), c.op, root, comm,
             Options{"circulant", 1});
      if (r == root) {
        EXPECT_EQ(first_difference(reduced, native_out), -1);
      }
      ASSERT_EQ(MPI_Allreduce(in.data(), native_out.data(), static_cast<int>(count), in.type(), c.op, comm),
                MPI_SUCCESS);
      allreduce(in_place ? MPI_IN_PLACE : in.data(), all.data(), count, in.type(), c.op, comm);
      EXPECT_EQ(first_difference(all, native_out), -1);
    }
    if (p == 1) continue;  // no plan at all
    const mpi::CommState& s = mpi::comm_state(comm);
    for (plan::Collective op : {plan::Collective::bcast, plan::Collective::reduce, plan::Collective::allreduce}) {
      SCOPED_TRACE(plan::to_string(op));
      ASSERT_NE(s.plans[static_cast<std::size_t>(op)], nullptr);
      const mpi::PreparedPlan& pp = *s.plans[static_cast<std::size_t>(op)];
      // Calls alternate in place and not, which changes the reductions'
      // setting; the Bcast's plan (the same for every datatype) compiled
      // once and ran every call since.
      EXPECT_GE(pp.compilations(), 1);
      if (op == plan::Collective::bcast) {
        EXPECT_EQ(pp.compilations(), 1);
      }
      EXPECT_LE(pp.compiled().largest, count);
    }
  }
  if (p == 1) return;
  const mpi::CommState& s = mpi::comm_state(comm);
  const plan::Compiled& bc = s.plans[static_cast<std::size_t>(plan::Collective::bcast)]->compiled();
  EXPECT_EQ(bc.round_end.size(), static_cast<std::size_t>(ceil_log2(p)));
  const auto receives = std::count_if(bc.entries.begin(), bc.entries.end(),
                                      [](const auto& e) { return e.kind == plan::Compiled::Kind::recv; });
  EXPECT_EQ(receives, r == root ? 0 : 1);
  EXPECT_EQ(bc.largest, count);
}

// The plan of `algorithm` for op over count MPI_INTs on s, prepared.
std::unique_ptr<mpi::PreparedPlan> prepare(mpi::CommState& s, plan::Collective op, std::int64_t count, int root,
                                           const char* algorithm) {
  const select::Call call{.op = op, .p = s.size, .elem_size = 4, .count = count, .exact = true};
  const mpi::Choice choice = mpi::choose(s, call, Options{algorithm, 0});
  plan::PlanSpec spec;
  spec.op = op;
  spec.p = s.size;
  spec.root = root;
  spec.count = count;
  spec.blocks = choice.blocks;
  spec.exact = true;
  return std::make_unique<mpi::PreparedPlan>(s, choice, spec, nullptr);
}

// A prepared plan with its own executor and scratch, bound once and run
// many times on new data (the persistent requests' form): every run equals
// native MPI, with blocking optcoll calls on the same communicator between
// runs. Runs alternate between run() (a blocking call's) and start() +
// complete() (a request's: its start posts and returns). The first run
// compiles the plan; later ones, of either kind, run it again.
TEST(MpiExecutor, PreparedPlanRunsManyTimes) {
  TestComm comm;
  const int p = world_size();
  const int r = world_rank();
  if (p == 1) GTEST_SKIP() << "one rank: no plan";
  mpi::CommState& s = mpi::comm_state(comm);
  const int root = 1;
  for (plan::Collective op : {plan::Collective::bcast, plan::Collective::allreduce}) {
    const std::int64_t count = op == plan::Collective::bcast ? 10 : 1000;
    const auto owned = prepare(s, op, count, op == plan::Collective::bcast ? root : 0, "circulant");
    mpi::PreparedPlan& prepared = *owned;
    mpi::MpiExecutor ex;
    mpi::Scratch scratch;
    std::vector<int> buf(static_cast<std::size_t>(count));
    prepared.bind(mpi::exec_config(s, mpi::TypeInfo::of(MPI_INT), MPI_SUM), {buf.data()}, ex, scratch);
    for (int run = 0; run < 4; ++run) {
      SCOPED_TRACE(std::string(plan::to_string(op)) + " run " + std::to_string(run));
      for (std::int64_t i = 0; i < count; ++i)
        buf[static_cast<std::size_t>(i)] = (r + 1) * (run + 2) + static_cast<int>(i);
      std::vector<int> expect = buf;
      if (op == plan::Collective::bcast) {
        ASSERT_EQ(MPI_Bcast(expect.data(), static_cast<int>(count), MPI_INT, root, comm), MPI_SUCCESS);
      } else {
        ASSERT_EQ(MPI_Allreduce(MPI_IN_PLACE, expect.data(), static_cast<int>(count), MPI_INT, MPI_SUM, comm),
                  MPI_SUCCESS);
      }
      if (run % 2 == 0) {
        prepared.run();  // a blocking call's run
      } else {
        // A request's start must not wait for other ranks: rank 1 (the
        // Bcast's root, and a contributor of every Allreduce result) starts
        // only after rank 0's start has returned.
        int token = run;
        if (r == 1) {
          ASSERT_EQ(MPI_Recv(&token, 1, MPI_INT, 0, 5, comm, MPI_STATUS_IGNORE), MPI_SUCCESS);
        }
        prepared.start();
        if (r == 0) {
          ASSERT_EQ(MPI_Send(&token, 1, MPI_INT, 1, 5, comm), MPI_SUCCESS);
        }
        prepared.complete();
      }
      EXPECT_EQ(buf, expect);
      // A blocking call of the same collective between runs: the
      // communicator's own cached plan, executor and scratch.
      std::vector<int> other(7, r);
      allreduce(MPI_IN_PLACE, other.data(), 7, MPI_INT, MPI_MAX, comm);
      EXPECT_EQ(other, std::vector<int>(7, p - 1));
    }
    EXPECT_EQ(prepared.compilations(), 1);
  }
}

// The resolved form (mpi/executor/executor.hpp): an 8-byte Allreduce (every message
// one call, completed in its round) runs from addresses resolved once, and
// resolved again when its staging copy or its buffer moves; every run
// equals native MPI. A plan of several segments per message does not take
// it (the scattered Bcast above).
TEST(MpiExecutor, ResolvedFormFollowsTheBuffers) {
  TestComm comm;
  const int p = world_size();
  const int r = world_rank();
  if (p == 1) GTEST_SKIP() << "one rank: no plan";
  mpi::CommState& s = mpi::comm_state(comm);
  const std::int64_t count = 2;
  const auto owned = prepare(s, plan::Collective::allreduce, count, 0, "doubling");
  mpi::PreparedPlan& prepared = *owned;
  mpi::MpiExecutor ex;
  mpi::Scratch scratch;
  std::vector<int> a(count), b(count);
  const mpi::ExecConfig cfg = mpi::exec_config(s, mpi::TypeInfo::of(MPI_INT), MPI_SUM);
  // run 0, 1: buffer a; 2: the staging copy moved; 3: buffer b.
  int expected_resolutions = 0;
  for (int run = 0; run < 4; ++run) {
    SCOPED_TRACE("run " + std::to_string(run));
    std::vector<int>& buf = run < 3 ? a : b;
    if (run == 0 || run == 3) prepared.bind(cfg, {buf.data()}, ex, scratch);
    if (run == 2) scratch.recv.get(std::int64_t{1} << 20);  // moves: the next run stages elsewhere
    for (std::int64_t i = 0; i < count; ++i)
      buf[static_cast<std::size_t>(i)] = (r + 3) * (run + 1) + static_cast<int>(i);
    // Formula: sum over ranks q of (q + 3)(run + 1) + i.
    const int sum = (p * (p - 1) / 2 + 3 * p) * (run + 1);
    prepared.run();
    for (std::int64_t i = 0; i < count; ++i) EXPECT_EQ(buf[static_cast<std::size_t>(i)], sum + p * static_cast<int>(i));
    EXPECT_TRUE(ex.resolved());
    // Run 2 resolves again where this rank combines what arrives (a rank
    // folded out of the doubling at p != 2^k only receives the result).
    const auto& entries = prepared.compiled().entries;
    const bool stages = std::any_of(entries.begin(), entries.end(),
                                    [](const auto& e) { return e.kind == plan::Compiled::Kind::recv_combine; });
    if (run == 0 || run == 3 || (run == 2 && stages)) ++expected_resolutions;
    EXPECT_EQ(ex.resolutions(), expected_resolutions);
  }
  // The contribution elsewhere (initial content; the doubling's higher
  // partners copy it in and combine locally, at resolved addresses):
  // runs 4 and 5 read c, run 6 reads d.
  std::vector<int> c(count), d(count);
  for (int run = 4; run < 7; ++run) {
    SCOPED_TRACE("run " + std::to_string(run));
    std::vector<int>& in = run < 6 ? c : d;
    if (run != 5) prepared.bind(cfg, {b.data(), in.data()}, ex, scratch);
    for (std::int64_t i = 0; i < count; ++i)
      in[static_cast<std::size_t>(i)] = (r + 3) * (run + 1) + static_cast<int>(i);
    const int sum = (p * (p - 1) / 2 + 3 * p) * (run + 1);
    prepared.run();
    for (std::int64_t i = 0; i < count; ++i) EXPECT_EQ(b[static_cast<std::size_t>(i)], sum + p * static_cast<int>(i));
    EXPECT_TRUE(ex.resolved());
    if (run != 5) ++expected_resolutions;
    EXPECT_EQ(ex.resolutions(), expected_resolutions);
  }
  std::vector<int> bytes(64, r);
  mpi::MpiExecutor other;
  mpi::ExecConfig bcfg = cfg;
  bcfg.op = MPI_OP_NULL;
  const plan::Compiled scattered = plan::compile(ScatteredBcast(p, 0, r, 64, 7), {});
  other.bind(bcfg, bytes.data(), s.scratch);
  other.run(scattered);
  EXPECT_FALSE(other.resolved());
  EXPECT_EQ(bytes, std::vector<int>(64, 0));
}

TEST(MpiExecutor, ChunkLimitFromEnvironment) {
  if (world_rank() == 0) setenv("OPTCOLL_MAX_CHUNK_ELEMS", "7", 1);
  TestComm comm;
  const int p = world_size();
  const int r = world_rank();
  for (Kind k : {Kind::int32, Kind::strided}) {
    const std::int64_t count = 1000;
    const int root = p - 1;
    SCOPED_TRACE(where(p, root, count, k, "", 0) + " OPTCOLL_MAX_CHUNK_ELEMS=7");
    Buffer expect(k, count);
    expect.fill(r == root ? 1u : 2u);
    Buffer got = expect;
    ASSERT_EQ(MPI_Bcast(expect.data(), static_cast<int>(count), expect.type(), root, comm), MPI_SUCCESS);
    bcast(got.data(), count, got.type(), root, comm, Options{"", 1});  // one block: messages of 1000 elements
    EXPECT_EQ(first_difference(got, expect), -1);
    const MPI_Op op = k == Kind::int32 ? MPI_SUM : Ops::get().ring;
    Buffer send(k, count);
    send.fill(3u + static_cast<unsigned>(r));
    Buffer rexpect(k, count);
    Buffer rgot(k, count);
    ASSERT_EQ(MPI_Reduce(send.data(), rexpect.data(), static_cast<int>(count), send.type(), op, root, comm),
              MPI_SUCCESS);
    reduce(send.data(), rgot.data(), count, send.type(), op, root, comm, Options{"", 1});
    if (r == root) {
      EXPECT_EQ(first_difference(rgot, rexpect), -1);
    }
  }
  unsetenv("OPTCOLL_MAX_CHUNK_ELEMS");
}

// The one typed copy across two non-contiguous types of different sizes
// (8 and 16 bytes of data per element), larger than its 4 MiB pieces: the
// data in order, every hole untouched. Local; the oracle is the layout
// written here.
TEST(MpiDatatype, CopyAcrossTypesInPieces) {
  if (world_rank() != 0) GTEST_SKIP() << "local";
  MPI_Datatype two = MPI_DATATYPE_NULL, four = MPI_DATATYPE_NULL, v = MPI_DATATYPE_NULL;
  MPI_Type_vector(2, 1, 2, MPI_INT, &v);  // ints at 0 and 2 of 4
  MPI_Type_create_resized(v, 0, 4 * sizeof(std::int32_t), &two);
  MPI_Type_free(&v);
  MPI_Type_vector(4, 1, 2, MPI_INT, &v);  // ints at 0, 2, 4, 6 of 8
  MPI_Type_create_resized(v, 0, 8 * sizeof(std::int32_t), &four);
  MPI_Type_free(&v);
  MPI_Type_commit(&two);
  MPI_Type_commit(&four);
  const std::int64_t n_even = 700002;  // elements of `two` (5.6 MB of data) = n_even / 2 of `four`
  std::vector<std::int32_t> src(static_cast<std::size_t>(4 * n_even), -1);
  for (std::int64_t i = 0; i < 2 * n_even; ++i) src[static_cast<std::size_t>(2 * i)] = static_cast<std::int32_t>(i);
  std::vector<std::int32_t> dst(static_cast<std::size_t>(4 * n_even), -7);
  mpi::ByteBuffer tmp;
  mpi::copy_typed(src.data(), n_even, mpi::TypeInfo::of(two), dst.data(), n_even / 2, mpi::TypeInfo::of(four), tmp);
  for (std::int64_t i = 0; i < 4 * n_even; ++i) {
    const std::int32_t want = i % 2 == 0 ? static_cast<std::int32_t>(i / 2) : -7;
    ASSERT_EQ(dst[static_cast<std::size_t>(i)], want) << "int " << i;
  }
  EXPECT_THROW(mpi::copy_typed(src.data(), 3, mpi::TypeInfo::of(two), dst.data(), 1, mpi::TypeInfo::of(four), tmp),
               MpiError);
  MPI_Type_free(&two);
  MPI_Type_free(&four);
}

}  // namespace
}  // namespace optcoll::test
