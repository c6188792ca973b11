// The comparison of Traff 2018's Tables 1-3: for one block size distribution,
// the completion times of the Linear, Binary, Oblivious, Adaptive and Optimal
// trees, with a given root (the tables' first row) and with the root each
// construction chooses (second row, the root in brackets). Used by
// `optcoll trees` and the tests that reproduce the tables.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "optcoll/trees/model.hpp"

namespace optcoll::trees {

struct TableEntry {
  double time = 0;
  rank_t root = 0;
};

struct TableRow {
  TableEntry linear, binary, oblivious, adaptive, optimal;
};

struct TableRows {
  std::int64_t m = 0;             // sum of the block sizes
  std::optional<TableRow> fixed;  // rooted at the given root
  std::optional<TableRow> best;   // each construction's own root
};

// Homogeneous model. The DP tables are computed once for both rows. Time
// O(p^3): two DPs (Figures 6 and 7), the best root of the Oblivious tree
// as in binomial() (constructions.hpp).
TableRows compare_trees(std::span<const std::int64_t> m, const CostModel& model, std::optional<rank_t> root, bool best);

}  // namespace optcoll::trees
