// TypeInfo, chunk limits, datatype-aware copies and the MPI error helper.
#include "mpi/executor/datatype.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>
#include <utility>

#include "optcoll/optcoll.hpp"

namespace optcoll::mpi {

void check(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  if (PMPI_Error_string(rc, text, &len) != MPI_SUCCESS) len = 0;
  throw MpiError(rc, std::string(what) + " failed: " + std::string(text, static_cast<std::size_t>(len)));
}

TypeInfo TypeInfo::of(MPI_Datatype type) {
  TypeInfo t;
  t.type = type;
  MPI_Count size = 0;
  MPI_Count lb = 0;
  MPI_Count extent = 0;
  MPI_Count true_lb = 0;
  MPI_Count true_extent = 0;
  check(PMPI_Type_size_x(type, &size), "MPI_Type_size_x");
  check(PMPI_Type_get_extent_x(type, &lb, &extent), "MPI_Type_get_extent_x");
  check(PMPI_Type_get_true_extent_x(type, &true_lb, &true_extent), "MPI_Type_get_true_extent_x");
  t.size = static_cast<std::int64_t>(size);
  t.extent = static_cast<std::int64_t>(extent);
  t.true_lb = static_cast<std::int64_t>(true_lb);
  t.true_extent = static_cast<std::int64_t>(true_extent);
  // size == true_extent: the data fills [true_lb, true_lb + true_extent)
  // without holes (an overlapping type could fake this, but receiving into
  // one is erroneous); extent == size: elements follow without gaps. Such a
  // buffer's bytes are its data, in memory order, so memcpy packs it and MPI
  // reads a packed copy with the same type map.
  t.contiguous = t.size == t.extent && t.size == t.true_extent;
  return t;
}

std::int64_t chunk_elements(const TypeInfo& t, std::int64_t limit) noexcept {
  const std::int64_t by_bytes = (std::int64_t{1} << 30) / std::max<std::int64_t>(t.size, 1);
  return std::clamp<std::int64_t>(std::min(limit, by_bytes), 1, INT_MAX);
}

std::byte* ByteBuffer::get(std::int64_t bytes) {
  if (bytes > capacity_) {
    data_.reset();
    data_ = std::make_unique_for_overwrite<std::byte[]>(static_cast<std::size_t>(bytes));
    capacity_ = bytes;
  }
  return data_.get();
}

namespace {

// One MPI_Pack / MPI_Unpack moves at most chunk_elements(t, INT_MAX): 2^30
// bytes, so that positions fit an int.
template <class Fn>
void in_pieces(std::int64_t count, const TypeInfo& t, Fn fn) {
  const std::int64_t piece = chunk_elements(t, INT_MAX);
  for (std::int64_t done = 0; done < count; done += piece) fn(done, std::min(piece, count - done));
}

std::int64_t lcm(std::int64_t a, std::int64_t b) noexcept {
  std::int64_t x = a, y = b;
  while (y != 0) x = std::exchange(y, x % y);
  return a / x * b;
}

}  // namespace

void pack_bytes(const void* buf, std::int64_t count, const TypeInfo& t, std::byte* out) {
  if (count <= 0 || t.size == 0) return;
  if (t.contiguous) {
    std::memcpy(out, offset(buf, t.true_lb), static_cast<std::size_t>(count * t.size));
    return;
  }
  in_pieces(count, t, [&](std::int64_t done, std::int64_t c) {
    const int bytes = static_cast<int>(c * t.size);
    int pos = 0;
    check(PMPI_Pack(offset(buf, done * t.extent), static_cast<int>(c), t.type, out + done * t.size, bytes, &pos,
                    self_comm()),
          "MPI_Pack");
    if (pos != bytes) throw MpiError(MPI_ERR_INTERN, "optcoll: packed data is not the elements' bytes");
  });
}

void unpack_bytes(const std::byte* in, void* buf, std::int64_t count, const TypeInfo& t) {
  if (count <= 0 || t.size == 0) return;
  if (t.contiguous) {
    std::memcpy(offset(buf, t.true_lb), in, static_cast<std::size_t>(count * t.size));
    return;
  }
  in_pieces(count, t, [&](std::int64_t done, std::int64_t c) {
    int pos = 0;
    check(PMPI_Unpack(in + done * t.size, static_cast<int>(c * t.size), &pos, offset(buf, done * t.extent),
                      static_cast<int>(c), t.type, self_comm()),
          "MPI_Unpack");
  });
}

void copy_typed(const void* src, std::int64_t scount, const TypeInfo& st, void* dst, std::int64_t rcount,
                const TypeInfo& rt, ByteBuffer& tmp) {
  const std::int64_t bytes = scount * st.size;
  if (bytes != rcount * rt.size)
    throw MpiError(MPI_ERR_TRUNCATE, "optcoll: send and receive sizes differ (" + std::to_string(bytes) + " and " +
                                         std::to_string(rcount * rt.size) + " bytes)");
  if (bytes == 0 || src == dst) return;
  if (st.contiguous && rt.contiguous) {
    std::memmove(offset(dst, rt.true_lb), offset(src, st.true_lb), static_cast<std::size_t>(bytes));
    return;
  }
  // Through a packed copy, in pieces of whole elements of both types (a
  // multiple of both sizes, about 4 MiB).
  const std::int64_t unit = lcm(st.size, rt.size);
  const std::int64_t piece = std::max<std::int64_t>(1, (std::int64_t{4} << 20) / unit) * unit;
  std::byte* b = tmp.get(std::min(piece, bytes));
  for (std::int64_t done = 0; done < bytes; done += piece) {
    const std::int64_t k = std::min(piece, bytes - done);
    pack_bytes(offset(src, done / st.size * st.extent), k / st.size, st, b);
    unpack_bytes(b, offset(dst, done / rt.size * rt.extent), k / rt.size, rt);
  }
}

}  // namespace optcoll::mpi
