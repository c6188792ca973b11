// Predefined reduction operators on predefined datatypes, computed in
// optcoll's own loop instead of MPI_Reduce_local, for the executor's small
// combines, where MPI_Reduce_local's argument checks, operator table and
// dispatch (and a combine_after's copy back) cost more than the arithmetic
// (docs/decisions/local-reduce-own-loop.md).
//
// The operators are the elementwise ones whose result does not depend on
// how it is computed: SUM, PROD, BAND, BOR, BXOR, LAND, LOR, LXOR on the C
// and fixed-width integer types (signed arithmetic wraps, as two's
// complement, the way MPI's own kernels behave), MIN and MAX on the signed
// ones, and SUM and PROD on float and double (one IEEE operation per
// element: the same bits as any other implementation). The rest stays with
// MPI_Reduce_local: MIN and MAX on floating point (NaN and -0.0 are the
// library's to order) and on unsigned types, which both MPIs here order as
// signed (Open MPI 4.1.4 for MPI_UNSIGNED_LONG, MPICH 4.0.2 for every
// unsigned type: max(1, 2^64 - 1) is 1; one reduction must not take one
// order for small pieces and another for large ones); the pair types, user
// operators and derived datatypes.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace optcoll::mpi {

// dst[i] = a[i] (op) b[i] for n elements; dst may be a or b.
using LocalReduce = void (*)(const void* a, const void* b, void* dst, std::int64_t n) noexcept;

// The loop for (type, op), or nullptr when MPI_Reduce_local must do it.
// O(1): a few handle comparisons, once per bound call.
LocalReduce local_reduce(MPI_Datatype type, MPI_Op op) noexcept;

// The executor uses the loop up to this many bytes per combine; above,
// MPI's vectorized kernels are worth their call (measured:
// docs/decisions/local-reduce-own-loop.md).
inline constexpr std::int64_t kLocalReduceMaxBytes = 512;

}  // namespace optcoll::mpi
