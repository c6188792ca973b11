// A blocking call the same as the last one of its collective on a
// communicator, run again without its entry's work: the drop-in's and the
// component's shapes (src/pmpi/shapes.hpp) keep a call's arguments
// (CallKey) where it ran its collective's cached plan on the caller's own
// buffers and nothing else; the same arguments again run that plan as it is
// bound. Every rank of the call stays in step: the first call's route,
// checks and choice depend only on its arguments and on the communicator's
// state, which no later call changes, so a rank that takes the long way
// runs the same plan. The entry keeps a call only where its handles name
// the same objects for as long as the communicator lives (predefined
// datatypes and operators), with the argument check (OPTCOLL_CHECK) and
// the trace off.
#pragma once

#include "mpi/comm/comm_state.hpp"

namespace optcoll::mpi {

// Before a call that may be kept: forgets what the previous call ran (s:
// the communicator's state, if it has one yet).
inline void begin_call(CommState* s) noexcept {
  if (s != nullptr) s->ran = {};
}

// After the call succeeded: keeps key for op where `stable` (its handles
// predefined, its buffers the caller's own) and the call ran op's cached
// plan on them and nothing after it (run_plan), else forgets op's kept call.
void keep_call(MPI_Comm comm, plan::Collective op, const CallKey& key, bool stable) noexcept;

// Whether key is op's kept call on s, its plan still bound as it was.
bool can_run_again(CommState& s, plan::Collective op, const CallKey& key) noexcept;
// Runs it (after can_run_again): the running requests advance first, as at
// every call's entry (check_call). Throws as the plan's run does; a call
// that failed is not kept.
void run_again(CommState& s, plan::Collective op);

}  // namespace optcoll::mpi
