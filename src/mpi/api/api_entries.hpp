// The C++-only views of signatures.h that the API's entry points are
// expanded with (c_api.cpp, c_api_int64.cpp, cpp_api.cpp), one line of
// collectives.def each.
#pragma once

#include <cstdint>
#include <span>

#include "mpi/api/signatures.h"

// clang-format off
// A 64-bit call's parameters and arguments, without parentheses.
#define OPTCOLL_WIDE_PARAMS(shape) OPTCOLL_SIG_LIST(shape, OPTCOLL_SIG_PARAM_wide)
#define OPTCOLL_PLAIN_ARGS(shape) OPTCOLL_SIG_LIST(shape, OPTCOLL_SIG_ARG)
#define OPTCOLL_INT_PARAMS(shape) OPTCOLL_SIG_LIST(shape, OPTCOLL_SIG_PARAM_c_int)

// The arguments as a request runs them: its own references to the
// datatypes and operators (mpi::HeldHandles h), which the program may free
// right after the call.
#define OPTCOLL_HELD_ARGS(shape) OPTCOLL_SIG_LIST(shape, OPTCOLL_SIG_HELD)
#define OPTCOLL_SIG_HELD(kind, name) , OPTCOLL_SIG_HOLD_##kind(name)
#define OPTCOLL_SIG_HOLD_type(n) h.type(n)
#define OPTCOLL_SIG_HOLD_op(n) h.op(n)
#define OPTCOLL_SIG_HOLD_sbuf(n) n
#define OPTCOLL_SIG_HOLD_rbuf(n) n
#define OPTCOLL_SIG_HOLD_buf(n) n
#define OPTCOLL_SIG_HOLD_count(n) n
#define OPTCOLL_SIG_HOLD_counts(n) n
#define OPTCOLL_SIG_HOLD_displs(n) n
#define OPTCOLL_SIG_HOLD_root_counts(n) n
#define OPTCOLL_SIG_HOLD_root_displs(n) n
#define OPTCOLL_SIG_HOLD_send_counts(n) n
#define OPTCOLL_SIG_HOLD_send_displs(n) n
#define OPTCOLL_SIG_HOLD_root(n) n
#define OPTCOLL_SIG_HOLD_comm(n) n

// The int binding's arguments as the 64-bit call takes them: MPI's int
// arrays widened where MPI reads them (mpi::Widen w), empty elsewhere.
#define OPTCOLL_WIDENED_ARGS(shape) OPTCOLL_SIG_LIST(shape, OPTCOLL_SIG_WIDEN)
#define OPTCOLL_SIG_WIDEN(kind, name) , OPTCOLL_SIG_WIDEN_##kind(name)
#define OPTCOLL_SIG_WIDEN_counts(n) w.all(n)
#define OPTCOLL_SIG_WIDEN_displs(n) w.all(n)
#define OPTCOLL_SIG_WIDEN_root_counts(n) w.at_root(n, root)
#define OPTCOLL_SIG_WIDEN_root_displs(n) w.at_root(n, root)
#define OPTCOLL_SIG_WIDEN_send_counts(n) w.unless_in_place(n, sendbuf)
#define OPTCOLL_SIG_WIDEN_send_displs(n) w.unless_in_place(n, sendbuf)
#define OPTCOLL_SIG_WIDEN_sbuf(n) n
#define OPTCOLL_SIG_WIDEN_rbuf(n) n
#define OPTCOLL_SIG_WIDEN_buf(n) n
#define OPTCOLL_SIG_WIDEN_count(n) n
#define OPTCOLL_SIG_WIDEN_type(n) n
#define OPTCOLL_SIG_WIDEN_op(n) n
#define OPTCOLL_SIG_WIDEN_root(n) n
#define OPTCOLL_SIG_WIDEN_comm(n) n

// A nonblocking (persistent: true) request of collective name on the
// arguments of its shape: the blocking call's implementation built into
// the request (mpi::make_request), with the request's own datatypes and
// operators and the Options `options` in scope; checked: the entry's
// description of the call (const mpi::CallInfo*, null: none).
#define OPTCOLL_MAKE_REQUEST(name, shape, persistent, checked) \
  ::optcoll::mpi::make_request(comm, persistent, [&](::optcoll::mpi::HeldHandles& h, ::optcoll::detail::Persistent* into) { \
    ::optcoll::mpi::name##_impl(OPTCOLL_HELD_ARGS(shape), options, into, checked); \
  })
// clang-format on
