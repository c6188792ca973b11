// A plan made of phases, each an existing plan run on a subset of the ranks
// (the ranks of a node, or a lane: one rank per node), one phase after the
// other: the node-aware collectives (nodes.hpp) are such compositions of
// the round-optimal plans on smaller rank sets, not plans of their own.
//
// A phase's sub-plan is built by a registry factory for its own PlanSpec
// (p = the subset's size) and its own layout, a view of the composed
// layout: sub-plan group g stands for runs of the composed layout's blocks
// (group_runs). Either the sub-group has the composed blocks' granularity
// (one run of exactly blocks_per_group() of the sub-layout's blocks: block j
// is the run's j-th block), or the sub-layout has one block per group, which
// stands for all of the group's runs (a whole lane's data in one message).
// The sub-layout's element counts must equal what its blocks stand for
// (the plans skip empty groups, and the executors size messages by the
// composed layout).
//
// Every rank takes part in each phase through at most one subset; a
// phase's rounds are the same at every rank (the largest subset plan's),
// ranks with less to do idle. Step(i) maps the sub-plan's step: peers
// through the subset's ranks, block runs through group_runs; O(1) per
// block named plus the runs a group stands for.
//
// A phase may end with local steps of the rank's own (Phase::finish, runs
// of the composed layout): where a sub-plan's result must land in a block
// the sub-plan cannot name, e.g. a prefix received whole and combined on
// the left of the rank's own partial (scan/leaders). They run after the
// phase's last round's receive and the sub-plan's local steps; a phase of
// no rounds runs them in the last round before it (nothing has moved
// since), and the plan throws where no round comes before.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "optcoll/plan/algorithms.hpp"

namespace optcoll::plan {

struct Phase {
  // The sub-plan's context (its spec, graph, schedules, layout) and this
  // rank's part; plan is null where the rank is in no subset of the phase.
  std::unique_ptr<PlanSetup> setup;
  std::unique_ptr<RankPlan> plan;
  std::int64_t rounds = 0;                                               // of the phase, at every rank
  std::function<rank_t(rank_t)> rank;                                    // sub-rank -> rank
  std::function<void(std::int64_t, std::vector<BlockRun>&)> group_runs;  // sub-group -> composed runs (appended)
  std::vector<LocalOp> finish;                                           // this rank's, after the phase (composed runs)
};

class ComposedPlan final : public RankPlan {
 public:
  ComposedPlan(BlockLayout layout, std::vector<Phase> phases);

  std::int64_t rounds() const noexcept override { return rounds_; }
  const BlockLayout& layout() const noexcept override { return layout_; }
  void step(std::int64_t i, Step& out) const override;

 private:
  void map_runs(const Phase& ph, const std::vector<BlockRun>& in, std::vector<BlockRun>& out) const;
  void map_step(const Phase& ph, std::int64_t i, Step& out) const;

  BlockLayout layout_;
  std::vector<Phase> phases_;
  std::int64_t rounds_ = 0;
  mutable Step sub_;                    // the sub-plan's step, reused
  mutable std::vector<BlockRun> runs_;  // group_runs' output, reused
  mutable std::vector<BlockRun> from_, to_;
};

// The rounds of the plan `make` builds for spec on `layout` (nullptr: the
// plan's own), at rank 0 of the subset: the same at every rank of it.
std::int64_t plan_rounds(PlanFactory make, const PlanSpec& spec, const BlockLayout* layout);

}  // namespace optcoll::plan
