// The optional argument check of the MPI layer (OPTCOLL_CHECK=1): before a
// collective moves anything, its ranks agree that they called the same
// collective with the same root and operator, matching type signatures and
// consistent counts (the v-variants included), and that every rank's own
// argument checks passed. A mismatch is an MPI error at every rank (in the
// class of what differs) instead of a hang or corrupted memory.
//
// Cost: one PMPI_Allreduce of 8 words on the caller's communicator per call
// (none on one rank), plus walking the datatypes' type maps; O(p) local
// work where a rank sees p counts (v-variants, alltoall). Off by default.
//
// How: every property is a sum over ranks that is zero when the ranks agree
// (unsigned 64-bit words, wrapping). "Every rank passes the same x" is a
// chain: rank r adds G(r, x_r) - G(r + 1 mod p, x_r), which telescopes to
// zero iff (up to a 2^-64 chance) all x_r are equal. "What rank i sends to j
// matches what j expects from i" is a pair term: the sender adds G(i, j, s),
// the receiver subtracts G(i, j, e). G is a 64-bit mixing hash. The sums
// are the same at every rank, so every rank reaches the same verdict.
#pragma once

#include <mpi.h>

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "optcoll/optcoll.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::mpi {

// The check is on with OPTCOLL_CHECK=1 (select::check_enabled(), each
// process's own value). Agreements run in this process (tests: none while the check is off).
std::int64_t agreements_run() noexcept;

// The type signature of count elements of type: its length in basic
// elements and a hash of the sequence of basic types. Polynomial, so that
// every construction of the same sequence hashes alike (4 MPI_INT, one
// contiguous(4, MPI_INT), a struct {MPI_INT, MPI_INT} repeated twice, ...).
// O(size of the type's construction), independent of count. Throws
// MpiError(MPI_ERR_TYPE) for an invalid datatype.
struct Signature {
  std::uint64_t length = 0;
  std::uint64_t hash = 0;
  bool operator==(const Signature&) const = default;
};
Signature signature(MPI_Datatype type, std::int64_t count);

class Agreement {
 public:
  // Active when the check is on and comm is a valid intracommunicator
  // (otherwise the call's own checks report comm).
  Agreement(MPI_Comm comm, plan::Collective op);
  bool active() const noexcept { return active_; }
  int size() const noexcept { return size_; }
  int rank() const noexcept { return rank_; }

  // Every rank passes the same root / operator / count / element datatype
  // signature / counts array.
  void same_root(int root);
  void same_op(MPI_Op op);
  void same_count(std::int64_t count);
  void same_type(MPI_Datatype type);
  void same_counts(std::span<const std::int64_t> counts);
  // Every rank's block has the same signature (count elements of type):
  // Allgather's and Alltoall's blocks, Gather's and Scatter's per-rank part.
  void same_block(MPI_Datatype type, std::int64_t count);
  // This rank sends count elements of type to rank `to` / expects them from
  // rank `from`: the two sides must match.
  void sends(int to, MPI_Datatype type, std::int64_t count);
  void receives(int from, MPI_Datatype type, std::int64_t count);

  // Runs the call's local argument checks (which throw MpiError), then, when
  // active, agrees with every rank: a rank whose own checks failed rethrows
  // its error; the others throw, in this order, MPI_ERR_OTHER if the ranks
  // called different collectives, the failing ranks' class if some failed
  // (MPI_ERR_OTHER if their classes differ), else the class of the first
  // property that differs (root: MPI_ERR_ROOT; operator: MPI_ERR_OP;
  // counts: MPI_ERR_COUNT; signatures: MPI_ERR_TYPE).
  template <class F>
  void run(F&& checks) {
    if (!active_) return checks();
    try {
      checks();
    } catch (const MpiError& e) {
      local_ = e;
    }
    agree();
  }

 private:
  enum Slot : std::size_t { kKind, kRoot, kOp, kCount, kType, kFailed, kFailedSum, kFailedSquares, kSlots };
  // A chain over the ranks in slot s; tag separates chains of one slot.
  void chain(Slot s, std::uint64_t tag, std::uint64_t value);
  // The pair term of the message from -> to (count and type slots).
  void pair(int from, int to, const Signature& sig, bool sender);
  Signature signature_of(MPI_Datatype type, std::int64_t count);
  void agree();

  bool active_ = false;
  MPI_Comm comm_ = MPI_COMM_NULL;
  plan::Collective op_{};
  int size_ = 1;
  int rank_ = 0;
  std::array<std::uint64_t, kSlots> sums_{};
  std::optional<MpiError> local_;
};

}  // namespace optcoll::mpi
