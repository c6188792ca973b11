// make_exercise(): the exercise of each collective of collectives.def, by its shape
// (exercise_shapes.hpp).
#include "exercise.hpp"

#include "exercise_shapes.hpp"
#include "optcoll/optcoll.h"

namespace optcoll::pmpi {

std::unique_ptr<Exercise> make_exercise(Op op, MPI_Comm comm, std::int64_t bytes) {
  switch (op) {
#define OPTCOLL_PMPI_OP(Name, IName, collective, shape) \
  case Op::Name:                                        \
    return std::make_unique<exercises::shape<&OPTCOLL_##Name, &PMPI_##Name>>(comm, bytes);
#define OPTCOLL_COLLECTIVE(Name, name, collective, shape, init) OPTCOLL_PMPI_OP(Name, I##name, collective, shape)
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE
#undef OPTCOLL_PMPI_OP
#define OPTCOLL_PMPI_REQUEST_OP(Name, collective, shape, kind) case Op::Name:
#define OPTCOLL_COLLECTIVE(Name, name, collective, shape, persistent) \
  OPTCOLL_PMPI_REQUEST_OP(I##name, collective, shape, I) OPTCOLL_PMPI_REQUEST_OP(Name##_init, collective, shape, init)
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE
#undef OPTCOLL_PMPI_REQUEST_OP
#if MPI_VERSION >= 4
#define OPTCOLL_PMPI_LARGE_OP(Name, IName, collective, shape) \
  case Op::Name##_c:                                          \
  case Op::IName##_c:                                         \
  case Op::Name##_init_c:
#define OPTCOLL_COLLECTIVE(Name, name, collective, shape, init) OPTCOLL_PMPI_LARGE_OP(Name, I##name, collective, shape)
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE
#undef OPTCOLL_PMPI_LARGE_OP
#endif
    return nullptr;  // requests and large-count bindings are not exercised (optcoll-tune measures the blocking calls)
  }
  return nullptr;
}

}  // namespace optcoll::pmpi
