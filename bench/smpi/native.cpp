// SMPI's collective setters (see native.hpp) and the classic algorithms the
// benchmark times beside the two selectors: for each collective the
// textbook algorithms of SMPI's catalogue (smpirun --cfg=smpi/<coll>:x lists
// it) that take any p and any count.
#include "native.hpp"

#include <mpi.h>

#include <map>
#include <stdexcept>

// Exported by libsimgrid (src/smpi/colls/smpi_coll.cpp); not in its public
// headers.
namespace simgrid::smpi::colls {
void set_bcast(const std::string& name);
void set_reduce(const std::string& name);
void set_allgather(const std::string& name);
void set_allgatherv(const std::string& name);
void set_allreduce(const std::string& name);
void set_reduce_scatter(const std::string& name);
void set_gather(const std::string& name);
void set_scatter(const std::string& name);
void set_alltoall(const std::string& name);
void set_alltoallv(const std::string& name);
}  // namespace simgrid::smpi::colls

namespace optcoll::bench::smpi {

Native native_for(const std::string& op) {
  static const std::map<std::string, Native> table{
      {"bcast",
       {"bcast", {"binomial_tree", "scatter_LR_allgather", "scatter_rdb_allgather", "ompi_pipeline"}, "binomial_tree"}},
      {"reduce", {"reduce", {"binomial", "scatter_gather", "ompi_pipeline", "ompi_binary", "rab"}, "binomial"}},
      {"allgather", {"allgather", {"bruck", "rdb", "ring"}, "ring"}},
      {"allgatherv", {"allgatherv", {"ring", "ompi_bruck", "mpich_rdb", "GB"}, "ring"}},
      {"reduce_scatter_block",
       {"reduce_scatter",
        {"ompi_basic_recursivehalving", "ompi_ring", "ompi_butterfly", "mpich_pair", "mpich_rdb"},
        "default"}},
      {"reduce_scatter",
       {"reduce_scatter",
        {"ompi_basic_recursivehalving", "ompi_ring", "ompi_butterfly", "mpich_pair", "mpich_rdb"},
        "default"}},
      {"allreduce", {"allreduce", {"rdb", "lr", "rab_rdb", "redbcast", "ompi_ring_segmented"}, "rdb"}},
      {"gather", {"gather", {"ompi_binomial", "ompi_basic_linear", "ompi_linear_sync"}, "ompi_binomial"}},
      {"scatter", {"scatter", {"ompi_binomial", "ompi_basic_linear"}, "ompi_binomial"}},
      {"gatherv", {"", {}, ""}},
      {"scatterv", {"", {}, ""}},
      {"scan", {"", {}, ""}},
      {"exscan", {"", {}, ""}},
      {"alltoall", {"alltoall", {"bruck", "basic_linear", "ring", "pair"}, "ring"}},
      {"alltoallv", {"alltoallv", {"ompi_basic_linear", "pair", "ring", "bruck"}, "ring"}},
  };
  const auto it = table.find(op);
  if (it == table.end()) throw std::invalid_argument("unknown operation " + op);
  return it->second;
}

bool native_supports(const std::string& algorithm, std::int64_t count, int p) {
  // reduce__scatter_gather: MPI_ERR_TRUNCATE at p = 100 with 99 elements,
  // fine from 100 on (and at p = 16 with 2).
  if (algorithm == "scatter_gather") return count >= p;
  // alltoall(v)__pair: "can't be used with non power of two number of
  // processes" (an exception).
  if (algorithm == "pair") return (p & (p - 1)) == 0;
  return true;
}

void select_native(const std::string& family, const std::string& algorithm) {
  namespace c = simgrid::smpi::colls;
  using Setter = void (*)(const std::string&);
  static const std::map<std::string, Setter> setters{
      {"bcast", c::set_bcast},           {"reduce", c::set_reduce},       {"allgather", c::set_allgather},
      {"allgatherv", c::set_allgatherv}, {"allreduce", c::set_allreduce}, {"reduce_scatter", c::set_reduce_scatter},
      {"gather", c::set_gather},         {"scatter", c::set_scatter},     {"alltoall", c::set_alltoall},
      {"alltoallv", c::set_alltoallv},
  };
  if (family.empty()) return;  // SMPI has one implementation
  const auto it = setters.find(family);
  if (it == setters.end()) throw std::invalid_argument("no SMPI setter for " + family);
  // The setting is global: a rank that is done with the last call must not
  // switch while another has yet to enter it (a root that sends eagerly
  // leaves a broadcast before its leaves begin it).
  MPI_Barrier(MPI_COMM_WORLD);
  it->second(algorithm);
}

void restore_native(const std::string& family) {
  select_native(family, family == "allreduce" ? "rdb" : family == "bcast" ? "binomial_tree" : "ompi");
}

}  // namespace optcoll::bench::smpi
