// ByteStream, SegmentedBytes and Staging (bytes.hpp).
#include "bytes.hpp"

#include <cstdint>
#include <utility>

#include "mpi/checks/call_info.hpp"
#include "mpi/executor/datatype.hpp"
#include "optcoll/optcoll.hpp"

namespace optcoll::pmpi {

std::int64_t payload_bytes(std::int64_t count, MPI_Datatype type) noexcept {
  if (count < 0 || type == MPI_DATATYPE_NULL) return -1;
  if (const mpi::TypeInfo* t = mpi::cached_type(type)) {  // a predefined datatype seen before
    if (t->size > 0 && count > INT64_MAX / t->size) return -1;
    return count * t->size;
  }
  MPI_Count size = 0;
  if (PMPI_Type_size_x(type, &size) != MPI_SUCCESS || size < 0) return -1;
  if (size > 0 && count > INT64_MAX / size) return -1;
  return count * static_cast<std::int64_t>(size);
}

namespace {

// The TypeInfo of type (cached where it is predefined), and whether its
// elements are their bytes in order, back to back (a named type's lower
// bound is 0): plain.
mpi::TypeInfo info_of(MPI_Datatype type, bool& plain) {
  bool named = false;
  const mpi::TypeInfo t = mpi::type_info(type, named);
  plain = named && t.contiguous && t.true_lb == 0;
  return t;
}

}  // namespace

ByteStream::ByteStream(const void* buf, std::int64_t count, MPI_Datatype type, std::int64_t bytes)
    : buf_(buf), count_(count), bytes_(bytes) {
  // A named type's single element is its bytes in order; without padding
  // (MPI_DOUBLE_INT has some) the elements follow each other.
  if (bytes == 0) {
    direct_ = true;
    return;
  }
  type_ = info_of(type, direct_);
  if (direct_) return;
  if (count * type_.size != bytes)  // (an erroneous call: the two sides' sizes differ)
    throw MpiError(MPI_ERR_TRUNCATE, "optcoll: the buffer's size is not the call's");
  packed_.resize(static_cast<std::size_t>(bytes));
}

// Packing and unpacking (mpi::pack_bytes): MPI_Pack in pieces whose
// positions fit an int, so any count works; packed data must be the
// elements' bytes (bytes.hpp), which pack_bytes checks.
void ByteStream::load() {
  if (!direct_) mpi::pack_bytes(buf_, count_, type_, packed_.data());
}

void ByteStream::store() {
  if (!direct_) mpi::unpack_bytes(packed_.data(), const_cast<void*>(buf_), count_, type_);
}

SegmentedBytes::SegmentedBytes(const void* buf, CountArray counts, CountArray displs, std::size_t p, MPI_Datatype type)
    : buf_(buf), bytes_(p), displs_(p) {
  type_ = info_of(type, direct_);
  for (std::size_t i = 0; i < p; ++i) {
    bytes_[i] = counts[i] * type_.size;
    displs_[i] = displs[i] * type_.extent;
    if (displs_[i] < 0) direct_ = false;
    total_ += bytes_[i];
  }
  if (direct_) return;
  // Copies: a request unpacks after its call has returned, when the
  // caller's arrays may be gone.
  counts_ = widen(counts, p);
  user_displs_ = std::move(displs_);
  displs_.assign(p, 0);
  packed_.resize(static_cast<std::size_t>(total_));
  std::int64_t at = 0;
  for (std::size_t i = 0; i < p; ++i) {
    displs_[i] = at;
    at += bytes_[i];
  }
}

void SegmentedBytes::load(std::size_t i) {
  if (!direct_) mpi::pack_bytes(mpi::offset(buf_, user_displs_[i]), counts_[i], type_, packed_.data() + displs_[i]);
}

void SegmentedBytes::store() {
  if (direct_) return;
  for (std::size_t i = 0; i < counts_.size(); ++i)
    mpi::unpack_bytes(packed_.data() + displs_[i], mpi::offset(const_cast<void*>(buf_), user_displs_[i]), counts_[i],
                      type_);
}

ByteStream& Staging::stream(const void* buf, std::int64_t count, MPI_Datatype type, std::int64_t bytes) {
  for (auto& s : streams_)
    if (!s) return s.emplace(buf, count, mode_ == Mode::now ? type : held_.type(type), bytes);
  throw MpiError(MPI_ERR_INTERN, "optcoll: more than two byte views of one kind in a call");
}

SegmentedBytes& Staging::segmented(const void* buf, CountArray counts, CountArray displs, std::size_t p,
                                   MPI_Datatype type) {
  for (auto& s : segmented_)
    if (!s) return s.emplace(buf, counts, displs, p, mode_ == Mode::now ? type : held_.type(type));
  throw MpiError(MPI_ERR_INTERN, "optcoll: more than two byte views of one kind in a call");
}

void Staging::load(ByteStream& s) {
  if (mode_ == Mode::persistent) {
    if (!s.direct()) later_.push_back({.stream = &s, .load = true});
    return;
  }
  s.load();
}

void Staging::load(SegmentedBytes& s, std::size_t i) {
  if (mode_ == Mode::persistent) {
    if (!s.direct()) later_.push_back({.segmented = &s, .index = i, .load = true});
    return;
  }
  s.load(i);
}

void Staging::store(ByteStream& s) {
  if (mode_ == Mode::now) return s.store();
  if (!s.direct()) later_.push_back({.stream = &s});
}

void Staging::store(SegmentedBytes& s) {
  if (mode_ == Mode::now) return s.store();
  if (!s.direct()) later_.push_back({.segmented = &s});
}

void Staging::before_start() {
  for (const Later& l : later_) {
    if (!l.load) continue;
    if (l.stream != nullptr)
      l.stream->load();
    else
      l.segmented->load(l.index);
  }
}

void Staging::after_completion() {
  for (const Later& l : later_) {
    if (l.load) continue;
    if (l.stream != nullptr)
      l.stream->store();
    else
      l.segmented->store();
  }
}

}  // namespace optcoll::pmpi
