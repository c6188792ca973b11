// The argument lists ("shapes") of the intercepted collectives: for each,
// the parameter list, the argument list, and the adapter that checks a
// call, routes it (runtime.hpp) and runs it in optcoll or PMPI_*.
//
// Every adapter starts the same way (Gate): not routed before MPI_Init or
// after MPI_Finalize; PMPI_* for MPI_COMM_NULL, intercommunicators and any
// argument optcoll does not take (counted as fallbacks; the native call
// raises the MPI error, if any): invalid arguments, and reductions on
// datatypes or with operators optcoll does not take (extent <= 0 with more
// than one element, a predefined operator on a derived datatype, ...),
// which MPI may well accept. Copy collectives and exchanges take any
// datatype: they move bytes (bytes.hpp). Optcoll's own errors are raised through
// the communicator's error handler by the OPTCOLL_* functions; errors of the
// adapters themselves (packing, memory) by mpi::guarded().
#pragma once

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <tuple>

#include "bytes.hpp"
#include "mpi/api/api_entries.hpp"
#include "mpi/api/c_api.hpp"
#include "mpi/api/signatures.h"
#include "mpi/checks/call_info.hpp"
#include "mpi/comm/choose.hpp"
#include "mpi/comm/comm_state.hpp"
#include "mpi/executor/repeat_call.hpp"
#include "optcoll/optcoll.hpp"
#include "runtime.hpp"

// OPTCOLL_PMPI_API(Name): what the operation MPI_<Name> of a shape
// (blocking, nonblocking or persistent; the int and the large-count
// binding alike) calls in optcoll, with the arguments its shape hands
// k.optcoll: the C API's call OPTCOLL_<Name> on 64-bit counts, on the
// Gate's description of the call (mpi::described, c_api_int64.hpp), the
// same for every shape.
#define OPTCOLL_PMPI_API(Name) optcoll::mpi::described::Name

// A shape's arguments after first, in parentheses.
#define OPTCOLL_ARGS_AFTER(first, shape) (first OPTCOLL_SIG_##shape(OPTCOLL_SIG_ARG))

namespace optcoll::pmpi::shapes {

// What every call checks first, into c: the call as the Gate checked it
// (the communicator, and a reduction's datatype and operator: once,
// call_info.hpp), which the shape hands optcoll as k.optcoll's first
// argument.
struct Gate {
  bool active = false;        // route at all (else straight to PMPI_*, uncounted)
  const char* bad = nullptr;  // why optcoll cannot take the call
  mpi::CallInfo c;

  explicit Gate(MPI_Comm comm) noexcept {
    active = pmpi::active();
    if (!active) return;
    const mpi::CommLookup l = mpi::look_up(comm);
    bad = l.bad;
    c.size = l.size;
    c.rank = l.rank;
    c.state = l.state;
  }
  // A reduction of count elements of type with op as every rank knows it
  // (`bad` set when the arguments are invalid, or when optcoll does not
  // take the datatype or operator); c describes it.
  select::Call reduction(std::int64_t count, MPI_Datatype type, MPI_Op op) noexcept {
    if (bad == nullptr && count < 0) bad = "invalid count";
    if (bad == nullptr) bad = mpi::describe_reduction(c, count, type, op);
    if (bad != nullptr) return {.elem_size = 1, .count = count};
    return {.elem_size = std::max<std::int64_t>(c.type.size, 1),
            .count = count,
            .commutative = c.commutative,
            .exact = c.exact};
  }
  // The same datatype on buffers of count elements, as optcoll takes them
  // (else `bad`): the same at every rank, as MPI requires the same count and
  // datatype everywhere.
  void reduction_supported(std::int64_t count, MPI_Datatype type) noexcept {
    mpi::CallInfo other = c;
    if (bad == nullptr) bad = mpi::describe_type(other, count, type);
  }
  void check_root(int root) noexcept {
    if (bad == nullptr && (root < 0 || root >= c.size)) bad = "invalid root";
  }
  // The payload of count elements of type (-1 and `bad` set when invalid).
  std::int64_t payload(std::int64_t count, MPI_Datatype type) noexcept {
    const std::int64_t b = payload_bytes(count, type);
    if (b < 0 && bad == nullptr) bad = "invalid count or datatype";
    return b;
  }
  // Whether the call goes to optcoll; counts it either way. call: as every
  // rank knows it (p is filled in here); groups: every rank's group where
  // every rank knows them (Allgatherv, Reduce_scatter).
  bool optcoll(Op op, MPI_Comm comm, select::Call call, Groups groups = {}) {
    if (bad != nullptr) return fallback(op, comm, bad) == Path::optcoll;
    call.op = info(op).collective;
    call.p = c.size;
    return route(op, comm, call, groups) == Path::optcoll;
  }
  // A blocking call (k: its Calls) the same as the last one of its
  // collective on comm that optcoll kept (mpi/executor/repeat_call.hpp):
  // runs that call's plan again, with no route, checks or choice, and
  // returns its MPI result; -1 where the call takes the long way.
  template <class K>
  int again(const K& k, Op op, MPI_Comm comm, const mpi::CallKey& key) {
    if (k.staging != nullptr || c.state == nullptr || select::check_enabled() ||
        !mpi::can_run_again(*c.state, info(op).collective, key))
      return -1;
    count(op, Path::optcoll);
    return guarded(comm, [&] {
      mpi::run_again(*c.state, info(op).collective);
      return MPI_SUCCESS;
    });
  }
  // Around the long way of a blocking call (k) that again() may take next
  // time: before(), then keep() once it succeeded, where its buffers are the
  // caller's own and its handles predefined (`stable`).
  template <class K>
  void before(const K& k) noexcept {
    if (k.staging == nullptr) mpi::begin_call(c.state);
  }
  template <class K>
  void keep(const K& k, Op op, MPI_Comm comm, const mpi::CallKey& key, bool stable) noexcept {
    if (k.staging == nullptr) mpi::keep_call(comm, info(op).collective, key, stable && keeps_calls());
  }
  // The same for Gatherv, Scatterv, Alltoallv: this rank's own bytes only.
  bool optcoll_v(Op op, MPI_Comm comm, std::int64_t own) {
    if (!active) return false;
    return route_v(op, comm, c.size, own, bad) == Path::optcoll;
  }
};

// The communicator of a collective's arguments: always the last one.
template <class... A>
MPI_Comm comm_of(A... a) {
  return std::get<sizeof...(A) - 1>(std::tuple<A...>(a...));
}

// What a shape (below) calls, its first argument k: k.optcoll, optcoll's
// call with the shape's arguments on 64-bit counts (OPTCOLL_PMPI_API, or a
// request call's maker of the request and its carrier, requests.hpp);
// k.native, MPI's own call with the caller's arguments; k.staging, the
// Staging a nonblocking or persistent call's request keeps (its byte
// views, bytes.hpp), null for a blocking call, which stages in its own.
template <class Optcoll, class Native>
struct Calls {
  Optcoll optcoll;
  Native native;
  Staging* staging = nullptr;
  Staging& staging_or(Staging& local) const noexcept { return staging != nullptr ? *staging : local; }
};

using mpi::guarded;

// MPI_Bcast. A copy collective: optcoll moves the signature's bytes
// (ByteStream), so ranks may pass different datatypes with matching
// signatures, as MPI allows. Count: int, or MPI_Count in the large-count
// binding (every shape alike).
template <Op kOp, class K, class Count>
int bcast(const K& k, void* buffer, Count count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  Gate g(comm);
  if (!g.active) return k.native OPTCOLL_ARGS(bcast);
  const mpi::CallKey key{.out = buffer, .count = count, .type = datatype, .root = root};
  if (const int rc = g.again(k, kOp, comm, key); rc >= 0) return rc;
  g.check_root(root);
  const std::int64_t bytes = g.payload(count, datatype);
  if (!g.optcoll(kOp, comm, {.elem_size = 1, .count = bytes})) return k.native OPTCOLL_ARGS(bcast);
  return guarded(comm, [&] {
    Staging local;
    Staging& st = k.staging_or(local);
    ByteStream& data = st.stream(buffer, count, datatype, bytes);
    if (g.c.rank == root) st.load(data);
    g.before(k);
    const int rc = k.optcoll(g.c, data.data(), bytes, MPI_BYTE, root, comm);
    if (rc == MPI_SUCCESS && g.c.rank != root) st.store(data);
    if (rc == MPI_SUCCESS) g.keep(k, kOp, comm, key, data.direct());
    return rc;
  });
}

// MPI_Reduce. MPI requires the same count and datatype at every rank, which
// is also optcoll's contract: the arguments go through unchanged.
template <Op kOp, class K, class Count>
int reduce(const K& k, const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op, int root,
           MPI_Comm comm) {
  Gate g(comm);
  if (!g.active) return k.native OPTCOLL_ARGS(reduce);
  g.check_root(root);
  if (!g.optcoll(kOp, comm, g.reduction(count, datatype, op))) return k.native OPTCOLL_ARGS(reduce);
  return guarded(comm, [&] { return k.optcoll OPTCOLL_ARGS_AFTER(g.c, reduce); });
}

}  // namespace optcoll::pmpi::shapes
