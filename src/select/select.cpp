// The one selection (select/select.hpp): the automatic choice, the block
// count, the LogP tree rule and the predicted times.
#include "optcoll/select/select.hpp"

#include <algorithm>
#include <array>
#include <span>
#include <string>

#include "optcoll/error.hpp"
#include "optcoll/model/log2.hpp"

namespace optcoll::select {

using model::ceil_log2;
namespace {

using plan::AlgorithmInfo;
using plan::Collective;

std::int64_t ceil_div(std::int64_t a, std::int64_t b) noexcept {
  return b <= 0 ? 0 : (a + b - 1) / b;
}

// The collectives whose block counts the cache cap improves (Bcast, Reduce,
// Allgather(v); docs/decisions/block-cap-from-l2.md). Not Reduce_scatter and the circulant
// Allreduce: capped they were as often slower as faster (the same record).
bool caps_blocks(Collective op) noexcept {
  return op == Collective::bcast || op == Collective::reduce || op == Collective::allgather;
}

bool all_broadcast(Collective op) noexcept {
  return op == Collective::allgather || op == Collective::reduce_scatter || op == Collective::allreduce;
}

// The bytes a block count splits: the vector, or the largest group.
std::int64_t split_bytes(Collective op, const plan::Shape& s) noexcept {
  return all_broadcast(op) || plan::has_rank_groups(op) ? s.largest : s.m;
}

// Asks the machine for alpha and beta at most once per decision.
class Model {
 public:
  explicit Model(Machine& m) : m_(m) {}
  const model::AlphaBeta& ab() {
    if (!asked_) {
      ab_ = m_.alpha_beta();
      asked_ = true;
    }
    return ab_;
  }
  bool asked() const noexcept { return asked_; }
  Machine& machine() noexcept { return m_; }

 private:
  Machine& m_;
  model::AlphaBeta ab_;
  bool asked_ = false;
};

// The block count: the overrides', else the price's own choice, raised to
// the machine's cache cap when `capped`. Prices take the uncapped count: the
// cap is a cache effect the alpha-beta model does not see (priced, the
// extra blocks only add alphas), so the capped count is what runs, not what
// is compared.
std::int64_t blocks_for(const AlgorithmInfo& a, const Call& c, const plan::Shape& s, const Overrides& o, Model& model,
                        bool capped) {
  switch (a.blocking) {
    case plan::Blocking::one:
      return 1;
    case plan::Blocking::per_rank:
      return c.p;
    case plan::Blocking::n:
      break;
  }
  const std::int64_t bytes = split_bytes(c.op, s);
  std::int64_t n = 1;
  if (o.blocks > 0) {
    n = o.blocks;
  } else if (o.block_bytes > 0) {
    n = ceil_div(bytes, o.block_bytes);
  } else if (s.max_blocks >= 2 && s.q >= 2) {
    // Equal groups of an all-broadcast: n = 1 is the model's answer without
    // asking for alpha and beta.
    const bool equal = all_broadcast(c.op) && s.largest == s.smallest;
    if (equal) {
      n = 1;
    } else if (a.price != nullptr) {
      n = a.price(s, 0, model.ab()).blocks;
    } else if (a.node_price != nullptr) {  // a node-aware plan named: both levels alike where unknown
      const std::optional<model::TwoLevel> tl = model.machine().two_level();
      n = a.node_price(s, 0, tl ? *tl : model::TwoLevel{model.ab(), model.ab()}).blocks;
    }
    // No cap binds at or below kMinBlockCap: such calls need no calibration.
    if (capped && bytes > model::kMinBlockCap && caps_blocks(c.op))
      if (const std::int64_t cap = model.machine().max_block_bytes(); cap > 0) n = std::max(n, ceil_div(bytes, cap));
  }
  return std::clamp<std::int64_t>(n, 1, std::max<std::int64_t>(s.max_blocks, 1));
}

double loggp_time(const plan::PlanContext& ctx, const AlgorithmInfo& a, const sim::LogGP& m) {
  sim::SimOptions opt;
  opt.elem_size = 1;
  opt.loggp = m;
  opt.track_payload = false;
  opt.threads = 1;
  const sim::SimResult r = sim::simulate(ctx, a.make, opt);
  return r.ok() ? r.loggp_time : 1e300;
}

// The LogP tree rule: logp_tree's LogGP time if it is strictly below the
// current choice's and (commutative) the binomial tree's, all rooted at 0
// (the prices do not depend on the root but for the rank-ordered trees'
// extra round, which both pay); else a negative number.
// The LogP rule's plans: c's bytes as elements of one byte, rooted at 0.
plan::PlanSpec bytes_spec(const Call& c) {
  plan::PlanSpec spec;
  spec.op = c.op;
  spec.p = c.p;
  spec.count = c.bytes();
  spec.commutative = c.commutative;
  return spec;
}

double logp_tree_time(const Call& c, const AlgorithmInfo& current, std::int64_t blocks, const Machine::Logp& lp) {
  const schedule::Circulant g(c.p);
  plan::PlanContext ctx{bytes_spec(c), &g};
  ctx.logp = &lp.units;
  const AlgorithmInfo* tree = plan::find_algorithm(c.op, "logp_tree");
  const double t_tree = loggp_time(ctx, *tree, lp.seconds);
  double best = 1e300;
  if (&current != tree) {
    ctx.spec.blocks = blocks;
    best = loggp_time(ctx, current, lp.seconds);
  }
  if (c.commutative) {
    ctx.spec.blocks = 1;
    best = std::min(best, loggp_time(ctx, *plan::find_algorithm(c.op, "binomial"), lp.seconds));
  }
  return t_tree < best * (1 - 1e-9) ? t_tree : -1;  // strictly, not by rounding
}

// With its block count fixed, a price is linear in alpha and beta: rounds
// times alpha plus beta times the bytes on the critical path. A candidate
// whose two are at most every other's is the cheapest on any machine, so
// the machine need not be asked for alpha and beta (a calibration, in the
// MPI layer): the first such in registry order, or nullptr. A price that
// counts the per-message overhead o (scan_linear) falls with it, so the
// candidate must win at both ends: o unknown (the machine may not know
// it) and o next to nothing.
const AlgorithmInfo* dominant(std::span<const AlgorithmInfo* const> cand, std::span<const std::int64_t> blocks,
                              const plan::Shape& s) {
  constexpr double kTinyO = 1e-300;
  constexpr std::array<std::array<model::AlphaBeta, 2>, 2> kUnits{{{{{1, 0}, {0, 1}}}, {{{1, 0, kTinyO}, {0, 1}}}}};
  for (std::size_t i = 0; i < cand.size(); ++i) {
    bool best = true;
    for (const auto& [rounds_unit, bytes_unit] : kUnits) {
      const double rounds = cand[i]->price(s, blocks[i], rounds_unit).time;
      const double bytes = cand[i]->price(s, blocks[i], bytes_unit).time;
      for (std::size_t j = 0; j < cand.size() && best; ++j)
        best = j == i || (rounds <= cand[j]->price(s, blocks[j], rounds_unit).time &&
                          bytes <= cand[j]->price(s, blocks[j], bytes_unit).time);
    }
    if (best) return cand[i];
  }
  return nullptr;
}

// The node-aware rule: where the call's ranks span nodes and the machine
// knows both levels, the node-aware plan priced lowest on the two-level
// machine replaces d's flat plan if it is priced below it (the flat plan
// in the machine's alpha-beta model, which a calibration on such a
// communicator measures with every rank sending: the port shared). True
// when it did; d then holds its block count and price.
bool node_aware_choice(const Call& c, const plan::Shape& s, const Overrides& o, const plan::PlanSpec& spec,
                       Model& model, Decision& d) {
  if (!c.nodes.hierarchical() || c.p <= 1) return false;
  const std::optional<model::TwoLevel> tl = model.machine().two_level();
  if (!tl) return false;
  // The flat choice on the same machine: its ranks share their node's port
  // (TwoLevel::flat: all of a node's ranks sending across at once), which a
  // flat alpha-beta measured between two ranks at a time does not show.
  model::AlphaBeta shared = model.ab();
  shared.beta = std::max(shared.beta, tl->flat(c.nodes.largest).beta);
  double best = d.algorithm->price != nullptr
                    ? d.algorithm->price(s, blocks_for(*d.algorithm, c, s, o, model, false), shared).time
                    : 1e300;
  bool chosen = false;
  for (const AlgorithmInfo& a : plan::algorithms()) {
    if (a.op != c.op || a.node_price == nullptr || !plan::valid_for(a, spec)) continue;
    std::int64_t n = 1;
    if (a.blocking == plan::Blocking::n) n = o.blocks > 0 ? o.blocks : a.node_price(s, 0, *tl).blocks;
    const plan::Price price = a.node_price(s, n, *tl);
    if (price.time < best) {
      best = price.time;
      d.algorithm = &a;
      d.blocks = std::max<std::int64_t>(n, 1);
      d.time = price.time;
      d.reason = "the cheapest on the two-level machine (node-aware)";
      chosen = true;
    }
  }
  return chosen;
}

}  // namespace

plan::Shape shape_of(const Call& c) {
  plan::Shape s;
  s.p = c.p;
  s.q = ceil_log2(c.p);
  const std::int64_t es = c.elem_size;
  s.m = c.payload();
  s.max_blocks = std::max<std::int64_t>(c.count, 1);
  s.nodes = c.nodes.count;
  s.lanes = c.nodes.lanes;
  s.node_size = c.nodes.largest;
  s.ordered = !c.commutative;
  switch (c.op) {
    case Collective::allreduce: {  // p groups of count / p elements (allreduce_layout)
      const std::int64_t per_group = ceil_div(c.count, c.p);
      s.largest = per_group * es;
      s.smallest = c.count / c.p * es;
      s.max_blocks = std::max<std::int64_t>(per_group, 1);
      s.doubling = plan::rabenseifner_elements(c.count, c.p) * es;
      break;
    }
    case Collective::allgather:
    case Collective::reduce_scatter:
    case Collective::gather:
    case Collective::scatter:
      s.largest = c.bytes();
      s.smallest = (c.smallest < 0 ? c.count : c.smallest) * es;
      if (c.doubling >= 0) s.doubling = c.doubling * es;
      break;
    case Collective::many_to_many:
      s.largest = std::max<std::int64_t>(c.total, 0) * es;
      break;
    default:
      s.largest = s.smallest = s.m;
      break;
  }
  return s;
}

std::string algorithm_names(Collective op) {
  std::string out;
  for (const AlgorithmInfo& a : plan::algorithms()) {
    if (a.op != op) continue;
    if (!out.empty()) out += ", ";
    out += a.name;
  }
  return out;
}

Decision decide(const Call& c, const Overrides& o, Machine& machine, bool with_prices) {
  Decision d;
  plan::PlanSpec spec;
  spec.op = c.op;
  spec.commutative = c.commutative;
  spec.exact = c.exact;
  const plan::Shape s = shape_of(c);
  Model model(machine);
  if (!o.algorithm.empty()) {
    const AlgorithmInfo* named = plan::find_algorithm(c.op, o.algorithm);
    if (named == nullptr)
      throw Error(Errc::invalid_argument, "unknown " + std::string(plan::to_string(c.op)) + " algorithm '" +
                                              std::string(o.algorithm) + "'; valid: " + algorithm_names(c.op));
    if (plan::valid_for(*named, spec)) {
      d.algorithm = named;
      d.reason = "named";
    } else {
      d.fallback = true;
      d.reason = named->needs_commutative && !c.commutative
                     ? "the named algorithm needs a commutative operator: the automatic choice instead"
                     : "the named algorithm combines in an order that depends on the rank, so it needs an exact "
                       "(integer, logical or bitwise) operator for every rank to get the same bits: the automatic "
                       "choice instead";
    }
  }
  if (d.algorithm == nullptr) {
    d.automatic = !d.fallback;
    // Candidates: priced in rounds (not baselines, not needs_overhead),
    // valid; size limits unless they would leave none.
    std::array<const AlgorithmInfo*, 8> cand{};
    std::size_t n = 0, in_size = 0;
    for (const AlgorithmInfo& a : plan::algorithms())
      if (a.op == c.op && !a.baseline && !a.needs_overhead && a.price != nullptr && plan::valid_for(a, spec) &&
          n < cand.size())
        cand[n++] = &a;
    for (std::size_t i = 0; i < n; ++i)
      if (cand[i]->max_bytes == 0 || c.bytes() <= cand[i]->max_bytes) cand[in_size++] = cand[i];
    if (in_size > 0) n = in_size;
    if (n == 0) throw Error(Errc::internal, "no valid " + std::string(plan::to_string(c.op)) + " algorithm");
    d.algorithm = cand[0];
    if (d.reason.empty()) d.reason = n == 1 ? "the only candidate" : "the cheapest in the alpha-beta model";
    if (n > 1) {
      std::array<std::int64_t, cand.size()> blocks{};
      for (std::size_t i = 0; i < n; ++i) blocks[i] = blocks_for(*cand[i], c, s, o, model, false);
      if (const AlgorithmInfo* a = dominant({cand.data(), n}, {blocks.data(), n}, s)) {
        d.algorithm = a;
      } else {
        double best = 0;
        for (std::size_t i = 0; i < n; ++i) {
          const double t = cand[i]->price(s, blocks[i], model.ab()).time;
          if (i == 0 || t < best) {
            best = t;
            d.algorithm = cand[i];
          }
        }
      }
    }
  }
  d.blocks = blocks_for(*d.algorithm, c, s, o, model, true);
  if (d.automatic && node_aware_choice(c, s, o, spec, model, d)) {
    if (with_prices) {
      const Classic best = best_classic(c, model.ab());
      d.classic = best.name;
      d.classic_time = best.price.time;
    }
    return d;
  }
  const bool logp_op = (c.op == Collective::bcast && o.logp != LogpRule::off) ||
                       (c.op == Collective::reduce && o.logp == LogpRule::bcast_and_reduce);
  if (d.automatic && logp_op && c.p >= 3 && c.p <= kLogpMaxRanks && c.bytes() >= 1 && c.bytes() <= kLogpMaxBytes) {
    if (const std::optional<Machine::Logp> lp = machine.logp()) {
      if (const double t = logp_tree_time(c, *d.algorithm, d.blocks, *lp); t >= 0) {
        d.algorithm = plan::find_algorithm(c.op, "logp_tree");
        d.blocks = 1;
        d.reason = "the LogP tree rule: cheapest under LogGP";
        if (with_prices) {  // priced in LogGP, against the binomial tree
          const schedule::Circulant g(c.p);
          const plan::PlanContext ctx{bytes_spec(c), &g};
          d.time = t;
          d.classic = c.commutative ? "binomial" : "binomial_ordered";
          d.classic_time = loggp_time(ctx, *plan::find_algorithm(c.op, d.classic), lp->seconds);
          return d;
        }
      }
    }
  }
  if (with_prices) {
    if (d.algorithm->price != nullptr)
      d.time = d.algorithm->price(s, blocks_for(*d.algorithm, c, s, o, model, false), model.ab()).time;
    const Classic best = best_classic(c, model.ab());
    d.classic = best.name;
    d.classic_time = best.price.time;
  }
  return d;
}

}  // namespace optcoll::select
