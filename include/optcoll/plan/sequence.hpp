// Two plans on the same layout, one after the other: rounds of `first`, then
// rounds of `second`. Used for compositions such as allreduce =
// reduce-scatter followed by allgather.
#pragma once

#include <memory>
#include <utility>

#include "optcoll/plan/plan.hpp"

namespace optcoll::plan {

class SequencePlan final : public RankPlan {
 public:
  SequencePlan(std::unique_ptr<RankPlan> first, std::unique_ptr<RankPlan> second)
      : first_(std::move(first)), second_(std::move(second)) {}

  std::int64_t rounds() const noexcept override { return first_->rounds() + second_->rounds(); }
  const BlockLayout& layout() const noexcept override { return first_->layout(); }
  void step(std::int64_t i, Step& out) const override {
    const std::int64_t r1 = first_->rounds();
    if (i < r1) {
      first_->step(i, out);
    } else {
      second_->step(i - r1, out);
    }
  }

 private:
  std::unique_ptr<RankPlan> first_;
  std::unique_ptr<RankPlan> second_;
};

}  // namespace optcoll::plan
