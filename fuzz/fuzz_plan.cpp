// libFuzzer target: plan generation. A random spec (any registered
// algorithm of any collective, p <= 40, root, count, block count, operator
// commutativity, and for the collectives with one group per rank a random
// split of the elements over the ranks) is run through the simulator, which
// matches every send with its receive (same peer, same blocks), checks the
// exact data flow (every block held before it is sent, no contribution
// counted twice, non-commutative combinations in rank order) and that every
// required result ends where the collective's semantics put it.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_common.hpp"
#include "optcoll/error.hpp"
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/alltoall.hpp"
#include "optcoll/sim/simulator.hpp"

using namespace optcoll;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const auto all = plan::algorithms();
  const plan::AlgorithmInfo& alg = all[in.ConsumeIntegralInRange<std::size_t>(0, all.size() - 1)];
  plan::PlanSpec spec;
  spec.op = alg.op;
  spec.p = in.ConsumeIntegralInRange<plan::rank_t>(1, 40);
  spec.root = in.ConsumeIntegralInRange<plan::rank_t>(0, spec.p - 1);
  spec.count = in.ConsumeIntegralInRange<std::int64_t>(0, 300);
  spec.blocks = in.ConsumeIntegralInRange<std::int64_t>(1, spec.count + 3);
  spec.commutative = alg.needs_commutative || in.ConsumeBool();
  sim::SimOptions opt;
  opt.threads = 1;
  opt.elem_size = in.ConsumeIntegralInRange<std::int64_t>(1, 16);
  const std::int64_t n = plan::checked_blocks(spec);
  std::string what = std::string(plan::to_string(spec.op)) + "/" + std::string(alg.name) +
                     " p=" + std::to_string(spec.p) + " root=" + std::to_string(spec.root) +
                     " count=" + std::to_string(spec.count) + " blocks=" + std::to_string(spec.blocks) +
                     (spec.commutative ? "" : " non-commutative");
  sim::SimResult r;
  if (plan::is_exchange(spec.op)) {
    // Personalized exchanges: a random count matrix (equal counts for
    // alltoall), every rank's own layout.
    const std::int64_t same = in.ConsumeIntegralInRange<std::int64_t>(0, 20);
    std::vector<std::int64_t> counts(static_cast<std::size_t>(spec.p * spec.p));
    for (auto& c : counts)
      c = spec.op == plan::Collective::alltoall ? same : in.ConsumeIntegralInRange<std::int64_t>(0, 20);
    const std::vector<plan::BlockLayout> layouts = plan::exchange_layouts(spec.op, spec.p, counts);
    const schedule::Circulant g(spec.p);
    plan::PlanContext ctx{spec, &g};
    ctx.rank_layouts = layouts.data();
    what += " exchange";
    r = sim::simulate(ctx, alg.make, opt);
  } else if (plan::has_rank_groups(spec.op) && spec.op != plan::Collective::allreduce && in.ConsumeBool()) {
    // Irregular groups: rank g contributes counts[g] elements.
    std::vector<plan::Segment> segs;
    std::int64_t off = 0;
    for (plan::rank_t g = 0; g < spec.p; ++g) {
      const std::int64_t c = in.ConsumeIntegralInRange<std::int64_t>(0, 40);
      segs.push_back({off, c});
      off += c;
    }
    what += " irregular";
    const plan::PlanSetup setup(spec, plan::BlockLayout(std::move(segs), n));
    r = sim::simulate(setup.context(), alg.make, opt);
  } else {
    const plan::PlanSetup setup(spec);
    r = sim::simulate(setup.context(), alg.make, opt);
  }
  FUZZ_CHECK(r.ok(), "%s: %s", what.c_str(), r.errors.empty() ? "?" : r.errors.front().c_str());
  return 0;
}
