// The personalized exchanges over MPI (alltoall.cpp, many_to_many.cpp),
// internal: both sides of a call as bytes, then one plan run with MPI_BYTE.
//
// A side (the send or the receive buffer) is p groups of bytes relative to
// a base. A contiguous datatype is used in place (group g at displs[g] *
// extent from the lowest displacement); any other datatype, and the send
// side of MPI_IN_PLACE (whose data the exchange overwrites), goes through
// a staged copy: the groups packed one after the other (MPI_Pack, whose
// output is the elements' bytes in type-map order on one machine, as the
// PMPI layer's ByteStream relies on too), unpacked at the end. So the send
// and receive types may differ wherever their type signatures match, as MPI
// allows, and holes of derived types are never written.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "mpi/collectives/collectives.hpp"
#include "optcoll/plan/alltoall.hpp"

namespace optcoll::mpi::exchange {

struct Side {
  void* base = nullptr;               // byte 0 of the groups
  std::vector<plan::Segment> groups;  // bytes, relative to base, one per rank
  bool staged = false;                // base is `stage`, not the user's buffer
};

// Checks counts (MPI_ERR_ARG: fewer than p; MPI_ERR_COUNT: negative) and
// the buffer; returns the total element count.
std::int64_t check_counts(std::span<const std::int64_t> counts, std::span<const std::int64_t> displs, int p,
                          const void* buf, const TypeInfo& t, const char* what);

// The byte view of buf's groups; staged (into stage, filled when `fill`,
// before each run of the request the call is built into, into) when t is
// not contiguous or `copy` is set.
Side make_side(detail::Persistent* into, const void* buf, std::span<const std::int64_t> counts,
               std::span<const std::int64_t> displs, int p, const TypeInfo& t, ByteBuffer& stage, bool fill, bool copy);

// Unpacks a staged receive side into buf (after each run, as above).
void unstage(detail::Persistent* into, const Side& side, void* buf, std::span<const std::int64_t> counts,
             std::span<const std::int64_t> displs, const TypeInfo& t);

// p = 1: the own group, send -> receive (MPI_ERR_TRUNCATE if sizes differ).
void copy_own(detail::Persistent* into, const Side& send, const Side& recv);

// OPTCOLL_CHECK: this rank's messages to every rank and from every rank
// (with MPI_IN_PLACE the receive side's), for the pairs to match up.
void agree_pairs(Agreement& agree, const void* sendbuf, std::span<const std::int64_t> sendcounts, MPI_Datatype sendtype,
                 std::span<const std::int64_t> recvcounts, MPI_Datatype recvtype);

}  // namespace optcoll::mpi::exchange
