// What optcoll's MPI layer takes, for the PMPI layer (liboptcoll_pmpi.so),
// which hands everything else to PMPI_* so that a program never gets an
// error from optcoll that native MPI would not raise.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace optcoll::mpi {

// nullptr when the OPTCOLL_* calls take count elements of type, else why
// not: an invalid or uncommitted datatype, extent <= 0 with count > 1, count
// x extent beyond 64 bits. Local.
const char* unsupported_datatype(std::int64_t count, MPI_Datatype type) noexcept;

// A reduction of count elements of type with op as the drop-in routes it,
// from one pass over the datatype's cached description: why the OPTCOLL_*
// calls do not take it (nullptr: they do; besides unsupported_datatype(), a
// predefined operator on a derived datatype or on a datatype outside its
// groups, MPI_OP_NULL, MPI_REPLACE / MPI_NO_OP), and whether op commutes
// and is exact on type (plan::PlanSpec). Local.
struct Reduction {
  const char* unsupported = nullptr;
  bool commutative = true;
  bool exact = false;
};
Reduction reduction_of(std::int64_t count, MPI_Datatype type, MPI_Op op) noexcept;

}  // namespace optcoll::mpi
