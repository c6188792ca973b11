// A broadcast plan run backwards is a reduction plan (Träff 2024,
// Observation 1.3, for any broadcast in which every non-root receives every
// block exactly once): round i is broadcast round R-1-i with every edge
// reversed, and what arrives is combined instead of copied. A rank sends its
// partial block only after all partials of its broadcast subtree arrived,
// because in the broadcast it received the block before forwarding it.
// Whether a particular broadcast plan qualifies is checked by the simulator,
// which rejects any reduction that counts a contribution twice.
#pragma once

#include <memory>
#include <utility>

#include "optcoll/plan/plan.hpp"

namespace optcoll::plan {

class ReversedPlan final : public RankPlan {
 public:
  ReversedPlan(std::unique_ptr<RankPlan> bcast, Action combine) : bcast_(std::move(bcast)), combine_(combine) {}

  std::int64_t rounds() const noexcept override { return bcast_->rounds(); }
  const BlockLayout& layout() const noexcept override { return bcast_->layout(); }

  void step(std::int64_t i, Step& out) const override {
    bcast_->step(rounds() - 1 - i, out);
    out.swap_directions();
    out.on_recv = combine_;
  }

 private:
  std::unique_ptr<RankPlan> bcast_;
  Action combine_;
};

}  // namespace optcoll::plan
