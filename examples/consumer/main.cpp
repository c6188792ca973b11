// A program using the installed optcoll package (scripts/test-install.sh
// builds it both ways; docs/mpi-layer.md): the MPI-free core (a circulant
// schedule) and the MPI layer (C++ and C API), each result checked against
// a value computed here. Exit code 0 on success, 1 on a wrong result.
#include <mpi.h>

#include <optcoll/optcoll.h>
#include <cstdio>
#include <numeric>
#include <optcoll/optcoll.hpp>
#include <optcoll/schedule/circulant.hpp>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int p = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int bad = 0;

  // The core: p = 17 has q = 5 rounds and skips 1 2 3 5 9 17 (Träff 2024, Table 1).
  const optcoll::schedule::Circulant g(17);
  if (g.q() != 5 || g.skip(3) != 5) bad = 1;

  // Broadcast from the last rank (C++ API, span overload).
  std::vector<int> v(100000);
  if (rank == p - 1) std::iota(v.begin(), v.end(), 7);
  optcoll::bcast(std::span<int>(v), p - 1, MPI_COMM_WORLD);
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i] != static_cast<int>(i) + 7) bad = 1;

  // Sum of the ranks at rank 0 (C API).
  std::vector<long> in(1000, rank), out(1000, -1);
  OPTCOLL_Reduce(in.data(), out.data(), 1000, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (const long x : out)
      if (x != static_cast<long>(p) * (p - 1) / 2) bad = 1;

  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) std::printf("consumer: %s on %d ranks\n", bad != 0 ? "WRONG RESULT" : "ok", p);
  MPI_Finalize();
  return bad;
}
