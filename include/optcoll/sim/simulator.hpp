// The simulator: runs a plan over p virtual ranks in one process.
//
// Every round it posts every rank's step through plan::post_round() (the same
// walker the MPI executor uses), matches each send with the receive at the
// other end (same peer, same block ids), and tracks symbolically what each
// rank's working buffer holds:
//  - copy collectives (bcast): which of the root's blocks a rank holds; a
//    rank may only send blocks it holds; at the end every rank holds all;
//  - reductions, commutative operator: the set of ranks whose contributions
//    a partial block holds; combining overlapping sets is an error (a
//    contribution counted twice); at the end every result block holds every
//    rank once. Exact bitsets for p <= exact_limit; beyond, a count plus a
//    sum of 64-bit per-rank hashes;
//  - reductions, non-commutative operator: the rank interval a partial block
//    covers; a combination must join adjacent intervals in rank order (the
//    receiver's Action says on which side), ending in [0, p);
//  - reductions, besides: the expression each block stands for (operands,
//    their order and association, as a hash), so that the simulator can
//    tell whether the ranks ending with the same reduced block computed it
//    the same way, and so hold the same bits for any operator
//    (SimResult::identical).
// Blocks are tracked all, or, when p * blocks is too large, a fixed sample
// of them (first, last, middle); matching, one-portedness and costs always
// cover every block.
//
// Cost: rounds; alpha-beta (a round lasts as long as its slowest message,
// alpha + beta * bytes); alpha-beta with a clock per rank (a message starts
// when both ends have finished their previous rounds and occupies both for
// alpha + beta * bytes: the completion time of tree algorithms, where ranks
// are not in lockstep); LogGP with a clock per rank (a send of b bytes keeps
// the sender busy o + (b-1)G, arrives L later, costs the receiver o; a rank's
// next round starts when its send and receive of this round are done, and
// sends are at least g apart).
//
// Time O(p * rounds) step evaluations plus O(tracked blocks) payload work.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "optcoll/model/block_count.hpp"
#include "optcoll/model/two_level.hpp"
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/nodes.hpp"

namespace optcoll::sim {

struct LogGP {
  double L = 1e-6;    // latency, seconds
  double o = 0.5e-6;  // overhead per message at each end, seconds
  double g = 0.5e-6;  // gap between consecutive sends, seconds
  double G = 1e-10;   // seconds per byte
};

// Local work outside messages, charged to the alpha-beta clock only: `rank`
// is busy for `seconds` before its messages of round `round` (round >= the
// plan's rounds: after its last). The local copy of a rank's own block in
// Traff 2018's gather/scatter trees (gamma; trees::TreeSchedule::copy_round).
struct LocalWork {
  plan::rank_t rank = 0;
  std::int64_t round = 0;
  double seconds = 0;
};

struct SimOptions {
  std::int64_t elem_size = 1;  // bytes per element
  model::AlphaBeta alpha_beta;
  LogGP loggp;
  plan::rank_t exact_limit = 1024;                         // exact contributor sets up to this p
  std::int64_t max_tracked_bytes = std::int64_t{1} << 29;  // payload memory budget
  bool track_payload = true;
  int max_errors = 8;
  unsigned threads = 2;               // for p >= 4096: posting and matching in parallel
  std::vector<LocalWork> local_work;  // alpha-beta clock only; none by default
  // A two-level network for the LogGP clock (the leaf switches of a fat
  // tree, the nodes of a cluster): a message between ranks r and s with
  // r / latency_group != s / latency_group takes far_latency instead of
  // loggp.L. 0: one level.
  plan::rank_t latency_group = 0;
  double far_latency = 0;
  // The LogGP clock of a plan whose rounds do not wait for each other
  // (plan::AlgorithmInfo::final_messages: nothing received is sent on, and
  // the MPI executor streams such rounds through its window): a rank posts
  // its sends back to back, each max(o + (bytes-1) G, g) after the last,
  // and completes a receive o after it arrives; the time is the last send
  // or receive. false: a round ends when its receive has completed.
  bool streamed = false;
  // The two-level machine (model/two_level.hpp): with nodes set (p ranks),
  // every round is also priced on it (SimResult::two_level_time).
  const plan::NodeLayout* nodes = nullptr;
  model::TwoLevel two_level;
};

struct SimResult {
  std::int64_t rounds = 0;         // rounds of the plan
  std::int64_t active_rounds = 0;  // rounds in which some message moved
  std::int64_t last_active_round = -1;
  std::int64_t messages = 0;
  std::int64_t total_bytes = 0;
  std::int64_t max_bytes_sent = 0;  // by any one rank over the whole run
  std::int64_t max_bytes_received = 0;
  std::int64_t max_message_bytes = 0;
  double alpha_beta_time = 0;        // seconds, rounds in lockstep
  double alpha_beta_clock_time = 0;  // seconds, a clock per rank
  double loggp_time = 0;             // seconds
  double two_level_time = 0;         // seconds, rounds in lockstep on SimOptions::two_level (0 without nodes)
  std::string payload;               // how data flow was checked: "exact", "fingerprint", "interval", "none"
  std::int64_t tracked_blocks = 0;
  std::int64_t blocks = 0;
  std::vector<std::string> errors;
  // Reductions: every rank that ends with the same reduced block (all ranks
  // for allreduce) holds the same expression of the same operands, so the
  // same bits for any deterministic operator, floating point included.
  // Not an error when false: the plans marked AlgorithmInfo::needs_exact
  // are correct for exact operators only. Checked on the tracked blocks.
  bool identical = true;
  bool ok() const noexcept { return errors.empty(); }
};

// Runs the plan made by `make` for every rank of ctx.spec.p. Never throws for
// a wrong plan: every inconsistency becomes an entry of errors. Throws
// optcoll::Error for an invalid spec.
SimResult simulate(const plan::PlanContext& ctx, plan::PlanFactory make, const SimOptions& opt = {});

// A personalized exchange (plan/alltoall.hpp): the plan of `make` for op on
// p ranks, rank r with its own layout layouts[r].
SimResult simulate_exchange(plan::Collective op, plan::rank_t p, const std::vector<plan::BlockLayout>& layouts,
                            plan::PlanFactory make, const SimOptions& opt = {});

}  // namespace optcoll::sim
