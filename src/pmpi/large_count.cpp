// liboptcoll_pmpi.so's blocking large-count bindings (MPI_<Op>_c of
// large_ops.def, MPI-4 libraries): the int binding's shape when the counts
// fit, with MPI's own _c binding as its native path, else MPI's own
// (`narrowed`, large_count.hpp); the v collectives' shape on their own
// 64-bit arguments (`wide`). Their nonblocking and persistent forms are in
// request_ops.cpp.
#include <mpi.h>

#include "large_count.hpp"
#include "optcoll/optcoll.h"
#include "shapes.hpp"
#include "shapes_alltoall.hpp"
#include "shapes_gather.hpp"
#include "shapes_reduction.hpp"

#if MPI_VERSION >= 4

using optcoll::pmpi::Op;
namespace shapes = optcoll::pmpi::shapes;
namespace large = optcoll::pmpi::large;

#define OPTCOLL_PMPI_EXPAND(m, args) m args
// narrowed: the int binding's shape on int copies when the counts fit.
#define OPTCOLL_PMPI_LARGE_narrowed(Name, shape)                                                    \
  extern "C" int MPI_##Name##_c OPTCOLL_PMPI_PARAMS_C_##shape {                                     \
    [[maybe_unused]] constexpr auto original = [](auto...) { return large::original(); };           \
    [[maybe_unused]] constexpr auto run = [](auto... a) {                                           \
      return shapes::shape<Op::Name##_c, &OPTCOLL_PMPI_API_##shape(Name), original>(a...);          \
    };                                                                                              \
    [[maybe_unused]] constexpr auto large = [](auto... a) { return PMPI_##Name##_c(a...); };        \
    return OPTCOLL_PMPI_EXPAND((large::call<Op::Name##_c, run, large>), OPTCOLL_PMPI_ARGS_##shape); \
  }
// wide: the shape itself on the caller's arguments, MPI's _c binding as its native path.
#define OPTCOLL_PMPI_LARGE_wide(Name, shape)                                                                         \
  extern "C" int MPI_##Name##_c OPTCOLL_PMPI_PARAMS_C_##shape {                                                      \
    return shapes::shape<Op::Name##_c, &OPTCOLL_PMPI_API_##shape(Name), &PMPI_##Name##_c> OPTCOLL_PMPI_ARGS_##shape; \
  }
#define OPTCOLL_PMPI_LARGE_OP(Name, IName, collective, shape, counts) OPTCOLL_PMPI_LARGE_##counts(Name, shape)
#include "large_ops.def"
#undef OPTCOLL_PMPI_LARGE_OP

#endif
