// MPI_THREAD_MULTIPLE: several threads per rank run optcoll collectives at
// the same time, each on its own communicators (MPI allows concurrent
// collectives only on distinct communicators), and check every result
// against the native collective on the same communicator. Each thread also
// creates and frees communicators while the others run, so communicator
// states are built and destroyed concurrently (the attribute callbacks, the
// keyvals, the shared MPI_COMM_SELF duplicate, the plan caches).
//
//   mpi_threads_test [threads] [iterations]     (default 4 threads, 60 iterations)
#include <mpi.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "optcoll/optcoll.h"
#include "optcoll/optcoll.hpp"

namespace {

std::atomic<long> g_failures{0};

void fail(int thread, int iter, const char* what) {
  ++g_failures;
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  std::fprintf(stderr, "[rank %d thread %d iteration %d] %s\n", r, thread, iter, what);
}

std::uint64_t hash(std::uint64_t a, std::uint64_t b) {
  std::uint64_t z = a * 0x9e3779b97f4a7c15u + b + 0x632be59bd9b4e019u;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

// One thread's work on communicator `comm` (used by no other thread).
void worker(int t, int iterations, MPI_Comm comm) {
  int p = 1;
  int me = 0;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &me);
  static const int counts[] = {0, 1, 2, 7, 31, 257, 1021, 4099, 30011};
  for (int i = 0; i < iterations; ++i) {
    const std::uint64_t h = hash(static_cast<std::uint64_t>(t), static_cast<std::uint64_t>(i));
    const int count = counts[h % std::size(counts)];
    const int root = static_cast<int>((h >> 8) % static_cast<std::uint64_t>(p));
    std::vector<int> mine(static_cast<std::size_t>(count));
    for (int k = 0; k < count; ++k)
      mine[static_cast<std::size_t>(k)] = static_cast<int>(hash(h, static_cast<std::uint64_t>(k * p + me)) % 1000);
    std::vector<int> native = mine;
    if ((h >> 16) % 2 == 0) {
      if (OPTCOLL_Bcast(mine.data(), count, MPI_INT, root, comm) != MPI_SUCCESS) fail(t, i, "OPTCOLL_Bcast failed");
      MPI_Bcast(native.data(), count, MPI_INT, root, comm);
      if (mine != native) fail(t, i, "bcast differs from MPI_Bcast");
    } else {
      std::vector<int> got(static_cast<std::size_t>(count), -1);
      std::vector<int> want(static_cast<std::size_t>(count), -1);
      const MPI_Op op = (h >> 20) % 2 == 0 ? MPI_SUM : MPI_MAX;
      try {
        optcoll::reduce(mine.data(), got.data(), count, MPI_INT, op, root, comm);
      } catch (const optcoll::MpiError& e) {
        fail(t, i, e.what());
      }
      MPI_Reduce(native.data(), want.data(), count, MPI_INT, op, root, comm);
      if (got != want) fail(t, i, "reduce differs from MPI_Reduce");
    }
    // Now and then a fresh communicator: built at its first call, freed at
    // once (its state's delete callback runs on this thread).
    if ((h >> 24) % 8 == 0) {
      MPI_Comm fresh = MPI_COMM_NULL;
      MPI_Comm_dup(comm, &fresh);
      int x = me == 0 ? t + 1 : 0;
      if (OPTCOLL_Bcast(&x, 1, MPI_INT, 0, fresh) != MPI_SUCCESS || x != t + 1) fail(t, i, "fresh communicator");
      MPI_Comm_free(&fresh);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (provided < MPI_THREAD_MULTIPLE) {
    if (rank == 0) std::printf("mpi_threads: MPI_THREAD_MULTIPLE not provided, skipped\n");
    MPI_Finalize();
    return 0;
  }
  const int threads = argc > 1 ? std::atoi(argv[1]) : 4;
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 60;
  // Distinct communicators, created in one order at every rank: thread 0
  // uses MPI_COMM_WORLD itself, odd threads a split by parity.
  std::vector<MPI_Comm> comms(static_cast<std::size_t>(threads), MPI_COMM_WORLD);
  for (int t = 1; t < threads; ++t) {
    if (t % 2 == 1)
      MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &comms[static_cast<std::size_t>(t)]);
    else
      MPI_Comm_dup(MPI_COMM_WORLD, &comms[static_cast<std::size_t>(t)]);
  }
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(worker, t, iterations, comms[static_cast<std::size_t>(t)]);
  for (auto& th : pool) th.join();
  for (int t = 1; t < threads; ++t) MPI_Comm_free(&comms[static_cast<std::size_t>(t)]);
  long failures = g_failures.load();
  MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("mpi_threads: %d threads x %d iterations per rank: %ld failures\n", threads, iterations, failures);
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
