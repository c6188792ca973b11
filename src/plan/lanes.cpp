// The phases of the node-aware plans (lanes.hpp).
#include "lanes.hpp"

#include <algorithm>
#include <memory>
#include <utility>

#include "optcoll/error.hpp"

namespace optcoll::plan::lanes {

namespace {

// The subsets whose plans bound the phase's rounds: one of each node size,
// the first and the last lane (lanes differ only by one element per group).
std::vector<rank_t> representatives(const NodeLayout& nodes, Subsets on) {
  switch (on.kind) {
    case Subsets::Kind::one_node:
      return {on.node};
    case Subsets::Kind::last:
      return {0};
    case Subsets::Kind::lanes:
      return on.count <= 1 ? std::vector<rank_t>{on.first} : std::vector<rank_t>{on.first, on.first + on.count - 1};
    case Subsets::Kind::every_node: {
      std::vector<rank_t> reps;
      for (rank_t k : nodes.node_per_size()) {
        if (k == on.node) {  // another node of its size, if there is one
          const rank_t size = nodes.size(k);
          for (++k; k < nodes.nodes() && nodes.size(k) != size; ++k) {
          }
          if (k == nodes.nodes()) continue;
        }
        reps.push_back(k);
      }
      return reps;
    }
    case Subsets::Kind::folds: {
      std::vector<rank_t> reps;
      for (const rank_t k : nodes.node_per_size()) reps.push_back(k * on.count);  // lane 0 folds the most
      return reps;
    }
  }
  return {};
}

}  // namespace

Phase phase(const NodeLayout& nodes, rank_t rank, Subsets on, const PlanOf& plan_of, RunsOf runs_of) {
  rank_t subset = -1;
  rank_t sub = -1;
  const rank_t node = nodes.node_of(rank);
  switch (on.kind) {
    case Subsets::Kind::every_node:
      if (node != on.node) {
        subset = node;
        sub = rank - nodes.first(node);
      }
      break;
    case Subsets::Kind::one_node:
      if (node == on.node) {
        subset = node;
        sub = rank - nodes.first(node);
      }
      break;
    case Subsets::Kind::lanes: {
      const rank_t local = rank - nodes.first(node);
      if (local >= on.first && local < on.first + on.count) {
        subset = local;
        sub = node;
      }
      break;
    }
    case Subsets::Kind::folds:
      subset = node * on.count + (rank - nodes.first(node)) % on.count;
      sub = (rank - nodes.first(node)) / on.count;
      break;
    case Subsets::Kind::last:
      if (rank == nodes.first(node) + nodes.size(node) - 1) {
        subset = 0;
        sub = node;
      }
      break;
  }
  Phase ph;
  for (const rank_t r : representatives(nodes, on)) {
    const SubPlan sp = plan_of(r);
    ph.rounds = std::max(ph.rounds, plan_rounds(sp.make, sp.spec, sp.layout ? &*sp.layout : nullptr));
  }
  if (subset < 0) return ph;
  SubPlan sp = plan_of(subset);
  ph.setup =
      sp.layout ? std::make_unique<PlanSetup>(sp.spec, std::move(*sp.layout)) : std::make_unique<PlanSetup>(sp.spec);
  ph.plan = sp.make(ph.setup->context(), sub);
  if (on.kind == Subsets::Kind::lanes) {
    ph.rank = [n = nodes, lane = subset](rank_t k) { return n.first(k) + lane; };
  } else if (on.kind == Subsets::Kind::last) {
    ph.rank = [n = nodes](rank_t k) { return n.first(k) + n.size(k) - 1; };
  } else if (on.kind == Subsets::Kind::folds) {
    const rank_t k = subset / on.count;
    ph.rank = [at = nodes.first(k) + subset % on.count, stride = on.count](rank_t i) { return at + i * stride; };
  } else {
    ph.rank = [first = nodes.first(subset)](rank_t i) { return first + i; };
  }
  ph.group_runs = [runs_of = std::move(runs_of), subset](std::int64_t g, std::vector<BlockRun>& out) {
    runs_of(subset, g, out);
  };
  return ph;
}

GroupLanes::GroupLanes(const NodeLayout& nodes, const BlockLayout& layout)
    : nodes_(nodes),
      layout_(&layout),
      n_(layout.blocks_per_group()),
      lanes_(nodes.lanes()),
      lane_counts_(static_cast<std::size_t>(lanes_), 0) {
  for (rank_t k = 0; k < nodes.nodes(); ++k)
    for (rank_t l = 0; l < lanes_; ++l) lane_counts_[static_cast<std::size_t>(l)] += holder_count(k, l);
}

void GroupLanes::holder_runs(rank_t k, rank_t l, std::vector<BlockRun>& out) const {
  for (rank_t i = l; i < nodes_.size(k); i += lanes_) out.push_back({(nodes_.first(k) + i) * n_, n_});
}

std::int64_t GroupLanes::holder_count(rank_t k, rank_t l) const {
  std::int64_t c = 0;
  for (rank_t i = l; i < nodes_.size(k); i += lanes_) c += layout_->group(nodes_.first(k) + i).count;
  return c;
}

void GroupLanes::lane_runs(rank_t l, std::vector<BlockRun>& out) const {
  for (rank_t k = 0; k < nodes_.nodes(); ++k) holder_runs(k, l, out);
}

Phase Pieces::phase(const NodeLayout& nodes, rank_t rank, Subsets on, PlanSpec spec, PlanFactory make) const {
  spec.blocks = 1;
  const auto full = static_cast<rank_t>(counts.size());
  return plan::lanes::phase(
      nodes, rank, on,
      [&](rank_t k) {
        spec.p = nodes.size(k);
        std::vector<std::int64_t> c(static_cast<std::size_t>(spec.p), 0);
        std::copy_n(counts.begin(), std::min(full, spec.p), c.begin());
        return SubPlan{spec, whole_groups(c), make};
      },
      [full, n = blocks](rank_t, std::int64_t g, std::vector<BlockRun>& out) {
        if (g < full) out.push_back({g * n, n});
      });
}

Phase Pieces::reduce_scatter(const NodeLayout& nodes, rank_t rank, const PlanSpec& spec) const {
  return phase(nodes, rank, {.kind = Subsets::Kind::every_node},
               {Collective::reduce_scatter, 1, 0, spec.count, 1, spec.commutative, spec.exact},
               spec.commutative ? &make_reduce_scatter_circulant : &make_reduce_scatter_ordered);
}

LanePieces split_pieces(const PlanContext& ctx) {
  const NodeLayout nodes = nodes_of(ctx);
  const rank_t L = nodes.lanes();
  const std::int64_t n = std::max<std::int64_t>(1, std::min(checked_blocks(ctx.spec), ctx.spec.count / L));
  BlockLayout layout = BlockLayout::split(ctx.spec.count, L, n);
  Pieces pieces{{}, n};
  for (rank_t g = 0; g < L; ++g) pieces.counts.push_back(layout.group(g).count);
  return {nodes, std::move(layout), std::move(pieces)};
}

Phase LanePieces::lanes(rank_t rank, PlanSpec sub, PlanFactory make) const {
  const std::int64_t n = pieces.blocks;
  sub.p = nodes.nodes();
  sub.blocks = n;
  return phase(
      nodes, rank, {.kind = Subsets::Kind::lanes, .count = nodes.lanes()},
      [&](rank_t l) {
        PlanSpec s = sub;
        s.count = pieces.counts[static_cast<std::size_t>(l)];
        return SubPlan{s, {}, make};
      },
      [n](rank_t l, std::int64_t, std::vector<BlockRun>& out) {
        out.push_back({l * n, n});
      });
}

Phase GroupLanes::folds(rank_t rank, PlanSpec spec, PlanFactory make) const {
  spec.blocks = 1;
  return phase(
      nodes_, rank, {.kind = Subsets::Kind::folds, .count = lanes_},
      [&](rank_t s) {
        spec.p = fold_size(s);
        std::vector<std::int64_t> counts;
        for (rank_t j = 0; j < spec.p; ++j) counts.push_back(layout_->group(fold_rank(s, j)).count);
        return SubPlan{spec, whole_groups(counts), make};
      },
      [gl = *this](rank_t s, std::int64_t j, std::vector<BlockRun>& out) {
        out.push_back({gl.fold_rank(s, static_cast<rank_t>(j)) * gl.n_, gl.n_});
      });
}

Phase GroupLanes::lanes(rank_t rank, PlanSpec spec, bool pipelined, PlanFactory make) const {
  pipelined = pipelined && one_each();
  spec.p = nodes_.nodes();
  spec.blocks = pipelined ? n_ : 1;
  return phase(
      nodes_, rank, {.kind = Subsets::Kind::lanes, .count = lanes_},
      [&](rank_t l) {
        std::vector<Segment> groups;
        std::vector<std::int64_t> counts;
        for (rank_t k = 0; k < nodes_.nodes(); ++k) {
          groups.push_back(layout_->group(nodes_.first(k) + l));
          counts.push_back(holder_count(k, l));
        }
        return SubPlan{spec, pipelined ? BlockLayout(std::move(groups), n_) : whole_groups(counts), make};
      },
      [gl = *this](rank_t l, std::int64_t k, std::vector<BlockRun>& out) {
        gl.holder_runs(static_cast<rank_t>(k), l, out);
      });
}

Phase GroupLanes::nodes(rank_t rank, PlanSpec spec, PlanFactory make) const {
  spec.blocks = 1;
  return phase(
      nodes_, rank, {.kind = Subsets::Kind::every_node},
      [&](rank_t k) {
        spec.p = nodes_.size(k);
        std::vector<std::int64_t> counts(static_cast<std::size_t>(spec.p), 0);
        for (rank_t l = 0; l < std::min(lanes_, spec.p); ++l) counts[static_cast<std::size_t>(l)] = lane_count(l);
        return SubPlan{spec, whole_groups(counts), make};
      },
      [gl = *this](rank_t, std::int64_t l, std::vector<BlockRun>& out) {
        if (l < gl.lanes_) gl.lane_runs(static_cast<rank_t>(l), out);
      });
}

BlockLayout whole_groups(const std::vector<std::int64_t>& counts) {
  std::vector<Segment> groups;
  groups.reserve(counts.size());
  std::int64_t at = 0;
  for (const std::int64_t c : counts) {
    groups.push_back({at, c});
    at += c;
  }
  return BlockLayout(std::move(groups), 1);
}

const BlockLayout& rank_layout(const PlanContext& ctx) {
  if (ctx.layout == nullptr || ctx.layout->data_groups() != ctx.spec.p)
    throw Error(Errc::internal, "a node-aware plan of a rank-group collective needs the context's layout");
  return *ctx.layout;
}

NodeLayout nodes_of(const PlanContext& ctx) {
  if (ctx.nodes == nullptr) return NodeLayout::equal(ctx.spec.p, 1);
  if (ctx.nodes->p() != ctx.spec.p) throw Error(Errc::invalid_argument, "the node layout is for another p");
  return *ctx.nodes;
}

}  // namespace optcoll::plan::lanes
