// MPI_THREAD_MULTIPLE: several threads per rank run optcoll collectives at
// the same time, each on its own communicator (MPI allows concurrent
// collectives only on distinct communicators), and check every result
// against the native collective on the same communicator. Every collective
// of the C and C++ APIs runs, the persistent Gatherv / Scatterv included.
// Each thread also creates and frees communicators while the others run, so
// communicator states are built and destroyed concurrently (the attribute
// callbacks, the keyvals, the shared MPI_COMM_SELF duplicate, the plan
// caches).
//
//   mpi_threads_test [threads] [iterations]     (default 4 threads, 60 iterations)
//
// Exit code 77 (CTest's SKIP_RETURN_CODE) when MPI does not provide
// MPI_THREAD_MULTIPLE.
#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "optcoll/optcoll.h"
#include "optcoll/optcoll.hpp"

namespace {

constexpr int kSkipped = 77;

std::atomic<long> g_failures{0};

std::uint64_t hash(std::uint64_t a, std::uint64_t b) {
  std::uint64_t z = a * 0x9e3779b97f4a7c15u + b + 0x632be59bd9b4e019u;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

// One collective call of one thread: its communicator and drawn sizes.
struct Ctx {
  int thread = 0;
  int iter = 0;
  MPI_Comm comm = MPI_COMM_NULL;
  int p = 1;
  int me = 0;
  int count = 0;
  int root = 0;
  std::uint64_t h = 0;

  void fail(const std::string& what) const {
    ++g_failures;
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    std::fprintf(stderr, "[rank %d thread %d iteration %d] %s\n", r, thread, iter, what.c_str());
  }
  void expect(bool ok, const char* what) const {
    if (!ok) fail(what);
  }
  void expect_success(int rc, const char* what) const {
    if (rc != MPI_SUCCESS) fail(std::string(what) + " failed");
  }
  // count values of this rank, from salt.
  std::vector<int> data(int n, int salt) const {
    std::vector<int> v(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k)
      v[static_cast<std::size_t>(k)] =
          static_cast<int>(hash(h + static_cast<std::uint64_t>(salt), static_cast<std::uint64_t>(k * p + me)) % 1000);
    return v;
  }
  // Per-rank counts, equal at every rank: some zero.
  std::vector<int> counts() const {
    std::vector<int> c(static_cast<std::size_t>(p));
    for (int g = 0; g < p; ++g)
      c[static_cast<std::size_t>(g)] = static_cast<int>(hash(h, static_cast<std::uint64_t>(g)) % 4) == 0 ? 0 : count;
    return c;
  }
  static std::vector<int> displs(const std::vector<int>& counts) {
    std::vector<int> d(counts.size());
    int at = 0;
    for (std::size_t g = 0; g < counts.size(); ++g) d[g] = std::exchange(at, at + counts[g]);
    return d;
  }
};

int total(const std::vector<int>& v) {
  int t = 0;
  for (int x : v) t += x;
  return t;
}

void bcast(const Ctx& x) {
  std::vector<int> mine = x.data(x.count, x.me == x.root ? 1 : 2);
  std::vector<int> native = mine;
  x.expect_success(OPTCOLL_Bcast(mine.data(), x.count, MPI_INT, x.root, x.comm), "OPTCOLL_Bcast");
  MPI_Bcast(native.data(), x.count, MPI_INT, x.root, x.comm);
  x.expect(mine == native, "bcast differs from MPI_Bcast");
}

void reduce(const Ctx& x) {
  const std::vector<int> in = x.data(x.count, 1);
  std::vector<int> got(in.size(), -1), want(in.size(), -1);
  const MPI_Op op = (x.h >> 20) % 2 == 0 ? MPI_SUM : MPI_MAX;
  try {
    optcoll::reduce(in.data(), got.data(), x.count, MPI_INT, op, x.root, x.comm);
  } catch (const optcoll::MpiError& e) {
    x.fail(e.what());
  }
  MPI_Reduce(in.data(), want.data(), x.count, MPI_INT, op, x.root, x.comm);
  x.expect(got == want, "reduce differs from MPI_Reduce");
}

void allreduce(const Ctx& x) {
  const std::vector<int> in = x.data(x.count, 1);
  std::vector<int> got(in.size()), want(in.size());
  x.expect_success(OPTCOLL_Allreduce(in.data(), got.data(), x.count, MPI_INT, MPI_SUM, x.comm), "OPTCOLL_Allreduce");
  MPI_Allreduce(in.data(), want.data(), x.count, MPI_INT, MPI_SUM, x.comm);
  x.expect(got == want, "allreduce differs from MPI_Allreduce");
}

void scan(const Ctx& x, bool exclusive) {
  const std::vector<int> in = x.data(x.count, 1);
  std::vector<int> got(in.size(), -1), want(in.size(), -1);
  if (exclusive) {
    x.expect_success(OPTCOLL_Exscan(in.data(), got.data(), x.count, MPI_INT, MPI_SUM, x.comm), "OPTCOLL_Exscan");
    MPI_Exscan(in.data(), want.data(), x.count, MPI_INT, MPI_SUM, x.comm);
    if (x.me == 0) want.assign(in.size(), -1);  // undefined in MPI, untouched by optcoll
  } else {
    x.expect_success(OPTCOLL_Scan(in.data(), got.data(), x.count, MPI_INT, MPI_SUM, x.comm), "OPTCOLL_Scan");
    MPI_Scan(in.data(), want.data(), x.count, MPI_INT, MPI_SUM, x.comm);
  }
  x.expect(got == want, exclusive ? "exscan differs from MPI_Exscan" : "scan differs from MPI_Scan");
}

void allgather(const Ctx& x, bool v) {
  const std::vector<int> c = v ? x.counts() : std::vector<int>(static_cast<std::size_t>(x.p), x.count);
  const std::vector<int> d = Ctx::displs(c);
  const std::vector<int> in = x.data(c[static_cast<std::size_t>(x.me)], 1);
  std::vector<int> got(static_cast<std::size_t>(total(c)), -1), want = got;
  const int n = static_cast<int>(in.size());
  if (v) {
    x.expect_success(OPTCOLL_Allgatherv(in.data(), n, MPI_INT, got.data(), c.data(), d.data(), MPI_INT, x.comm),
                     "OPTCOLL_Allgatherv");
    MPI_Allgatherv(in.data(), n, MPI_INT, want.data(), c.data(), d.data(), MPI_INT, x.comm);
  } else {
    x.expect_success(OPTCOLL_Allgather(in.data(), n, MPI_INT, got.data(), n, MPI_INT, x.comm), "OPTCOLL_Allgather");
    MPI_Allgather(in.data(), n, MPI_INT, want.data(), n, MPI_INT, x.comm);
  }
  x.expect(got == want, v ? "allgatherv differs from MPI_Allgatherv" : "allgather differs from MPI_Allgather");
}

void reduce_scatter(const Ctx& x, bool v) {
  const std::vector<int> c = v ? x.counts() : std::vector<int>(static_cast<std::size_t>(x.p), x.count);
  const std::vector<int> in = x.data(total(c), 1);
  std::vector<int> got(static_cast<std::size_t>(c[static_cast<std::size_t>(x.me)]), -1), want = got;
  if (v) {
    x.expect_success(OPTCOLL_Reduce_scatter(in.data(), got.data(), c.data(), MPI_INT, MPI_SUM, x.comm),
                     "OPTCOLL_Reduce_scatter");
    MPI_Reduce_scatter(in.data(), want.data(), c.data(), MPI_INT, MPI_SUM, x.comm);
  } else {
    x.expect_success(OPTCOLL_Reduce_scatter_block(in.data(), got.data(), x.count, MPI_INT, MPI_SUM, x.comm),
                     "OPTCOLL_Reduce_scatter_block");
    MPI_Reduce_scatter_block(in.data(), want.data(), x.count, MPI_INT, MPI_SUM, x.comm);
  }
  x.expect(got == want, "reduce_scatter differs from native");
}

// Gather(v) and Scatter(v), one-shot or persistent (started twice).
void rooted(const Ctx& x, bool scatter, bool v, bool persistent) {
  const std::vector<int> c = v ? x.counts() : std::vector<int>(static_cast<std::size_t>(x.p), x.count);
  const std::vector<int> d = Ctx::displs(c);
  const bool is_root = x.me == x.root;
  const int mine = c[static_cast<std::size_t>(x.me)];
  std::vector<int> all = is_root ? x.data(total(c), 1) : std::vector<int>();
  std::vector<int> one = x.data(mine, 2);
  std::vector<int> all_native = all, one_native = one;
  if (scatter) {
    one.assign(one.size(), -1);
    one_native = one;
  } else if (is_root) {
    all.assign(all.size(), -1);
    all_native = all;
  }
  const std::vector<std::int64_t> c64(c.begin(), c.end()), d64(d.begin(), d.end());
  if (persistent) {
    try {
      optcoll::Request r =
          scatter ? optcoll::scatterv_init(all.data(), c64, d64, MPI_INT, one.data(), mine, MPI_INT, x.root, x.comm)
                  : optcoll::gatherv_init(one.data(), mine, MPI_INT, all.data(), c64, d64, MPI_INT, x.root, x.comm);
      for (int k = 0; k < 2; ++k) {
        r.start();
        r.wait();
      }
    } catch (const optcoll::MpiError& e) {
      x.fail(e.what());
    }
  } else if (scatter) {
    x.expect_success(
        v ? OPTCOLL_Scatterv(all.data(), c.data(), d.data(), MPI_INT, one.data(), mine, MPI_INT, x.root, x.comm)
          : OPTCOLL_Scatter(all.data(), mine, MPI_INT, one.data(), mine, MPI_INT, x.root, x.comm),
        "OPTCOLL_Scatter(v)");
  } else {
    x.expect_success(
        v ? OPTCOLL_Gatherv(one.data(), mine, MPI_INT, all.data(), c.data(), d.data(), MPI_INT, x.root, x.comm)
          : OPTCOLL_Gather(one.data(), mine, MPI_INT, all.data(), mine, MPI_INT, x.root, x.comm),
        "OPTCOLL_Gather(v)");
  }
  if (scatter)
    MPI_Scatterv(all_native.data(), c.data(), d.data(), MPI_INT, one_native.data(), mine, MPI_INT, x.root, x.comm);
  else
    MPI_Gatherv(one_native.data(), mine, MPI_INT, all_native.data(), c.data(), d.data(), MPI_INT, x.root, x.comm);
  x.expect(all == all_native && one == one_native, "gather/scatter differs from native");
}

// Alltoall, Alltoallv and many_to_many against MPI_Alltoallv.
void exchange(const Ctx& x, int kind) {
  std::vector<int> sc(static_cast<std::size_t>(x.p)), rc(sc.size());
  for (int j = 0; j < x.p; ++j) {
    const auto pair = [&](int from, int to) {
      return kind == 0 ? x.count : static_cast<int>(hash(x.h, static_cast<std::uint64_t>(from * x.p + to)) % 5);
    };
    sc[static_cast<std::size_t>(j)] = pair(x.me, j);
    rc[static_cast<std::size_t>(j)] = pair(j, x.me);
  }
  const std::vector<int> sd = Ctx::displs(sc), rd = Ctx::displs(rc);
  const std::vector<int> in = x.data(total(sc), 1);
  std::vector<int> got(static_cast<std::size_t>(total(rc)), -1), want = got;
  if (kind == 0) {
    x.expect_success(OPTCOLL_Alltoall(in.data(), x.count, MPI_INT, got.data(), x.count, MPI_INT, x.comm),
                     "OPTCOLL_Alltoall");
  } else if (kind == 1) {
    x.expect_success(
        OPTCOLL_Alltoallv(in.data(), sc.data(), sd.data(), MPI_INT, got.data(), rc.data(), rd.data(), MPI_INT, x.comm),
        "OPTCOLL_Alltoallv");
  } else {
    const auto wide = [](const std::vector<int>& v) { return std::vector<std::int64_t>(v.begin(), v.end()); };
    try {
      optcoll::many_to_many(in.data(), wide(sc), wide(sd), got.data(), wide(rc), wide(rd), MPI_INT, x.comm);
    } catch (const optcoll::MpiError& e) {
      x.fail(e.what());
    }
  }
  MPI_Alltoallv(in.data(), sc.data(), sd.data(), MPI_INT, want.data(), rc.data(), rd.data(), MPI_INT, x.comm);
  x.expect(got == want, "exchange differs from MPI_Alltoallv");
}

void allmerge(const Ctx& x) {
  std::vector<int> keys = x.data(x.count, 1);
  std::sort(keys.begin(), keys.end());
  std::vector<int> sizes(static_cast<std::size_t>(x.p));
  MPI_Allgather(&x.count, 1, MPI_INT, sizes.data(), 1, MPI_INT, x.comm);
  std::vector<int> want(static_cast<std::size_t>(total(sizes)));
  const std::vector<int> d = Ctx::displs(sizes);
  MPI_Allgatherv(keys.data(), x.count, MPI_INT, want.data(), sizes.data(), d.data(), MPI_INT, x.comm);
  std::sort(want.begin(), want.end());
  std::vector<int> got(want.size() + 1);
  int n = -1;
  x.expect_success(OPTCOLL_Allmerge_int(keys.data(), x.count, got.data(), static_cast<int>(got.size()), &n, x.comm),
                   "OPTCOLL_Allmerge_int");
  got.resize(static_cast<std::size_t>(std::max(n, 0)));
  x.expect(got == want, "allmerge differs from the sorted MPI_Allgatherv");
}

// Every collective; the call is drawn from (thread, iteration).
const std::vector<std::function<void(const Ctx&)>>& calls() {
  static const std::vector<std::function<void(const Ctx&)>> all{
      bcast,
      reduce,
      allreduce,
      [](const Ctx& x) { scan(x, false); },
      [](const Ctx& x) { scan(x, true); },
      [](const Ctx& x) { allgather(x, false); },
      [](const Ctx& x) { allgather(x, true); },
      [](const Ctx& x) { reduce_scatter(x, false); },
      [](const Ctx& x) { reduce_scatter(x, true); },
      [](const Ctx& x) { rooted(x, false, false, false); },
      [](const Ctx& x) { rooted(x, false, true, false); },
      [](const Ctx& x) { rooted(x, true, false, false); },
      [](const Ctx& x) { rooted(x, true, true, false); },
      [](const Ctx& x) { rooted(x, false, true, true); },
      [](const Ctx& x) { rooted(x, true, true, true); },
      [](const Ctx& x) { exchange(x, 0); },
      [](const Ctx& x) { exchange(x, 1); },
      [](const Ctx& x) { exchange(x, 2); },
      allmerge,
  };
  return all;
}

// One thread's work on communicator `comm` (used by no other thread): every
// collective in turn (shifted by the thread), then drawn ones.
void worker(int t, int iterations, MPI_Comm comm) {
  static const int counts[] = {0, 1, 2, 7, 31, 257, 1021, 4099};
  Ctx x;
  x.thread = t;
  x.comm = comm;
  MPI_Comm_size(comm, &x.p);
  MPI_Comm_rank(comm, &x.me);
  const std::size_t n = calls().size();
  for (int i = 0; i < iterations; ++i) {
    x.iter = i;
    x.h = hash(static_cast<std::uint64_t>(t), static_cast<std::uint64_t>(i));
    x.count = counts[x.h % std::size(counts)];
    x.root = static_cast<int>((x.h >> 8) % static_cast<std::uint64_t>(x.p));
    const std::size_t k = static_cast<std::size_t>(i) < n ? (static_cast<std::size_t>(i + t)) % n : (x.h >> 32) % n;
    calls()[k](x);
    // Now and then a fresh communicator: built at its first call, freed at
    // once (its state's delete callback runs on this thread).
    if ((x.h >> 24) % 8 == 0) {
      MPI_Comm fresh = MPI_COMM_NULL;
      MPI_Comm_dup(comm, &fresh);
      int v = x.me == 0 ? t + 1 : 0;
      if (OPTCOLL_Bcast(&v, 1, MPI_INT, 0, fresh) != MPI_SUCCESS || v != t + 1) x.fail("fresh communicator");
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
    if (rank == 0) std::printf("mpi_threads: MPI_THREAD_MULTIPLE not provided (%d): skipped\n", provided);
    MPI_Finalize();
    return kSkipped;
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
    std::printf("mpi_threads: %d threads x %d iterations per rank, every collective: %ld failures\n", threads,
                iterations, failures);
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
