#include "optcoll/plan/plan.hpp"

#include "optcoll/plan/algorithms.hpp"

#include <algorithm>
#include <string>

#include "optcoll/error.hpp"

namespace optcoll::plan {

BlockLayout::BlockLayout(std::int64_t count, std::int64_t n) : BlockLayout(std::vector<Segment>{{0, count}}, n) {}

BlockLayout::BlockLayout(std::vector<Segment> groups, std::int64_t n) : groups_(std::move(groups)), n_(n) {
  if (n < 1) throw Error(Errc::invalid_count, "block count must be >= 1, got " + std::to_string(n));
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    const Segment& s = groups_[g];
    if (s.count < 0 || s.offset < 0) throw Error(Errc::invalid_count, "negative count or displacement in a layout");
    extent_ = std::max(extent_, s.offset + s.count);
    if (g > 0 && groups_[g - 1].offset + groups_[g - 1].count != s.offset) dense_ = false;
    if (s.count > 0) nonempty_.push_back(static_cast<std::int64_t>(g));
  }
  data_groups_ = static_cast<std::int64_t>(groups_.size());
  data_extent_ = extent_;
}

BlockLayout BlockLayout::split(std::int64_t count, std::int64_t groups, std::int64_t n) {
  if (groups < 1) throw Error(Errc::invalid_count, "a layout needs at least one group");
  std::vector<Segment> g(static_cast<std::size_t>(groups));
  const std::int64_t base = count / groups;
  const std::int64_t rem = count % groups;
  std::int64_t at = 0;
  for (std::int64_t i = 0; i < groups; ++i) {
    g[static_cast<std::size_t>(i)] = {at, base + (i < rem ? 1 : 0)};
    at += g[static_cast<std::size_t>(i)].count;
  }
  return BlockLayout(std::move(g), n);
}

std::int64_t BlockLayout::add_scratch(std::int64_t of) {
  if (of < 0 || of >= data_groups_) throw Error(Errc::internal, "a scratch group must mirror a data group");
  const Segment s{extent_, groups_[static_cast<std::size_t>(of)].count};
  if (groups_.back().offset + groups_.back().count != s.offset) dense_ = false;
  groups_.push_back(s);
  mirror_.push_back(of);
  extent_ += s.count;
  return groups() - 1;
}

std::int64_t BlockLayout::largest_block() const noexcept {
  std::int64_t m = 0;
  for (const Segment& s : groups_) m = std::max(m, s.count / n_ + (s.count % n_ != 0 ? 1 : 0));
  return m;
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

BlockLayout allreduce_layout(std::int64_t count, rank_t p, std::int64_t n) {
  BlockLayout lay = BlockLayout::split(count, p, n);
  for (int copy = 0; copy < 3; ++copy)
    for (rank_t g = 0; g < p; ++g) lay.add_scratch(g);
  return lay;
}

WholeBuffer::WholeBuffer(const PlanContext& ctx) {
  checked_blocks(ctx.spec);
  if (!has_rank_groups(ctx.spec.op)) {
    own_ = BlockLayout(ctx.spec.count, 1);
    return;
  }
  if (ctx.layout == nullptr || ctx.layout->data_groups() != ctx.spec.p)
    throw Error(Errc::internal, "a rank-group plan needs the context's layout, one group per rank");
  shared_ = ctx.layout;
  run_ = {0, shared_->data_groups() * shared_->blocks_per_group()};
  if (!shared_->dense()) throw Error(Errc::internal, "a whole-buffer plan needs a dense layout");
}

BlockLayout default_layout(const PlanSpec& spec) {
  if (spec.op == Collective::allreduce) return allreduce_layout(spec.count, spec.p, checked_blocks(spec));
  if (has_rank_groups(spec.op)) return BlockLayout::split(spec.count, spec.p, checked_blocks(spec));
  return BlockLayout();
}

PlanSetup::PlanSetup(const PlanSpec& spec) : PlanSetup(spec, default_layout(spec)) {}

PlanSetup::PlanSetup(const PlanSpec& spec, BlockLayout layout) : graph_(spec.p), ctx_{spec, &graph_} {
  checked_blocks(spec);
  if (has_rank_groups(spec.op)) {
    if (layout.data_groups() != spec.p) throw Error(Errc::invalid_count, "the layout needs one group per rank");
    all_roots_ = std::make_unique<schedule::AllRootsSchedule>(graph_);
    layout_ = std::make_unique<BlockLayout>(std::move(layout));
    ctx_.all_roots = all_roots_.get();
    ctx_.layout = layout_.get();
  }
}

}  // namespace optcoll::plan
