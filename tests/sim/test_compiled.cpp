// Compiled plans (plan/compiled.hpp) run by the simulator (sim/compiled.hpp)
// against the plans they were compiled from, for every registry algorithm:
// the oracle walks each rank's plan round by round (plan::post_round),
// element by element, on buffers that start with the initial content, and
// combines with the same value function. The compiled run must end with the
// same value in every data element of every rank, and move the same
// messages (non-empty ones) with the same elements. Reductions are compiled
// with and without separate initial content (sendbuf, or MPI_IN_PLACE), and
// with and without the end's copies of untouched blocks.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/alltoall.hpp"
#include "optcoll/plan/compiled.hpp"
#include "optcoll/plan/executor.hpp"
#include "optcoll/sim/compiled.hpp"

namespace optcoll {
namespace {

using plan::Action;
using plan::BlockRun;
using plan::Collective;
using plan::rank_t;
using Values = std::vector<std::uint64_t>;

constexpr std::uint64_t kScratch = 1;  // the oracle's scratch elements before they are written

// What one rank posts in one round.
struct Posted final : plan::Executor {
  rank_t to = -1, from = -1;
  Action action = Action::copy;
  std::vector<BlockRun> send_runs, recv_runs;
  std::vector<plan::LocalOp> locals;
  void send(rank_t t, std::span<const BlockRun> runs) override {
    to = t;
    send_runs.assign(runs.begin(), runs.end());
  }
  void recv(rank_t f, std::span<const BlockRun> runs, Action a) override {
    from = f;
    action = a;
    recv_runs.assign(runs.begin(), runs.end());
  }
  void local(const plan::LocalOp& op) override { locals.push_back(op); }
  void wait() override {}
};

// The elements of runs, in order.
std::vector<std::int64_t> elements(const plan::BlockLayout& lay, std::span<const BlockRun> runs) {
  std::vector<std::int64_t> e;
  for (const BlockRun& r : runs) {
    const plan::Segment s = lay.run(r);
    for (std::int64_t x = s.offset; x < s.offset + s.count; ++x) e.push_back(x);
  }
  return e;
}

struct Walked {
  std::vector<Values> buffers;  // data elements
  std::int64_t messages = 0, total_elements = 0;
};

Walked walk(const std::vector<std::unique_ptr<plan::RankPlan>>& plans, const std::vector<Values>& initial,
            bool commutative) {
  const std::size_t p = plans.size();
  std::vector<Values> buf(p);
  for (std::size_t r = 0; r < p; ++r) {
    buf[r].assign(static_cast<std::size_t>(plans[r]->layout().extent()), kScratch);
    std::copy(initial[r].begin(), initial[r].end(), buf[r].begin());
  }
  Walked w;
  std::vector<Posted> posted(p);
  std::vector<Values> sent(p);
  plan::Step step;
  const auto combine = [&](std::uint64_t& own, std::uint64_t in, Action a) {
    if (a == Action::copy)
      own = in;
    else
      own = a == Action::combine_before ? sim::combine_values(in, own, commutative)
                                        : sim::combine_values(own, in, commutative);
  };
  for (std::int64_t i = 0; i < plans[0]->rounds(); ++i) {
    for (std::size_t r = 0; r < p; ++r) {
      posted[r] = Posted{};
      plan::post_round(*plans[r], i, step, posted[r]);
      sent[r].clear();
      if (posted[r].to < 0) continue;
      for (std::int64_t x : elements(plans[r]->layout(), posted[r].send_runs))
        sent[r].push_back(buf[r][static_cast<std::size_t>(x)]);
      if (!sent[r].empty()) {
        ++w.messages;
        w.total_elements += static_cast<std::int64_t>(sent[r].size());
      }
    }
    for (std::size_t r = 0; r < p; ++r) {
      if (posted[r].from < 0) continue;
      const Values& v = sent[static_cast<std::size_t>(posted[r].from)];
      const auto into = elements(plans[r]->layout(), posted[r].recv_runs);
      EXPECT_EQ(into.size(), v.size());
      for (std::size_t j = 0; j < into.size() && j < v.size(); ++j)
        combine(buf[r][static_cast<std::size_t>(into[j])], v[j], posted[r].action);
    }
    for (std::size_t r = 0; r < p; ++r)
      for (const plan::LocalOp& op : posted[r].locals) {
        const auto f = elements(plans[r]->layout(), {&op.from, 1});
        const auto t = elements(plans[r]->layout(), {&op.to, 1});
        for (std::size_t j = 0; j < f.size() && j < t.size(); ++j)
          combine(buf[r][static_cast<std::size_t>(t[j])], buf[r][static_cast<std::size_t>(f[j])], op.action);
      }
  }
  for (std::size_t r = 0; r < p; ++r) buf[r].resize(static_cast<std::size_t>(plans[r]->layout().data_extent()));
  w.buffers = std::move(buf);
  return w;
}

// Compiles every rank's plan, runs the compiled plans and checks them
// against the walk.
void check(const plan::PlanContext& ctx, const plan::AlgorithmInfo& a, const std::string& where) {
  const rank_t p = ctx.spec.p;
  std::vector<std::unique_ptr<plan::RankPlan>> plans;
  std::vector<Values> initial;
  for (rank_t r = 0; r < p; ++r) {
    plans.push_back(a.make(ctx, r));
    Values v(static_cast<std::size_t>(plans.back()->layout().data_extent()));
    for (std::size_t e = 0; e < v.size(); ++e) v[e] = (static_cast<std::uint64_t>(r) << 32) + e + 1000;
    initial.push_back(std::move(v));
  }
  const bool commutative = ctx.spec.commutative;
  const Walked expect = walk(plans, initial, commutative);

  struct Setting {
    bool with_initial, complete;
  };
  std::vector<Setting> settings{{false, true}};
  if (plan::is_reduction(ctx.spec.op)) settings.insert(settings.end(), {{true, true}, {true, false}});
  for (const Setting& st : settings) {
    SCOPED_TRACE(where + (st.with_initial ? " with initial content" : "") + (st.complete ? "" : ", not completed"));
    std::vector<plan::Compiled> compiled;
    for (rank_t r = 0; r < p; ++r)
      compiled.push_back(
          plan::compile(*plans[static_cast<std::size_t>(r)], {st.with_initial, commutative, st.complete}));
    const sim::CompiledRun got = sim::run_compiled(compiled, initial, commutative);
    ASSERT_TRUE(got.ok()) << got.errors.front();
    EXPECT_EQ(got.rounds, plans[0]->rounds());
    EXPECT_EQ(got.messages, expect.messages);
    EXPECT_EQ(got.total_elements, expect.total_elements);
    for (rank_t r = 0; r < p; ++r) {
      const auto ru = static_cast<std::size_t>(r);
      ASSERT_EQ(got.buffers[ru].size(), expect.buffers[ru].size());
      for (std::size_t e = 0; e < got.buffers[ru].size(); ++e) {
        // Not completed: a block the plan never touched may stay unwritten,
        // exactly where the walk's value is still the initial one.
        if (!st.complete && expect.buffers[ru][e] == initial[ru][e] && got.buffers[ru][e] != expect.buffers[ru][e])
          continue;
        ASSERT_EQ(got.buffers[ru][e], expect.buffers[ru][e]) << "rank " << r << " element " << e;
      }
    }
  }
}

std::vector<rank_t> roots_of(rank_t p) {
  std::vector<rank_t> roots{0, p / 2, p - 1};
  std::sort(roots.begin(), roots.end());
  roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
  return roots;
}

TEST(CompiledPlans, EveryRegistryAlgorithmAsItsPlan) {
  for (const plan::AlgorithmInfo& a : plan::algorithms()) {
    if (plan::is_exchange(a.op)) continue;  // below
    for (rank_t p : {1, 2, 3, 5, 6, 7, 9, 17}) {
      for (rank_t root : roots_of(p)) {
        for (std::int64_t n : {1, 3}) {
          if (n > 1 && a.blocking != plan::Blocking::n) continue;
          for (bool commutative : {true, false}) {
            if (!commutative && (a.needs_commutative || !plan::is_reduction(a.op))) continue;
            const plan::PlanSpec spec{a.op, p, root, 2 * p + 3, n, commutative, true};
            const plan::PlanSetup setup(spec);
            check(setup.context(), a,
                  std::string(plan::to_string(a.op)) + "/" + std::string(a.name) + " p=" + std::to_string(p) +
                      " root=" + std::to_string(root) + " n=" + std::to_string(n) +
                      (commutative ? "" : " non-commutative"));
            if (HasFatalFailure()) return;
          }
        }
      }
    }
  }
}

// An exchange at p ranks and every rank's layout: `regular` units per
// message for Alltoall, k mod 4 for the others (irregular, some empty).
struct Exchange {
  Exchange(Collective op, rank_t p, std::int64_t regular) : g(p) {
    std::vector<std::int64_t> counts(static_cast<std::size_t>(p * p), regular);
    if (op != Collective::alltoall)
      for (std::size_t k = 0; k < counts.size(); ++k) counts[k] = static_cast<std::int64_t>(k % 4);
    layouts = plan::exchange_layouts(op, p, counts);
    ctx.spec.op = op;
    ctx.spec.p = p;
    ctx.graph = &g;
    ctx.rank_layouts = layouts.data();
  }
  Exchange(const Exchange&) = delete;
  Exchange& operator=(const Exchange&) = delete;
  schedule::Circulant g;
  std::vector<plan::BlockLayout> layouts;
  plan::PlanContext ctx;
};

TEST(CompiledPlans, EveryExchangeAsItsPlan) {
  for (const plan::AlgorithmInfo& a : plan::algorithms()) {
    if (!plan::is_exchange(a.op)) continue;
    for (rank_t p : {1, 2, 3, 5, 6, 7, 9}) {
      const Exchange e(a.op, p, 2);
      check(e.ctx, a, std::string(plan::to_string(a.op)) + "/" + std::string(a.name) + " p=" + std::to_string(p));
      if (HasFatalFailure()) return;
    }
  }
}

// The executor's window: every plan of final messages (the exchanges'
// shift schedule, the linear scans) compiles to independent rounds at
// every rank; Bruck's
// Alltoall, which forwards what it received, does not (except at p = 3,
// where it forwards nothing), and neither does a broadcast root, whose
// rounds touch nothing of each other but feed the tree: its plan is not
// one of final messages.
TEST(CompiledPlans, FinalMessagesCompileToIndependentRounds) {
  const plan::CompileOptions final_messages{.final_messages = true};
  for (rank_t p : {3, 5, 8, 9}) {
    for (const plan::AlgorithmInfo& a : plan::algorithms()) {
      if (!plan::is_exchange(a.op) || (!a.final_messages && a.name != "bruck")) continue;
      const Exchange e(a.op, p, 3);
      for (rank_t r = 0; r < p; ++r) {
        // Bruck's round k sends the positions with bit k set; from p = 4
        // on, position 3 arrives in round 0 and leaves in round 1.
        EXPECT_EQ(plan::compile(*a.make(e.ctx, r), final_messages).independent, a.final_messages || p == 3)
            << plan::to_string(a.op) << "/" << a.name << " p=" << p << " rank " << r;
      }
    }
    // The linear scans, at every rank, from a send buffer or in place: the
    // fold is the last round's, after every message.
    for (const Collective op : {Collective::scan, Collective::exscan}) {
      const plan::AlgorithmInfo& linear = *plan::find_algorithm(op, "linear");
      EXPECT_TRUE(linear.final_messages);
      const plan::PlanSetup setup(plan::PlanSpec{op, p, 0, 5, 1, false, false});
      for (rank_t r = 0; r < p; ++r)
        for (const bool with_initial : {false, true}) {
          const plan::CompileOptions o{.with_initial = with_initial, .commutative = false, .final_messages = true};
          EXPECT_TRUE(plan::compile(*linear.make(setup.context(), r), o).independent)
              << plan::to_string(op) << "/linear p=" << p << " rank " << r << (with_initial ? " sendbuf" : "");
        }
    }
    const plan::PlanSpec bcast{Collective::bcast, p, 0, 4 * p, 4, true, true};
    const plan::PlanSetup setup(bcast);
    const plan::AlgorithmInfo& circulant = *plan::find_algorithm(Collective::bcast, "circulant");
    EXPECT_FALSE(circulant.final_messages);
    EXPECT_FALSE(plan::compile(*circulant.make(setup.context(), 0), {}).independent) << "bcast root, p=" << p;
  }
}

}  // namespace
}  // namespace optcoll
