// The LogP tree rule of the automatic selection (see select.hpp and
// DEVELOPERS.md, "mpi/"): for Bcast and Reduce of at most kLogpMaxBytes
// bytes on p >= 3 ranks, without Options::algorithm or OPTCOLL_<OP>, the
// plan simulator's LogGP clock (sim/simulator.hpp) prices, with the
// communicator's measured L, o, g, G and the call's bytes,
//   - logp_tree (B(p) for the measured parameters; for Reduce the summation
//     tree of Lemma 5.1),
//   - the default choice (circulant with its block count, or for a
//     non-commutative Reduce the rank-ordered binomial tree),
//   - the binomial tree (commutative only),
// all rooted at rank 0 (the prices do not depend on the root, except for
// the extra round of the rank-ordered reductions, which both pay), and
// logp_tree is taken when it is strictly the cheapest. The simulator runs
// the very plans the executor runs, so "the model" is the plans themselves
// under LogGP; for p = 2 every candidate is one message and nothing changes.
// Answers are cached per communicator, operation and byte count. Up to
// kLogpMaxRanks ranks: the simulation costs O(p x rounds) once per size,
// and the star-like trees of a large L/g have about p rounds.
#include <algorithm>

#include "optcoll/logp/plan_tree.hpp"
#include "optcoll/mpi/select.hpp"
#include "optcoll/sim/simulator.hpp"

namespace optcoll::mpi {
namespace {

double loggp_price(const CommState& s, const plan::AlgorithmInfo& a, const plan::PlanSpec& spec,
                   const logp::Params& units, const sim::LogGP& m) {
  plan::PlanContext ctx{spec, &s.graph};
  ctx.logp = &units;
  sim::SimOptions opt;
  opt.elem_size = 1;
  opt.loggp = m;
  opt.track_payload = false;
  opt.threads = 1;
  const sim::SimResult r = sim::simulate(ctx, a.make, opt);
  return r.ok() ? r.loggp_time : 1e300;
}

}  // namespace

bool logp_tree_wins(CommState& s, plan::Collective op, std::int64_t bytes, bool commutative,
                    const plan::AlgorithmInfo& current, std::int64_t blocks) {
  if (s.size < 3 || s.size > kLogpMaxRanks || bytes < 1 || bytes > kLogpMaxBytes) return false;
  if (op != plan::Collective::bcast && op != plan::Collective::reduce) return false;
  auto& cache = s.logp_wins[(op == plan::Collective::reduce ? 2U : 0U) + (commutative ? 1U : 0U)];
  if (auto it = cache.find(bytes); it != cache.end()) return it->second;
  const logp::Params& units = logp_model(s);  // collective at the first call
  sim::LogGP m;
  if (s.measured.L > 0) {
    m = {s.measured.L, s.measured.o, s.measured.g, std::max(s.measured.G, 0.0)};
  } else {  // OPTCOLL_LOGP: no G known
    m = {static_cast<double>(units.L) * kLogpUnit, static_cast<double>(units.o) * kLogpUnit,
         static_cast<double>(units.g) * kLogpUnit, 0.0};
  }
  plan::PlanSpec spec;
  spec.op = op;
  spec.p = s.size;
  spec.root = 0;
  spec.count = bytes;
  spec.commutative = commutative;
  const plan::AlgorithmInfo* tree = plan::find_algorithm(op, "logp_tree");
  spec.blocks = 1;
  const double t_tree = loggp_price(s, *tree, spec, units, m);
  double best = 1e300;
  if (&current != tree) {
    spec.blocks = blocks;
    best = loggp_price(s, current, spec, units, m);
  }
  if (commutative) {
    spec.blocks = 1;
    best = std::min(best, loggp_price(s, *plan::find_algorithm(op, "binomial"), spec, units, m));
  }
  const bool wins = t_tree < best * (1 - 1e-9);  // strictly, not by rounding
  if (cache.size() >= 64) cache.clear();
  cache.emplace(bytes, wins);
  return wins;
}

}  // namespace optcoll::mpi
