// liboptcoll_pmpi.so's nonblocking and persistent collectives: MPI_<Name>
// of collectives.def, and with MPI-4 the large-count MPI_I<op>_c and
// MPI_<Op>_init_c of the same lines. Each runs the blocking call's shape
// (shapes.hpp: the same checks, route and byte views) with two callables of
// the blocking argument list: Optcoll makes the optcoll request (the C
// API's OPTCOLL_<Name> on 64-bit counts, OPTCOLL_PMPI_API(Name),
// src/mpi/api/c_api_int64.hpp) and its carrier (requests.hpp), Native is PMPI_<Name>
// with the request (and, persistent, the info) appended.
#include <mpi.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

#include "optcoll/optcoll.h"
#include "requests.hpp"
#include "shapes.hpp"
#include "shapes_alltoall.hpp"
#include "shapes_gather.hpp"
#include "shapes_reduction.hpp"

using optcoll::pmpi::Op;
namespace shapes = optcoll::pmpi::shapes;
namespace rq = optcoll::pmpi::requests;

#define OPTCOLL_PMPI_EXPAND(m, args) m args
#define OPTCOLL_PMPI_WITH_REQUEST(...) (__VA_ARGS__, MPI_Request * request)
#define OPTCOLL_PMPI_WITH_INFO_REQUEST(...) (__VA_ARGS__, MPI_Info info, MPI_Request * request)

// The calls (shapes::Calls) the shape of the nonblocking call Name gets,
// for the pending call `p` in the caller's scope; Pmpi: MPI's own call
// (PMPI_<Name>, or its large-count binding).
#define OPTCOLL_PMPI_I_CALLS(Name, Pmpi)                                                                              \
  shapes::Calls {                                                                                                     \
    [&p](const optcoll::mpi::CallInfo& c, auto... a) {                                                                \
      return rq::carry(p, rq::comm_of(a...), [&](OPTCOLL_Request* h) { return OPTCOLL_PMPI_API(Name)(c, a..., h); }); \
    },                                                                                                                \
        [&p](auto... a) { return Pmpi(a..., p.request); }, p.staging.get()                                            \
  }

#define OPTCOLL_PMPI_REQUEST_I(Name, shape)                                                                \
  extern "C" int MPI_##Name OPTCOLL_PMPI_EXPAND(OPTCOLL_PMPI_WITH_REQUEST, OPTCOLL_PARAMS(shape, c_int)) { \
    return rq::run(false, request, MPI_INFO_NULL, [&](rq::Pending& p) {                                    \
      return shapes::shape<Op::Name>(OPTCOLL_PMPI_I_CALLS(Name, PMPI_##Name), OPTCOLL_PLAIN_ARGS(shape));  \
    });                                                                                                    \
  }

// The persistent collectives: MPI-4's names, or Open MPI 4.1's MPIX_ ones.
#if MPI_VERSION >= 4
#define OPTCOLL_PERSISTENT(name) MPI_##name
#define OPTCOLL_PPERSISTENT(name) PMPI_##name
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define OPTCOLL_PERSISTENT(name) MPIX_##name
#define OPTCOLL_PPERSISTENT(name) PMPIX_##name
#endif

#ifdef OPTCOLL_PERSISTENT
#define OPTCOLL_PMPI_INIT_CALLS(Name, Pmpi)                                                             \
  shapes::Calls {                                                                                       \
    [&p](const optcoll::mpi::CallInfo& c, auto... a) {                                                  \
      return rq::carry(p, rq::comm_of(a...),                                                            \
                       [&](OPTCOLL_Request* h) { return OPTCOLL_PMPI_API(Name)(c, a..., p.info, h); }); \
    },                                                                                                  \
        [&p](auto... a) { return Pmpi(a..., p.info, p.request); }, p.staging.get()                      \
  }

#define OPTCOLL_PMPI_REQUEST_init(Name, shape)                                                 \
  extern "C" int OPTCOLL_PERSISTENT(Name)                                                      \
      OPTCOLL_PMPI_EXPAND(OPTCOLL_PMPI_WITH_INFO_REQUEST, OPTCOLL_PARAMS(shape, c_int)) {      \
    return rq::run(true, request, info, [&](rq::Pending& p) {                                  \
      return shapes::shape<Op::Name>(OPTCOLL_PMPI_INIT_CALLS(Name, OPTCOLL_PPERSISTENT(Name)), \
                                     OPTCOLL_PLAIN_ARGS(shape));                               \
    });                                                                                        \
  }
#else
#define OPTCOLL_PMPI_REQUEST_init(Name, shape)
#endif

#define OPTCOLL_PMPI_REQUEST_OP(Name, collective, shape, kind) OPTCOLL_PMPI_REQUEST_##kind(Name, shape)
#define OPTCOLL_COLLECTIVE(Name, name, collective, shape, persistent) \
  OPTCOLL_PMPI_REQUEST_OP(I##name, collective, shape, I) OPTCOLL_PMPI_REQUEST_OP(Name##_init, collective, shape, init)
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE
#undef OPTCOLL_PMPI_REQUEST_OP

// The large-count request forms: the shape on the caller's
// own arguments, MPI's _c binding as its native path.
#if MPI_VERSION >= 4
#define OPTCOLL_PMPI_LARGE_OP(Name, IName, collective, shape)                                                        \
  extern "C" int MPI_##IName##_c OPTCOLL_PMPI_EXPAND(OPTCOLL_PMPI_WITH_REQUEST, OPTCOLL_PARAMS(shape, c_large)) {    \
    return rq::run(false, request, MPI_INFO_NULL, [&](rq::Pending& p) {                                              \
      return shapes::shape<Op::IName##_c>(OPTCOLL_PMPI_I_CALLS(IName, PMPI_##IName##_c), OPTCOLL_PLAIN_ARGS(shape)); \
    });                                                                                                              \
  }                                                                                                                  \
  extern "C" int MPI_##Name##_init_c OPTCOLL_PMPI_EXPAND(OPTCOLL_PMPI_WITH_INFO_REQUEST,                             \
                                                         OPTCOLL_PARAMS(shape, c_large)) {                           \
    return rq::run(true, request, info, [&](rq::Pending& p) {                                                        \
      return shapes::shape<Op::Name##_init_c>(OPTCOLL_PMPI_INIT_CALLS(Name##_init, PMPI_##Name##_init_c),            \
                                              OPTCOLL_PLAIN_ARGS(shape));                                            \
    });                                                                                                              \
  }
#define OPTCOLL_COLLECTIVE(Name, name, collective, shape, init) OPTCOLL_PMPI_LARGE_OP(Name, I##name, collective, shape)
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE
#undef OPTCOLL_PMPI_LARGE_OP
#endif
