// TypeInfo, chunk limits, datatype-aware copies and the MPI error helper.
#include "mpi/datatype.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>

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

void copy_elements(const void* src, void* dst, std::int64_t count, const TypeInfo& t, std::int64_t chunk, MPI_Comm comm,
                   ByteBuffer& tmp) {
  if (count <= 0 || t.size == 0 || src == dst) return;
  if (t.contiguous) {
    std::memmove(offset(dst, t.true_lb), offset(src, t.true_lb), static_cast<std::size_t>(count * t.size));
    return;
  }
  // Pieces of at most 4 MiB of packed data.
  const std::int64_t piece =
      std::clamp<std::int64_t>((std::int64_t{4} << 20) / std::max<std::int64_t>(t.size, 1), 1, chunk);
  int cap = 0;
  check(PMPI_Pack_size(static_cast<int>(piece), t.type, comm, &cap), "MPI_Pack_size");
  std::byte* buf = tmp.get(cap);
  for (std::int64_t done = 0; done < count; done += piece) {
    const int c = static_cast<int>(std::min(piece, count - done));
    const std::int64_t at = done * t.extent;
    int pos = 0;
    check(PMPI_Pack(offset(src, at), c, t.type, buf, cap, &pos, comm), "MPI_Pack");
    int upos = 0;
    check(PMPI_Unpack(buf, pos, &upos, offset(dst, at), c, t.type, comm), "MPI_Unpack");
  }
}

void copy_typed(const void* src, std::int64_t scount, const TypeInfo& st, void* dst, std::int64_t rcount,
                const TypeInfo& rt, MPI_Comm comm, ByteBuffer& tmp) {
  if (scount * st.size != rcount * rt.size)
    throw MpiError(MPI_ERR_TRUNCATE, "optcoll: send and receive sizes differ (" + std::to_string(scount * st.size) +
                                         " and " + std::to_string(rcount * rt.size) + " bytes)");
  if (st.type == rt.type && scount == rcount) {
    copy_elements(src, dst, scount, st, chunk_elements(st, INT_MAX), comm, tmp);
    return;
  }
  if (scount * st.size == 0) return;
  if (scount > INT_MAX || rcount > INT_MAX)
    throw MpiError(MPI_ERR_COUNT, "optcoll: differing send and receive datatypes need counts below 2^31");
  check(PMPI_Sendrecv(src, static_cast<int>(scount), st.type, 0, 0, dst, static_cast<int>(rcount), rt.type, 0, 0, comm,
                      MPI_STATUS_IGNORE),
        "MPI_Sendrecv (local copy)");
}

}  // namespace optcoll::mpi
