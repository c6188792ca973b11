// A chosen plan prepared for one rank: built once, bound to a call's
// buffers, run any number of times. Every plan collective reaches the
// executor through one: a blocking call through its communicator's cached
// one (run_plan()), a request that outlives the call through its own.
//
// Building it asks nothing of MPI, except that a LogP tree reads (and at
// the communicator's first such call, measures: collective) the LogP
// parameters. bind() is O(1) apart from the executor's own setup; start()
// posts round 0 and complete() runs the rest, as MpiExecutor::start /
// complete. The first run compiles the plan (plan/compiled.hpp); later runs
// with the same settings (initial content, parts) run the compiled plan
// again: no plan walk, no allocation.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "mpi/comm/choose.hpp"
#include "mpi/comm/comm_state.hpp"
#include "mpi/executor/executor.hpp"
#include "optcoll/plan/tree_plan.hpp"

namespace optcoll::mpi {

class PreparedPlan {
 public:
  // The plan of choice for spec at this rank. layout: the caller's layout of
  // a rank-group collective (plan::has_rank_groups; default:
  // plan::default_layout(spec)), this rank's own exchange layout for an
  // exchange (plan::is_exchange; required); copied.
  PreparedPlan(CommState& s, const Choice& choice, const plan::PlanSpec& spec, const plan::BlockLayout* layout);
  // A gather or scatter tree's part at this rank (plan::make_tree_plan()):
  // its layout is this rank's own, built from the tree (tree_run.hpp);
  // kept here. matches() is false for it: run_plan() runs it once, a
  // request keeps it.
  // final_messages: every message a final delivery (the linear tree:
  // plan::CompileOptions::final_messages).
  PreparedPlan(plan::Collective op, plan::TreeRankView view, plan::BlockLayout layout, bool final_messages = false);
  PreparedPlan(const PreparedPlan&) = delete;
  PreparedPlan& operator=(const PreparedPlan&) = delete;

  // Whether this is the plan of choice, spec and layout (compared group by
  // group: O(p), like the caller's arguments).
  bool matches(const Choice& choice, const plan::PlanSpec& spec, const plan::BlockLayout* layout) const;

  // The buffers of the next runs, and the executor and scratch that run
  // them (they must outlive the runs). base: element 0 of the working
  // buffer; init: its initial content if elsewhere (MpiExecutor::
  // set_initial, complete: base holds every block at the end); parts: the
  // exchanges' memory areas (MpiExecutor::set_parts).
  struct Buffers {
    void* base = nullptr;
    const void* init = nullptr;
    bool complete = true;
    std::span<const MpiExecutor::Part> parts{};
  };
  void bind(const ExecConfig& cfg, const Buffers& b, MpiExecutor& ex, Scratch& scratch);
  // Whether this plan is bound and compiled for exactly this call on ex
  // already (the same blocking call again): then it runs without bind().
  // The rest of the executor settings are the communicator's (exec_config),
  // fixed for its plans' lifetime.
  bool bound_for(const TypeInfo& t, MPI_Op op, const Buffers& b, const MpiExecutor& ex) const noexcept;
  // Which bind() the plan holds: a process-wide serial number, new at
  // every bind(), so that a plan known by its binding is known to run the
  // same buffers (another plan at the same address has another).
  std::uint64_t binding() const noexcept { return binding_; }

  // One run of the bound call: start() posts round 0 and returns (it never
  // waits for other ranks: a request's start), progress() advances it
  // without blocking (true when done), complete() finishes it (at once
  // after progress() said done). run() = start() + complete(), with round
  // 0 left to complete() too (the executor's blocking form). A bound plan
  // runs any number of times; a start binds the executor where another
  // plan ran on it since (a communicator's blocking plans share one).
  void start(bool post_first = true);
  bool progress();
  void complete();
  void run() {
    start(false);
    complete();
  }

  // Whether it is a registry algorithm's plan (else a tree's, which no
  // other call reuses).
  bool from_registry() const noexcept { return algorithm_ != nullptr; }
  const plan::RankPlan& plan() const noexcept { return *plan_; }
  // The compiled plan of the last run, and how many times a run compiled
  // the plan (1 while the settings stay the same).
  const plan::Compiled& compiled() const noexcept { return compiled_; }
  int compilations() const noexcept { return compilations_; }

 private:
  const plan::AlgorithmInfo* algorithm_ = nullptr;  // null: a tree
  bool final_messages_ = false;                     // its messages are final deliveries
  std::int64_t in_flight_ = 0;                      // a final-message tree: all its rounds in flight at once
  plan::PlanSpec spec_;
  bool caller_layout_ = false;
  std::unique_ptr<plan::BlockLayout> layout_;          // the plan's groups (rank-group collectives, exchanges)
  std::unique_ptr<plan::BlockLayout> virtual_layout_;  // layout_ renumbered for locality (plan/locality.hpp)
  std::unique_ptr<plan::RankPlan> plan_;
  plan::Compiled compiled_;
  bool compiled_ok_ = false;  // compiled_ is complete (a failed compile leaves it not)
  // compiled_ fits the bound call (set by start(), cleared by bind()); a
  // start binds ex_ anew where another plan ran on it since (bound_by).
  bool ready_ = false;
  int compilations_ = 0;
  std::uint64_t binding_ = 0;
  std::vector<std::int64_t> boundaries_;  // of parts_
  ExecConfig cfg_;
  Buffers buffers_;
  std::vector<MpiExecutor::Part> parts_;
  MpiExecutor* ex_ = nullptr;
  Scratch* scratch_ = nullptr;
};

// The executor settings of a call on s: optcoll's duplicate and tag, the
// chunk of OPTCOLL_MAX_CHUNK_ELEMS (default: INT_MAX elements), the wait mode.
ExecConfig exec_config(const CommState& s, const TypeInfo& t, MPI_Op op);

}  // namespace optcoll::mpi
