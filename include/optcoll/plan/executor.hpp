// The executor interface: the few primitives a plan needs, implemented by
// the simulator (sim/), by the compiler (compiled.hpp), whose output the
// MPI executor (mpi/) runs, and by Allmerge's MergeRounds
// (mpi/collectives/allmerge.cpp). Executors walk a plan through
// post_round() / run() and never see an algorithm; only compositions
// (sequence.hpp, reversed.hpp, composed.hpp, locality) and sim/allmerge.cpp,
// which reads each rank's and its sender's runs, call a plan's step()
// themselves.
#pragma once

#include <span>

#include "optcoll/plan/plan.hpp"

namespace optcoll::plan {

class Executor {
 public:
  virtual ~Executor() = default;
  // Post a send to `to` of the blocks in `runs` (one message, packed in
  // order). Completes by the next wait().
  virtual void send(rank_t to, std::span<const BlockRun> runs) = 0;
  // Post a receive from `from` of the blocks in `runs`, to be copied or
  // combined into the working buffer as `action` says by the next wait().
  virtual void recv(rank_t from, std::span<const BlockRun> runs, Action action) = 0;
  // Queue a local copy or combination, applied after this round's receive
  // (in the order queued) by the next wait().
  virtual void local(const LocalOp& op) = 0;
  // Complete everything posted in this round, apply the receive action, then
  // the queued local operations.
  virtual void wait() = 0;
};

// Posts round i of `plan` on `ex` (no wait); `scratch` is reused across
// rounds so that steady-state rounds do not allocate.
inline void post_round(const RankPlan& plan, std::int64_t i, Step& scratch, Executor& ex) {
  scratch.clear();
  plan.step(i, scratch);
  if (scratch.recv_from >= 0) ex.recv(scratch.recv_from, scratch.recv, scratch.on_recv);
  if (scratch.send_to >= 0) ex.send(scratch.send_to, scratch.send);
  for (const LocalOp& op : scratch.local) ex.local(op);
}

// Runs a whole plan for one rank: every round posted, then completed.
inline void run(const RankPlan& plan, Executor& ex) {
  Step scratch;
  for (std::int64_t i = 0; i < plan.rounds(); ++i) {
    post_round(plan, i, scratch, ex);
    ex.wait();
  }
}

}  // namespace optcoll::plan
