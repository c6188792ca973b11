// The registry's price functions (plan::PriceFn): each algorithm's rounds
// and alpha-beta time as a function of the call's Shape and block count,
// from the closed forms of model/ (block_count.hpp, baselines.hpp,
// alltoall.hpp). tests/select checks them against the simulator.
#pragma once

#include "optcoll/plan/algorithms.hpp"

namespace optcoll::plan::prices {

using model::AlphaBeta;

// n-1+q rounds of m/n bytes (the circulant broadcast and reduction).
Price circulant(const Shape& s, std::int64_t blocks, const AlphaBeta& ab);
// The classic broadcasts (and reductions run backwards).
Price binomial(const Shape& s, std::int64_t blocks, const AlphaBeta& ab);
Price chain(const Shape& s, std::int64_t blocks, const AlphaBeta& ab);
Price binary_tree(const Shape& s, std::int64_t blocks, const AlphaBeta& ab);
Price scatter_allgather(const Shape& s, std::int64_t blocks, const AlphaBeta& ab);
// The rank-ordered binomial reduction: q rounds of the whole vector.
Price binomial_ordered(const Shape& s, std::int64_t blocks, const AlphaBeta& ab);
// p circulant broadcasts at once (allgather, reduce-scatter), n-1+q rounds.
Price all_broadcast(const Shape& s, std::int64_t blocks, const AlphaBeta& ab);
// The same by recursive doubling / halving in rank order (one block per
// group): floor(log2 p) rounds, two more unless p is a power of two.
Price all_broadcast_doubling(const Shape& s, std::int64_t blocks, const AlphaBeta& ab);
// Reduce-scatter of the whole vector to rank 0 and binomial scatter.
Price reduce_scatter_ordered(const Shape& s, std::int64_t blocks, const AlphaBeta& ab);
// Allreduce: reduce-scatter + allgather (2 all_broadcast); q rounds of the
// whole vector (dissemination, Bruck); doubling; reduce + broadcast.
Price allreduce_circulant(const Shape& s, std::int64_t blocks, const AlphaBeta& ab);
// Recursive halving, then doubling: 2 all_broadcast_doubling.
Price allreduce_rabenseifner(const Shape& s, std::int64_t blocks, const AlphaBeta& ab);
Price whole_vector_rounds(const Shape& s, std::int64_t blocks, const AlphaBeta& ab);
// Bruck with the partial buffer: a round that appends the r-partial (every
// one-bit of l = p - 2^floor(log2 p) but the lowest) moves 2m.
Price allreduce_bruck(const Shape& s, std::int64_t blocks, const AlphaBeta& ab);
Price allreduce_doubling(const Shape& s, std::int64_t blocks, const AlphaBeta& ab);
Price allreduce_ordered(const Shape& s, std::int64_t blocks, const AlphaBeta& ab);
// Scan / Exscan: the pipelined chain of depth p-1, n+p-2 rounds.
Price scan_pipeline(const Shape& s, std::int64_t blocks, const AlphaBeta& ab);
// Scan / Exscan, linear: rank p-1 takes p - 1 messages of m bytes in a row,
// o apart, while its link carries them: alpha + max((p-2) o, beta (p-1) m),
// as gather_linear (o above alpha counts alpha). o unknown (0): its p - 1
// rounds one after another, so it never beats doubling without a measured o.
Price scan_linear(const Shape& s, std::int64_t blocks, const AlphaBeta& ab);
// Gather / scatter trees: q rounds, the root moves every group but its own.
Price gather_tree(const Shape& s, std::int64_t blocks, const AlphaBeta& ab);
// The root takes (gather) or posts (scatter) p - 1 messages in a row, o
// apart, while its link carries the bytes: one latency, then the longer of
// the two. o unknown (0) or above alpha counts alpha per message.
Price gather_linear(const Shape& s, std::int64_t blocks, const AlphaBeta& ab);
// Personalized exchanges (model/alltoall.hpp).
Price alltoall_shift(const Shape& s, std::int64_t blocks, const AlphaBeta& ab);
Price alltoall_bruck(const Shape& s, std::int64_t blocks, const AlphaBeta& ab);
Price many_to_many_two_phase(const Shape& s, std::int64_t blocks, const AlphaBeta& ab);

// The node-aware plans on the two-level machine (prices_nodes.cpp).
using model::TwoLevel;
// Bcast and Reduce over all lanes: the pieces on the root's node and every
// node, the circulant broadcast (reduction) on the lanes, n blocks.
Price bcast_lanes(const Shape& s, std::int64_t blocks, const TwoLevel& m);
Price reduce_lanes(const Shape& s, std::int64_t blocks, const TwoLevel& m);
Price allreduce_lanes(const Shape& s, std::int64_t blocks, const TwoLevel& m);
// Allgather and Reduce_scatter over all lanes.
Price allgather_lanes(const Shape& s, std::int64_t blocks, const TwoLevel& m);
Price bcast_leaders(const Shape& s, std::int64_t blocks, const TwoLevel& m);
Price allreduce_leaders(const Shape& s, std::int64_t blocks, const TwoLevel& m);
// Scan and Exscan through one rank per node (doubling on every node, across
// the nodes, the binomial broadcast on every node).
Price scan_leaders(const Shape& s, std::int64_t blocks, const TwoLevel& m);
// Gather and Scatter through one rank per node (the binomial tree on every
// node, then across the nodes' leaders: plan::LeadersTree).
Price gather_leaders(const Shape& s, std::int64_t blocks, const TwoLevel& m);

}  // namespace optcoll::plan::prices
