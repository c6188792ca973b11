// `optcoll logp tree|reach|kitem|continuous|alltoall|combine|sum ... [--json]
// [--svg FILE] [--gantt FILE]`: the LogP constructions of Karp, Sahay,
// Santos, Schauser (1993), each run through the LogP event simulator.
//   tree        B(P) for (L, o, g): the tree, every node's time, the timeline (Figure 1)
//   reach       P(t) and, in the postal model, f_0..f_t; B(P)
//   kitem       k-item broadcast, postal: bounds and a single-sending schedule;
//               --figure2: the optimal P=10, L=3, k=8 schedule with its endgame
//   continuous  block-cyclic continuous broadcast, postal; --base-cases: the search program
//   alltoall    all-to-all broadcast of k items per processor
//   combine     combining broadcast (allreduce), postal
//   sum         optimal summation in time t (Figure 6), or of n operands
#include <memory>

#include "cmd_logp.hpp"
#include "commands.hpp"

namespace optcoll::cli {
namespace {

void add_logp_command(CLI::App& app, int& exit_code) {
  auto* logp = app.add_subcommand("logp", "LogP constructions (Karp et al. 1993), checked by the LogP simulator");
  logp->require_subcommand(1);
  struct Spec {
    const char* name;
    const char* help;
  };
  for (const Spec& s : {Spec{"tree", "Optimal single-item broadcast tree B(P) (Figure 1)"},
                        Spec{"reach", "P(t), generalized Fibonacci numbers f_i, B(P)"},
                        Spec{"kitem", "k-item broadcast in the postal model (Figure 2 with --figure2)"},
                        Spec{"continuous", "Block-cyclic continuous broadcast in the postal model"},
                        Spec{"alltoall", "All-to-all broadcast of k items per processor"},
                        Spec{"combine", "Combining broadcast (all processors learn the sum), postal model"},
                        Spec{"sum", "Optimal summation in time t (Figure 6)"}}) {
    auto a = std::make_shared<logp_cmd::Args>();
    a->what = s.name;
    auto* c = logp->add_subcommand(s.name, s.help);
    c->add_option("-P", a->P, "Processors (default: the paper's figure)");
    c->add_option("--L", a->L, "Latency L");
    c->add_option("--o", a->o, "Overhead o");
    c->add_option("--g", a->g, "Gap g");
    c->add_option("--G", a->G, "LogGP gap per byte G");
    c->add_option("-k", a->k, "Items (kitem, alltoall)");
    c->add_option("-t", a->t, "Time (reach, sum)");
    c->add_option("-n", a->n, "Operands (sum: the fastest schedule for n)");
    c->add_option("--items", a->items, "Items to simulate (continuous)");
    c->add_flag("--endgame", a->endgame, "kitem: search an optimal endgame after the continuous phase (tiny P)");
    c->add_flag("--figure2", a->figure2, "kitem: Figure 2 (P=10, L=3, k=8) with the paper's words");
    c->add_flag("--base-cases", a->base_cases, "continuous: run the search program for the base cases of L");
    c->add_flag("--idempotent", a->idempotent, "combine: operator like max (values may combine twice)");
    c->add_flag("--noncommutative", a->noncommutative, "sum: non-commutative operator (operands renumbered)");
    c->add_flag("--json", a->json, "Print JSON");
    c->add_option("--svg", a->svg, "Write the tree (tree, sum, continuous) or the timeline (others) as SVG");
    c->add_option("--gantt", a->gantt, "Write the per-processor timeline as SVG");
    c->callback([a, &exit_code] { exit_code = logp_cmd::run(*a); });
  }
}

const Subcommand registered{"logp", &add_logp_command};

}  // namespace
}  // namespace optcoll::cli
