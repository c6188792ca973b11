// The collectives of the differential driver (differential_colls.cpp): one
// entry per optcoll collective, each running a drawn call through optcoll
// and through native MPI and comparing.
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

}  // namespace optcoll::differential
