// Completion time of a given tree (Traff 2018, Definition 2, the equations of
// Figure 1), independent of how the tree was built.
//
// Time(leaf) = 0. An inner node v walks its sequence with a clock t = 0: for
// a child c, t = max(t, Time(c)) + comm(Size(T_c)) (Eq. 1; comm(0) = 0); for
// its own copy, t += gamma_v * m_v (Eq. 2). Time(v) is t at the end. With the
// copy first this is max(gamma_v m_v, Time(c_1)) + comm (Eq. 5); right after
// a first child on the left it is Time(c_1) + comm + gamma_v m_v (Eq. 6).
//
// A scatter serves the same sequence backwards; unrolled, both give
// Time(v) = max over items j of (Time(item_j) + sum of costs of items j..end),
// so the two directions agree but for the pairwise model's edge costs.
//
// O(p) time, no recursion (any height).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "optcoll/trees/model.hpp"
#include "optcoll/trees/tree.hpp"

namespace optcoll::trees {

// Time(T) at the root. Throws optcoll::Error if m.size() != t.size() or a
// pairwise model has another p.
double completion_time(const Tree& t, std::span<const std::int64_t> m, const CostModel& model,
                       Direction d = Direction::gather);

// Time(T_v) for every node v (the root's entry is completion_time()).
std::vector<double> subtree_times(const Tree& t, std::span<const std::int64_t> m, const CostModel& model,
                                  Direction d = Direction::gather);

}  // namespace optcoll::trees
