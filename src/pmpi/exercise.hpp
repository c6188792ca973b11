// One intercepted operation (collectives.def) set up for a given payload, runnable
// natively (PMPI_*) or by optcoll (OPTCOLL_*) on the same buffers: what
// optcoll-tune measures and the demo checks. Inputs are integers, so every
// reduction order gives the same result.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>

#include "ops.hpp"

namespace optcoll::pmpi {

class Exercise {
 public:
  virtual ~Exercise() = default;
  // One call (collective over the communicator). Failures: the
  // communicator's error handler.
  virtual void run(bool optcoll) = 0;
  // Resets the inputs, runs natively, keeps the result; resets, runs
  // optcoll; whether this rank's results are equal.
  virtual bool same_results() = 0;
};

// bytes: the call's total payload as runtime.hpp's route() sees it (for
// bcast and reduce the vector; rounded down to whole MPI_INTs, at least one).
// Root 0 for the rooted operations.
std::unique_ptr<Exercise> make_exercise(Op op, MPI_Comm comm, std::int64_t bytes);

}  // namespace optcoll::pmpi
