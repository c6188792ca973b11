// Closed-form alpha-beta times of the classic broadcast algorithms, in the
// simulator's round-synchronous model (a round costs alpha + beta * bytes of
// its largest message). Blocks are taken as ceil(m/n) bytes, so the formulas
// are exact when n divides m and upper bounds otherwise; tests/sim checks
// them against simulated runs of the plans. A reduction that is a reversed
// broadcast has the same communication, hence the same time in this model
// (computation is not priced).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "optcoll/model/block_count.hpp"

namespace optcoll::model {

struct BaselinePrice {
  std::string_view name;
  std::int64_t blocks = 1;  // n used (the best for the model, for pipelined ones)
  std::int64_t rounds = 0;
  double time = 0;  // seconds
};

// p ranks, m bytes, at most max_blocks blocks (the element count).
BaselinePrice price_binomial(std::int64_t p, std::int64_t m, const AlphaBeta& ab);
BaselinePrice price_chain(std::int64_t p, std::int64_t m, std::int64_t max_blocks, const AlphaBeta& ab);
BaselinePrice price_binary_tree(std::int64_t p, std::int64_t m, std::int64_t max_blocks, const AlphaBeta& ab);
BaselinePrice price_scatter_allgather(std::int64_t p, std::int64_t m, const AlphaBeta& ab);
// The same with a given block count (for tests against the simulator).
BaselinePrice price_chain_n(std::int64_t p, std::int64_t m, std::int64_t n, const AlphaBeta& ab);
BaselinePrice price_binary_tree_n(std::int64_t p, std::int64_t m, std::int64_t n, const AlphaBeta& ab);

// All of the above, in that order.
std::vector<BaselinePrice> price_baselines(std::int64_t p, std::int64_t m, std::int64_t max_blocks,
                                           const AlphaBeta& ab);

// Rounds of the pipelined binary tree before its last block starts: the
// latest round in which any node receives block 0 (plan/bcast_binary_tree).
std::int64_t binary_tree_first_arrival(std::int64_t p) noexcept;

}  // namespace optcoll::model

namespace optcoll::model {

// Classic algorithms for the all-to-all collectives, in the same model.
// `groups` are the bytes each rank contributes (allgatherv) or receives
// (reduce_scatter).
// Ring: p-1 rounds; in each, every group is on the wire somewhere, so a
// round costs alpha + beta * (largest group).
BaselinePrice price_allgather_ring(const std::vector<std::int64_t>& groups, const AlphaBeta& ab);
// Bruck / dissemination: round k sends the 2^k groups a rank has (p - 2^k
// in the last round) to rank r - 2^k: the largest cyclic window sum prices
// the round.
BaselinePrice price_allgather_bruck(const std::vector<std::int64_t>& groups, const AlphaBeta& ab);
// Allreduce of m bytes: ring reduce-scatter + ring allgather; recursive
// doubling (q rounds of m bytes, plus two for a non-power of two);
// Rabenseifner (recursive halving reduce-scatter + doubling allgather).
BaselinePrice price_allreduce_ring(std::int64_t p, std::int64_t m, const AlphaBeta& ab);
BaselinePrice price_allreduce_recursive_doubling(std::int64_t p, std::int64_t m, const AlphaBeta& ab);
BaselinePrice price_allreduce_rabenseifner(std::int64_t p, std::int64_t m, const AlphaBeta& ab);

}  // namespace optcoll::model
