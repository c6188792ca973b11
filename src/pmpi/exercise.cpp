// make_exercise(): the exercise of each op of ops.def, by its shape
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
#include "ops.def"
#undef OPTCOLL_PMPI_OP
#define OPTCOLL_PMPI_REQUEST_OP(Name, collective, shape, kind) case Op::Name:
#include "request_ops.def"
#undef OPTCOLL_PMPI_REQUEST_OP
#if MPI_VERSION >= 4
#define OPTCOLL_PMPI_LARGE_OP(Name, IName, collective, shape) \
  case Op::Name##_c:                                          \
  case Op::IName##_c:                                         \
  case Op::Name##_init_c:
#include "large_ops.def"
#undef OPTCOLL_PMPI_LARGE_OP
#endif
    return nullptr;  // requests and large-count bindings are not exercised (optcoll-tune measures the blocking calls)
  }
  return nullptr;
}

}  // namespace optcoll::pmpi
