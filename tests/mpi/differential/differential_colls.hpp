// The collectives of the differential driver: one entry per optcoll
// collective, each running a drawn call through optcoll and through native
// MPI and comparing (differential_colls.cpp: the copy collectives and the
// exchanges; differential_reductions.cpp; differential_rooted.cpp: gather
// and scatter).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "differential.hpp"

namespace optcoll::differential {

// One drawn call. Draws that depend on the communicator (the root) or on
// the collective (algorithm, blocks) are raw numbers, reduced where used.
struct Call {
  std::int64_t index = 0;
  std::uint64_t seed = 0;
  int coll = 0;
  int comm_kind = 0;
  const char* comm_name = "";
  MPI_Comm comm = MPI_COMM_NULL;
  // The communicator passed to optcoll: comm, except MPI_COMM_NULL at one
  // rank in the driver's mixed-failure self-test (--inject-error).
  MPI_Comm ocomm = MPI_COMM_NULL;
  int size = 1;
  int rank = 0;
  const TypeDesc* type = nullptr;
  const OpDesc* op = nullptr;
  std::int64_t count = 0;
  std::uint64_t root_draw = 0;
  bool in_place = false;
  bool cpp_api = false;
  std::uint64_t algorithm_draw = 0;
  std::uint64_t blocks_draw = 0;
  // Floating-point fields hold real values (differential.hpp, fill()):
  // reductions are then compared with native MPI within a tolerance, and
  // ranks that receive the same reduced element with each other bit for bit.
  bool real = false;
  bool inject = false;  // corrupt optcoll's result (the driver's self-test)
};

struct Tally {
  std::int64_t mismatches = 0;
  std::int64_t errors = 0;
};

struct Collective {
  const char* name;
  void (*run)(const Call&, Tally&);
};

// Every collective optcoll implements.
const std::vector<Collective>& collectives();

// The entries of collectives() defined in differential_reductions.cpp and
// differential_rooted.cpp.
void run_reduce(const Call& c, Tally& t);
void run_reduce_scatter_block(const Call& c, Tally& t);
void run_reduce_scatter(const Call& c, Tally& t);
void run_allreduce(const Call& c, Tally& t);
void run_scan(const Call& c, Tally& t);
void run_exscan(const Call& c, Tally& t);
void run_gather(const Call& c, Tally& t);
void run_gatherv(const Call& c, Tally& t);
void run_scatter(const Call& c, Tally& t);
void run_scatterv(const Call& c, Tally& t);

}  // namespace optcoll::differential
