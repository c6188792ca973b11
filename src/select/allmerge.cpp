// The merge all-reduction's variants (Lang 2025; select/select.hpp): two are
// registry allreduce plans run with merging as the operator, the third is
// the allgatherv baseline.
#include <string>

#include "optcoll/error.hpp"
#include "optcoll/select/select.hpp"

namespace optcoll::select {

MergeChoice choose_allmerge(std::string_view requested) {
  // The default: Bruck's variant, faster than the circulant one in the
  // simulator and over MPI (docs/decisions/allmerge-bruck-default.md).
  const std::string_view name = requested.empty() ? std::string_view("bruck") : requested;
  if (name == "allgatherv") return {name, nullptr};
  // Lang's Algorithm 1 is Bruck's all-reduction, Algorithm 2 the circulant
  // (dissemination) one: the same partners and buffers as those plans.
  const std::string_view plan_name = name == "bruck" ? "bruck" : name == "circulant" ? "dissemination" : "";
  if (const plan::AlgorithmInfo* a = plan::find_algorithm(plan::Collective::allreduce, plan_name)) return {name, a};
  throw Error(Errc::invalid_argument,
              "optcoll: unknown allmerge algorithm '" + std::string(name) + "'; valid: " + kAllmergeNames);
}

}  // namespace optcoll::select
