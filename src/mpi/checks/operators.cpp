// Which predefined operator applies to which datatype (MPI-4.0 §6.9.2),
// checked before any communication: an invalid pair fails in MPI's own
// MPI_Reduce_local only at the ranks that combine (the others would wait
// for them forever), and MPICH 4.0 even aborts on some (MPI_LAND on
// MPI_DOUBLE is an assertion failure there).
//
// The groups are the standard's: C integer (plus MPI_CHAR, which Open MPI
// and MPICH both accept for arithmetic), Fortran integer, floating point,
// logical, complex, byte, and the pair types of MAXLOC/MINLOC. A predefined
// operator on a derived datatype is rejected as both MPIs reject it.
// MPI_REPLACE and MPI_NO_OP are for one-sided accumulates only. User
// operators accept every datatype (they interpret it themselves).
#include <initializer_list>

#include "mpi/collectives/collectives.hpp"

namespace optcoll::mpi {
namespace {

bool in(MPI_Datatype t, std::initializer_list<MPI_Datatype> group) {
  for (MPI_Datatype g : group)
    if (g == t) return true;
  return false;
}

bool c_integer(MPI_Datatype t) {
  return in(t, {MPI_INT,
                MPI_LONG,
                MPI_SHORT,
                MPI_UNSIGNED_SHORT,
                MPI_UNSIGNED,
                MPI_UNSIGNED_LONG,
                MPI_LONG_LONG_INT,
                MPI_LONG_LONG,
                MPI_UNSIGNED_LONG_LONG,
                MPI_SIGNED_CHAR,
                MPI_UNSIGNED_CHAR,
                MPI_CHAR,
                MPI_INT8_T,
                MPI_INT16_T,
                MPI_INT32_T,
                MPI_INT64_T,
                MPI_UINT8_T,
                MPI_UINT16_T,
                MPI_UINT32_T,
                MPI_UINT64_T,
                MPI_AINT,
                MPI_OFFSET,
                MPI_COUNT});
}
bool fortran_integer(MPI_Datatype t) {
  return in(t, {MPI_INTEGER, MPI_INTEGER1, MPI_INTEGER2, MPI_INTEGER4, MPI_INTEGER8});
}
bool floating(MPI_Datatype t) {
  return in(t, {MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_REAL, MPI_DOUBLE_PRECISION, MPI_REAL4, MPI_REAL8});
}
bool logical(MPI_Datatype t) {
  return in(t, {MPI_C_BOOL, MPI_LOGICAL, MPI_CXX_BOOL});
}
bool complex(MPI_Datatype t) {
#if OPTCOLL_HAVE_MPI_CXX_COMPLEX  // (cmake/mpi.cmake: not in every mpi.h)
  if (in(t, {MPI_CXX_FLOAT_COMPLEX, MPI_CXX_DOUBLE_COMPLEX, MPI_CXX_LONG_DOUBLE_COMPLEX})) return true;
#endif
  return in(t, {MPI_C_COMPLEX, MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX, MPI_C_LONG_DOUBLE_COMPLEX, MPI_COMPLEX,
                MPI_DOUBLE_COMPLEX});
}
bool pair(MPI_Datatype t) {
  return in(t, {MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_2INT, MPI_SHORT_INT, MPI_LONG_DOUBLE_INT, MPI_2REAL,
                MPI_2DOUBLE_PRECISION, MPI_2INTEGER});
}
bool integer_pair(MPI_Datatype t) {
  return in(t, {MPI_LONG_INT, MPI_2INT, MPI_SHORT_INT, MPI_2INTEGER});
}

// type_groups()' bits.
enum : std::uint8_t {
  kCInteger = 1,
  kFortranInteger = 2,
  kFloating = 4,
  kLogical = 8,
  kComplex = 16,
  kByte = 32,
  kPair = 64,
  kIntegerPair = 128,  // (with kPair)
  kInteger = kCInteger | kFortranInteger,
};

// The predefined operators by the groups they take; none: a user operator.
enum class Groups { none, max_min, sum_prod, logical_ops, bitwise, loc };

Groups groups_of(MPI_Op op) {
  if (op == MPI_MAX || op == MPI_MIN) return Groups::max_min;
  if (op == MPI_SUM || op == MPI_PROD) return Groups::sum_prod;
  if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR) return Groups::logical_ops;
  if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR) return Groups::bitwise;
  if (op == MPI_MAXLOC || op == MPI_MINLOC) return Groups::loc;
  return Groups::none;
}

// Whether the operators of g apply to a datatype of these groups.
bool applies(Groups g, std::uint8_t t) {
  switch (g) {
    case Groups::max_min:
      return (t & (kInteger | kFloating)) != 0;
    case Groups::sum_prod:
      return (t & (kInteger | kFloating | kComplex)) != 0;
    case Groups::logical_ops:
      return (t & (kCInteger | kLogical)) != 0;
    case Groups::bitwise:
      return (t & (kInteger | kByte)) != 0;
    case Groups::loc:
      return (t & kPair) != 0;
    case Groups::none:
      break;
  }
  return true;
}

// Whether op on c's datatype is exact: the predefined operators on
// integers, logicals and bytes, MAXLOC/MINLOC on integer pairs; not on
// floating point or complex data (rounding, and NaN and -0.0 in MAX/MIN),
// not a user operator.
bool exact_op(MPI_Op op, const CallInfo& c) {
  if (!c.named_type) return false;
  switch (groups_of(op)) {
    case Groups::max_min:
    case Groups::sum_prod:
      return (c.type_groups & kInteger) != 0;
    case Groups::logical_ops:
    case Groups::bitwise:
      return true;
    case Groups::loc:
      return (c.type_groups & kIntegerPair) != 0;
    case Groups::none:
      break;
  }
  return false;
}

}  // namespace

std::uint8_t type_groups(MPI_Datatype t) noexcept {
  std::uint8_t g = 0;
  if (c_integer(t)) g |= kCInteger;
  if (fortran_integer(t)) g |= kFortranInteger;
  if (floating(t)) g |= kFloating;
  if (logical(t)) g |= kLogical;
  if (complex(t)) g |= kComplex;
  if (t == MPI_BYTE) g |= kByte;
  if (pair(t)) g |= kPair;
  if (integer_pair(t)) g |= kIntegerPair;
  return g;
}

void check_op(MPI_Op op, CallInfo& c) {
  if (op != MPI_OP_NULL && op == c.op) return;  // checked on this datatype already
  if (op == MPI_OP_NULL) throw MpiError(MPI_ERR_OP, "optcoll: MPI_OP_NULL");
  if (op == MPI_REPLACE || op == MPI_NO_OP)
    throw MpiError(MPI_ERR_OP, "optcoll: MPI_REPLACE and MPI_NO_OP are for accumulates, not reductions");
  const Groups g = groups_of(op);
  // Every predefined operator commutes (MPI-4.0 §6.9.1); a user operator
  // says so itself.
  int commutative = 1;
  if (g == Groups::none) {
    check(PMPI_Op_commutative(op, &commutative), "MPI_Op_commutative");
  } else {
    if (!c.named_type)
      throw MpiError(MPI_ERR_OP, "optcoll: a predefined operator needs a predefined datatype (use a user operator)");
    if (!applies(g, c.type_groups)) throw MpiError(MPI_ERR_OP, "optcoll: the operator is not defined on this datatype");
  }
  c.commutative = commutative != 0;
  c.exact = exact_op(op, c);
  c.op = op;
}

select::Call reduction_call(plan::Collective kind, const CallInfo& c, std::int64_t count) {
  return {.op = kind,
          .p = c.size,
          .elem_size = c.type.size,
          .count = count,
          .commutative = c.commutative,
          .exact = c.exact};
}

}  // namespace optcoll::mpi
