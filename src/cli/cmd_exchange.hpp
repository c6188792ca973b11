// `optcoll simulate alltoall|alltoallv|many_to_many`: the personalized
// exchanges (plan/alltoall.hpp) over p virtual ranks on a traffic pattern,
// every algorithm side by side (cmd_exchange.cpp; cmd_simulate.cpp parses).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "optcoll/model/block_count.hpp"
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/sim/simulator.hpp"

namespace optcoll::cli {

struct ExchangeArgs {
  std::string op;  // alltoall, alltoallv, many_to_many
  std::int64_t p = 0;
  std::int64_t m = 0;     // bytes of a (large) message
  std::string traffic;    // regular, hot_sender, hot_receiver, sparse, permutation
  std::string algorithm;  // empty: all of op's algorithms
  std::int64_t elem_size = 1;
  std::uint64_t seed = 1;
  unsigned threads = 2;
  bool json = false;
  model::AlphaBeta ab;
  sim::LogGP loggp;
};

bool is_exchange_op(const std::string& op);

// The p x p message sizes of a traffic pattern (cmd_exchange.cpp), in
// elements, `big` per large message; counts[i*p + j] from i to j. Throws
// UsageError for an unknown pattern.
std::vector<std::int64_t> exchange_traffic(std::int64_t p, const std::string& pattern, std::int64_t big,
                                           std::uint64_t seed);

// The destinations of the "permutation" pattern: rank i sends to perm[i].
std::vector<std::int64_t> exchange_permutation(std::int64_t p, std::uint64_t seed);

// The largest row sum (elements one rank sends) and column sum (receives).
struct ExchangeVolumes {
  std::int64_t max_send = 0;
  std::int64_t max_recv = 0;
};
ExchangeVolumes exchange_volumes(std::int64_t p, std::span<const std::int64_t> counts);

// One algorithm of the exchange op on counts, data flow verified.
sim::SimResult simulate_exchange(plan::Collective op, std::int64_t p, std::span<const std::int64_t> counts,
                                 const plan::AlgorithmInfo& alg, const sim::SimOptions& opt);

int run_exchange(const ExchangeArgs& a);

}  // namespace optcoll::cli
