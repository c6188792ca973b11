// ComposedPlan (plan/composed.hpp).
#include "optcoll/plan/composed.hpp"

#include <utility>

#include "optcoll/error.hpp"

namespace optcoll::plan {

ComposedPlan::ComposedPlan(BlockLayout layout, std::vector<Phase> phases)
    : layout_(std::move(layout)), phases_(std::move(phases)) {
  for (const Phase& ph : phases_) {
    if (rounds_ == 0 && ph.rounds == 0 && !ph.finish.empty())
      throw Error(Errc::internal, "composed plan: a phase's finishing steps have no round to run in");
    rounds_ += ph.rounds;
  }
}

void ComposedPlan::map_runs(const Phase& ph, const std::vector<BlockRun>& in, std::vector<BlockRun>& out) const {
  const std::int64_t n = ph.plan->layout().blocks_per_group();
  for (const BlockRun& r : in) {
    // The run's blocks, group by group of the sub-layout.
    for (std::int64_t b = r.first; b < r.first + r.count;) {
      const std::int64_t g = b / n;
      const std::int64_t end = std::min(r.first + r.count, (g + 1) * n);
      runs_.clear();
      ph.group_runs(g, runs_);
      if (n == 1) {
        out.insert(out.end(), runs_.begin(), runs_.end());
      } else {
        // The group has the composed blocks' granularity: one run of n.
        if (runs_.size() != 1 || runs_[0].count != n)
          throw Error(Errc::internal, "composed plan: a pipelined sub-group must stand for one run of its blocks");
        out.push_back({runs_[0].first + (b - g * n), end - b});
      }
      b = end;
    }
  }
}

void ComposedPlan::step(std::int64_t i, Step& out) const {
  std::size_t k = 0;
  while (k < phases_.size() && i >= phases_[k].rounds) i -= phases_[k++].rounds;
  if (k == phases_.size()) return;
  const Phase& ph = phases_[k];
  if (ph.plan != nullptr && i < ph.plan->rounds()) map_step(ph, i, out);
  if (i + 1 < ph.rounds) return;
  // The phase's last round: its finishing steps, then those of the phases
  // of no rounds that follow it.
  for (std::size_t j = k; j < phases_.size() && (j == k || phases_[j].rounds == 0); ++j)
    out.local.insert(out.local.end(), phases_[j].finish.begin(), phases_[j].finish.end());
}

void ComposedPlan::map_step(const Phase& ph, std::int64_t i, Step& out) const {
  sub_.clear();
  ph.plan->step(i, sub_);
  if (sub_.send_to >= 0) {
    out.send_to = ph.rank(sub_.send_to);
    map_runs(ph, sub_.send, out.send);
  }
  if (sub_.recv_from >= 0) {
    out.recv_from = ph.rank(sub_.recv_from);
    out.on_recv = sub_.on_recv;
    map_runs(ph, sub_.recv, out.recv);
  }
  for (const LocalOp& op : sub_.local) {
    from_.clear();
    to_.clear();
    map_runs(ph, {op.from}, from_);
    map_runs(ph, {op.to}, to_);
    if (from_.size() != to_.size())
      throw Error(Errc::internal, "composed plan: a local step's two sides stand for different runs");
    for (std::size_t j = 0; j < from_.size(); ++j) out.local.push_back({from_[j], to_[j], op.action});
  }
}

std::int64_t plan_rounds(PlanFactory make, const PlanSpec& spec, const BlockLayout* layout) {
  const PlanSetup setup = layout != nullptr ? PlanSetup(spec, *layout) : PlanSetup(spec);
  return make(setup.context(), 0)->rounds();
}

}  // namespace optcoll::plan
