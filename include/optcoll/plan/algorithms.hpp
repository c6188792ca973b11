// The plan registry: every algorithm optcoll can run, as data. Selection by
// name (e.g. from OPTCOLL_BCAST / OPTCOLL_REDUCE) or by the default rules in
// select_algorithm().
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "optcoll/plan/plan.hpp"

namespace optcoll::plan {

// Everything a plan factory may use. `graph` is the circulant graph of spec.p
// (cached per communicator by the MPI layer, per run by the simulator).
struct PlanContext {
  PlanSpec spec;
  const schedule::Circulant* graph = nullptr;
};

using PlanFactory = std::unique_ptr<RankPlan> (*)(const PlanContext&, rank_t rank);

struct AlgorithmInfo {
  Collective op;
  std::string_view name;
  bool needs_commutative;  // only valid for commutative operators
  PlanFactory make;
  std::string_view summary;
};

std::span<const AlgorithmInfo> algorithms() noexcept;

// nullptr if no algorithm of that name exists for op.
const AlgorithmInfo* find_algorithm(Collective op, std::string_view name) noexcept;

// The default choice for spec: circulant where it is valid, the ordered
// binomial reduction for non-commutative operators.
const AlgorithmInfo& select_algorithm(const PlanSpec& spec) noexcept;

std::string_view to_string(Collective op) noexcept;

// The algorithms, also callable directly.
std::unique_ptr<RankPlan> make_bcast_circulant(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_reduce_circulant(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_reduce_binomial_ordered(const PlanContext& ctx, rank_t rank);

}  // namespace optcoll::plan
