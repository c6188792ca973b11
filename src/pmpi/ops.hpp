// The intercepted operations (src/mpi/api/collectives.def: each
// collective's blocking, nonblocking and persistent form, and with MPI-4
// their large-count bindings) as an enum and a table.
#pragma once

#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "optcoll/plan/plan.hpp"

namespace optcoll::pmpi {

// The blocking operations come first, then the nonblocking ones, the
// persistent ones and, with MPI-4, the large-count bindings.
enum class Op : std::uint8_t {
#define OPTCOLL_COLLECTIVE(Name, name, collective, shape, init) Name,
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE
#define OPTCOLL_COLLECTIVE(Name, name, collective, shape, init) I##name,
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE
#define OPTCOLL_COLLECTIVE(Name, name, collective, shape, init) Name##_init,
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE
#if MPI_VERSION >= 4
#define OPTCOLL_COLLECTIVE(Name, name, collective, shape, init) Name##_c, I##name##_c, Name##_init_c,
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE
#endif
};

struct OpInfo {
  std::string_view name;        // MPI_<name>
  plan::Collective collective;  // policy variable and model
};

inline constexpr std::array kOps {
#define OPTCOLL_COLLECTIVE(Name, name, collective, shape, init) OpInfo{#Name, plan::Collective::collective},
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE
#define OPTCOLL_COLLECTIVE(Name, name, collective, shape, init) OpInfo{"I" #name, plan::Collective::collective},
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE
#define OPTCOLL_COLLECTIVE(Name, name, collective, shape, init) OpInfo{#Name "_init", plan::Collective::collective},
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE
#if MPI_VERSION >= 4
#define OPTCOLL_COLLECTIVE(Name, name, collective, shape, init)                                           \
  OpInfo{#Name "_c", plan::Collective::collective}, OpInfo{"I" #name "_c", plan::Collective::collective}, \
      OpInfo{#Name "_init_c", plan::Collective::collective},
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE
#endif
};

inline constexpr std::size_t kBlockingOps = 0
#define OPTCOLL_COLLECTIVE(Name, name, collective, shape, init) +1
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE
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
#define OPTCOLL_COLLECTIVE(Name, name, collective, shape, init) \
  case Op::Name##_c:                                            \
    return Op::Name;                                            \
  case Op::I##name##_c:                                         \
    return Op::I##name;                                         \
  case Op::Name##_init_c:                                       \
    return Op::Name##_init;
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE
#endif
    default:
      return op;
  }
}

}  // namespace optcoll::pmpi
