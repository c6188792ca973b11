// Tree constructions of the MPI layer's Gatherv/Scatterv (each rank builds
// its own part; see the source files for the algorithms).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "mpi/collectives/collectives.hpp"
#include "mpi/collectives/rooted/tree_run.hpp"

namespace optcoll::mpi {

// decision_relay.cpp: `bytes` bytes at data, from root to every rank down the
// binomial tree rooted at root (tag e.tag + 3), forwarded by each rank when
// they arrive while it waits for messages of its own (wait_relaying()).
// Collective: every rank makes one and calls finish(). The root's data is
// read, every other rank's written, until finish() returns.
class Relay {
 public:
  static constexpr std::size_t kMaxWaited = 3;  // requests of one wait_relaying()
  Relay(const ExecConfig& e, plan::rank_t p, plan::rank_t rank, plan::rank_t root, void* data, int bytes);
  ~Relay();
  Relay(const Relay&) = delete;
  Relay& operator=(const Relay&) = delete;
  // Completes requests as wait_all() does; forwards the bytes if they
  // arrive meanwhile.
  void wait_relaying(std::span<MPI_Request> requests);
  // Waits for the bytes, forwards them, and completes the sends.
  void finish();

 private:
  void forward();
  ExecConfig e_;
  plan::rank_t p_, root_, v_;  // v_: this rank relative to the root
  void* data_;
  int bytes_;
  MPI_Request recv_ = MPI_REQUEST_NULL;
  std::array<MPI_Request, 64> send_{};  // one per child: fewer than 63
  int sends_ = 0;
};

// gatherv_adaptive.cpp: this rank's part of the adaptive (or, with
// adaptive = false, the oblivious) binomial tree over blocks whose sizes
// only their own ranks know (my_bytes), in ceil(log2 p) rounds of
// communication on e.comm (tags e.tag + 1, e.tag + 2). Collective. Its
// waits relay `relay`'s bytes (if not null).
RankTree distributed_binomial_tree(const ExecConfig& e, plan::rank_t p, plan::rank_t rank, plan::rank_t root,
                                   std::int64_t my_bytes, bool adaptive, Relay* relay = nullptr);

// gatherv_two.cpp: TWO (plan::two_view(), Traff 2018 Lemma 2 and §5.2).
// This rank's part; at the root also `order` (position -> rank). O(p) for
// a bitmap, O(log p) plus the class arithmetic for a single large rank.
RankTree two_rank_tree(const plan::TwoSizes& two, plan::rank_t p, plan::rank_t rank, plan::rank_t root,
                       std::vector<plan::rank_t>* order);

// gatherv_scatterv.cpp: Gatherv/Scatterv once arguments are checked: chooses the
// plan (Options::algorithm: "" = linear where select::v_runs_linear()
// says so, else TWO where Lemma 2 applies, else adaptive;
// "adaptive_binomial"; "binomial"; "two" = TWO whenever the sizes allow;
// "linear"), builds this rank's part and runs it. a.groups (root) in
// elements of a.all_type; my_bytes this rank's block. Collective.
void run_irregular(const CallInfo& c, MPI_Comm comm, TreeArgs a, std::int64_t my_bytes, int root,
                   const Options& options, detail::Persistent* into);

// rooted_call.cpp: the root's counts and displacements (elements of t) as one
// group per rank; MPI_ERR_ARG for missing or short arrays, MPI_ERR_COUNT for
// a negative count, MPI_ERR_BUFFER for a NULL buffer that would be used.
std::vector<plan::Segment> root_groups(int p, std::span<const std::int64_t> counts,
                                       std::span<const std::int64_t> displs, const void* buf, const TypeInfo& t,
                                       const char* what);

// A rooted call's arguments. OwnSide: this rank's block (Gather(v)'s
// sendbuf, Scatter(v)'s recvbuf; MPI_IN_PLACE at the root). RootSide: the
// root's p blocks (Gather(v)'s recvbuf, Scatter(v)'s sendbuf), block i =
// counts[i] elements at displs[i]; significant at the root only. name: the
// argument's name in errors.
struct OwnSide {
  const void* buf = nullptr;
  std::int64_t count = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  const char* name = "";
};
struct RootSide {
  const void* buf = nullptr;
  std::span<const std::int64_t> counts;
  std::span<const std::int64_t> displs;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  const char* name = "";
  // Equal blocks (Gather, Scatter): block i holds `each` elements at
  // i * each; counts and displs are not read.
  bool equal = false;
  std::int64_t each = 0;
};
// The tree name to check (check_tree_algorithm) with the other arguments.
struct TreeNames {
  std::string requested;
  const char* op = "";
  const char* valid = "";
};

// The checked arguments of one rank.
struct RootedCall {
  CallInfo c;
  TreeArgs a;
  std::int64_t my_bytes = 0;  // this rank's block
};
// rooted_call.cpp: checks a Gather(v) (op gather) or Scatter(v) (op scatter)
// call at every rank; errors are agreed (Agreement). Collective.
RootedCall prepare_rooted(plan::Collective op, const OwnSide& mine, const RootSide& all, int root, MPI_Comm comm,
                          const TreeNames& names, const CallInfo* checked = nullptr);
// p = 1: the own block's copy between the two sides (none in place).
void copy_single_rank(const RootedCall& call, detail::Persistent* into);

inline constexpr const char* kIrregularAlgorithms = "adaptive_binomial, binomial, two, linear";

}  // namespace optcoll::mpi
