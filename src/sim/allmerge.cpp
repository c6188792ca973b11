// allmerge_cost: the merge all-reduction's plans walked with key counts.
#include "optcoll/sim/allmerge.hpp"

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "optcoll/error.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::sim {
namespace {

// One rank's buffers (V/D, W/S1, I/S2, Pa) as key counts; a plan's
// whole-vector run names buffer first / p.
struct Counts {
  std::int64_t b[4] = {0, 0, 0, 0};
};

}  // namespace

MergeCost allmerge_cost(std::string_view algorithm, std::span<const std::int64_t> keys, std::int64_t key_bytes,
                        const model::AlphaBeta& ab, double gamma) {
  const auto p = static_cast<plan::rank_t>(keys.size());
  if (p < 1) throw Error(Errc::invalid_p, "allmerge_cost needs p >= 1");
  const std::int64_t total = std::accumulate(keys.begin(), keys.end(), std::int64_t{0});
  const schedule::Circulant g(p);
  MergeCost c;
  if (algorithm == "allgatherv") {
    if (p == 1) return {0, 0, 0, true};
    std::int64_t most = 0;
    for (std::int64_t k : keys) most = std::max(most, total - k);
    c.rounds = g.q();
    c.time =
        g.q() * ab.alpha + ab.beta * static_cast<double>(most * key_bytes) + gamma * g.q() * static_cast<double>(total);
    c.max_sent_bytes = most * key_bytes;  // a lower bound: every rank receives that much
    c.complete = true;
    return c;
  }
  if (algorithm != "circulant" && algorithm != "bruck")
    throw Error(Errc::invalid_count, "unknown allmerge algorithm '" + std::string(algorithm) + "'");
  plan::PlanSpec spec{plan::Collective::allreduce, p, 0, p, 1, true};
  const plan::BlockLayout layout = plan::allreduce_layout(p, p, 1);
  plan::PlanContext ctx{spec, &g};
  ctx.layout = &layout;
  const plan::AlgorithmInfo* a =
      plan::find_algorithm(plan::Collective::allreduce, algorithm == "bruck" ? "bruck" : "dissemination");
  std::vector<std::unique_ptr<plan::RankPlan>> plans;
  for (plan::rank_t r = 0; r < p; ++r) plans.push_back(a->make(ctx, r));
  std::vector<Counts> now(static_cast<std::size_t>(p));
  for (plan::rank_t r = 0; r < p; ++r) now[static_cast<std::size_t>(r)].b[0] = keys[static_cast<std::size_t>(r)];
  std::vector<std::int64_t> sent(static_cast<std::size_t>(p), 0);
  const auto id = [&](const plan::BlockRun& run) { return static_cast<std::size_t>(run.first / p); };
  // Each rank's step, read directly (as the sender's below): applied after
  // every rank's step of the round is known.
  plan::Step step;
  c.rounds = plans[0]->rounds();
  for (std::int64_t i = 0; i < c.rounds; ++i) {
    const std::vector<Counts> before = now;
    std::int64_t biggest = 0;
    std::int64_t merged = 0;
    for (plan::rank_t r = 0; r < p; ++r) {
      step.clear();
      plans[static_cast<std::size_t>(r)]->step(i, step);
      Counts& mine = now[static_cast<std::size_t>(r)];
      std::int64_t work = 0;
      if (step.send_to >= 0) {
        std::int64_t k = 0;
        for (const auto& run : step.send) k += before[static_cast<std::size_t>(r)].b[id(run)];
        biggest = std::max(biggest, k * key_bytes);
        sent[static_cast<std::size_t>(r)] += k * key_bytes;
      }
      if (step.recv_from >= 0) {
        const Counts& theirs = before[static_cast<std::size_t>(step.recv_from)];
        // The sender's runs, in order, land in the receiver's runs.
        plan::Step other;
        plans[static_cast<std::size_t>(step.recv_from)]->step(i, other);
        for (std::size_t k = 0; k < step.recv.size(); ++k) {
          const std::int64_t in = theirs.b[id(other.send[k])];
          std::int64_t& own = mine.b[id(step.recv[k])];
          if (step.on_recv == plan::Action::copy) {
            own = in;
          } else {
            own += in;
            work += own;
          }
        }
      }
      for (const plan::LocalOp& op : step.local) {
        std::int64_t& to = mine.b[id(op.to)];
        if (op.action == plan::Action::copy) {
          to = mine.b[id(op.from)];
        } else {
          to += mine.b[id(op.from)];
          work += to;
        }
      }
      merged = std::max(merged, work);
    }
    c.time += ab.alpha + ab.beta * static_cast<double>(biggest) + gamma * static_cast<double>(merged);
  }
  c.max_sent_bytes = *std::max_element(sent.begin(), sent.end());
  c.complete = std::all_of(now.begin(), now.end(), [&](const Counts& x) { return x.b[0] == total; });
  return c;
}

}  // namespace optcoll::sim
