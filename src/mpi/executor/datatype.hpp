// MPI datatypes as the executor sees them, and the MPI error plumbing of the
// mpi/ layer.
//
// A working buffer is a base pointer plus a datatype: element i starts at
// base + i*extent, and the datatype's own displacements apply from there, so
// element i's data lies in [base + i*extent + true_lb, + true_extent). A type
// is `contiguous` when that data is size bytes without holes and elements
// follow each other without gaps (extent == true_extent == size); such
// buffers are copied with memcpy, all others through MPI_Pack/MPI_Unpack so
// that the holes of a user buffer are never written.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>

namespace optcoll::mpi {

// Throws optcoll::MpiError(rc, "<what> failed: <MPI error string>") unless
// rc == MPI_SUCCESS.
void check(int rc, const char* what);

// A private duplicate of MPI_COMM_SELF with MPI_ERRORS_RETURN, for local
// calls that need a communicator (argument checks, packing). comm_cache.cpp.
MPI_Comm self_comm();

struct TypeInfo {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  std::int64_t size = 0;         // bytes of data per element
  std::int64_t extent = 0;       // stride between elements
  std::int64_t true_lb = 0;      // first data byte of an element, from its start
  std::int64_t true_extent = 0;  // bytes from the first to one past the last data byte
  bool contiguous = false;

  bool operator==(const TypeInfo&) const = default;

  // Queries type (which must be a valid, committed datatype). Throws MpiError.
  static TypeInfo of(MPI_Datatype type);

  // Bytes spanned by count consecutive elements' data.
  std::int64_t span_bytes(std::int64_t count) const noexcept {
    return count <= 0 ? 0 : (count - 1) * extent + true_extent;
  }
};

// p + bytes without C++ pointer-arithmetic rules: MPI buffers are addressed
// by (base, datatype), and base may lie outside the allocation (true_lb > 0).
inline std::byte* offset(void* p, std::int64_t bytes) noexcept {
  return reinterpret_cast<std::byte*>(reinterpret_cast<std::uintptr_t>(p) + static_cast<std::uintptr_t>(bytes));
}
inline const std::byte* offset(const void* p, std::int64_t bytes) noexcept {
  return reinterpret_cast<const std::byte*>(reinterpret_cast<std::uintptr_t>(p) + static_cast<std::uintptr_t>(bytes));
}

// The most elements one MPI call moves or reduces: at most limit, INT_MAX
// and 2^30 bytes of data (so that a packed chunk's size fits an int).
std::int64_t chunk_elements(const TypeInfo& t, std::int64_t limit) noexcept;

// A grow-only byte buffer (no zero-filling; reused across rounds and calls).
class ByteBuffer {
 public:
  std::byte* get(std::int64_t bytes);
  std::int64_t capacity() const noexcept { return capacity_; }
  void release() noexcept {
    data_.reset();
    capacity_ = 0;
  }

 private:
  std::unique_ptr<std::byte[]> data_;
  std::int64_t capacity_ = 0;
};

// count elements of t at buf (element 0) to / from their packed bytes
// (count * t.size of them), through MPI_Pack / MPI_Unpack unless t is
// contiguous. Both MPIs pack homogeneous data as its bytes.
void pack_bytes(const void* buf, std::int64_t count, const TypeInfo& t, std::byte* out);
void unpack_bytes(const std::byte* in, void* buf, std::int64_t count, const TypeInfo& t);

// dst = src across two datatypes with the same type signature: scount
// elements of st become rcount elements of rt (MPI's local copy of a rank's
// own contribution; st == rt for a plain copy). Holes of dst are never
// written; non-contiguous data goes through a packed copy in `tmp`, in
// pieces of about 4 MiB, so any count works. src == dst copies nothing.
// MPI_ERR_TRUNCATE when the two sides' data sizes differ.
void copy_typed(const void* src, std::int64_t scount, const TypeInfo& st, void* dst, std::int64_t rcount,
                const TypeInfo& rt, ByteBuffer& tmp);
inline void copy_elements(const void* src, void* dst, std::int64_t count, const TypeInfo& t, ByteBuffer& tmp) {
  copy_typed(src, count, t, dst, count, t, tmp);
}

}  // namespace optcoll::mpi
