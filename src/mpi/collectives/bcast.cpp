// optcoll's MPI_Bcast: checks, then the chosen broadcast plan run in place
// on the user's buffer at every rank.
#include "mpi/collectives/collectives.hpp"

namespace optcoll::mpi {

void bcast_impl(void* buffer, std::int64_t count, MPI_Datatype type, int root, MPI_Comm comm, const Options& options,
                detail::Persistent* into, const CallInfo* checked) {
  Agreement agree(comm, plan::Collective::bcast);
  agree.same_root(root);
  agree.same_count(count);
  agree.same_type(type);
  CallInfo c;
  agree.run([&] {
    c = check_call(comm, count, type, root, checked);
    check_buffer(buffer, count, c.type, "buffer");
    check_algorithm_name(plan::Collective::bcast, options);
  });
  if (count == 0 || c.type.size == 0 || c.size == 1) return;
  CommState& s = c.comm_state(comm);
  const Choice choice =
      choose(s, {.op = plan::Collective::bcast, .p = c.size, .elem_size = c.type.size, .count = count}, options);
  plan::PlanSpec spec;
  spec.op = plan::Collective::bcast;
  spec.p = c.size;
  spec.root = root;
  spec.count = count;
  spec.blocks = choice.blocks;
  run_plan(into, s, choice, spec, buffer, c.type, MPI_OP_NULL);
}

}  // namespace optcoll::mpi
