// The algorithm registry as data.
#include <array>

#include "optcoll/logp/plan_tree.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::plan {
namespace {

using C = Collective;
using B = Blocking;

constexpr std::array kAlgorithms{
    AlgorithmInfo{C::bcast, "circulant", false, false, B::n, &make_bcast_circulant,
                  "n blocks in n-1+ceil(log2 p) rounds on the circulant graph (Traff 2024, Alg. 1)"},
    AlgorithmInfo{C::bcast, "binomial", false, true, B::one, &make_bcast_binomial,
                  "binomial tree, whole buffer, ceil(log2 p) rounds"},
    AlgorithmInfo{C::bcast, "chain", false, true, B::n, &make_bcast_chain, "pipelined chain, p+n-2 rounds"},
    AlgorithmInfo{C::bcast, "binary_tree", false, true, B::n, &make_bcast_binary_tree,
                  "pipelined binary tree, about 2(n+log2 p) rounds"},
    AlgorithmInfo{C::bcast, "scatter_allgather", false, true, B::per_rank, &make_bcast_scatter_allgather,
                  "van de Geijn: binomial scatter + ring allgather, ceil(log2 p)+p-1 rounds"},
    AlgorithmInfo{C::reduce, "circulant", true, false, B::n, &make_reduce_circulant,
                  "the circulant broadcast reversed, n-1+ceil(log2 p) rounds (Traff 2024, Obs. 1.3)"},
    AlgorithmInfo{C::reduce, "binomial_ordered", false, false, B::one, &make_reduce_binomial_ordered,
                  "rank-ordered binomial tree, any operator, ceil(log2 p) (+1) rounds"},
    AlgorithmInfo{C::reduce, "binomial", true, true, B::one, &make_reduce_binomial,
                  "binomial tree reversed, whole buffer, ceil(log2 p) rounds"},
    AlgorithmInfo{C::reduce, "chain", true, true, B::n, &make_reduce_chain, "pipelined chain reversed, p+n-2 rounds"},
    AlgorithmInfo{C::reduce, "binary_tree", true, true, B::n, &make_reduce_binary_tree,
                  "pipelined binary tree reversed, about 2(n+log2 p) rounds"},
    AlgorithmInfo{C::allgather, "circulant", false, false, B::n, &make_allgather_circulant,
                  "p circulant broadcasts at once, one packed message per round, n-1+q rounds (Traff 2024, Alg. 7)"},
    AlgorithmInfo{C::reduce_scatter, "circulant", true, false, B::n, &make_reduce_scatter_circulant,
                  "p circulant reductions at once, the allgather reversed, n-1+q rounds (Traff 2024, Obs. 1.4)"},
    AlgorithmInfo{
        C::reduce_scatter, "ordered", false, false, B::one, &make_reduce_scatter_ordered,
        "rank-ordered binomial reduction to rank 0, then binomial scatter, any operator, 2 ceil(log2 p) rounds"},
    AlgorithmInfo{C::allreduce, "circulant", true, false, B::n, &make_allreduce_circulant,
                  "circulant reduce-scatter then allgather, 2(n-1+q) rounds, for long vectors"},
    AlgorithmInfo{C::allreduce, "dissemination", true, false, B::one, &make_allreduce_dissemination,
                  "circulant dissemination, ceil(log2 p) rounds of the whole vector (Lang 2025, Alg. 2)", true},
    AlgorithmInfo{C::allreduce, "bruck", true, false, B::one, &make_allreduce_bruck,
                  "Bruck dissemination with a partial buffer, ceil(log2 p) rounds (Lang 2025, Alg. 1)", true},
    AlgorithmInfo{C::allreduce, "doubling", false, false, B::one, &make_allreduce_doubling,
                  "recursive doubling in rank order, the same bits on every rank for any operator, "
                  "q rounds (q+1 unless p is a power of two)"},
    AlgorithmInfo{
        C::allreduce, "ordered", false, false, B::one, &make_allreduce_ordered,
        "rank-ordered binomial reduction to rank 0, then binomial broadcast, any operator, 2 ceil(log2 p) rounds"},
    AlgorithmInfo{C::scan, "doubling", false, false, B::one, &make_scan_doubling,
                  "recursive doubling on the rank line, ceil(log2 p) rounds, any operator"},
    AlgorithmInfo{C::exscan, "doubling", false, false, B::one, &make_exscan_doubling,
                  "recursive doubling with inclusive and exclusive partials, ceil(log2 p) rounds, any operator"},
    AlgorithmInfo{C::scan, "pipeline", false, false, B::n, &make_scan_pipeline,
                  "pipelined chain along the rank line, n+p-2 rounds of m/n bytes, any operator, long vectors"},
    AlgorithmInfo{C::exscan, "pipeline", false, false, B::n, &make_exscan_pipeline,
                  "pipelined chain forwarding inclusive prefixes, n+p-2 rounds of m/n bytes, any operator"},
    AlgorithmInfo{C::gather, "binomial", false, false, B::one, &make_gather_binomial,
                  "rank-ordered binomial tree, ceil(log2 p) rounds (Traff 2018, Oblivious)"},
    AlgorithmInfo{C::gather, "adaptive_binomial", false, false, B::one, &make_gather_adaptive_binomial,
                  "binomial tree, the smaller side sends, ceil(log2 p) rounds (Traff 2018, Prop. 1)"},
    AlgorithmInfo{C::gather, "tree", false, false, B::one, &make_gather_tree,
                  "PlanContext::tree, e.g. the optimal ordered tree (Traff 2018, Fig. 6); else binomial"},
    AlgorithmInfo{C::gather, "two", false, false, B::one, &make_gather_two,
                  "two size classes gathered concurrently, one message between their roots (Traff 2018, Lemma 2)"},
    AlgorithmInfo{C::scatter, "binomial", false, false, B::one, &make_scatter_binomial,
                  "rank-ordered binomial tree, ceil(log2 p) rounds (Traff 2018, Oblivious)"},
    AlgorithmInfo{C::scatter, "adaptive_binomial", false, false, B::one, &make_scatter_adaptive_binomial,
                  "the adaptive gather tree run backwards, ceil(log2 p) rounds (Traff 2018, Prop. 1)"},
    AlgorithmInfo{C::scatter, "two", false, false, B::one, &make_scatter_two,
                  "the TWO gather tree run backwards (Traff 2018, Lemma 2)"},
    AlgorithmInfo{C::scatter, "tree", false, false, B::one, &make_scatter_tree,
                  "PlanContext::tree, e.g. the optimal ordered tree (Traff 2018, Fig. 6); else binomial"},
    AlgorithmInfo{C::bcast, "logp_tree", false, false, B::one, &make_bcast_logp_tree,
                  "whole buffer along the LogP-optimal tree B(p) for the measured L, o, g (Karp et al. 1993, §2)"},
    AlgorithmInfo{C::reduce, "logp_tree", false, false, B::one, &make_reduce_logp_tree,
                  "optimal summation tree: B(p) for L+1 reversed, any operator (Karp et al. 1993, §5)"},
    AlgorithmInfo{C::alltoall, "shift", false, false, B::one, &make_alltoall_shift,
                  "step j: rank i sends to i+j, receives from i-j; p-1 rounds of one block (notes §8.2)"},
    AlgorithmInfo{C::alltoall, "bruck", false, false, B::one, &make_alltoall_bruck,
                  "hypercubic: ceil(log2 p) rounds of about p/2 blocks, any p, rotations by indexing (notes §8.3)"},
    AlgorithmInfo{C::alltoallv, "shift", false, false, B::one, &make_alltoall_shift,
                  "step j: rank i sends to i+j, receives from i-j; p-1 rounds, empty messages skipped (notes §8.2)"},
    AlgorithmInfo{C::many_to_many, "two_phase", false, false, B::one, &make_many_to_many_two_phase,
                  "every message split in p pieces spread over all ranks, then routed: 2(p-1) rounds (notes §9)"},
    AlgorithmInfo{C::many_to_many, "direct", false, true, B::one, &make_alltoall_shift,
                  "the shift schedule on the whole messages (Alltoallv), for comparison"},
};

}  // namespace

std::span<const AlgorithmInfo> algorithms() noexcept {
  return kAlgorithms;
}

const AlgorithmInfo* find_algorithm(Collective op, std::string_view name) noexcept {
  for (const auto& a : kAlgorithms)
    if (a.op == op && a.name == name) return &a;
  return nullptr;
}

const AlgorithmInfo& select_algorithm(const PlanSpec& spec) noexcept {
  const auto valid = [&](const AlgorithmInfo& a) { return valid_for(a, spec); };
  if (const AlgorithmInfo* a = find_algorithm(spec.op, "circulant"); a != nullptr && valid(*a)) return *a;
  // Non-commutative reductions: the first rank-ordered algorithm registered
  // (reduce binomial_ordered, allreduce doubling, scan doubling).
  for (const auto& a : kAlgorithms)
    if (a.op == spec.op && valid(a)) return a;
  return kAlgorithms[0];
}

std::string_view to_string(Collective op) noexcept {
  switch (op) {
    case Collective::bcast:
      return "bcast";
    case Collective::gather:
      return "gather";
    case Collective::scatter:
      return "scatter";
    case Collective::allgather:
      return "allgather";
    case Collective::reduce:
      return "reduce";
    case Collective::reduce_scatter:
      return "reduce_scatter";
    case Collective::allreduce:
      return "allreduce";
    case Collective::scan:
      return "scan";
    case Collective::exscan:
      return "exscan";
    case Collective::alltoall:
      return "alltoall";
    case Collective::alltoallv:
      return "alltoallv";
    case Collective::many_to_many:
      return "many_to_many";
  }
  return "?";
}

}  // namespace optcoll::plan
