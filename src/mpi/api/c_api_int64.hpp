// The C API (optcoll/optcoll.h) on 64-bit counts: OPTCOLL_<Name>,
// OPTCOLL_I<name> and OPTCOLL_<Name>_init of every collective, with the same
// arguments and contract (an MPI error code, raised through the
// communicator's error handler; a request made into *request) but
// std::int64_t counts and displacements, as the MPI layer and the C++ API
// take them. The C API's int functions forward here (their arrays widened
// first), and so do both bindings of every collective in the drop-in,
// MPI's int one and MPI-4's large-count one (MPI_Bcast_c, MPI_Gatherv_c,
// ...): no count is narrowed anywhere, and a call's size never changes
// which code runs it. Displacements count extents of their datatype, as in
// MPI; the arrays need not outlive the call (a request keeps what it
// needs). Declared and defined (c_api_int64.cpp) from collectives.def.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <span>

#include "mpi/api/api_entries.hpp"
#include "optcoll/optcoll.h"

namespace optcoll::mpi::wide {

// A communicator's size of entries (empty where MPI ignores them).
using Counts = std::span<const std::int64_t>;
using Request = OPTCOLL_Request;

// One declaration of each form for every line of collectives.def.
#define OPTCOLL_COLLECTIVE(Name, name, collective, shape, init) \
  int Name(OPTCOLL_WIDE_PARAMS(shape));                         \
  int I##name(OPTCOLL_WIDE_PARAMS(shape), Request* request);    \
  int Name##_init(OPTCOLL_WIDE_PARAMS(shape), MPI_Info info, Request* request);
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE

}  // namespace optcoll::mpi::wide

namespace optcoll::mpi {
struct CallInfo;
}

// The same calls as the drop-in makes them (its OPTCOLL_PMPI_API): c
// describes the call as its Gate checked it (call_info.hpp), which the MPI
// layer takes as checked.
namespace optcoll::mpi::described {

using wide::Counts;
using wide::Request;

#define OPTCOLL_COLLECTIVE(Name, name, collective, shape, init)                 \
  int Name(const CallInfo& c, OPTCOLL_WIDE_PARAMS(shape));                      \
  int I##name(const CallInfo& c, OPTCOLL_WIDE_PARAMS(shape), Request* request); \
  int Name##_init(const CallInfo& c, OPTCOLL_WIDE_PARAMS(shape), MPI_Info info, Request* request);
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE

}  // namespace optcoll::mpi::described
