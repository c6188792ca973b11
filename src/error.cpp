#include "optcoll/error.hpp"

namespace optcoll {

const char* to_string(Errc e) noexcept {
  switch (e) {
    case Errc::ok:
      return "ok";
    case Errc::invalid_p:
      return "invalid process count";
    case Errc::invalid_root:
      return "invalid root";
    case Errc::invalid_rank:
      return "invalid rank";
    case Errc::invalid_count:
      return "invalid count";
    case Errc::invalid_argument:
      return "invalid argument";
    case Errc::internal:
      return "internal error";
    case Errc::mpi:
      return "MPI error";
  }
  return "unknown error";
}

}  // namespace optcoll
