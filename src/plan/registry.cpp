// The algorithm registry as data.
#include <array>

#include "optcoll/plan/algorithms.hpp"

namespace optcoll::plan {
namespace {

constexpr std::array kAlgorithms{
    AlgorithmInfo{Collective::bcast, "circulant", false, &make_bcast_circulant,
                  "n blocks in n-1+ceil(log2 p) rounds on the circulant graph (Traff 2024, Alg. 1)"},
    AlgorithmInfo{Collective::reduce, "circulant", true, &make_reduce_circulant,
                  "the circulant broadcast reversed, n-1+ceil(log2 p) rounds (Traff 2024, Obs. 1.3)"},
    AlgorithmInfo{Collective::reduce, "binomial_ordered", false, &make_reduce_binomial_ordered,
                  "rank-ordered binomial tree, any operator, ceil(log2 p) (+1) rounds"},
};

}  // namespace

std::span<const AlgorithmInfo> algorithms() noexcept {
  return kAlgorithms;
}

const AlgorithmInfo* find_algorithm(Collective op, std::string_view name) noexcept {
  for (const auto& a : kAlgorithms)
    if (a.op == op && a.name == name) return &a;
  return nullptr;
}

const AlgorithmInfo& select_algorithm(const PlanSpec& spec) noexcept {
  if (spec.op == Collective::reduce && !spec.commutative) return kAlgorithms[2];
  return spec.op == Collective::bcast ? kAlgorithms[0] : kAlgorithms[1];
}

std::string_view to_string(Collective op) noexcept {
  switch (op) {
    case Collective::bcast:
      return "bcast";
    case Collective::reduce:
      return "reduce";
  }
  return "?";
}

}  // namespace optcoll::plan
