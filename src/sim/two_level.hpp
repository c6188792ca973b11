// The simulator's clock on the two-level machine (model/two_level.hpp):
// one round's messages in, its cost out. Internal to src/sim/.
#pragma once

#include <cstdint>
#include <vector>

#include "optcoll/model/two_level.hpp"
#include "optcoll/plan/nodes.hpp"

namespace optcoll::sim::detail {

class TwoLevelClock {
 public:
  TwoLevelClock(const plan::NodeLayout& nodes, const model::TwoLevel& m);
  // A message of the current round.
  void message(plan::rank_t from, plan::rank_t to, std::int64_t bytes);
  // The round's cost (0 without messages); starts the next round.
  double end_round();

 private:
  const plan::NodeLayout& nodes_;
  model::TwoLevel m_;
  double within_ = 0;                   // the round's slowest message within a node
  std::vector<std::int64_t> out_, in_;  // bytes through each node's port
  std::vector<plan::rank_t> used_;      // the nodes whose ports carry bytes this round
};

}  // namespace optcoll::sim::detail
