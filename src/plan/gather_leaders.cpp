// Gather and Scatter through one rank per node (plan::LeadersTree,
// tree_plan.hpp): the binomial gather on every node to its leader, then the
// binomial gather of whole nodes across the leaders to the root; Scatter
// the same tree run backwards (make_tree_plan). A flat binomial tree sends
// every level above the node size across nodes from all of a node's
// subtree roots at once; here one rank per node talks across. The tree is
// one tree, not a composition of phases: the MPI layer runs Gather and
// Scatter as trees (tree_run.hpp), packing each subtree at its root, which
// a ComposedPlan's phases cannot express.
#include "lanes.hpp"
#include "optcoll/model/log2.hpp"
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/tree_plan.hpp"

namespace optcoll::plan {

LeadersTree::LeadersTree(const NodeLayout& nodes, rank_t root)
    : nodes_(nodes),
      root_node_(nodes.node_of(root)),
      root_local_(nodes.local(root)),
      node_rounds_(model::ceil_log2(nodes.largest())) {
  starts_.push_back(0);
  for (rank_t j = 0; j < nodes.nodes(); ++j) starts_.push_back(starts_.back() + nodes.size(node_at(j)));
}

rank_t LeadersTree::position(rank_t rank) const {
  const rank_t k = nodes_.node_of(rank);
  const rank_t j = (k - root_node_ + nodes_.nodes()) % nodes_.nodes();
  const rank_t size = nodes_.size(k);
  return starts_[static_cast<std::size_t>(j)] + (nodes_.local(rank) - leader(k) + size) % size;
}

std::vector<rank_t> LeadersTree::order() const {
  std::vector<rank_t> out(static_cast<std::size_t>(nodes_.p()));
  for (rank_t r = 0; r < nodes_.p(); ++r) out[static_cast<std::size_t>(position(r))] = r;
  return out;
}

TreeRankView LeadersTree::view(rank_t rank) const {
  const rank_t N = nodes_.nodes();
  const rank_t k = nodes_.node_of(rank);
  const rank_t size = nodes_.size(k);
  const rank_t lead = leader(k);
  const rank_t at = position(rank) - (nodes_.local(rank) - lead + size) % size;  // the node's first position
  const rank_t i = position(rank) - at;
  TreeRankView v;
  v.rounds = node_rounds_ + model::ceil_log2(N);
  // Within the node: the binomial tree on its positions, rooted at the leader.
  const auto in_node = [&](rank_t x) { return nodes_.first(k) + (lead + x) % size; };
  const TreeRankView inner = binomial_view(size, 0, i);
  for (const TreeLink& l : inner.down) v.down.push_back({in_node(l.peer), l.round, at + l.lo, at + l.hi});
  if (inner.up.peer >= 0) v.up = {in_node(inner.up.peer), inner.up.round, at + inner.up.lo, at + inner.up.hi};
  if (i != 0) return v;
  // Across the nodes: the leaders' binomial tree on node positions, after
  // every node's rounds; a link carries whole nodes.
  const auto leader_at = [&](rank_t j) { return nodes_.first(node_at(j)) + leader(node_at(j)); };
  const auto link = [&](const TreeLink& l) {
    return TreeLink{leader_at(l.peer), node_rounds_ + l.round, starts_[static_cast<std::size_t>(l.lo)],
                    starts_[static_cast<std::size_t>(l.hi) + 1] - 1};
  };
  const TreeRankView outer = binomial_view(N, 0, (k - root_node_ + N) % N);
  for (const TreeLink& l : outer.down) v.down.push_back(link(l));
  if (outer.up.peer >= 0) v.up = link(outer.up);
  return v;
}

namespace {

std::unique_ptr<RankPlan> leaders(const PlanContext& ctx, rank_t rank, Collective op) {
  checked_blocks(ctx.spec);
  const NodeLayout nodes = lanes::nodes_of(ctx);
  const BlockLayout& layout = lanes::rank_layout(ctx);
  if (!nodes.hierarchical()) return make_tree_plan(op, binomial_view(ctx.spec.p, ctx.spec.root, rank, layout), layout);
  const LeadersTree tree(nodes, ctx.spec.root);
  TreeRankView v = tree.view(rank);
  auto order = std::make_shared<const std::vector<rank_t>>(tree.order());
  // Links without data are left out (both ends see the same groups).
  const auto empty = [&](const TreeLink& l) {
    for (rank_t x = l.lo; x <= l.hi; ++x)
      if (layout.group((*order)[static_cast<std::size_t>(x)]).count > 0) return false;
    return true;
  };
  std::erase_if(v.down, empty);
  if (v.up.peer >= 0 && empty(v.up)) v.up = {};
  v.order = std::move(order);
  return make_tree_plan(op, std::move(v), layout);
}

}  // namespace

std::unique_ptr<RankPlan> make_gather_leaders(const PlanContext& ctx, rank_t rank) {
  return leaders(ctx, rank, Collective::gather);
}

std::unique_ptr<RankPlan> make_scatter_leaders(const PlanContext& ctx, rank_t rank) {
  return leaders(ctx, rank, Collective::scatter);
}

}  // namespace optcoll::plan
