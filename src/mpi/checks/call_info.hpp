// A collective call as its entry checked it (CallInfo): the communicator,
// the datatype and, for a reduction, the operator, each checked once where
// the call enters and trusted below. The API checks a call with
// check_call() and check_op(), which throw MpiError in MPI's error
// classes; the drop-in's Gate (src/pmpi/shapes.hpp) describes it with the
// noexcept functions here, which say why optcoll does not take a call
// instead (PMPI_* then runs it, so that a program never gets an error from
// optcoll that native MPI would not raise), and hands its CallInfo down to
// the same implementation.
#pragma once

#include <mpi.h>

#include <cstdint>

#include "mpi/comm/comm_state.hpp"
#include "mpi/executor/datatype.hpp"

namespace optcoll::mpi {

struct CallInfo {
  int size = 1;
  int rank = 0;
  CommState* state = nullptr;    // the communicator's cache, if built already
  TypeInfo type;                 // the datatype checked (type.type; MPI_DATATYPE_NULL: none yet)
  bool named_type = true;        // a predefined datatype
  std::uint8_t type_groups = 0;  // a predefined datatype's: type_groups()
  // A reduction's operator once check_op() took it on this datatype:
  // whether it commutes (MPI_Op_commutative) and is exact, the same bits
  // in any association and operand order (plan::PlanSpec::exact).
  MPI_Op op = MPI_OP_NULL;
  bool commutative = true;
  bool exact = false;

  CommState& comm_state(MPI_Comm comm) const { return state != nullptr ? *state : mpi::comm_state(comm); }
};

// The entry of every call of the MPI layer: running requests advance
// (request.hpp), then comm (MPI_ERR_COMM), count (MPI_ERR_COUNT), datatype
// (MPI_ERR_TYPE) and root (MPI_ERR_ROOT) are checked. With `checked` (the
// drop-in's description of the call, whose Gate checked the communicator,
// the root, and count elements of the datatype it describes), only a
// datatype it does not describe is checked (the bytes a shape hands on).
// Local.
CallInfo check_call(MPI_Comm comm, std::int64_t count, MPI_Datatype type, int root, const CallInfo* checked = nullptr);

// A second datatype of a call already entered (a send side): c's if it is
// the same handle, else checked as check_call() checks. Local.
TypeInfo check_type(const CallInfo& c, std::int64_t count, MPI_Datatype type);

// The TypeInfo of a valid datatype, and whether it is predefined: from the
// cache of predefined datatypes that the checks keep (no MPI call for one
// seen before; a predefined one enters it). Throws MpiError. Local.
TypeInfo type_info(MPI_Datatype type, bool& named);
// The cached TypeInfo of a predefined datatype seen before, else nullptr.
// Local; no MPI call.
const TypeInfo* cached_type(MPI_Datatype type) noexcept;

// MPI_ERR_OP for MPI_OP_NULL, MPI_REPLACE / MPI_NO_OP, and a predefined
// operator on a datatype it is not defined for; else records op in c with
// whether it commutes and is exact (nothing to do where c holds op
// already). Local.
void check_op(MPI_Op op, CallInfo& c);

// The same checks for the drop-in's Gate, never throwing: nullptr when the
// OPTCOLL_* calls take count elements of type (with op, for a reduction),
// c then describing them, else why not (an invalid or uncommitted
// datatype, extent <= 0 with count > 1, count x extent beyond 64 bits; a
// predefined operator on a derived datatype or outside its groups,
// MPI_OP_NULL, MPI_REPLACE / MPI_NO_OP). c holds the communicator
// already (look_up). Local.
const char* describe_type(CallInfo& c, std::int64_t count, MPI_Datatype type) noexcept;
const char* describe_reduction(CallInfo& c, std::int64_t count, MPI_Datatype type, MPI_Op op) noexcept;

}  // namespace optcoll::mpi
