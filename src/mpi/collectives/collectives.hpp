// Internal entry points of the MPI layer, shared by the C and C++ APIs. All
// throw optcoll::MpiError (argument errors carry the MPI error class).
// Every <op>_impl runs the call now (into null) or builds it into the
// request `into` (make_request, request.hpp). It checks its arguments
// (check_call, check_op), unless `checked` describes the call as its entry
// checked it already (the drop-in's Gate): that part is then trusted.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "mpi/checks/agreement.hpp"
#include "mpi/checks/call_info.hpp"
#include "mpi/comm/choose.hpp"
#include "mpi/comm/comm_state.hpp"
#include "mpi/executor/datatype.hpp"
#include "optcoll/optcoll.hpp"

namespace optcoll::mpi {

// Whether type is predefined (never freed), from check_call()'s cache of
// predefined datatypes; also for MPI_DATATYPE_NULL and an invalid handle
// (nothing to keep: the call's own check reports them). Local.
bool predefined_type(MPI_Datatype type);

// The groups of MPI-4.0 §6.9.2 a predefined datatype belongs to, as a bit
// set, for check_op() and exact_op(): computed once per datatype in
// check_call()'s cache of predefined datatypes (a few dozen handle
// comparisons; a call then tests bits). 0 for a derived datatype.
std::uint8_t type_groups(MPI_Datatype type) noexcept;

// The selection's Call for a reduction of count elements of c's datatype
// with the operator check_op() recorded in c. The group fields (smallest,
// total) are the caller's to fill. Local.
select::Call reduction_call(plan::Collective kind, const CallInfo& c, std::int64_t count);

// MPI_ERR_BUFFER for a NULL buffer that would be dereferenced, and for
// MPI_IN_PLACE where a real buffer is needed.
void check_buffer(const void* buffer, std::int64_t count, const TypeInfo& t, const char* what);

// Runs the chosen plan on working buffer base (element 0), now, or, where
// the call is built into a request (into, request.hpp), as the request's
// plan; init: the buffer's initial content if it is elsewhere (MpiExecutor::set_initial),
// complete: base must hold every block at the end.
// layout: the caller's layout for the collectives with one group per rank
// (plan::has_rank_groups); copied into the cache with the plan.
// parts: the exchanges' memory areas (MpiExecutor::set_parts; layout is then
// the calling rank's own exchange layout, plan/alltoall.hpp).
void run_plan(detail::Persistent* into, CommState& s, const Choice& choice, const plan::PlanSpec& spec, void* base,
              const TypeInfo& t, MPI_Op op, const void* init = nullptr, bool complete = true,
              const plan::BlockLayout* layout = nullptr, std::span<const MpiExecutor::Part> parts = {});
// Runs a plan the caller prepared (a gather or scatter tree's, tree_run.cpp)
// with settings cfg on working buffer base: now, on the communicator's
// executor, or as the plan of the request it is built into (into).
class PreparedPlan;
void run_plan(detail::Persistent* into, CommState& s, std::unique_ptr<PreparedPlan> plan, const ExecConfig& cfg,
              void* base);
// Runs a plan compiled round by round (plan::compile_exchange: Allmerge's
// rounds, allmerge.cpp) with settings cfg on working buffer base, now, on
// the communicator's executor.
void run_plan(CommState& s, const plan::Compiled& compiled, const ExecConfig& cfg, void* base);

void bcast_impl(void* buffer, std::int64_t count, MPI_Datatype type, int root, MPI_Comm comm, const Options& options,
                detail::Persistent* into, const CallInfo* checked = nullptr);
void reduce_impl(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, int root,
                 MPI_Comm comm, const Options& options, detail::Persistent* into, const CallInfo* checked = nullptr);
void allgather_impl(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                    std::int64_t recvcount, MPI_Datatype recvtype, MPI_Comm comm, const Options& options,
                    detail::Persistent* into, const CallInfo* checked = nullptr);
void allgatherv_impl(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                     std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> displs,
                     MPI_Datatype recvtype, MPI_Comm comm, const Options& options, detail::Persistent* into,
                     const CallInfo* checked = nullptr);
void reduce_scatter_block_impl(const void* sendbuf, void* recvbuf, std::int64_t recvcount, MPI_Datatype type, MPI_Op op,
                               MPI_Comm comm, const Options& options, detail::Persistent* into,
                               const CallInfo* checked = nullptr);
void reduce_scatter_impl(const void* sendbuf, void* recvbuf, std::span<const std::int64_t> recvcounts,
                         MPI_Datatype type, MPI_Op op, MPI_Comm comm, const Options& options, detail::Persistent* into,
                         const CallInfo* checked = nullptr);
void allreduce_impl(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                    const Options& options, detail::Persistent* into, const CallInfo* checked = nullptr);
// kind: plan::Collective::scan or exscan (scan.cpp).
void scan_impl(plan::Collective kind, const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type,
               MPI_Op op, MPI_Comm comm, const Options& options, detail::Persistent* into,
               const CallInfo* checked = nullptr);
inline void scan_impl(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op,
                      MPI_Comm comm, const Options& options, detail::Persistent* into,
                      const CallInfo* checked = nullptr) {
  scan_impl(plan::Collective::scan, sendbuf, recvbuf, count, type, op, comm, options, into, checked);
}
inline void exscan_impl(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op,
                        MPI_Comm comm, const Options& options, detail::Persistent* into,
                        const CallInfo* checked = nullptr) {
  scan_impl(plan::Collective::exscan, sendbuf, recvbuf, count, type, op, comm, options, into, checked);
}

// Gather and scatter (gather_scatter.cpp, gatherv_scatterv.cpp; checks: rooted_call.cpp):
// MPI's semantics with 64-bit counts; the v-variants' arrays are read at
// the root only (non-roots may pass empty spans).
void gather_impl(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                 std::int64_t recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, const Options& options,
                 detail::Persistent* into, const CallInfo* checked = nullptr);
void scatter_impl(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                  std::int64_t recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, const Options& options,
                  detail::Persistent* into, const CallInfo* checked = nullptr);
void gatherv_impl(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                  std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> displs, MPI_Datatype recvtype,
                  int root, MPI_Comm comm, const Options& options, detail::Persistent* into,
                  const CallInfo* checked = nullptr);
void scatterv_impl(const void* sendbuf, std::span<const std::int64_t> sendcounts, std::span<const std::int64_t> displs,
                   MPI_Datatype sendtype, void* recvbuf, std::int64_t recvcount, MPI_Datatype recvtype, int root,
                   MPI_Comm comm, const Options& options, detail::Persistent* into, const CallInfo* checked = nullptr);

// Personalized exchanges (alltoall.cpp, many_to_many.cpp): MPI's semantics
// with 64-bit counts and displacements (in elements of the types);
// sendbuf may be MPI_IN_PLACE (the data is then recvbuf's, with the
// receive counts, displacements and type).
void alltoall_impl(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                   std::int64_t recvcount, MPI_Datatype recvtype, MPI_Comm comm, const Options& options,
                   detail::Persistent* into, const CallInfo* checked = nullptr);
void alltoallv_impl(const void* sendbuf, std::span<const std::int64_t> sendcounts,
                    std::span<const std::int64_t> sdispls, MPI_Datatype sendtype, void* recvbuf,
                    std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> rdispls,
                    MPI_Datatype recvtype, MPI_Comm comm, const Options& options, detail::Persistent* into,
                    const CallInfo* checked = nullptr);
void many_to_many_impl(const void* sendbuf, std::span<const std::int64_t> sendcounts,
                       std::span<const std::int64_t> sdispls, void* recvbuf, std::span<const std::int64_t> recvcounts,
                       std::span<const std::int64_t> rdispls, MPI_Datatype type, MPI_Comm comm, const Options& options,
                       detail::Persistent* into, const CallInfo* checked = nullptr);

}  // namespace optcoll::mpi
