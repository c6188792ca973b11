// The plan registry: every algorithm optcoll can run, as data: its
// restrictions, its plan factory and its price. Chosen by name
// (OPTCOLL_BCAST=<name>, `--algorithm` in the CLI) or by the one selection
// (select/select.hpp), which reads only this table.
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "optcoll/model/block_count.hpp"
#include "optcoll/model/two_level.hpp"
#include "optcoll/plan/plan.hpp"
#include "optcoll/schedule/all_roots.hpp"

namespace optcoll::trees {
class TreeSchedule;
}
namespace optcoll::logp {
struct Params;
}

namespace optcoll::plan {

class NodeLayout;

// Everything a plan factory may use; it must outlive the plans made from it.
// `graph` is the circulant graph of spec.p (cached per communicator by the
// MPI layer, per run by the simulator). `all_roots` (every rank's receive
// schedule) and `layout` (the caller's buffer layout: one group per rank) are
// set for the collectives that need them: allgather, reduce_scatter,
// allreduce, gather, scatter.
struct PlanContext {
  PlanSpec spec;
  const schedule::Circulant* graph = nullptr;
  const schedule::AllRootsSchedule* all_roots = nullptr;
  const BlockLayout* layout = nullptr;
  // gather/scatter "tree": the tree and its rounds (trees/schedule.hpp),
  // rooted at spec.root, over the layout's groups.
  const trees::TreeSchedule* tree = nullptr;
  // Personalized exchanges (plan::is_exchange): each rank's own layout
  // (alltoall.hpp). The MPI layer sets `layout` to the calling rank's; the
  // simulator sets `rank_layouts` to p layouts, rank r's plan using
  // rank_layouts[r] (`layout` alone: the same at every rank).
  const BlockLayout* rank_layouts = nullptr;
  // bcast/reduce "logp_tree": the machine's LogP parameters (the MPI layer's
  // measured ones, plan/logp_tree.hpp); nullptr: logp::plan_parameters().
  const logp::Params* logp = nullptr;
  // The node-aware plans ("lanes", "leaders"): how the ranks sit on nodes
  // (nodes.hpp); nullptr: every rank its own node (they are then flat).
  const NodeLayout* nodes = nullptr;
};

using PlanFactory = std::unique_ptr<RankPlan> (*)(const PlanContext&, rank_t rank);

// Whether plans of op take their layout from PlanContext::layout (one group
// per rank) and need the all-roots schedule.
constexpr bool has_rank_groups(Collective op) noexcept {
  return op == Collective::gather || op == Collective::scatter || op == Collective::allgather ||
         op == Collective::reduce_scatter || op == Collective::allreduce;
}

// The allreduce layout: count elements split into p adjacent groups of n
// blocks (reduce-scatter + allgather work on the groups), followed by three
// scratch copies of the whole vector, groups [p, 2p), [2p, 3p), [3p, 4p)
// (the small-vector algorithms' partial results; executors allocate a
// scratch copy only when a plan touches it).
BlockLayout allreduce_layout(std::int64_t count, rank_t p, std::int64_t n);

// The layout of op when the caller gives none: for the rank-group
// collectives spec.count elements split evenly into p groups of
// checked_blocks(spec) blocks (allreduce_layout for allreduce), otherwise
// an empty layout (the plans make their own).
BlockLayout default_layout(const PlanSpec& spec);

// The buffer of a plan that moves all data as one message (Blocking::one
// bcast/reduce plans, reused by the ordered reduce-scatter and allreduce):
// for a collective with rank groups, the data groups of ctx.layout, which
// must be dense; otherwise spec.count elements in one block.
class WholeBuffer {
 public:
  explicit WholeBuffer(const PlanContext& ctx);
  WholeBuffer(const WholeBuffer&) = delete;
  WholeBuffer& operator=(const WholeBuffer&) = delete;
  const BlockLayout& layout() const noexcept { return shared_ != nullptr ? *shared_ : own_; }
  // Every data block, as one run (valid only when !empty()).
  BlockRun run() const noexcept { return run_; }
  bool empty() const noexcept { return layout().data_extent() == 0; }
  void send(Step& out, rank_t to) const {
    out.send_to = to;
    out.send.push_back(run_);
  }
  void recv(Step& out, rank_t from, Action a) const {
    out.recv_from = from;
    out.on_recv = a;
    out.recv.push_back(run_);
  }

 private:
  BlockLayout own_;
  const BlockLayout* shared_ = nullptr;
  BlockRun run_{0, 1};
};

// Owns everything a PlanContext points to, for callers without a cache (the
// simulator, the CLI, tests): the graph, the all-roots schedule when the
// operation needs it, and the layout (given, or spec.count split evenly
// into one group per rank with spec.blocks blocks each).
class PlanSetup {
 public:
  explicit PlanSetup(const PlanSpec& spec);
  PlanSetup(const PlanSpec& spec, BlockLayout layout);
  PlanSetup(const PlanSetup&) = delete;
  PlanSetup& operator=(const PlanSetup&) = delete;
  const PlanContext& context() const noexcept { return ctx_; }

 private:
  schedule::Circulant graph_;
  std::unique_ptr<schedule::AllRootsSchedule> all_roots_;
  std::unique_ptr<BlockLayout> layout_;
  PlanContext ctx_;
};

// How an algorithm uses spec.blocks.
enum class Blocking : std::uint8_t {
  one,       // always one block (the whole buffer)
  n,         // spec.blocks blocks (pipelined)
  per_rank,  // p blocks, one per rank
};

// What an algorithm's price depends on, in bytes. m is the data a rank
// holds or ends with: the vector (bcast, reduce, allreduce, scan, exscan),
// every group together (allgather, reduce_scatter, gather, scatter), one
// block (alltoall; the largest message for alltoallv and many_to_many).
// The rank-group collectives, and allreduce's reduce-scatter phase, split
// it into p groups of `smallest` to `largest` bytes (equal groups: both
// m / p). max_blocks bounds the block count n (the elements of the largest
// group, or of the vector).
struct Shape {
  rank_t p = 1;
  int q = 0;  // ceil(log2 p)
  std::int64_t m = 0;
  std::int64_t largest = 0;
  std::int64_t smallest = 0;
  std::int64_t max_blocks = 1;
  // The doubling all-broadcast's bytes: its rounds' largest messages,
  // summed (doubling_elements() of the groups, times the element size);
  // -1: unknown, bounded from largest and smallest. Allreduce: one phase
  // of Rabenseifner's plan (rabenseifner_elements()).
  std::int64_t doubling = -1;
  // How the ranks sit on nodes (plan/nodes.hpp), for the node-aware prices:
  // nodes, full lanes (the smallest node) and the largest node; and whether
  // the operator forces the ordered sub-plans (not commutative).
  rank_t nodes = 1;
  rank_t lanes = 1;
  rank_t node_size = 1;
  bool ordered = false;
};

// An algorithm's cost under the alpha-beta model of the simulator (a round
// costs alpha + beta times its largest message), exact where the blocks
// divide evenly; computation is not priced.
struct Price {
  double time = 0;  // seconds
  std::int64_t rounds = 0;
  std::int64_t blocks = 1;  // n
};
// blocks: 0 for the algorithm's best n for ab (Blocking::n; clamped to
// [1, max_blocks]), else that n.
using PriceFn = Price (*)(const Shape& s, std::int64_t blocks, const model::AlphaBeta& ab);
// A node-aware plan's price on the two-level machine (model/two_level.hpp).
using NodePriceFn = Price (*)(const Shape& s, std::int64_t blocks, const model::TwoLevel& m);

// One registry entry: what the algorithm is, what it needs, what it costs.
struct AlgorithmInfo {
  Collective op = Collective::bcast;
  std::string_view name;
  // Restrictions: only valid for commutative operators; only for exact ones
  // (it combines in an order that depends on the rank, as the
  // dissemination allreduces do, so ranks receiving the same reduced
  // element agree bit for bit only for exact operators, PlanSpec::exact);
  // needs the machine's LogP parameters (PlanContext::logp); needs its
  // per-message overhead (below).
  bool needs_commutative = false;
  bool needs_exact = false;
  bool needs_logp = false;
  // Priced with the machine's per-message overhead (model::AlphaBeta::o),
  // which rounds do not capture: decide()'s automatic choice never takes
  // it; its own rule does (select::v_runs_linear, Gatherv / Scatterv).
  bool needs_overhead = false;
  bool baseline = false;  // a classic algorithm, for comparison: never chosen automatically
  Blocking blocking = Blocking::one;
  // Its rounds pair ranks r +- skip of the circulant graph: the MPI layer
  // renumbers its ranks for locality when asked (plan/locality.hpp).
  bool locality_order = false;
  // Every message is a final delivery: no rank sends on what it received
  // (the exchanges' shift schedule). Then the MPI executor may have a
  // rank's rounds in flight together where its compiled plan allows
  // (CompileOptions::final_messages, Compiled::independent). Not for a
  // plan whose receivers forward: a broadcast root's rounds touch nothing
  // of each other, but in flight together they share its link and delay
  // the tree behind each message.
  bool final_messages = false;
  PlanFactory make = nullptr;
  // nullptr: not priced in the alpha-beta model (logp_tree: LogGP, by
  // simulation, select/select.hpp; the node-aware plans: node_price).
  PriceFn price = nullptr;
  // The node-aware plans (PlanContext::nodes): priced on the two-level
  // machine, candidates only where the ranks span several nodes.
  NodePriceFn node_price = nullptr;
  // Automatic selection considers it only for calls of at most this many
  // bytes (0: any) unless nothing else is valid: the whole-vector
  // allreduces, whose rounds cost far more than the model's beta m beyond
  // model::kDisseminationMaxBytes on a shared node.
  std::int64_t max_bytes = 0;
  std::string_view summary;
};

std::span<const AlgorithmInfo> algorithms() noexcept;

// nullptr if no algorithm of that name exists for op.
const AlgorithmInfo* find_algorithm(Collective op, std::string_view name) noexcept;

// Whether a is valid for spec's operator (needs_commutative, needs_exact).
constexpr bool valid_for(const AlgorithmInfo& a, const PlanSpec& spec) noexcept {
  return (spec.commutative || !a.needs_commutative) && (spec.exact || !a.needs_exact);
}

std::string_view to_string(Collective op) noexcept;

// The algorithms, also callable directly. Each lives in <op>_<name>.cpp.
std::unique_ptr<RankPlan> make_bcast_circulant(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_bcast_binomial(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_bcast_chain(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_bcast_binary_tree(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_bcast_scatter_allgather(const PlanContext& ctx, rank_t rank);
// Node-aware compositions (PlanContext::nodes; composed.hpp): the full-lane
// forms (Träff and Hunold 2020) and the leader-based ones.
std::unique_ptr<RankPlan> make_bcast_lanes(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_reduce_lanes(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_allreduce_lanes(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_allgather_lanes(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_reduce_scatter_lanes(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_bcast_leaders(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_allreduce_leaders(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_reduce_circulant(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_reduce_binomial(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_reduce_chain(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_reduce_binary_tree(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_reduce_binomial_ordered(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_allgather_circulant(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_allgather_doubling(const PlanContext& ctx, rank_t rank);
// The elements on make_allgather_doubling's critical path for these group
// sizes (one per rank): each round's largest message, summed over the
// rounds (alpha-beta: its time is rounds alpha + beta elem_size this).
// O(p) time and memory.
std::int64_t doubling_elements(std::span<const Segment> groups);
std::unique_ptr<RankPlan> make_reduce_scatter_circulant(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_reduce_scatter_halving(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_reduce_scatter_ordered(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_allreduce_circulant(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_allreduce_rabenseifner(const PlanContext& ctx, rank_t rank);
// The elements on the critical path of one phase of
// make_allreduce_rabenseifner for BlockLayout::split(count, p, n) (the
// Allreduce's groups): its reduce-scatter rounds' largest messages, summed
// (the allgather moves the same). O(log p).
std::int64_t rabenseifner_elements(std::int64_t count, rank_t p);
std::unique_ptr<RankPlan> make_allreduce_dissemination(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_allreduce_bruck(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_allreduce_ordered(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_allreduce_doubling(const PlanContext& ctx, rank_t rank);
// Lang 2025's Algorithm 1 exactly as printed, whose special rounds are
// visited in the wrong order (see allreduce_bruck.cpp); tests only.
std::unique_ptr<RankPlan> make_allreduce_bruck_as_printed(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_scan_doubling(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_exscan_doubling(const PlanContext& ctx, rank_t rank);
// Short vectors on tens of ranks: every rank sends its input to every higher
// rank, all in flight, folded in rank order (scan_linear.cpp).
std::unique_ptr<RankPlan> make_scan_linear(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_exscan_linear(const PlanContext& ctx, rank_t rank);
// Long vectors: the pipelined chain 0 -> 1 -> ... -> p-1 (scan_pipeline.cpp).
std::unique_ptr<RankPlan> make_scan_pipeline(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_exscan_pipeline(const PlanContext& ctx, rank_t rank);
// Node-aware: a scan on every node, an exscan of the node totals across one
// rank per node, the prefix broadcast on every node (scan_leaders.cpp).
std::unique_ptr<RankPlan> make_scan_leaders(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_exscan_leaders(const PlanContext& ctx, rank_t rank);
// Gather/scatter trees (Traff 2018; gather_tree.cpp, gather_adaptive_binomial.cpp).
std::unique_ptr<RankPlan> make_gather_binomial(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_scatter_binomial(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_gather_adaptive_binomial(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_scatter_adaptive_binomial(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_gather_linear(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_scatter_linear(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_gather_tree(const PlanContext& ctx, rank_t rank);
// TWO (gather_two.cpp): two size classes; the adaptive binomial tree when
// the layout's counts do not have exactly two values.
std::unique_ptr<RankPlan> make_gather_two(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_scatter_two(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_scatter_tree(const PlanContext& ctx, rank_t rank);
// Node-aware: the binomial tree on every node to its leader, then across the
// leaders to the root (plan::LeadersTree; gather_leaders.cpp).
std::unique_ptr<RankPlan> make_gather_leaders(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_scatter_leaders(const PlanContext& ctx, rank_t rank);
// Personalized exchanges (alltoall.hpp): the shift schedule (alltoall,
// alltoallv, and many_to_many's "direct"), Bruck's hypercubic exchange
// (equal counts), two-phase balanced routing (many_to_many).
std::unique_ptr<RankPlan> make_alltoall_shift(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_alltoall_bruck(const PlanContext& ctx, rank_t rank);
std::unique_ptr<RankPlan> make_many_to_many_two_phase(const PlanContext& ctx, rank_t rank);

}  // namespace optcoll::plan
