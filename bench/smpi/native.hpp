// SMPI's own collective algorithms, chosen at run time.
//
// smpirun fixes one algorithm per collective at start-up
// (--cfg=smpi/coll-selector, --cfg=smpi/<coll>); SimGrid's library also
// exports the setters it uses for that (simgrid::smpi::colls::set_<coll>),
// so one simulation can time Open MPI's and MPICH's selection logic and the
// named classic algorithms one after the other on the same platform. Each
// setter changes a process-wide function pointer, which every simulated
// rank shares; all ranks call it with the same name after a barrier.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace optcoll::bench::smpi {

// One of SMPI's switchable collectives ("bcast", "reduce", "allgather",
// "allgatherv", "allreduce", "reduce_scatter" (also Reduce_scatter_block),
// "gather", "scatter", "alltoall", "alltoallv"), or "" for the operations
// SMPI implements once (Scan, Exscan, Gatherv, Scatterv).
struct Native {
  std::string family;
  std::vector<std::string> classics;  // named algorithms timed besides the selectors
  // The oracle of the checks: a plain textbook algorithm of SMPI's (binomial
  // tree, ring, recursive doubling). Not "default": for Allgather and
  // Alltoall that is the nonblocking linear algorithm, p^2 messages in flight,
  // which SimGrid takes minutes to simulate at p = 256.
  std::string oracle;
};

// Whether SMPI's `algorithm` runs correctly with `count` elements on p ranks
// (some of its algorithms abort below one element per rank).
bool native_supports(const std::string& algorithm, std::int64_t count, int p);

// The family and classic algorithms of a benchmark operation (collectives.cpp
// names them); throws std::invalid_argument for an unknown operation.
Native native_for(const std::string& op);

// MPI_<family> runs `algorithm` from now on: a selector ("ompi", "mpich",
// "default") or an SMPI algorithm name. SimGrid aborts on an unknown name.
// Collective over MPI_COMM_WORLD (a barrier first).
void select_native(const std::string& family, const std::string& algorithm);

// Back to the benchmark's base state, what bench-smpi.sh starts smpirun
// with: the `ompi` selector, but a binomial tree for Bcast and recursive
// doubling for Allreduce. The benchmark calls Allreduce itself (totals,
// checks, times), and SMPI's communicator constructor (MPI_Comm_dup, which
// optcoll calls once per communicator) calls Bcast; the selectors' Bcast
// and Allreduce build SMPI's per-node communicators at their first call
// (Comm::init_smp: two ring allgathers, 2p(p - 1) messages, minutes of host
// time at p = 1024). Only the selectors' own rows should pay that.
void restore_native(const std::string& family);

}  // namespace optcoll::bench::smpi
