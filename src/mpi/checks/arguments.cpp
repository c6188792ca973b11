// Argument checks at the MPI boundary, in MPI's error classes.
#include <array>
#include <cstdint>
#include <string>

#include "mpi/collectives/collectives.hpp"
#include "mpi/requests/request.hpp"

namespace optcoll::mpi {
namespace {

// TypeInfo of a predefined datatype: constant for the process, so the last
// few are cached per thread (saves five MPI queries per call). Only
// predefined handles enter the cache; they are never freed, so no derived
// datatype can ever have one of their handles.
struct NamedTypes {
  struct Entry {
    MPI_Datatype type = MPI_DATATYPE_NULL;
    TypeInfo info;
    std::uint8_t groups = 0;  // type_groups()
  };
  std::array<Entry, 8> entries{};
  std::size_t next = 0;

  const Entry* find(MPI_Datatype type) const noexcept {
    for (const Entry& e : entries)
      if (e.type == type) return &e;
    return nullptr;
  }
  const Entry& add(MPI_Datatype type) {
    Entry& e = entries[next++ % entries.size()];
    e.info = TypeInfo::of(type);
    e.groups = type_groups(type);
    e.type = type;
    return e;
  }
};
thread_local NamedTypes t_named;

// The count part of check_type.
void check_count(std::int64_t count, const TypeInfo& t) {
  if (count > 1 && t.size > 0 && t.extent <= 0)
    throw MpiError(MPI_ERR_TYPE, "optcoll: datatypes with extent <= 0 are not supported");
  // Byte offsets of the last element must fit in 64 bits (the C++ API's
  // counts are 64-bit).
  if (count > 0 && (t.extent > 0 ? count - 1 > (INT64_MAX - t.true_extent) / t.extent : false))
    throw MpiError(MPI_ERR_COUNT, "optcoll: count " + std::to_string(count) + " times the extent overflows");
}

// The datatype part of check_call: c.type and its group bits (an operator
// checked on another datatype no longer holds).
void type_into(CallInfo& c, std::int64_t count, MPI_Datatype type) {
  c.op = MPI_OP_NULL;
  if (type == MPI_DATATYPE_NULL) throw MpiError(MPI_ERR_TYPE, "optcoll: MPI_DATATYPE_NULL");
  if (const NamedTypes::Entry* named = t_named.find(type)) {
    c.named_type = true;
    c.type = named->info;
    c.type_groups = named->groups;
    check_count(count, c.type);
    return;
  }
  int ni = 0;
  int na = 0;
  int nd = 0;
  int combiner = 0;
  if (PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner) != MPI_SUCCESS)
    throw MpiError(MPI_ERR_TYPE, "optcoll: invalid datatype");
  c.named_type = combiner == MPI_COMBINER_NAMED;
  if (c.named_type) {
    const NamedTypes::Entry& named = t_named.add(type);
    c.type = named.info;
    c.type_groups = named.groups;
  } else {
    // MPI has no "is committed" query, but packing zero elements of an
    // uncommitted type fails in both Open MPI and MPICH.
    char none = 0;
    int pos = 0;
    if (PMPI_Pack(&none, 0, type, &none, 1, &pos, self_comm()) != MPI_SUCCESS)
      throw MpiError(MPI_ERR_TYPE, "optcoll: datatype not committed");
    c.type = TypeInfo::of(type);
    c.type_groups = 0;
  }
  check_count(count, c.type);
}

// Why a described call is not taken, from the error its check raised.
const char* why_not(const MpiError& e) noexcept {
  return e.mpi_class() == MPI_ERR_OP ? "an operator optcoll does not take on this datatype"
                                     : "a datatype optcoll does not take";
}

}  // namespace

CallInfo check_call(MPI_Comm comm, std::int64_t count, MPI_Datatype type, int root, const CallInfo* checked) {
  progress_requests();  // every call's first step: running requests advance (request.hpp)
  if (checked != nullptr) {
    // The entry checked comm and root, and count with type where it
    // described this datatype.
    CallInfo c = *checked;
    if (type == MPI_DATATYPE_NULL || type != c.type.type) {
      if (count < 0) throw MpiError(MPI_ERR_COUNT, "optcoll: negative count " + std::to_string(count));
      type_into(c, count, type);
    }
    return c;
  }
  CallInfo c;
  const CommLookup l = look_up(comm);
  if (l.bad != nullptr) throw MpiError(MPI_ERR_COMM, std::string("optcoll: ") + l.bad);
  c.size = l.size;
  c.rank = l.rank;
  c.state = l.state;
  if (count < 0) throw MpiError(MPI_ERR_COUNT, "optcoll: negative count " + std::to_string(count));
  type_into(c, count, type);
  if (root < 0 || root >= c.size)
    throw MpiError(MPI_ERR_ROOT,
                   "optcoll: root " + std::to_string(root) + " outside [0, " + std::to_string(c.size) + ")");
  return c;
}

TypeInfo check_type(const CallInfo& c, std::int64_t count, MPI_Datatype type) {
  if (count < 0) throw MpiError(MPI_ERR_COUNT, "optcoll: negative count " + std::to_string(count));
  if (type != MPI_DATATYPE_NULL && c.type.type == type) {
    check_count(count, c.type);
    return c.type;
  }
  CallInfo other;
  type_into(other, count, type);
  return other.type;
}

TypeInfo type_info(MPI_Datatype type, bool& named) {
  CallInfo c;
  type_into(c, 0, type);
  named = c.named_type;
  return c.type;
}

const TypeInfo* cached_type(MPI_Datatype type) noexcept {
  const NamedTypes::Entry* e = type == MPI_DATATYPE_NULL ? nullptr : t_named.find(type);
  return e != nullptr ? &e->info : nullptr;
}

bool predefined_type(MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL || t_named.find(type) != nullptr) return true;
  int ni = 0;
  int na = 0;
  int nd = 0;
  int combiner = 0;
  if (PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner) != MPI_SUCCESS) return true;
  if (combiner != MPI_COMBINER_NAMED) return false;
  t_named.add(type);
  return true;
}

const char* describe_type(CallInfo& c, std::int64_t count, MPI_Datatype type) noexcept {
  try {
    type_into(c, count, type);
  } catch (const MpiError& e) {
    return why_not(e);
  } catch (...) {
    return "a datatype optcoll does not take";
  }
  return nullptr;
}

const char* describe_reduction(CallInfo& c, std::int64_t count, MPI_Datatype type, MPI_Op op) noexcept {
  try {
    type_into(c, count, type);
    check_op(op, c);
  } catch (const MpiError& e) {
    return why_not(e);
  } catch (...) {
    return "a datatype optcoll does not take";
  }
  return nullptr;
}

void check_buffer(const void* buffer, std::int64_t count, const TypeInfo& t, const char* what) {
  // A datatype with absolute displacements (true_lb != 0) may use
  // MPI_BOTTOM, which is NULL.
  if (buffer == nullptr && count > 0 && t.size > 0 && t.true_lb == 0)
    throw MpiError(MPI_ERR_BUFFER, std::string("optcoll: NULL ") + what + " with count > 0");
  if (buffer == MPI_IN_PLACE)
    throw MpiError(MPI_ERR_BUFFER, std::string("optcoll: MPI_IN_PLACE is not a valid ") + what);
}

}  // namespace optcoll::mpi
