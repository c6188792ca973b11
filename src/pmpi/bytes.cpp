// ByteStream (bytes.hpp).
#include "bytes.hpp"

#include <climits>

#include "optcoll/mpi/datatype.hpp"
#include "optcoll/optcoll.hpp"

namespace optcoll::pmpi {

std::int64_t payload_bytes(int count, MPI_Datatype type) noexcept {
  if (count < 0 || type == MPI_DATATYPE_NULL) return -1;
  MPI_Count size = 0;
  if (PMPI_Type_size_x(type, &size) != MPI_SUCCESS || size < 0) return -1;
  return static_cast<std::int64_t>(count) * static_cast<std::int64_t>(size);
}

ByteStream::ByteStream(const void* buf, int count, MPI_Datatype type, std::int64_t bytes)
    : buf_(buf), count_(count), type_(type), bytes_(bytes) {
  int ints = 0;
  int addrs = 0;
  int types = 0;
  int combiner = MPI_COMBINER_NAMED;
  mpi::check(PMPI_Type_get_envelope(type, &ints, &addrs, &types, &combiner), "MPI_Type_get_envelope");
  MPI_Aint lb = 0;
  MPI_Aint extent = 0;
  MPI_Aint true_lb = 0;
  MPI_Aint true_extent = 0;
  mpi::check(PMPI_Type_get_extent(type, &lb, &extent), "MPI_Type_get_extent");
  mpi::check(PMPI_Type_get_true_extent(type, &true_lb, &true_extent), "MPI_Type_get_true_extent");
  // A named type's single element is its bytes in order; without padding
  // (MPI_DOUBLE_INT has some) the elements follow each other.
  direct_ = combiner == MPI_COMBINER_NAMED && lb == 0 && true_lb == 0 && count > 0 && extent * count == bytes &&
            true_extent * count == bytes;
  if (bytes == 0) direct_ = true;
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

}  // namespace optcoll::pmpi
