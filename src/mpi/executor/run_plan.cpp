// Running a chosen plan with the MPI executor; plan reuse across calls.
#include <algorithm>

#include "mpi/collectives/collectives.hpp"
#include "mpi/executor/prepared_plan.hpp"
#include "mpi/executor/repeat_call.hpp"
#include "mpi/requests/request.hpp"
#include "optcoll/error.hpp"

namespace optcoll::mpi {

void run_plan(detail::Persistent* into, CommState& s, const Choice& choice, const plan::PlanSpec& spec, void* base,
              const TypeInfo& t, MPI_Op op, const void* init, bool complete, const plan::BlockLayout* layout,
              std::span<const MpiExecutor::Part> parts) {
  if (into != nullptr) return capture_plan(*into, s, choice, spec, base, t, op, init, complete, layout, parts);
  std::unique_ptr<PreparedPlan>& cached = s.plans[static_cast<std::size_t>(spec.op)];
  if (cached == nullptr || !cached->matches(choice, spec, layout)) {
    cached.reset();
    cached = std::make_unique<PreparedPlan>(s, choice, spec, layout);
  }
  const PreparedPlan::Buffers buffers{base, init, complete, parts};
  if (!cached->bound_for(t, op, buffers, s.executor))
    cached->bind(exec_config(s, t, op), buffers, s.executor, s.scratch);
  cached->run();
  s.scratch.trim(kKeepCallBuffers);
  s.ran = {{}, cached.get(), cached->binding()};
}

void keep_call(MPI_Comm comm, plan::Collective op, const CallKey& key, bool stable) noexcept {
  CommState* s = look_up(comm).state;
  if (s == nullptr) return;
  RepeatCall& kept = s->repeats[static_cast<std::size_t>(op)];
  kept = {};
  if (stable && s->ran.plan != nullptr && s->ran.plan == s->plans[static_cast<std::size_t>(op)].get())
    kept = {key, s->ran.plan, s->ran.binding};
}

bool can_run_again(CommState& s, plan::Collective op, const CallKey& key) noexcept {
  const RepeatCall& kept = s.repeats[static_cast<std::size_t>(op)];
  const PreparedPlan* plan = s.plans[static_cast<std::size_t>(op)].get();
  return kept.plan != nullptr && kept.plan == plan && kept.binding == plan->binding() && kept.key == key;
}

void run_again(CommState& s, plan::Collective op) {
  RepeatCall& kept = s.repeats[static_cast<std::size_t>(op)];
  const RepeatCall again = kept;
  kept = {};  // kept again once it succeeded: a failed run leaves it to the long way
  progress_requests();
  again.plan->run();
  s.scratch.trim(kKeepCallBuffers);
  kept = again;
  ++s.runs_again;
}

void run_plan(detail::Persistent* into, CommState& s, std::unique_ptr<PreparedPlan> plan, const ExecConfig& cfg,
              void* base) {
  if (into != nullptr) return capture_prepared(*into, s, std::move(plan), cfg, base);
  plan->bind(cfg, {base}, s.executor, s.scratch);
  plan->run();
}

void run_plan(CommState& s, const plan::Compiled& compiled, const ExecConfig& cfg, void* base) {
  s.executor.bind(cfg, base, s.scratch);
  s.executor.run(compiled);
}

Decision describe(MPI_Comm comm, plan::Collective op, std::int64_t count, MPI_Datatype type, MPI_Op mpi_op,
                  const Options& options, std::int64_t smallest, std::int64_t total, std::int64_t doubling) {
  CallInfo c = check_call(comm, count, type, 0);
  CommState& s = c.comm_state(comm);
  select::Call call{.op = op, .p = c.size, .elem_size = c.type.size, .count = count};
  if (plan::is_reduction(op)) {
    check_op(mpi_op, c);
    call = reduction_call(op, c, count);
  }
  call.smallest = smallest;  // Allgather / Reduce_scatter: count is the largest group
  call.total = total;
  call.doubling = doubling;
  const Choice ch = choose(s, call, options);
  if (ch.algorithm->needs_logp) logp_model(s);  // what the plan would use
  Decision d;
  d.algorithm = std::string(ch.algorithm->name);
  d.blocks = ch.blocks;
  if (s.model) d.model = *s.model;
  d.measured = s.measured;
  if (s.logp) d.logp = *s.logp;
  d.poll = s.wait == WaitMode::poll;
  return d;
}

}  // namespace optcoll::mpi
