// `optcoll simulate alltoall|alltoallv|many_to_many`: the personalized
// exchanges (plan/alltoall.hpp) over p virtual ranks on a traffic pattern,
// every algorithm side by side (cmd_exchange.cpp; cmd_simulate.cpp parses).
#pragma once

#include <cstdint>
#include <string>

#include "optcoll/model/block_count.hpp"
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
int run_exchange(const ExchangeArgs& a);

}  // namespace optcoll::cli
