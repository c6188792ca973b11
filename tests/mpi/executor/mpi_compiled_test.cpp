// Compiled plans (plan::Compiled) run by the MPI executor, for every
// registry algorithm of the rank-plan collectives: a blocking call compiles
// its plan at the first run and runs the compiled plan again at the second.
// Each call's result equals native MPI's (the oracle), and the compiled
// plan's messages are exactly the plan's: walking the plan with
// plan::post_round (as every executor walks plans) gives, round by round,
// the same peers and element counts for the one send and the one receive.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "mpi/comm/comm_state.hpp"
#include "mpi/executor/executor.hpp"
#include "mpi/executor/prepared_plan.hpp"
#include "mpi_test_util.hpp"
#include "optcoll/optcoll.hpp"
#include "optcoll/plan/executor.hpp"

namespace optcoll::test {
namespace {

using Kind = plan::Compiled::Kind;

// One message as the plan or the compiled plan says: round, direction, peer,
// elements.
struct Msg {
  std::int64_t round = 0;
  bool send = false;
  std::int64_t peer = 0;
  std::int64_t elements = 0;
  bool operator==(const Msg&) const = default;
};

// The messages of a plan, by walking it (empty messages are not sent).
class Walk final : public plan::Executor {
 public:
  explicit Walk(const plan::RankPlan& p) : plan_(p) {
    plan::Step step;
    for (round_ = 0; round_ < p.rounds(); ++round_) {
      plan::post_round(p, round_, step, *this);
      wait();
    }
  }
  void send(plan::rank_t to, std::span<const plan::BlockRun> runs) override { add(true, to, runs); }
  void recv(plan::rank_t from, std::span<const plan::BlockRun> runs, plan::Action) override { add(false, from, runs); }
  void local(const plan::LocalOp&) override {}
  void wait() override {}
  std::vector<Msg> msgs;

 private:
  void add(bool send, plan::rank_t peer, std::span<const plan::BlockRun> runs) {
    std::int64_t n = 0;
    for (const plan::BlockRun& r : runs) n += plan_.layout().run(r).count;
    if (n > 0) msgs.push_back({round_, send, peer, n});
  }
  const plan::RankPlan& plan_;
  std::int64_t round_ = 0;
};

// The messages of a compiled plan.
std::vector<Msg> compiled_msgs(const plan::Compiled& c) {
  std::vector<Msg> out;
  std::size_t at = 0;
  for (std::size_t r = 0; r < c.round_end.size(); ++r) {
    for (; at < c.apply[r]; ++at) {
      const auto& e = c.entries[at];
      if (e.kind == Kind::initial || e.kind == Kind::local) continue;
      out.push_back(
          {static_cast<std::int64_t>(r), e.kind == Kind::send || e.kind == Kind::send_initial, e.peer, e.count});
    }
    at = c.round_end[r];
  }
  return out;
}

struct Case {
  plan::Collective op;
  // Runs optcoll's call (options) or, with native, MPI's, on this rank's
  // input `in` (count ints per rank) into `out`.
  std::function<void(const std::vector<int>& in, std::vector<int>& out, const Options* options, MPI_Comm comm)> call;
};

std::vector<Case> cases(int p) {
  const int root = p - 1;
  return {
      {plan::Collective::bcast,
       [root](const std::vector<int>& in, std::vector<int>& out, const Options* o, MPI_Comm c) {
         out = in;
         if (o != nullptr)
           bcast(out.data(), static_cast<std::int64_t>(out.size()), MPI_INT, root, c, *o);
         else
           MPI_Bcast(out.data(), static_cast<int>(out.size()), MPI_INT, root, c);
       }},
      {plan::Collective::reduce,
       [root](const std::vector<int>& in, std::vector<int>& out, const Options* o, MPI_Comm c) {
         out.assign(in.size(), -1);
         if (o != nullptr)
           reduce(in.data(), out.data(), static_cast<std::int64_t>(in.size()), MPI_INT, MPI_SUM, root, c, *o);
         else
           MPI_Reduce(in.data(), out.data(), static_cast<int>(in.size()), MPI_INT, MPI_SUM, root, c);
       }},
      {plan::Collective::allreduce,
       [](const std::vector<int>& in, std::vector<int>& out, const Options* o, MPI_Comm c) {
         out.assign(in.size(), -1);
         if (o != nullptr)
           allreduce(in.data(), out.data(), static_cast<std::int64_t>(in.size()), MPI_INT, MPI_SUM, c, *o);
         else
           MPI_Allreduce(in.data(), out.data(), static_cast<int>(in.size()), MPI_INT, MPI_SUM, c);
       }},
      {plan::Collective::allgather,
       [p](const std::vector<int>& in, std::vector<int>& out, const Options* o, MPI_Comm c) {
         out.assign(in.size() * static_cast<std::size_t>(p), -1);
         if (o != nullptr)
           allgather(in.data(), out.data(), static_cast<std::int64_t>(in.size()), MPI_INT, c, *o);
         else
           MPI_Allgather(in.data(), static_cast<int>(in.size()), MPI_INT, out.data(), static_cast<int>(in.size()),
                         MPI_INT, c);
       }},
      {plan::Collective::reduce_scatter,
       [p](const std::vector<int>& in, std::vector<int>& out, const Options* o, MPI_Comm c) {
         const std::int64_t each = static_cast<std::int64_t>(in.size()) / p;
         out.assign(static_cast<std::size_t>(each), -1);
         if (o != nullptr)
           reduce_scatter_block(in.data(), out.data(), each, MPI_INT, MPI_SUM, c, *o);
         else
           MPI_Reduce_scatter_block(in.data(), out.data(), static_cast<int>(each), MPI_INT, MPI_SUM, c);
       }},
      {plan::Collective::scan,
       [](const std::vector<int>& in, std::vector<int>& out, const Options* o, MPI_Comm c) {
         out.assign(in.size(), -1);
         if (o != nullptr)
           scan(in.data(), out.data(), static_cast<std::int64_t>(in.size()), MPI_INT, MPI_SUM, c, *o);
         else
           MPI_Scan(in.data(), out.data(), static_cast<int>(in.size()), MPI_INT, MPI_SUM, c);
       }},
  };
}

TEST(MpiCompiled, EveryAlgorithmMovesWhatItsPlanSays) {
  TestComm comm;
  const int p = world_size();
  const int r = world_rank();
  if (p == 1) GTEST_SKIP() << "one rank: no plan";
  const std::int64_t count = 3 * p;  // a few ints per block: small messages
  std::vector<int> compiled(16, 0);  // by collective
  for (const Case& c : cases(p)) {
    for (const plan::AlgorithmInfo& a : plan::algorithms()) {
      if (a.op != c.op || a.needs_logp) continue;  // (the LogP trees measure the machine first)
      for (std::int64_t blocks : {std::int64_t{1}, std::int64_t{3}}) {
        if (blocks > 1 && a.blocking != plan::Blocking::n) continue;
        SCOPED_TRACE(std::string(plan::to_string(c.op)) + " " + std::string(a.name) + " blocks " +
                     std::to_string(blocks));
        const Options options{std::string(a.name), blocks};
        for (int call = 0; call < 2; ++call) {  // the first compiles, the second runs it again
          std::vector<int> in(static_cast<std::size_t>(count));
          for (std::int64_t i = 0; i < count; ++i)
            in[static_cast<std::size_t>(i)] = static_cast<int>((i * 7 + r * 13 + call * 5) % 1000);
          std::vector<int> got, expect;
          c.call(in, got, &options, comm);
          c.call(in, expect, nullptr, comm);
          if (c.op != plan::Collective::reduce || r == p - 1) {
            ASSERT_EQ(got, expect) << "call " << call;
          }
        }
        const mpi::CommState& s = mpi::comm_state(comm);
        const auto& pp = s.plans[static_cast<std::size_t>(c.op)];
        ASSERT_NE(pp, nullptr);
        ASSERT_EQ(pp->compilations(), 1);
        ++compiled[static_cast<std::size_t>(c.op)];
        EXPECT_EQ(pp->compiled().round_end.size(), static_cast<std::size_t>(pp->plan().rounds()));
        EXPECT_EQ(compiled_msgs(pp->compiled()), Walk(pp->plan()).msgs);
      }
    }
  }
  // Every case of these collectives ran (at least two algorithms each).
  for (plan::Collective op : {plan::Collective::bcast, plan::Collective::reduce, plan::Collective::allreduce}) {
    EXPECT_GE(compiled[static_cast<std::size_t>(op)], 2) << plan::to_string(op);
  }
}

}  // namespace
}  // namespace optcoll::test
