// Renumbering ranks for locality (optcoll/plan/locality.hpp).
#include "optcoll/plan/locality.hpp"

#include "optcoll/error.hpp"

namespace optcoll::plan {
namespace {

class Renumbered final : public RankPlan {
 public:
  Renumbered(std::unique_ptr<RankPlan> plan, const RankOrder& order) : plan_(std::move(plan)), order_(order) {}
  std::int64_t rounds() const noexcept override { return plan_->rounds(); }
  void step(std::int64_t i, Step& out) const override {
    plan_->step(i, out);
    if (out.send_to >= 0) out.send_to = order_.physical(out.send_to);
    if (out.recv_from >= 0) out.recv_from = order_.physical(out.recv_from);
  }
  const BlockLayout& layout() const noexcept override { return plan_->layout(); }

 private:
  std::unique_ptr<RankPlan> plan_;
  RankOrder order_;
};

}  // namespace

RankOrder locality_order(rank_t p, rank_t group) noexcept {
  if (group <= 1 || group >= p || p % group != 0) return {p, 1, p};
  return {p, p / group, group};
}

std::unique_ptr<RankPlan> renumbered(std::unique_ptr<RankPlan> plan, const RankOrder& order) {
  if (order.identity()) return plan;
  return std::make_unique<Renumbered>(std::move(plan), order);
}

BlockLayout renumbered_layout(const BlockLayout& ranks, const RankOrder& order) {
  if (ranks.groups() != order.p || ranks.data_groups() != order.p)
    throw Error(Errc::internal, "renumbered_layout: one group per rank and no scratch groups expected");
  std::vector<Segment> groups(static_cast<std::size_t>(order.p));
  for (rank_t u = 0; u < order.p; ++u) groups[static_cast<std::size_t>(u)] = ranks.group(order.physical(u));
  return BlockLayout(std::move(groups), ranks.blocks_per_group());
}

}  // namespace optcoll::plan
