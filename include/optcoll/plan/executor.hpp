// The executor interface: the few primitives a plan needs, implemented twice,
// by the MPI executor (mpi/) and by the simulator (sim/). run_round() is the
// only code that walks a plan; executors never see an algorithm.
#pragma once

#include "optcoll/plan/plan.hpp"

namespace optcoll::plan {

class Executor {
 public:
  virtual ~Executor() = default;
  // Post a send of block `block` (elements seg of the working buffer) to `to`.
  virtual void send(rank_t to, std::int64_t block, Segment seg) = 0;
  // Post a receive from `from` into block `block`, to be copied or combined
  // into the working buffer as `action` says once it has arrived.
  virtual void recv(rank_t from, std::int64_t block, Segment seg, Action action) = 0;
  // Complete everything posted in this round and apply the receive actions.
  virtual void wait() = 0;
};

// Posts round i of `plan` on `ex` (no wait).
inline void post_round(const RankPlan& plan, std::int64_t i, Executor& ex) {
  const Step s = plan.step(i);
  if (s.recv_from >= 0) ex.recv(s.recv_from, s.recv_block, plan.layout().block(s.recv_block), s.on_recv);
  if (s.send_to >= 0) ex.send(s.send_to, s.send_block, plan.layout().block(s.send_block));
}

// Runs a whole plan for one rank: every round posted, then completed.
inline void run(const RankPlan& plan, Executor& ex) {
  for (std::int64_t i = 0; i < plan.rounds(); ++i) {
    post_round(plan, i, ex);
    ex.wait();
  }
}

}  // namespace optcoll::plan
