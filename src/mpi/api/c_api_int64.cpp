// The C API on 64-bit counts (c_api_int64.hpp), one blocking, nonblocking
// and persistent call for every line of collectives.def: the MPI layer's
// implementation, errors raised through the communicator's error handler
// (guarded, c_api.hpp), requests made by make_request (request.hpp) on the
// request's own datatypes and operators. The info argument is accepted and
// not read. The drop-in's calls (described::) hand the implementation the
// Gate's description of the call, which it takes as checked.
#include "mpi/api/c_api_int64.hpp"

#include "mpi/api/c_api.hpp"
#include "mpi/collectives/collectives.hpp"

namespace optcoll::mpi {
namespace {

// The persistent form: the blocking call's implementation (call), or the
// optimal ordered tree computed once (tree: gatherv_persistent.cpp).
#define OPTCOLL_WIDE_INIT_call(name, shape) OPTCOLL_MAKE_REQUEST(name, shape, true, checked)
#define OPTCOLL_WIDE_INIT_tree(name, shape) ::optcoll::name##_init(OPTCOLL_PLAIN_ARGS(shape))

// Each form once, on the entry's description `checked` (null: none).
#define OPTCOLL_COLLECTIVE(Name, name, collective, shape, init)                                            \
  int Name(const CallInfo* checked, OPTCOLL_WIDE_PARAMS(shape)) {                                          \
    return guarded(comm, [&] { name##_impl(OPTCOLL_PLAIN_ARGS(shape), Options{}, nullptr, checked); });    \
  }                                                                                                        \
  int I##name(const CallInfo* checked, OPTCOLL_WIDE_PARAMS(shape), wide::Request* request) {               \
    const Options options;                                                                                 \
    return new_request(comm, request, [&] { return OPTCOLL_MAKE_REQUEST(name, shape, false, checked); });  \
  }                                                                                                        \
  int Name##_init([[maybe_unused]] const CallInfo* checked, OPTCOLL_WIDE_PARAMS(shape), MPI_Info /*info*/, \
                  wide::Request* request) {                                                                \
    [[maybe_unused]] const Options options;                                                                \
    return new_request(comm, request, [&] { return OPTCOLL_WIDE_INIT_##init(name, shape); });              \
  }
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE

}  // namespace

namespace wide {
#define OPTCOLL_COLLECTIVE(Name, name, collective, shape, init)                  \
  int Name(OPTCOLL_WIDE_PARAMS(shape)) {                                         \
    return mpi::Name(nullptr, OPTCOLL_PLAIN_ARGS(shape));                        \
  }                                                                              \
  int I##name(OPTCOLL_WIDE_PARAMS(shape), Request* request) {                    \
    return mpi::I##name(nullptr, OPTCOLL_PLAIN_ARGS(shape), request);            \
  }                                                                              \
  int Name##_init(OPTCOLL_WIDE_PARAMS(shape), MPI_Info info, Request* request) { \
    return mpi::Name##_init(nullptr, OPTCOLL_PLAIN_ARGS(shape), info, request);  \
  }
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE
}  // namespace wide

namespace described {
#define OPTCOLL_COLLECTIVE(Name, name, collective, shape, init)                                     \
  int Name(const CallInfo& c, OPTCOLL_WIDE_PARAMS(shape)) {                                         \
    return mpi::Name(&c, OPTCOLL_PLAIN_ARGS(shape));                                                \
  }                                                                                                 \
  int I##name(const CallInfo& c, OPTCOLL_WIDE_PARAMS(shape), Request* request) {                    \
    return mpi::I##name(&c, OPTCOLL_PLAIN_ARGS(shape), request);                                    \
  }                                                                                                 \
  int Name##_init(const CallInfo& c, OPTCOLL_WIDE_PARAMS(shape), MPI_Info info, Request* request) { \
    return mpi::Name##_init(&c, OPTCOLL_PLAIN_ARGS(shape), info, request);                          \
  }
#include "mpi/api/collectives.def"
#undef OPTCOLL_COLLECTIVE
}  // namespace described

}  // namespace optcoll::mpi
