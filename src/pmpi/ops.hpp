// The intercepted operations (ops.def) as an enum and a table.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "optcoll/plan/plan.hpp"

namespace optcoll::pmpi {

enum class Op : std::uint8_t {
#define OPTCOLL_PMPI_OP(Name, collective, shape) Name,
#include "ops.def"
#undef OPTCOLL_PMPI_OP
};

struct OpInfo {
  std::string_view name;        // MPI_<name>
  plan::Collective collective;  // policy variable and model
};

inline constexpr std::array kOps{
#define OPTCOLL_PMPI_OP(Name, collective, shape) OpInfo{#Name, plan::Collective::collective},
#include "ops.def"
#undef OPTCOLL_PMPI_OP
};

constexpr const OpInfo& info(Op op) noexcept {
  return kOps[static_cast<std::size_t>(op)];
}

}  // namespace optcoll::pmpi
