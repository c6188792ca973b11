// Tables 1-3 of Traff 2018 for one distribution (compare.hpp).
#include "optcoll/trees/compare.hpp"

#include <numeric>

#include "optcoll/trees/constructions.hpp"

namespace optcoll::trees {
namespace {

TableEntry entry(const TreeResult& r) {
  return {r.time, r.tree.root()};
}

}  // namespace

TableRows compare_trees(std::span<const std::int64_t> m, const CostModel& model, std::optional<rank_t> root,
                        bool best) {
  TableRows rows;
  rows.m = std::accumulate(m.begin(), m.end(), std::int64_t{0});
  TableRow fixed, own;
  {
    const OptimalBinaryTrees bt(m, model);
    if (root) fixed.binary = entry(bt.rooted(*root));
    if (best) own.binary = entry(bt.best());
  }
  {
    const OptimalTrees ot(m, model);
    if (root) fixed.optimal = entry(ot.rooted(*root));
    if (best) own.optimal = entry(ot.best());
  }
  if (root) {
    fixed.linear = entry(linear(m, model, root));
    fixed.oblivious = entry(binomial(m, model, root));
    fixed.adaptive = entry(adaptive_binomial(m, model, root));
    rows.fixed = fixed;
  }
  if (best) {
    own.linear = entry(linear(m, model, std::nullopt));
    own.oblivious = entry(binomial(m, model, std::nullopt));
    own.adaptive = entry(adaptive_binomial(m, model, std::nullopt));
    rows.best = own;
  }
  return rows;
}

}  // namespace optcoll::trees
