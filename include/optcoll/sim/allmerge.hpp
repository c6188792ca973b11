// Cost of the merge all-reduction (Lang 2025) in the simulator. The
// circulant and Bruck variants run the allreduce plans `dissemination` and
// `bruck` with buffers that grow as they merge (mpi/collectives/allmerge.cpp), so the
// plain simulator's fixed block sizes do not price them: this walks the same
// plan for every virtual rank, tracking how many keys each of a rank's four
// buffers holds, and prices each round in lockstep as
// alpha + beta * (largest message) + gamma * (most keys merged by a rank).
// It checks that every rank ends with all keys (a lost or doubled
// contribution shows as a wrong count; the data flow itself is verified by
// the simulator's exact tracking of the same plans). O(p) per round.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "optcoll/model/block_count.hpp"

namespace optcoll::sim {

struct MergeCost {
  std::int64_t rounds = 0;
  double time = 0;                  // seconds, alpha-beta-gamma lockstep
  std::int64_t max_sent_bytes = 0;  // most bytes one rank sends in total
  bool complete = false;            // every rank ends with every key
};

// keys[r]: rank r's run length; algorithm: "circulant", "bruck" or
// "allgatherv" (priced as an allgatherv at the bandwidth lower bound,
// ceil(log2 p) alpha + beta (total - own), then a bottom-up merge tree of
// ceil(log2 p) passes over all keys). Throws optcoll::Error for an unknown
// algorithm.
MergeCost allmerge_cost(std::string_view algorithm, std::span<const std::int64_t> keys, std::int64_t key_bytes,
                        const model::AlphaBeta& ab, double gamma);

}  // namespace optcoll::sim
