// liboptcoll_pmpi.so's blocking large-count bindings (MPI_<Op>_c of
// large_ops.def, MPI-4 libraries): the int binding's shape when the counts
// fit, with MPI's own _c binding as its native path, else MPI's own
// (large_count.hpp). Their nonblocking and persistent
// forms are in request_ops.cpp.
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
#define OPTCOLL_PMPI_LARGE_OP(Name, IName, collective, shape)                                       \
  extern "C" int MPI_##Name##_c OPTCOLL_PMPI_PARAMS_C_##shape {                                     \
    [[maybe_unused]] constexpr auto original = [](auto...) { return large::original(); };           \
    [[maybe_unused]] constexpr auto run = [](auto... a) {                                           \
      return shapes::shape<Op::Name##_c, &OPTCOLL_##Name, original>(a...);                          \
    };                                                                                              \
    [[maybe_unused]] constexpr auto large = [](auto... a) { return PMPI_##Name##_c(a...); };        \
    return OPTCOLL_PMPI_EXPAND((large::call<Op::Name##_c, run, large>), OPTCOLL_PMPI_ARGS_##shape); \
  }
#include "large_ops.def"
#undef OPTCOLL_PMPI_LARGE_OP

#endif
