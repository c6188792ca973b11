// Tree constructions of the MPI layer's Gatherv/Scatterv (each rank builds
// its own part; see the source files for the algorithms).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "collectives.hpp"
#include "tree_run.hpp"

namespace optcoll::mpi {

// gatherv_adaptive.cpp: this rank's part of the adaptive (or, with
// adaptive = false, the oblivious) binomial tree over blocks whose sizes
// only their own ranks know (my_bytes), in ceil(log2 p) rounds of
// communication on e.comm (tags e.tag + 1, e.tag + 2). Collective.
RankTree distributed_binomial_tree(const ExecConfig& e, plan::rank_t p, plan::rank_t rank, plan::rank_t root,
                                   std::int64_t my_bytes, bool adaptive);

// gatherv_two.cpp: TWO (plan::two_view(), Traff 2018 Lemma 2 and §5.2).
// This rank's part; at the root also `order` (position -> rank). O(p) for
// a bitmap, O(log p) plus the class arithmetic for a single large rank.
RankTree two_rank_tree(const plan::TwoSizes& two, plan::rank_t p, plan::rank_t rank, plan::rank_t root,
                       std::vector<plan::rank_t>* order);

// irregular.cpp: Gatherv/Scatterv once arguments are checked: chooses the
// tree (Options::algorithm: "" = TWO where Lemma 2 applies, else
// adaptive; "adaptive_binomial"; "binomial"; "two" = TWO whenever
// the sizes allow), builds this rank's part and runs it. a.groups (root) in
// elements of a.all_type; my_bytes this rank's block. Collective.
void run_irregular(const CallInfo& c, MPI_Comm comm, TreeArgs a, std::int64_t my_bytes, int root,
                   const Options& options);

// rooted.cpp: the root's counts and displacements (elements of t) as one
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
// rooted.cpp: checks a Gather(v) (op gather) or Scatter(v) (op scatter)
// call at every rank; errors are agreed (Agreement). Collective.
RootedCall prepare_rooted(plan::Collective op, const OwnSide& mine, const RootSide& all, int root, MPI_Comm comm,
                          const TreeNames& names);
// p = 1: the own block's copy between the two sides (none in place).
void copy_single_rank(const RootedCall& call);

inline constexpr const char* kIrregularAlgorithms = "adaptive_binomial, binomial, two";

}  // namespace optcoll::mpi
