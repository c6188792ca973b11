// Building, binding and running one rank's plan (see prepared_plan.hpp).
#include "mpi/prepared_plan.hpp"

#include <climits>

#include "optcoll/error.hpp"
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
  return cfg;
}

PreparedPlan::PreparedPlan(CommState& s, const Choice& choice, const plan::PlanSpec& spec,
                           const plan::BlockLayout* layout)
    : algorithm_(choice.algorithm), spec_(spec), caller_layout_(layout != nullptr) {
  plan::PlanContext ctx{spec, &s.graph};
  // The LogP trees use the communicator's L, o, g (measured at the first
  // such call: collective, and every rank chose the same algorithm).
  if (algorithm_->needs_logp) ctx.logp = &logp_model(s);
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
  plan_ = algorithm_->make(ctx, s.rank);
}

PreparedPlan::PreparedPlan(plan::Collective op, plan::TreeRankView view, plan::BlockLayout layout)
    : layout_(std::make_unique<plan::BlockLayout>(std::move(layout))) {
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
  parts_.assign(b.parts.begin(), b.parts.end());
  buffers_.parts = parts_;
  ex_ = &ex;
  scratch_ = &scratch;
}

void PreparedPlan::start() {
  if (ex_ == nullptr) throw Error(Errc::internal, "PreparedPlan: started before bind()");
  MpiExecutor& ex = *ex_;
  ex.bind(cfg_, buffers_.base, plan_->layout(), *scratch_);
  const bool init = buffers_.init != nullptr;
  const bool same_setting = compiled_.recorded_for(init, spec_.commutative, buffers_.complete);
  if (parts_.empty() && recorded_ && same_setting && compiled_.valid && compiled_.largest <= cfg_.chunk) {
    ex.start_replay(compiled_, buffers_.init);  // round 0 posted; progress() / complete() go on
    return;
  }
  if (!parts_.empty()) ex.set_parts(parts_);
  if (init) ex.set_initial(buffers_.init, spec_.commutative, buffers_.complete);
  // The first run compiles the plan; so does the first run with another
  // initial-content setting (an in-place call after one that was not).
  recording_ = parts_.empty() && (!recorded_ || !same_setting);
  if (recording_) {
    recorded_ = true;
    ex.record(&compiled_);
  }
  try {
    ex.start(*plan_);
  } catch (...) {
    abandon();
    throw;
  }
}

bool PreparedPlan::progress() {
  bool done = false;
  try {
    done = ex_->progress();
  } catch (...) {
    abandon();
    throw;
  }
  if (done) end_recording();
  return done;
}

void PreparedPlan::complete() {
  try {
    ex_->complete();
  } catch (...) {
    abandon();
    throw;
  }
  end_recording();
}

void PreparedPlan::end_recording() noexcept {
  recording_ = false;  // the executor's finish() ended the recording
}

void PreparedPlan::abandon() noexcept {
  if (recording_) compiled_.valid = false;  // keep no half compiled plan
  recording_ = false;
}

}  // namespace optcoll::mpi
