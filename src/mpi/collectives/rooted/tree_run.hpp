// Running one rank's part of a gather or scatter tree (plan/tree_plan.hpp)
// over MPI: the glue between a tree construction (binomial, the distributed
// adaptive binomial, TWO, the persistent optimal tree) and the executor.
//
// Buffers. At the root the working buffer is the caller's buffer with the
// caller's datatype (recvtype of Gather(v), sendtype of Scatter(v)), one
// group per rank at its displacement, in any order. Every other rank works
// in bytes: a packed buffer holding its subtree's blocks in rank order, one
// local group per non-empty child subtree plus its own block, or the
// caller's buffer itself for a leaf with a contiguous datatype. Messages
// between non-roots are MPI_PACKED; a message to or from the root is
// MPI_PACKED at the non-root end and typed at the root. MPI's type matching
// allows exactly this (a packed message matches any receive whose type
// signature it carries, and any message can be received as MPI_PACKED), so
// sendtype and recvtype may differ as long as the signatures match, as in
// MPI. Both MPIs pack homogeneous data as its bytes, which is what makes a
// subtree's packed size the sum of its blocks' type sizes.
//
// Chunks. Every message is cut every `chunk_bytes` bytes (the executor's
// rule: both ends cut the element stream at the same points). The root cuts
// in elements of its datatype; when that cannot land on the same bytes (the
// type size does not divide chunk_bytes and some message exceeds it), and
// whenever its datatype is not contiguous (tree_run.cpp), the root works in
// bytes too, on a packed copy, and packs / unpacks its groups before /
// after the run.
//
// Own block. Gather: a non-leaf copies (packs) its own block into its
// packed buffer before the first round (the model's gamma term); the root
// copies sendbuf into its group of recvbuf unless MPI_IN_PLACE. Scatter: the
// same copies after the last round, in the other direction.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "mpi/executor/datatype.hpp"
#include "mpi/executor/executor.hpp"
#include "optcoll/plan/tree_plan.hpp"

namespace optcoll::detail {
struct Persistent;
}  // namespace optcoll::detail

namespace optcoll::mpi {

// One rank's part of a tree. Positions are ranks, except at the root of a
// reordered tree (TreeArgs::order). Links carry positions [lo, hi].
struct RankTree {
  plan::TreeRankView view;
  std::int64_t up_bytes = 0;             // this rank's subtree, sent to / received from the parent
  std::vector<std::int64_t> down_bytes;  // per view.down link
  plan::rank_t self = 0;                 // position of this rank's own block
  // Every message a final delivery (the linear plan): the root's rounds may
  // be in flight together (plan::CompileOptions::final_messages).
  bool final_messages = false;
};

// The caller's buffers at this rank.
struct TreeArgs {
  plan::Collective op = plan::Collective::gather;  // gather or scatter
  bool is_root = false;
  plan::rank_t rank = 0;  // this rank
  // This rank's own block: Gather's sendbuf, Scatter's recvbuf; nullptr for
  // MPI_IN_PLACE at the root.
  const void* mine = nullptr;
  std::int64_t mine_count = 0;
  TypeInfo mine_type;
  // Root only: recvbuf (gather) / sendbuf (scatter), its datatype, and
  // group i = rank i's elements {displs[i], counts[i]}.
  const void* all = nullptr;
  TypeInfo all_type;
  std::vector<plan::Segment> groups;
  // Root only: position -> rank (empty: the identity).
  std::vector<plan::rank_t> order;
};

struct CommState;

// Runs this rank's part of tree t with a's buffers: the tree becomes a plan
// (plan::make_tree_plan) in a PreparedPlan that run_plan() runs like every
// collective's, now (into null) or as the plan of the request it is built
// into (request.hpp). The buffer modes above are what it adds: the working
// buffer, and the own-block and packing copies as steps before and after
// each run.
void run_tree(detail::Persistent* into, CommState& s, TreeArgs a, RankTree t);

// TypeInfo of MPI_PACKED (one byte per element).
const TypeInfo& packed_type();

}  // namespace optcoll::mpi

namespace optcoll::mpi {

// The executor settings of a tree run on s: exec_config() in bytes (chunks
// of 2^30 bytes; OPTCOLL_MAX_CHUNK_ELEMS, counted in bytes here, lowers it).
ExecConfig tree_config(const CommState& s);

// The rank-ordered binomial tree (plan::binomial_view()) with b bytes per
// rank, for regular Gather / Scatter. O(log p).
RankTree binomial_rank_tree(plan::rank_t p, plan::rank_t root, plan::rank_t rank, std::int64_t b);

// The node-aware tree (plan::LeadersTree: binomial on every node to its
// leader, then across the leaders) with b bytes per rank, for regular
// Gather / Scatter named "leaders" on a communicator with nodes. The root
// gets the position order in *order. O(N) (O(p) at the root).
RankTree leaders_rank_tree(const plan::NodeLayout& nodes, plan::rank_t root, plan::rank_t rank, std::int64_t b,
                           std::vector<plan::rank_t>* order);

// The linear plan's part of `rank` (plan::linear_view(): the root takes
// rank i's block in round i - (i > root), or sends it), without empty
// blocks. all: every rank's bytes (the root; else unused), own: this
// rank's. O(p) at the root, O(1) elsewhere.
RankTree linear_rank_tree(plan::rank_t p, plan::rank_t root, plan::rank_t rank, std::span<const std::int64_t> all,
                          std::int64_t own);

// Whether a Gather(v)/Scatter(v) call runs the linear plan: `name` (from
// tree_algorithm()) is "linear", or it is empty and the machine says so:
// for a v-variant (v) select::v_runs_linear() with the calibration's 8-byte
// tree (unknown when OPTCOLL_ALPHA and OPTCOLL_BETA replace it: q alpha
// then); for regular Scatter with
// blocks of `block` bytes select::scatter_runs_linear() with the
// calibration's small rounds (none when OPTCOLL_ALPHA and OPTCOLL_BETA
// replace it: the tree). Regular Gather runs the binomial tree unless
// named: its p - 1 senders would converge on the root's link at once
// (docs/decisions/scatter-linear-where-bytes-hide-overheads.md).
// Collective at the communicator's first calibration.
bool runs_linear(CommState& s, const std::string& name, plan::Collective op, bool v, std::int64_t block = 0);

// MPI_ERR_ARG unless name is empty or one of `valid` (comma separated).
void check_tree_algorithm(const std::string& name, const char* op, const char* valid);

// The tree a Gather(v)/Scatter(v) call runs: Options::algorithm (checked by
// check_tree_algorithm before), else OPTCOLL_GATHER / OPTCOLL_SCATTER from
// comm's settings (rank 0's environment, so every rank agrees). The variable
// names a registry algorithm of the collective; `valid` lists what this call
// can run. Any other registry name runs the call's default ("": the
// adaptive binomial tree, or the binomial tree for regular blocks, which is
// what every irregular tree becomes on equal blocks), noted once on stderr;
// a name outside the registry is MPI_ERR_ARG, as for the other collectives.
inline constexpr const char* kRegularTreeNames = "binomial, adaptive_binomial, two, tree, linear, leaders";
std::string tree_algorithm(CommState& s, plan::Collective op, const std::string& requested, const char* valid);

}  // namespace optcoll::mpi
