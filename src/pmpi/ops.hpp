// The intercepted operations (ops.def) as an enum and a table.
#pragma once

#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "optcoll/plan/plan.hpp"

namespace optcoll::pmpi {

enum class Op : std::uint8_t {
#define OPTCOLL_PMPI_OP(Name, IName, collective, shape) Name,
#include "ops.def"
#undef OPTCOLL_PMPI_OP
#define OPTCOLL_PMPI_REQUEST_OP(Name, collective, shape, kind) Name,
#include "request_ops.def"
#undef OPTCOLL_PMPI_REQUEST_OP
#if MPI_VERSION >= 4
#define OPTCOLL_PMPI_LARGE_OP(Name, IName, collective, shape) Name##_c, IName##_c, Name##_init_c,
#include "large_ops.def"
#undef OPTCOLL_PMPI_LARGE_OP
#endif
};

struct OpInfo {
  std::string_view name;        // MPI_<name>
  plan::Collective collective;  // policy variable and model
};

inline constexpr std::array kOps {
#define OPTCOLL_PMPI_OP(Name, IName, collective, shape) OpInfo{#Name, plan::Collective::collective},
#include "ops.def"
#undef OPTCOLL_PMPI_OP
#define OPTCOLL_PMPI_REQUEST_OP(Name, collective, shape, kind) OpInfo{#Name, plan::Collective::collective},
#include "request_ops.def"
#undef OPTCOLL_PMPI_REQUEST_OP
#if MPI_VERSION >= 4
#define OPTCOLL_PMPI_LARGE_OP(Name, IName, collective, shape)                                          \
  OpInfo{#Name "_c", plan::Collective::collective}, OpInfo{#IName "_c", plan::Collective::collective}, \
      OpInfo{#Name "_init_c", plan::Collective::collective},
#include "large_ops.def"
#undef OPTCOLL_PMPI_LARGE_OP
#endif
};

// The blocking operations (ops.def) come first in Op and kOps; the
// nonblocking and persistent ones (request_ops.def) follow, then, with
// MPI-4, the large-count bindings (large_ops.def).
inline constexpr std::size_t kBlockingOps = 0
#define OPTCOLL_PMPI_OP(Name, IName, collective, shape) +1
#include "ops.def"
#undef OPTCOLL_PMPI_OP
    ;

constexpr const OpInfo& info(Op op) noexcept {
  return kOps[static_cast<std::size_t>(op)];
}

// The int binding of op (op itself if it is one): MPI-4 lets one rank call
// MPI_Gatherv_c where another calls MPI_Gatherv (the same collective), so
// what ranks count per call to agree on (route_v()) is counted per int
// binding.
constexpr Op int_binding(Op op) noexcept {
  switch (op) {
#if MPI_VERSION >= 4
#define OPTCOLL_PMPI_LARGE_OP(Name, IName, collective, shape) \
  case Op::Name##_c:                                          \
    return Op::Name;                                          \
  case Op::IName##_c:                                         \
    return Op::IName;                                         \
  case Op::Name##_init_c:                                     \
    return Op::Name##_init;
#include "large_ops.def"
#undef OPTCOLL_PMPI_LARGE_OP
#endif
    default:
      return op;
  }
}

}  // namespace optcoll::pmpi
