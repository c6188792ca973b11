// The C API (optcoll/optcoll.h): the collectives in MPI's int binding and
// Allmerge; MPI error codes, raised through the communicator's error handler.
#include <algorithm>
#include <climits>
#include <cstdio>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <vector>

#include "mpi/api/c_api.hpp"
#include "mpi/api/c_api_int64.hpp"
#include "optcoll/optcoll.h"

namespace optcoll::mpi {

int error_class_of(Errc e) {
  switch (e) {
    case Errc::invalid_root:
      return MPI_ERR_ROOT;
    case Errc::invalid_count:
      return MPI_ERR_COUNT;
    case Errc::invalid_argument:
      return MPI_ERR_ARG;
    case Errc::invalid_p:
    case Errc::invalid_rank:
      return MPI_ERR_COMM;
    default:
      return MPI_ERR_INTERN;
  }
}

std::span<const std::int64_t> Widen::keep(const int* v) {
  if (size_ < 0 && (comm_ == MPI_COMM_NULL || PMPI_Comm_size(comm_, &size_) != MPI_SUCCESS)) size_ = 0;
  std::vector<std::int64_t>& out = kept_.at(used_++);
  out.assign(v, v + size_);
  return out;
}

int Widen::rank() noexcept {
  if (rank_ < 0 && (comm_ == MPI_COMM_NULL || PMPI_Comm_rank(comm_, &rank_) != MPI_SUCCESS)) rank_ = -1;
  return rank_;
}

}  // namespace optcoll::mpi

// The collectives of collectives.def in MPI's int binding: the 64-bit calls
// (c_api_int64.hpp) on the same arguments, MPI's int arrays widened.
namespace wide = optcoll::mpi::wide;
using optcoll::mpi::Widen;
using optcoll::mpi::widened;

#define OPTCOLL_COLLECTIVE(Name, name, collective, shape, init)                                                     \
  extern "C" int OPTCOLL_##Name(OPTCOLL_INT_PARAMS(shape)) {                                                        \
    return widened(comm, [&]([[maybe_unused]] Widen& w) { return wide::Name(OPTCOLL_WIDENED_ARGS(shape)); });       \
  }                                                                                                                 \
  extern "C" int OPTCOLL_I##name(OPTCOLL_INT_PARAMS(shape), OPTCOLL_Request* request) {                             \
    return widened(comm,                                                                                            \
                   [&]([[maybe_unused]] Widen& w) { return wide::I##name(OPTCOLL_WIDENED_ARGS(shape), request); }); \
  }                                                                                                                 \
  extern "C" int OPTCOLL_##Name##_init(OPTCOLL_INT_PARAMS(shape), MPI_Info info, OPTCOLL_Request* request) {        \
    return widened(comm, [&]([[maybe_unused]] Widen& w) {                                                           \
      return wide::Name##_init(OPTCOLL_WIDENED_ARGS(shape), info, request);                                         \
    });                                                                                                             \
  }
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE

// OPTCOLL_Allmerge_<type>: the sorted union into a caller buffer of
// `capacity` keys; *recvcount is the union's length (MPI_ERR_TRUNCATE when
// it does not fit).
namespace {

template <class T>
int allmerge_c(const T* sendbuf, int sendcount, T* recvbuf, int capacity, int* recvcount, MPI_Comm comm) {
  return optcoll::mpi::guarded(comm, [&] {
    if (sendcount < 0 || capacity < 0) throw optcoll::MpiError(MPI_ERR_COUNT, "optcoll: negative count");
    if ((sendbuf == nullptr && sendcount > 0) || recvcount == nullptr)
      throw optcoll::MpiError(MPI_ERR_BUFFER, "optcoll: NULL buffer");
    const std::vector<T> all =
        optcoll::allmerge(std::span<const T>(sendbuf, static_cast<std::size_t>(sendcount)), comm);
    *recvcount = static_cast<int>(std::min<std::size_t>(all.size(), INT_MAX));
    if (all.size() > static_cast<std::size_t>(capacity) || (recvbuf == nullptr && !all.empty()))
      throw optcoll::MpiError(MPI_ERR_TRUNCATE, "optcoll: allmerge result (" + std::to_string(all.size()) +
                                                    " keys) exceeds recvbuf's capacity");
    std::copy(all.begin(), all.end(), recvbuf);
  });
}

}  // namespace

extern "C" int OPTCOLL_Allmerge_int(const int* sendbuf, int sendcount, int* recvbuf, int capacity, int* recvcount,
                                    MPI_Comm comm) {
  return allmerge_c(sendbuf, sendcount, recvbuf, capacity, recvcount, comm);
}
extern "C" int OPTCOLL_Allmerge_long_long(const long long* sendbuf, int sendcount, long long* recvbuf, int capacity,
                                          int* recvcount, MPI_Comm comm) {
  return allmerge_c(sendbuf, sendcount, recvbuf, capacity, recvcount, comm);
}
extern "C" int OPTCOLL_Allmerge_double(const double* sendbuf, int sendcount, double* recvbuf, int capacity,
                                       int* recvcount, MPI_Comm comm) {
  return allmerge_c(sendbuf, sendcount, recvbuf, capacity, recvcount, comm);
}
