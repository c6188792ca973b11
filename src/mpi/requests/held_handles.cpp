// What requests keep of the program's MPI objects (held_handles.hpp).
#include "mpi/requests/held_handles.hpp"

#include <mutex>
#include <unordered_map>

#include "mpi/collectives/collectives.hpp"

namespace optcoll::mpi {
namespace {

// User operators in use by requests: how many use each, and whether the
// program has freed it meanwhile (the library's free is then ours to do).
struct OpUse {
  int users = 0;
  bool freed = false;
};
std::mutex g_ops_lock;
std::unordered_map<MPI_Op, OpUse> g_ops;

bool finalized() noexcept {
  int done = 0;
  PMPI_Finalized(&done);
  return done != 0;
}

}  // namespace

bool predefined_op(MPI_Op op) noexcept {
  return op == MPI_MAX || op == MPI_MIN || op == MPI_SUM || op == MPI_PROD || op == MPI_LAND || op == MPI_BAND ||
         op == MPI_LOR || op == MPI_BOR || op == MPI_LXOR || op == MPI_BXOR || op == MPI_MAXLOC || op == MPI_MINLOC ||
         op == MPI_REPLACE || op == MPI_NO_OP;
}

MPI_Datatype HeldHandles::type(MPI_Datatype type) {
  if (predefined_type(type)) return type;
  for (const MPI_Datatype t : types_)
    if (t == type) return t;  // already one of ours (the call passed it twice)
  MPI_Datatype dup = MPI_DATATYPE_NULL;
  check(PMPI_Type_dup(type, &dup), "MPI_Type_dup");
  types_.push_back(dup);
  return dup;
}

MPI_Op HeldHandles::op(MPI_Op op) {
  if (op == MPI_OP_NULL || predefined_op(op)) return op;
  {
    const std::lock_guard lock(g_ops_lock);
    ++g_ops[op].users;
  }
  ops_.push_back(op);
  return op;
}

HeldHandles::~HeldHandles() {
  if (types_.empty() && ops_.empty()) return;  // (a blocking call's: nothing held, no MPI query)
  const bool done = finalized();
  for (MPI_Datatype& t : types_)
    if (!done) PMPI_Type_free(&t);
  for (MPI_Op op : ops_) {
    bool free_now = false;
    {
      const std::lock_guard lock(g_ops_lock);
      const auto it = g_ops.find(op);
      if (it == g_ops.end()) continue;
      if (--it->second.users == 0) {
        free_now = it->second.freed;
        g_ops.erase(it);
      }
    }
    if (free_now && !done) PMPI_Op_free(&op);
  }
}

bool defer_op_free(MPI_Op op) {
  if (op == MPI_OP_NULL || predefined_op(op)) return false;
  const std::lock_guard lock(g_ops_lock);
  const auto it = g_ops.find(op);
  if (it == g_ops.end()) return false;
  it->second.freed = true;
  return true;
}

}  // namespace optcoll::mpi
