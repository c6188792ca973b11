// Building, binding and running one rank's plan (see prepared_plan.hpp).
#include "mpi/executor/prepared_plan.hpp"

#include <atomic>
#include <climits>

#include "optcoll/error.hpp"
#include "optcoll/plan/locality.hpp"
#include "optcoll/schedule/all_roots.hpp"

namespace optcoll::mpi {
namespace {

bool same(const plan::PlanSpec& a, const plan::PlanSpec& b) {
  return a.op == b.op && a.p == b.p && a.root == b.root && a.count == b.count && a.blocks == b.blocks &&
         a.commutative == b.commutative && a.exact == b.exact;
}

}  // namespace

ExecConfig exec_config(const CommState& s, const TypeInfo& t, MPI_Op op) {
  ExecConfig cfg;
  cfg.comm = s.comm;
  cfg.tag = kTag;
  cfg.type = t;
  cfg.op = op;
  cfg.chunk = chunk_elements(t, s.settings.max_chunk > 0 ? s.settings.max_chunk : INT_MAX);
  cfg.wait = s.wait;
  cfg.spin = s.spin;
  cfg.one_node = s.one_node;
  return cfg;
}

PreparedPlan::PreparedPlan(CommState& s, const Choice& choice, const plan::PlanSpec& spec,
                           const plan::BlockLayout* layout)
    : algorithm_(choice.algorithm),
      final_messages_(choice.algorithm->final_messages),
      spec_(spec),
      caller_layout_(layout != nullptr) {
  plan::PlanContext ctx{spec, &s.graph};
  // The LogP trees use the communicator's L, o, g (measured at the first
  // such call: collective, and every rank chose the same algorithm).
  if (algorithm_->needs_logp) ctx.logp = &logp_model(s);
  // The node-aware plans follow the communicator's nodes (flat without).
  if (s.nodes) ctx.nodes = &*s.nodes;
  if (plan::has_rank_groups(spec.op)) {
    layout_ = std::make_unique<plan::BlockLayout>(layout != nullptr ? *layout : plan::default_layout(spec));
    if (s.all_roots == nullptr) s.all_roots = std::make_unique<schedule::AllRootsSchedule>(s.graph);
    ctx.layout = layout_.get();
    ctx.all_roots = s.all_roots.get();
  } else if (plan::is_exchange(spec.op)) {
    if (layout == nullptr) throw Error(Errc::internal, "PreparedPlan: an exchange needs its layout");
    layout_ = std::make_unique<plan::BlockLayout>(*layout);  // this rank's own (plan/alltoall.hpp)
    ctx.layout = layout_.get();
  }
  // Locality renumbering (plan/locality.hpp): the circulant plans when
  // OPTCOLL_RANK_GROUP divides p, reductions only for a commutative
  // operator (the plan combines in virtual-rank order).
  const bool renumber = algorithm_->locality_order && (!plan::is_reduction(spec.op) || spec.commutative);
  const plan::RankOrder order = plan::locality_order(spec.p, renumber ? s.settings.rank_group : 0);
  if (!order.identity()) {
    ctx.spec.root = order.virtual_of(spec.root);
    if (spec.op == plan::Collective::allgather || spec.op == plan::Collective::reduce_scatter) {
      virtual_layout_ = std::make_unique<plan::BlockLayout>(plan::renumbered_layout(*layout_, order));
      ctx.layout = virtual_layout_.get();  // a rank's own group, renamed with it
    }
  }
  plan_ = plan::renumbered(algorithm_->make(ctx, order.virtual_of(s.rank)), order);
}

PreparedPlan::PreparedPlan(plan::Collective op, plan::TreeRankView view, plan::BlockLayout layout, bool final_messages)
    : final_messages_(final_messages),
      in_flight_(final_messages ? view.rounds : 0),
      layout_(std::make_unique<plan::BlockLayout>(std::move(layout))) {
  spec_.op = op;
  plan_ = plan::make_tree_plan(op, std::move(view), *layout_);
}

bool PreparedPlan::matches(const Choice& choice, const plan::PlanSpec& spec, const plan::BlockLayout* layout) const {
  if (algorithm_ == nullptr || algorithm_ != choice.algorithm || !same(spec_, spec)) return false;
  // A default layout is a function of the spec; a caller's is compared.
  if (layout == nullptr) return !caller_layout_;
  return caller_layout_ && *layout_ == *layout;
}

void PreparedPlan::bind(const ExecConfig& cfg, const Buffers& b, MpiExecutor& ex, Scratch& scratch) {
  cfg_ = cfg;
  buffers_ = b;
  if (!b.parts.empty() || !parts_.empty()) {  // (no parts, and none before: nothing to redo)
    parts_.assign(b.parts.begin(), b.parts.end());
    MpiExecutor::part_boundaries(parts_, boundaries_);
  }
  buffers_.parts = parts_;
  ex_ = &ex;
  scratch_ = &scratch;
  ready_ = false;
  static std::atomic<std::uint64_t> bindings{0};
  binding_ = bindings.fetch_add(1, std::memory_order_relaxed) + 1;
}

bool PreparedPlan::bound_for(const TypeInfo& t, MPI_Op op, const Buffers& b, const MpiExecutor& ex) const noexcept {
  return ready_ && ex_ == &ex && b.parts.empty() && parts_.empty() && b.base == buffers_.base &&
         b.init == buffers_.init && b.complete == buffers_.complete && t == cfg_.type && op == cfg_.op;
}

void PreparedPlan::start(bool post_first) {
  if (ex_ == nullptr) throw Error(Errc::internal, "PreparedPlan: started before bind()");
  MpiExecutor& ex = *ex_;
  if (!ready_ || !ex.bound_by(this)) {
    ex.bind(cfg_, buffers_.base, *scratch_, this);
    if (!parts_.empty()) ex.set_parts(parts_);
  }
  if (!ready_) {
    // The first run compiles the plan; so does the first run with other
    // settings (an in-place call after one that was not).
    const plan::CompileOptions options{buffers_.init != nullptr, spec_.commutative, buffers_.complete, boundaries_,
                                       final_messages_,          in_flight_};
    if (!compiled_ok_ || !compiled_.compiled_for(options)) {
      compiled_ok_ = false;
      plan::compile(*plan_, options, compiled_);
      compiled_ok_ = true;
      ++compilations_;
    }
    ready_ = true;  // a request's later starts, and the same blocking call again, go straight to the executor
  }
  ex.start(compiled_, buffers_.init, post_first);
}

bool PreparedPlan::progress() {
  return ex_->progress();
}

void PreparedPlan::complete() {
  ex_->complete();
}

}  // namespace optcoll::mpi
