// ByteStream (bytes.hpp).
#include "bytes.hpp"

#include <climits>

#include "mpi/datatype.hpp"
#include "optcoll/optcoll.hpp"

namespace optcoll::pmpi {

std::int64_t payload_bytes(int count, MPI_Datatype type) noexcept {
  if (count < 0 || type == MPI_DATATYPE_NULL) return -1;
  MPI_Count size = 0;
  if (PMPI_Type_size_x(type, &size) != MPI_SUCCESS || size < 0) return -1;
  return static_cast<std::int64_t>(count) * static_cast<std::int64_t>(size);
}

namespace {

// Whether elements of type are their bytes in order, back to back.
bool plain_bytes(MPI_Datatype type, MPI_Aint& extent) {
  int ints = 0;
  int addrs = 0;
  int types = 0;
  int combiner = MPI_COMBINER_NAMED;
  mpi::check(PMPI_Type_get_envelope(type, &ints, &addrs, &types, &combiner), "MPI_Type_get_envelope");
  MPI_Aint lb = 0;
  MPI_Aint true_lb = 0;
  MPI_Aint true_extent = 0;
  MPI_Count size = 0;
  mpi::check(PMPI_Type_get_extent(type, &lb, &extent), "MPI_Type_get_extent");
  mpi::check(PMPI_Type_get_true_extent(type, &true_lb, &true_extent), "MPI_Type_get_true_extent");
  mpi::check(PMPI_Type_size_x(type, &size), "MPI_Type_size_x");
  return combiner == MPI_COMBINER_NAMED && lb == 0 && true_lb == 0 && extent == size && true_extent == size;
}

}  // namespace

ByteStream::ByteStream(const void* buf, int count, MPI_Datatype type, std::int64_t bytes)
    : buf_(buf), count_(count), type_(type), bytes_(bytes) {
  // A named type's single element is its bytes in order; without padding
  // (MPI_DOUBLE_INT has some) the elements follow each other.
  MPI_Aint extent = 0;
  direct_ = bytes == 0 || plain_bytes(type, extent);
  if (!direct_) packed_.resize(static_cast<std::size_t>(bytes));
}

void ByteStream::load(MPI_Comm comm) {
  if (direct_) return;
  int position = 0;
  mpi::check(PMPI_Pack(buf_, count_, type_, packed_.data(), size(), &position, comm), "MPI_Pack");
  if (position != size()) throw MpiError(MPI_ERR_INTERN, "optcoll: MPI_Pack's output is not the elements' bytes");
}

void ByteStream::store(MPI_Comm comm) {
  if (direct_) return;
  int position = 0;
  mpi::check(PMPI_Unpack(packed_.data(), size(), &position, const_cast<void*>(buf_), count_, type_, comm),
             "MPI_Unpack");
}

SegmentedBytes::SegmentedBytes(const void* buf, std::span<const int> counts, std::span<const int> displs,
                               MPI_Datatype type)
    : buf_(buf), type_(type), bytes_(counts.size()), displs_(counts.size()) {
  MPI_Count size = 0;
  mpi::check(PMPI_Type_size_x(type, &size), "MPI_Type_size_x");
  direct_ = plain_bytes(type, extent_);
  for (std::size_t i = 0; i < counts.size(); ++i) {
    bytes_[i] = static_cast<int>(counts[i] * size);
    const std::int64_t d = static_cast<std::int64_t>(displs[i]) * extent_;
    if (d < 0 || d + bytes_[i] > INT_MAX) direct_ = false;
    displs_[i] = static_cast<int>(d);
    total_ += bytes_[i];
  }
  if (direct_) return;
  // Copies: a request unpacks after its call has returned, and the arrays
  // may be the large-count bindings' int copies (large_count.hpp), which
  // live only as long as the call.
  counts_.assign(counts.begin(), counts.end());
  user_displs_.assign(displs.begin(), displs.begin() + static_cast<std::ptrdiff_t>(counts.size()));
  packed_.resize(static_cast<std::size_t>(total_));
  std::int64_t at = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    displs_[i] = static_cast<int>(at);
    at += bytes_[i];
  }
}

void SegmentedBytes::load(std::size_t i, MPI_Comm comm) {
  if (direct_ || counts_[i] == 0) return;
  int position = displs_[i];
  mpi::check(PMPI_Pack(mpi::offset(buf_, user_displs_[i] * extent_), counts_[i], type_, packed_.data(),
                       static_cast<int>(total_), &position, comm),
             "MPI_Pack");
  if (position != displs_[i] + bytes_[i])
    throw MpiError(MPI_ERR_INTERN, "optcoll: MPI_Pack's output is not the elements' bytes");
}

void SegmentedBytes::store(MPI_Comm comm) {
  if (direct_) return;
  for (std::size_t i = 0; i < counts_.size(); ++i) {
    if (counts_[i] == 0) continue;
    int position = displs_[i];
    mpi::check(PMPI_Unpack(packed_.data(), static_cast<int>(total_), &position,
                           mpi::offset(const_cast<void*>(buf_), user_displs_[i] * extent_), counts_[i], type_, comm),
               "MPI_Unpack");
  }
}

ByteStream& Staging::stream(const void* buf, int count, MPI_Datatype type, std::int64_t bytes) {
  for (auto& s : streams_)
    if (!s) return s.emplace(buf, count, type, bytes);
  throw MpiError(MPI_ERR_INTERN, "optcoll: more than two byte views of one kind in a call");
}

SegmentedBytes& Staging::segmented(const void* buf, std::span<const int> counts, std::span<const int> displs,
                                   MPI_Datatype type) {
  for (auto& s : segmented_)
    if (!s) return s.emplace(buf, counts, displs, type);
  throw MpiError(MPI_ERR_INTERN, "optcoll: more than two byte views of one kind in a call");
}

void Staging::load(ByteStream& s, MPI_Comm comm) {
  if (mode_ == Mode::persistent) {
    if (!s.direct()) later_.push_back({.stream = &s, .load = true, .comm = comm});
    return;
  }
  s.load(comm);
}

void Staging::load(SegmentedBytes& s, std::size_t i, MPI_Comm comm) {
  if (mode_ == Mode::persistent) {
    if (!s.direct()) later_.push_back({.segmented = &s, .index = i, .load = true, .comm = comm});
    return;
  }
  s.load(i, comm);
}

void Staging::store(ByteStream& s, MPI_Comm comm) {
  if (mode_ == Mode::now) return s.store(comm);
  if (!s.direct()) later_.push_back({.stream = &s, .comm = comm});
}

void Staging::store(SegmentedBytes& s, MPI_Comm comm) {
  if (mode_ == Mode::now) return s.store(comm);
  if (!s.direct()) later_.push_back({.segmented = &s, .comm = comm});
}

void Staging::before_start() {
  for (const Later& l : later_) {
    if (!l.load) continue;
    if (l.stream != nullptr)
      l.stream->load(l.comm);
    else
      l.segmented->load(l.index, l.comm);
  }
}

void Staging::after_completion() {
  for (const Later& l : later_) {
    if (l.load) continue;
    if (l.stream != nullptr)
      l.stream->store(l.comm);
    else
      l.segmented->store(l.comm);
  }
}

}  // namespace optcoll::pmpi
