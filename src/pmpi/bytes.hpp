// A rank's buffer for a copy collective (bcast, gather, scatter, allgather
// and their v variants) as the bytes of its type signature.
//
// MPI only asks the ranks of a copy collective for matching type signatures:
// the root may send one element of a derived type that the others receive
// as 4 MPI_INT, or MPI_PACKED bytes. optcoll splits buffers into blocks by
// element, which is only the same split at every rank if every rank passes
// the same element type. So the PMPI layer hands optcoll bytes: the buffer
// itself when the type is a named type without gaps (MPI_INT, MPI_BYTE, ...),
// else a packed copy (MPI_Pack, type-map order; on the homogeneous machines
// Open MPI and MPICH support, packed bytes are the elements' bytes, which the
// tests check by mixing both forms in one call).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "counts.hpp"
#include "mpi/executor/datatype.hpp"
#include "mpi/requests/held_handles.hpp"

namespace optcoll::pmpi {

// Type size in bytes, or -1 for an invalid or null datatype / negative count.
std::int64_t payload_bytes(std::int64_t count, MPI_Datatype type) noexcept;

class ByteStream {
 public:
  // count elements of type at buf; bytes = payload_bytes(count, type).
  ByteStream(const void* buf, std::int64_t count, MPI_Datatype type, std::int64_t bytes);
  ByteStream(const ByteStream&) = delete;
  ByteStream& operator=(const ByteStream&) = delete;

  void* data() noexcept { return direct_ ? const_cast<void*>(buf_) : packed_.data(); }
  std::int64_t size() const noexcept { return bytes_; }
  bool direct() const noexcept { return direct_; }

  // Copies the user's elements into data() (packs; nothing when direct).
  void load();
  // Copies data() back into the user's elements (unpacks; nothing when direct).
  void store();

 private:
  const void* buf_;
  std::int64_t count_;
  mpi::TypeInfo type_;  // (not direct only)
  std::int64_t bytes_;
  bool direct_ = false;
  std::vector<std::byte> packed_;
};

// The p segments of a v collective's buffer (segment i: counts[i] elements
// of type from displs[i] extents on; int arrays or the large-count
// bindings' MPI_Count / MPI_Aint ones, counts.hpp) as bytes, segment i at
// byte displacement byte_displs()[i]: the user's buffer for a named type
// without padding and no negative displacement, else a packed copy with the
// segments back to back. 64-bit throughout: no limit but memory.
class SegmentedBytes {
 public:
  SegmentedBytes(const void* buf, CountArray counts, CountArray displs, std::size_t p, MPI_Datatype type);
  SegmentedBytes(const SegmentedBytes&) = delete;
  SegmentedBytes& operator=(const SegmentedBytes&) = delete;

  void* data() noexcept { return direct_ ? const_cast<void*>(buf_) : packed_.data(); }
  bool direct() const noexcept { return direct_; }
  std::span<const std::int64_t> byte_counts() const noexcept { return bytes_; }
  std::span<const std::int64_t> byte_displs() const noexcept { return displs_; }
  std::int64_t total() const noexcept { return total_; }

  // Packs segment i (nothing when direct).
  void load(std::size_t i);
  // Unpacks every segment (nothing when direct).
  void store();

 private:
  const void* buf_;
  std::vector<std::int64_t> counts_;       // the caller's (not direct only)
  std::vector<std::int64_t> user_displs_;  // the caller's, in bytes (not direct only)
  mpi::TypeInfo type_;
  bool direct_ = false;
  std::int64_t total_ = 0;
  std::vector<std::int64_t> bytes_;   // per segment
  std::vector<std::int64_t> displs_;  // per segment, in data()
  std::vector<std::byte> packed_;
};

// Where a call's byte views live, and when they are filled from the user's
// elements (load) and written back (store). A blocking call does both at
// once, on views that live as long as the Staging (on its stack). A request
// keeps its Staging (the carrier owns it, requests.cpp): a nonblocking call
// loads at once and stores after completion; a persistent one loads at
// every start and stores after every completion. Views that are the user's
// buffer itself (direct) need neither. At most two views of each kind.
// A request's views unpack and pack with duplicates of the program's
// datatypes (mpi/requests/held_handles.hpp), which it may free meanwhile.
class Staging {
 public:
  enum class Mode : std::uint8_t { now, nonblocking, persistent };
  explicit Staging(Mode mode = Mode::now) noexcept : mode_(mode) {}
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;

  ByteStream& stream(const void* buf, std::int64_t count, MPI_Datatype type, std::int64_t bytes);
  SegmentedBytes& segmented(const void* buf, CountArray counts, CountArray displs, std::size_t p, MPI_Datatype type);
  void load(ByteStream& s);
  void load(SegmentedBytes& s, std::size_t i);
  void store(ByteStream& s);
  void store(SegmentedBytes& s);

  // A request's: the loads before each start (persistent), the stores
  // after each completion.
  void before_start();
  void after_completion();

 private:
  struct Later {
    ByteStream* stream = nullptr;  // else segmented
    SegmentedBytes* segmented = nullptr;
    std::size_t index = 0;
    bool load = false;
  };

  Mode mode_;
  mpi::HeldHandles held_;  // a request's datatypes (before the views: released after them)
  std::optional<ByteStream> streams_[2];
  std::optional<SegmentedBytes> segmented_[2];
  std::vector<Later> later_;
};

}  // namespace optcoll::pmpi
