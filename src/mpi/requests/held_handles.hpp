// What a request keeps of the program's MPI objects while it may still use
// them: MPI lets a program free a datatype, an operator or a communicator
// right after starting a nonblocking or persistent collective, and the call
// must go on as if nothing had been freed (MPI-4.0 §2.5.1, §5.1.10).
//
// - Datatypes: a derived datatype is duplicated (MPI_Type_dup) when the
//   request is made, and the request runs on the duplicate, which it frees
//   with itself. Predefined datatypes are never freed.
// - Operators: MPI has no way to duplicate one, so a request counts itself
//   as a user of each user-defined operator it runs; defer_op_free() is
//   how a free of the program's reaches the library only once no request
//   uses the operator (the drop-in's MPI_Op_free, and OPTCOLL_Op_free for
//   programs that call the API directly).
// - Communicators: a request keeps its communicator's CommState (and with
//   it optcoll's duplicate) alive (requests/request.hpp).
#pragma once

#include <mpi.h>

#include <vector>

namespace optcoll::mpi {

class HeldHandles {
 public:
  HeldHandles() = default;
  HeldHandles(const HeldHandles&) = delete;
  HeldHandles& operator=(const HeldHandles&) = delete;
  ~HeldHandles();

  // The handle the request runs on in place of type: type itself if it is
  // predefined (or null), else a duplicate owned here. Throws MpiError
  // where MPI refuses the duplicate (an invalid datatype).
  MPI_Datatype type(MPI_Datatype type);
  // op, counted as in use (a user-defined one) until this is destroyed.
  MPI_Op op(MPI_Op op);

 private:
  std::vector<MPI_Datatype> types_;  // duplicates, freed with this
  std::vector<MPI_Op> ops_;          // user operators counted in use
};

// Whether a free of op must wait: true if a request uses op; the library's
// free then happens when the last such request lets go of it, and the
// caller must not free it itself. Thread-safe.
bool defer_op_free(MPI_Op op);

// Whether op is one of MPI's predefined operators (never freed).
bool predefined_op(MPI_Op op) noexcept;

}  // namespace optcoll::mpi
