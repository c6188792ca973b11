#include "optcoll/plan/plan.hpp"

#include <string>

#include "optcoll/error.hpp"

namespace optcoll::plan {

BlockLayout::BlockLayout(std::int64_t count, std::int64_t n) : count_(count), n_(n) {
  if (n > 0) {
    base_ = count / n;
    rem_ = count % n;
  }
}

std::int64_t checked_blocks(const PlanSpec& spec) {
  if (spec.p < 1 || spec.p > schedule::kMaxP) throw Error(Errc::invalid_p, "p out of range: " + std::to_string(spec.p));
  if (spec.root < 0 || spec.root >= spec.p)
    throw Error(Errc::invalid_root,
                "root " + std::to_string(spec.root) + " outside [0, " + std::to_string(spec.p) + ")");
  if (spec.count < 0) throw Error(Errc::invalid_count, "count must be >= 0, got " + std::to_string(spec.count));
  if (spec.blocks < 1) throw Error(Errc::invalid_count, "block count must be >= 1, got " + std::to_string(spec.blocks));
  if (spec.count == 0) return 1;
  return spec.blocks < spec.count ? spec.blocks : spec.count;
}

}  // namespace optcoll::plan
