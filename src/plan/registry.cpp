// The algorithm registry as data.

#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/logp_tree.hpp"
#include "prices.hpp"

namespace optcoll::plan {
namespace {

using C = Collective;
using B = Blocking;

// One entry per algorithm: op, name, restrictions, blocking, factory,
// price (prices.hpp), summary. Automatic selection (select/) considers the
// entries that are not baselines, valid for the call, and priced.
constexpr AlgorithmInfo kAlgorithms[] = {
    {.op = C::bcast,
     .name = "circulant",
     .blocking = B::n,
     .locality_order = true,
     .make = &make_bcast_circulant,
     .price = &prices::circulant,
     .summary = "n blocks in n-1+ceil(log2 p) rounds on the circulant graph (Traff 2024, Alg. 1)"},
    {.op = C::bcast,
     .name = "binomial",
     .baseline = true,
     .make = &make_bcast_binomial,
     .price = &prices::binomial,
     .summary = "binomial tree, whole buffer, ceil(log2 p) rounds"},
    {.op = C::bcast,
     .name = "chain",
     .baseline = true,
     .blocking = B::n,
     .make = &make_bcast_chain,
     .price = &prices::chain,
     .summary = "pipelined chain, p+n-2 rounds"},
    {.op = C::bcast,
     .name = "binary_tree",
     .baseline = true,
     .blocking = B::n,
     .make = &make_bcast_binary_tree,
     .price = &prices::binary_tree,
     .summary = "pipelined binary tree, about 2(n+log2 p) rounds"},
    {.op = C::bcast,
     .name = "scatter_allgather",
     .baseline = true,
     .blocking = B::per_rank,
     .make = &make_bcast_scatter_allgather,
     .price = &prices::scatter_allgather,
     .summary = "van de Geijn: binomial scatter + ring allgather, ceil(log2 p)+p-1 rounds"},
    {.op = C::bcast,
     .name = "lanes",
     .blocking = B::n,
     .make = &make_bcast_lanes,
     .node_price = &prices::bcast_lanes,
     .summary = "full-lane: scatter on the root's node, the pieces broadcast on every lane at once (circulant), "
                "allgather on every node (Traff and Hunold 2020)"},
    {.op = C::bcast,
     .name = "leaders",
     .make = &make_bcast_leaders,
     .node_price = &prices::bcast_leaders,
     .summary = "one rank per node: binomial tree across the nodes on the root's lane, then within every node"},
    {.op = C::reduce,
     .name = "circulant",
     .needs_commutative = true,
     .blocking = B::n,
     .locality_order = true,
     .make = &make_reduce_circulant,
     .price = &prices::circulant,
     .summary = "the circulant broadcast reversed, n-1+ceil(log2 p) rounds (Traff 2024, Obs. 1.3)"},
    {.op = C::reduce,
     .name = "lanes",
     .blocking = B::n,
     .make = &make_reduce_lanes,
     .node_price = &prices::reduce_lanes,
     .summary = "full-lane: reduce-scatter on every node, the pieces reduced on every lane at once to the root's "
                "node (circulant), gather at the root"},
    {.op = C::reduce,
     .name = "binomial_ordered",
     .make = &make_reduce_binomial_ordered,
     .price = &prices::binomial_ordered,
     .summary = "rank-ordered binomial tree, any operator, ceil(log2 p) (+1) rounds"},
    {.op = C::reduce,
     .name = "binomial",
     .needs_commutative = true,
     .baseline = true,
     .make = &make_reduce_binomial,
     .price = &prices::binomial,
     .summary = "binomial tree reversed, whole buffer, ceil(log2 p) rounds"},
    {.op = C::reduce,
     .name = "chain",
     .needs_commutative = true,
     .baseline = true,
     .blocking = B::n,
     .make = &make_reduce_chain,
     .price = &prices::chain,
     .summary = "pipelined chain reversed, p+n-2 rounds"},
    {.op = C::reduce,
     .name = "binary_tree",
     .needs_commutative = true,
     .baseline = true,
     .blocking = B::n,
     .make = &make_reduce_binary_tree,
     .price = &prices::binary_tree,
     .summary = "pipelined binary tree reversed, about 2(n+log2 p) rounds"},
    // Before the circulant plans: at a tie (p a power of two, equal groups:
    // the same q rounds and volume at one block per group) recursive
    // doubling's partners, rank xor 2^k, stay on one node or leaf switch in
    // the first rounds (allgather_doubling.cpp;
    // docs/decisions/all-broadcast-doubling-wins-ties.md).
    {.op = C::allgather,
     .name = "doubling",
     .make = &make_allgather_doubling,
     .price = &prices::all_broadcast_doubling,
     .summary = "recursive doubling in rank order, one block per group, q rounds (q+1 unless p is a power of two)"},
    {.op = C::reduce_scatter,
     .name = "halving",
     .needs_commutative = true,
     .make = &make_reduce_scatter_halving,
     .price = &prices::all_broadcast_doubling,
     .summary = "recursive halving in rank order, the doubling allgather reversed, one block per group, "
                "q rounds (q+1 unless p is a power of two)"},
    {.op = C::allgather,
     .name = "circulant",
     .blocking = B::n,
     .locality_order = true,
     .make = &make_allgather_circulant,
     .price = &prices::all_broadcast,
     .summary = "p circulant broadcasts at once, one packed message per round, n-1+q rounds (Traff 2024, Alg. 7)"},
    {.op = C::allgather,
     .name = "lanes",
     .blocking = B::n,
     .make = &make_allgather_lanes,
     .node_price = &prices::allgather_lanes,
     .summary = "full-lane: allgather on every lane at once (circulant), then on every node"},
    {.op = C::reduce_scatter,
     .name = "circulant",
     .needs_commutative = true,
     .blocking = B::n,
     .locality_order = true,
     .make = &make_reduce_scatter_circulant,
     .price = &prices::all_broadcast,
     .summary = "p circulant reductions at once, the allgather reversed, n-1+q rounds (Traff 2024, Obs. 1.4)"},
    {.op = C::reduce_scatter,
     .name = "lanes",
     .blocking = B::n,
     .make = &make_reduce_scatter_lanes,
     .node_price = &prices::allgather_lanes,
     .summary = "full-lane: reduce-scatter on every node by lane, then on every lane at once (circulant)"},
    {.op = C::reduce_scatter,
     .name = "ordered",
     .make = &make_reduce_scatter_ordered,
     .price = &prices::reduce_scatter_ordered,
     .summary =
         "rank-ordered binomial reduction to rank 0, then binomial scatter, any operator, 2 ceil(log2 p) rounds"},
    // Before the circulant plan, as allgather/doubling: the tie at p a power
    // of two and n = 1 goes to partners close in rank, the closest for the
    // largest messages (under SMPI, fat trees, p = 256 and 1024, 1 MiB:
    // docs/smpi.md).
    {.op = C::allreduce,
     .name = "rabenseifner",
     .needs_commutative = true,
     .make = &make_allreduce_rabenseifner,
     .price = &prices::allreduce_rabenseifner,
     .summary = "reduce-scatter by vector halving with distance doubling, then the allgather back, "
                "2q rounds (the whole vector folds in unless p is a power of two)"},
    {.op = C::allreduce,
     .name = "circulant",
     .needs_commutative = true,
     .blocking = B::n,
     .locality_order = true,
     .make = &make_allreduce_circulant,
     .price = &prices::allreduce_circulant,
     .summary = "circulant reduce-scatter then allgather, 2(n-1+q) rounds, for long vectors"},
    {.op = C::allreduce,
     .name = "lanes",
     .blocking = B::n,
     .make = &make_allreduce_lanes,
     .node_price = &prices::allreduce_lanes,
     .summary = "full-lane: reduce-scatter on every node, the pieces allreduced on every lane at once (circulant), "
                "allgather on every node"},
    {.op = C::allreduce,
     .name = "leaders",
     .make = &make_allreduce_leaders,
     .node_price = &prices::allreduce_leaders,
     .summary = "one rank per node: reduce on every node, recursive doubling across the nodes, broadcast on every "
                "node"},
    // Before the dissemination plans: at a tie (p a power of two, the same
    // q rounds of the whole vector) the doubling plan's partners, rank xor
    // 2^k, stay close in rank for the first rounds, and so on one node or
    // leaf switch, where dissemination's rank + 2^k crosses a boundary in
    // every round (docs/decisions/allreduce-doubling-wins-ties.md).
    {.op = C::allreduce,
     .name = "doubling",
     .make = &make_allreduce_doubling,
     .price = &prices::allreduce_doubling,
     .max_bytes = model::kDisseminationMaxBytes,
     .summary = "recursive doubling in rank order, the same bits on every rank for any operator, "
                "q rounds (q+1 unless p is a power of two)"},
    {.op = C::allreduce,
     .name = "dissemination",
     .needs_commutative = true,
     .needs_exact = true,
     .make = &make_allreduce_dissemination,
     .price = &prices::whole_vector_rounds,
     .max_bytes = model::kDisseminationMaxBytes,
     .summary = "circulant dissemination, ceil(log2 p) rounds of the whole vector (Lang 2025, Alg. 2)"},
    {.op = C::allreduce,
     .name = "bruck",
     .needs_commutative = true,
     .needs_exact = true,
     .make = &make_allreduce_bruck,
     .price = &prices::allreduce_bruck,
     .max_bytes = model::kDisseminationMaxBytes,
     .summary = "Bruck dissemination with a partial buffer, ceil(log2 p) rounds (Lang 2025, Alg. 1)"},
    {.op = C::allreduce,
     .name = "ordered",
     .make = &make_allreduce_ordered,
     .price = &prices::allreduce_ordered,
     .max_bytes = model::kDisseminationMaxBytes,
     .summary =
         "rank-ordered binomial reduction to rank 0, then binomial broadcast, any operator, 2 ceil(log2 p) rounds"},
    {.op = C::scan,
     .name = "doubling",
     .make = &make_scan_doubling,
     .price = &prices::whole_vector_rounds,
     .summary = "recursive doubling on the rank line, ceil(log2 p) rounds, any operator"},
    {.op = C::exscan,
     .name = "doubling",
     .make = &make_exscan_doubling,
     .price = &prices::whole_vector_rounds,
     .summary = "recursive doubling with inclusive and exclusive partials, ceil(log2 p) rounds, any operator"},
    {.op = C::scan,
     .name = "pipeline",
     .blocking = B::n,
     .make = &make_scan_pipeline,
     .price = &prices::scan_pipeline,
     .summary = "pipelined chain along the rank line, n+p-2 rounds of m/n bytes, any operator, long vectors"},
    {.op = C::exscan,
     .name = "pipeline",
     .blocking = B::n,
     .make = &make_exscan_pipeline,
     .price = &prices::scan_pipeline,
     .summary = "pipelined chain forwarding inclusive prefixes, n+p-2 rounds of m/n bytes, any operator"},
    {.op = C::scan,
     .name = "linear",
     .final_messages = true,
     .make = &make_scan_linear,
     .price = &prices::scan_linear,
     .max_bytes = model::kLinearScanMaxBytes,
     .summary = "every rank sends its input to every higher rank, p-1 messages in flight, folded in rank order, "
                "any operator, priced with the per-message overhead o"},
    {.op = C::exscan,
     .name = "linear",
     .final_messages = true,
     .make = &make_exscan_linear,
     .price = &prices::scan_linear,
     .max_bytes = model::kLinearScanMaxBytes,
     .summary = "every rank sends its input to every higher rank, p-1 messages in flight, folded in rank order, "
                "any operator, priced with the per-message overhead o"},
    {.op = C::scan,
     .name = "leaders",
     .make = &make_scan_leaders,
     .node_price = &prices::scan_leaders,
     .summary = "one rank per node: doubling scan on every node, the node totals exscanned across the nodes' last "
                "ranks, the prefix broadcast on every node and combined on the left, any operator"},
    {.op = C::exscan,
     .name = "leaders",
     .make = &make_exscan_leaders,
     .node_price = &prices::scan_leaders,
     .summary = "one rank per node: doubling exscan on every node, the node totals exscanned across the nodes' last "
                "ranks, the prefix broadcast on every node and combined on the left, any operator"},
    {.op = C::gather,
     .name = "binomial",
     .make = &make_gather_binomial,
     .price = &prices::gather_tree,
     .summary = "rank-ordered binomial tree, ceil(log2 p) rounds (Traff 2018, Oblivious)"},
    {.op = C::gather,
     .name = "adaptive_binomial",
     .make = &make_gather_adaptive_binomial,
     .price = &prices::gather_tree,
     .summary = "binomial tree, the smaller side sends, ceil(log2 p) rounds (Traff 2018, Prop. 1)"},
    {.op = C::gather,
     .name = "tree",
     .make = &make_gather_tree,
     .price = &prices::gather_tree,
     .summary = "PlanContext::tree, e.g. the optimal ordered tree (Traff 2018, Fig. 6); else binomial"},
    {.op = C::gather,
     .name = "two",
     .make = &make_gather_two,
     .price = &prices::gather_tree,
     .summary = "two size classes gathered concurrently, one message between their roots (Traff 2018, Lemma 2)"},
    {.op = C::gather,
     .name = "leaders",
     .make = &make_gather_leaders,
     .node_price = &prices::gather_leaders,
     .summary = "one rank per node: binomial tree on every node to its leader, then across the leaders to the root, "
                "ceil(log2 ppn)+ceil(log2 N) rounds"},
    // The star: what MPI libraries run for Gatherv, chosen for Gatherv and
    // Scatterv where the root's p - 1 messages in a row (o apart) cost less
    // than building and running a tree (select::v_runs_linear). Its messages
    // are final deliveries, so the root has them in flight together.
    {.op = C::gather,
     .name = "linear",
     .needs_overhead = true,
     .final_messages = true,
     .make = &make_gather_linear,
     .price = &prices::gather_linear,
     .summary = "every rank sends its block straight to the root, p-1 messages in flight, priced with the "
                "per-message overhead o"},
    {.op = C::scatter,
     .name = "binomial",
     .make = &make_scatter_binomial,
     .price = &prices::gather_tree,
     .summary = "rank-ordered binomial tree, ceil(log2 p) rounds (Traff 2018, Oblivious)"},
    {.op = C::scatter,
     .name = "adaptive_binomial",
     .make = &make_scatter_adaptive_binomial,
     .price = &prices::gather_tree,
     .summary = "the adaptive gather tree run backwards, ceil(log2 p) rounds (Traff 2018, Prop. 1)"},
    {.op = C::scatter,
     .name = "two",
     .make = &make_scatter_two,
     .price = &prices::gather_tree,
     .summary = "the TWO gather tree run backwards (Traff 2018, Lemma 2)"},
    {.op = C::scatter,
     .name = "tree",
     .make = &make_scatter_tree,
     .price = &prices::gather_tree,
     .summary = "PlanContext::tree, e.g. the optimal ordered tree (Traff 2018, Fig. 6); else binomial"},
    {.op = C::scatter,
     .name = "leaders",
     .make = &make_scatter_leaders,
     .node_price = &prices::gather_leaders,
     .summary = "one rank per node: the leaders' gather tree run backwards, across the nodes first, then within "
                "every node"},
    {.op = C::scatter,
     .name = "linear",
     .needs_overhead = true,
     .final_messages = true,
     .make = &make_scatter_linear,
     .price = &prices::gather_linear,
     .summary = "the root sends every block straight to its rank, p-1 messages in flight, priced with the "
                "per-message overhead o"},
    {.op = C::bcast,
     .name = "logp_tree",
     .needs_logp = true,
     .make = &make_bcast_logp_tree,
     .summary = "whole buffer along the LogP-optimal tree B(p) for the measured L, o, g (Karp et al. 1993, §2)"},
    {.op = C::reduce,
     .name = "logp_tree",
     .needs_logp = true,
     .make = &make_reduce_logp_tree,
     .summary = "optimal summation tree: B(p) for L+1 reversed, any operator (Karp et al. 1993, §5)"},
    {.op = C::alltoall,
     .name = "shift",
     .final_messages = true,
     .make = &make_alltoall_shift,
     .price = &prices::alltoall_shift,
     .summary = "step j: rank i sends to i+j, receives from i-j; p-1 rounds of one block (notes §8.2)"},
    {.op = C::alltoall,
     .name = "bruck",
     .make = &make_alltoall_bruck,
     .price = &prices::alltoall_bruck,
     .summary = "hypercubic: ceil(log2 p) rounds of about p/2 blocks, any p, rotations by indexing (notes §8.3)"},
    {.op = C::alltoallv,
     .name = "shift",
     .final_messages = true,
     .make = &make_alltoall_shift,
     .price = &prices::alltoall_shift,
     .summary = "step j: rank i sends to i+j, receives from i-j; p-1 rounds, empty messages skipped (notes §8.2)"},
    {.op = C::many_to_many,
     .name = "two_phase",
     .make = &make_many_to_many_two_phase,
     .price = &prices::many_to_many_two_phase,
     .summary = "every message split in p pieces spread over all ranks, then routed: 2(p-1) rounds (notes §9)"},
    {.op = C::many_to_many,
     .name = "direct",
     .baseline = true,
     .make = &make_alltoall_shift,
     .price = &prices::alltoall_shift,
     .summary = "the shift schedule on the whole messages (Alltoallv), for comparison"},
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
