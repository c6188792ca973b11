// liboptcoll_pmpi.so's blocking large-count bindings (MPI_<Op>_c of
// collectives.def, MPI-4 libraries): the int binding's shape on the caller's
// own MPI_Count / MPI_Aint arguments, MPI's _c binding as its native path
// (or its nonblocking form, waited for: requests::native_blocking).
// Their nonblocking and persistent forms are in request_ops.cpp.
#include <mpi.h>

#include "optcoll/optcoll.h"
#include "requests.hpp"
#include "shapes.hpp"
#include "shapes_alltoall.hpp"
#include "shapes_gather.hpp"
#include "shapes_reduction.hpp"

#if MPI_VERSION >= 4

using optcoll::pmpi::Op;
namespace shapes = optcoll::pmpi::shapes;

#define OPTCOLL_PMPI_LARGE_OP(Name, IName, collective, shape)                                                      \
  extern "C" int MPI_##Name##_c OPTCOLL_PARAMS(shape, c_large) {                                                   \
    constexpr auto native = optcoll::pmpi::requests::native_blocking<&PMPI_##Name##_c, &PMPI_##IName##_c>;         \
    return shapes::shape<Op::Name##_c>(shapes::Calls{&OPTCOLL_PMPI_API(Name), native}, OPTCOLL_PLAIN_ARGS(shape)); \
  }
#define OPTCOLL_COLLECTIVE(Name, name, collective, shape, init) OPTCOLL_PMPI_LARGE_OP(Name, I##name, collective, shape)
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE
#undef OPTCOLL_PMPI_LARGE_OP

#endif
