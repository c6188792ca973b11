// The C API (optcoll/optcoll.h): MPI error codes, raised through the
// communicator's error handler.
#include <cstdio>
#include <new>

#include "collectives.hpp"
#include "optcoll/optcoll.h"

namespace optcoll::mpi {
namespace {

int error_class_of(Errc e) {
  switch (e) {
    case Errc::invalid_root:
      return MPI_ERR_ROOT;
    case Errc::invalid_count:
      return MPI_ERR_COUNT;
    case Errc::invalid_p:
    case Errc::invalid_rank:
      return MPI_ERR_COMM;
    default:
      return MPI_ERR_INTERN;
  }
}

// Runs f; on failure raises the MPI error code on comm's error handler
// (MPI_COMM_WORLD's when comm itself is unusable) and returns it.
template <class F>
int guarded(MPI_Comm comm, F&& f) noexcept {
  int code = MPI_SUCCESS;
  try {
    f();
    return MPI_SUCCESS;
  } catch (const MpiError& e) {
    code = e.mpi_code();
  } catch (const Error& e) {
    code = error_class_of(e.code());
    std::fprintf(stderr, "optcoll: %s\n", e.what());
  } catch (const std::bad_alloc&) {
    code = MPI_ERR_NO_MEM;
  } catch (...) {
    code = MPI_ERR_INTERN;
  }
  int cls = code;
  PMPI_Error_class(code, &cls);
  const MPI_Comm handler = (comm == MPI_COMM_NULL || cls == MPI_ERR_COMM) ? MPI_COMM_WORLD : comm;
  PMPI_Comm_call_errhandler(handler, code);
  return code;
}

}  // namespace
}  // namespace optcoll::mpi

extern "C" int OPTCOLL_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  return optcoll::mpi::guarded(comm, [&] { optcoll::mpi::bcast_impl(buffer, count, datatype, root, comm, {}); });
}

extern "C" int OPTCOLL_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                              MPI_Comm comm) {
  return optcoll::mpi::guarded(
      comm, [&] { optcoll::mpi::reduce_impl(sendbuf, recvbuf, count, datatype, op, root, comm, {}); });
}
