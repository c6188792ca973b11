// Running a chosen plan with the MPI executor; plan reuse across calls.
#include <algorithm>

#include "collectives.hpp"
#include "optcoll/error.hpp"

namespace optcoll::mpi {
namespace {

// Scratch buffers up to this size stay allocated between calls (re-faulting
// a 16 MiB buffer's pages costs about a millisecond per call).
constexpr std::int64_t kKeepScratch = std::int64_t{32} << 20;

bool same(const plan::PlanSpec& a, const plan::PlanSpec& b) {
  return a.op == b.op && a.p == b.p && a.root == b.root && a.count == b.count && a.blocks == b.blocks &&
         a.commutative == b.commutative;
}

}  // namespace

void run_plan(CommState& s, const Choice& choice, const plan::PlanSpec& spec, void* base, const TypeInfo& t, MPI_Op op,
              const void* init, bool complete, const plan::BlockLayout* layout,
              std::span<const MpiExecutor::Part> parts) {
  const auto slot = static_cast<std::size_t>(spec.op);
  CommState::CachedPlan& cached = s.plans[slot];
  CommState::CachedLayout& kept = s.layouts[slot];
  // A default layout is a function of the spec, compared with it; a
  // caller's layout is compared group by group (O(p), like its arguments).
  const bool same_layout = layout == nullptr ? !kept.from_caller : (kept.from_caller && *kept.layout == *layout);
  if (cached.plan == nullptr || cached.algorithm != choice.algorithm || !same(cached.spec, spec) || !same_layout) {
    cached.plan.reset();
    plan::PlanContext ctx{spec, &s.graph};
    // The LogP trees use the communicator's L, o, g (measured at the first
    // such call: collective, and every rank chose the same algorithm).
    if (choice.algorithm->needs_logp) ctx.logp = &logp_model(s);
    kept.layout.reset();
    kept.from_caller = layout != nullptr;
    if (plan::has_rank_groups(spec.op)) {
      kept.layout = std::make_unique<plan::BlockLayout>(layout != nullptr ? *layout : plan::default_layout(spec));
      if (s.all_roots == nullptr) s.all_roots = std::make_unique<schedule::AllRootsSchedule>(s.graph);
      ctx.layout = kept.layout.get();
      ctx.all_roots = s.all_roots.get();
    } else if (plan::is_exchange(spec.op)) {
      if (layout == nullptr) throw Error(Errc::internal, "run_plan: an exchange needs its layout");
      kept.layout = std::make_unique<plan::BlockLayout>(*layout);  // this rank's own (plan/alltoall.hpp)
      ctx.layout = kept.layout.get();
    }
    cached.plan = choice.algorithm->make(ctx, s.rank);
    cached.algorithm = choice.algorithm;
    cached.spec = spec;
    cached.traced = false;
    cached.trace = {};
  }
  ExecConfig cfg;
  cfg.comm = s.comm;
  cfg.tag = kTag;
  cfg.type = t;
  cfg.op = op;
  cfg.chunk = chunk_elements(t, s.settings.max_chunk > 0 ? s.settings.max_chunk : INT_MAX);
  cfg.wait = s.wait;
  cfg.spin = s.spin;
  s.executor.bind(cfg, base, cached.plan->layout(), s.scratch);
  // Plain calls (no parts, no initial content) replay the first one's trace
  // when it was traceable (MpiExecutor::Trace): the small-message path.
  const bool plain = parts.empty() && init == nullptr;
  if (plain && cached.trace.valid && cached.trace.largest <= cfg.chunk) {
    s.executor.replay(cached.trace);
  } else {
    if (!parts.empty()) s.executor.set_parts(parts);
    if (init != nullptr) s.executor.set_initial(init, spec.commutative, complete);
    const bool record = plain && !cached.traced;
    if (record) {
      cached.traced = true;
      s.executor.record(&cached.trace);
    }
    try {
      s.executor.run(*cached.plan);
    } catch (...) {
      if (record) cached.trace = {};  // keep no half trace
      throw;
    }
    if (record && !cached.trace.valid) cached.trace = {};
  }
  s.scratch.trim(kKeepScratch);
}

Decision describe(MPI_Comm comm, plan::Collective op, std::int64_t count, MPI_Datatype type, MPI_Op mpi_op,
                  const Options& options, std::int64_t smallest) {
  const CallInfo c = check_call(comm, count, type, 0);
  CommState& s = c.comm_state(comm);
  int commutative = 1;
  if (plan::is_reduction(op)) {
    if (mpi_op == MPI_OP_NULL) throw MpiError(MPI_ERR_OP, "optcoll: MPI_OP_NULL");
    check(PMPI_Op_commutative(mpi_op, &commutative), "MPI_Op_commutative");
  }
  // Allgather / Reduce_scatter: count is the largest group.
  const Choice ch = choose(s,
                           {.op = op,
                            .p = c.size,
                            .elem_size = c.type.size,
                            .count = count,
                            .smallest = smallest,
                            .commutative = commutative != 0,
                            .exact = plan::is_reduction(op) && exact_op(mpi_op, c)},
                           options);
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
