// liboptcoll_pmpi.so: MPI_<Name> for every collective of collectives.def, plus
// MPI_Init, MPI_Init_thread (rank 0's configuration, calibration) and
// MPI_Finalize (the OPTCOLL_VERBOSE summary). Everything else of MPI, and
// optcoll's own traffic (PMPI_* throughout src/mpi/), goes to the MPI
// library underneath.
#include <mpi.h>

#include "optcoll/optcoll.h"
#include "requests.hpp"
#include "runtime.hpp"
#include "shapes.hpp"
#include "shapes_alltoall.hpp"
#include "shapes_gather.hpp"
#include "shapes_reduction.hpp"

extern "C" int MPI_Init(int* argc, char*** argv) {
  const int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) optcoll::pmpi::start();
  return rc;
}

extern "C" int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) optcoll::pmpi::start();
  return rc;
}

extern "C" int MPI_Finalize() {
  optcoll::pmpi::stop();
  return PMPI_Finalize();
}

// An operator that optcoll requests still use is freed when the last of
// them is (mpi/requests/held_handles.hpp): MPI lets the program free it
// right after starting the call.
extern "C" int MPI_Op_free(MPI_Op* op) {
  return OPTCOLL_Op_free(op);
}

// The native path: MPI's own call, or its nonblocking form on a
// communicator with optcoll requests (requests::native_blocking).
#define OPTCOLL_PMPI_OP(Name, IName, collective, shape)                                            \
  extern "C" int MPI_##Name OPTCOLL_PARAMS(shape, c_int) {                                         \
    constexpr auto native = optcoll::pmpi::requests::native_blocking<&PMPI_##Name, &PMPI_##IName>; \
    return optcoll::pmpi::shapes::shape<optcoll::pmpi::Op::Name>(                                  \
        optcoll::pmpi::shapes::Calls{&OPTCOLL_PMPI_API(Name), native}, OPTCOLL_PLAIN_ARGS(shape)); \
  }
#define OPTCOLL_COLLECTIVE(Name, name, collective, shape, init) OPTCOLL_PMPI_OP(Name, I##name, collective, shape)
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE
#undef OPTCOLL_PMPI_OP
