// optcoll's persistent and nonblocking Bcast and Allreduce against native
// MPI, in the same run.
//
//   mpirun -n 8 build/mpi_requests                  # persistent start + wait
//   mpirun -n 8 build/mpi_requests --overlap        # computation hidden in I*
//   scripts/callgrind-requests.sh                   # instructions per 8 B call (--count-calls K)
//   (each also [--op bcast|allreduce|both] [--min B] [--max B] [--reps R] [--out FILE])
//
// Persistent mode: for each size (MPI_INT elements, 8 B .. 16 MiB in powers
// of 4) four implementations alternate within every repetition (A B C D A B
// C D ...): native blocking, native persistent (MPI-4's MPI_Bcast_init
// under MPICH, MPIX_Bcast_init of Open MPI's pcollreq extension), optcoll
// blocking, optcoll persistent (bcast_init / allreduce_init, then start +
// wait per call), and a fifth, the plan's rounds written by hand over PMPI
// (by_hand()). Samples as in mpi_bcast_reduce: a barrier, a batch of
// back-to-back calls, maximum over ranks; medians.
//
// Overlap mode: per size, native MPI_I<op> and optcoll's i<op> alternate.
// Each sample times (a) the call and its wait alone, (b) a computation
// alone, sized to take about as long as (a), and (c) the call, the
// computation in 16 slices with a test (MPI_Test / Request::test) after
// each, then the wait. Hidden = (a + b - c) / min(a, b): 1 when the
// computation hides the communication completely, 0 when nothing overlaps.
//
// Output: CSV (bench/csv.hpp); times are medians in us.
//   persistent: op,p,bytes,native_us,native_persistent_us,optcoll_us,optcoll_persistent_us,
//               persistent_over_native,algorithm,by_hand_us (the same rounds by hand: by_hand())
//   overlap:    op,p,bytes,impl,comm_us,compute_us,both_us,hidden
#include <fmt/core.h>
#include <mpi.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "mpi/comm/choose.hpp"
#include "mpi_timing.hpp"
#include "optcoll/optcoll.hpp"

namespace {

using namespace optcoll::bench;

#if MPI_VERSION >= 4
constexpr bool kNativePersistent = true;
int native_bcast_init(void* b, int n, MPI_Datatype t, int root, MPI_Comm c, MPI_Request* r) {
  return MPI_Bcast_init(b, n, t, root, c, MPI_INFO_NULL, r);
}
int native_allreduce_init(const void* s, void* b, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c, MPI_Request* r) {
  return MPI_Allreduce_init(s, b, n, t, op, c, MPI_INFO_NULL, r);
}
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
constexpr bool kNativePersistent = true;
int native_bcast_init(void* b, int n, MPI_Datatype t, int root, MPI_Comm c, MPI_Request* r) {
  return MPIX_Bcast_init(b, n, t, root, c, MPI_INFO_NULL, r);
}
int native_allreduce_init(const void* s, void* b, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c, MPI_Request* r) {
  return MPIX_Allreduce_init(s, b, n, t, op, c, MPI_INFO_NULL, r);
}
#else
constexpr bool kNativePersistent = false;
int native_bcast_init(void*, int, MPI_Datatype, int, MPI_Comm, MPI_Request* r) {
  *r = MPI_REQUEST_NULL;
  return MPI_SUCCESS;
}
int native_allreduce_init(const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Request* r) {
  *r = MPI_REQUEST_NULL;
  return MPI_SUCCESS;
}
#endif

// The floor of a library above MPI: the rounds of optcoll's small-message
// plans written by hand over PMPI_Irecv / PMPI_Isend / PMPI_Waitall on a
// duplicate of MPI_COMM_WORLD, with no plan, request or checks: a binomial
// Bcast from rank 0 (ceil(log2 p) rounds, p - 1 messages, as the circulant
// plan with one block) and, for p a power of two, recursive doubling for
// Allreduce (MPI_SUM of ints). False: not written for this p.
MPI_Comm g_hand = MPI_COMM_NULL;
std::vector<int> g_hand_in;
bool by_hand(bool bc, int* a, int* b, int n) {
  if (!bc && (g_size & (g_size - 1)) != 0) return false;
  MPI_Request r[2];
  if (bc) {
    for (int mask = 1; mask < g_size; mask <<= 1) {
      if (g_rank < mask && g_rank + mask < g_size) {
        PMPI_Isend(a, n, MPI_INT, g_rank + mask, 1, g_hand, &r[0]);
        PMPI_Waitall(1, r, MPI_STATUSES_IGNORE);
      } else if (g_rank >= mask && g_rank < 2 * mask) {
        PMPI_Irecv(a, n, MPI_INT, g_rank - mask, 1, g_hand, &r[0]);
        PMPI_Waitall(1, r, MPI_STATUSES_IGNORE);
      }
    }
    return true;
  }
  g_hand_in.resize(static_cast<std::size_t>(n));
  std::copy(a, a + n, b);
  for (int mask = 1; mask < g_size; mask <<= 1) {
    PMPI_Irecv(g_hand_in.data(), n, MPI_INT, g_rank ^ mask, 1, g_hand, &r[0]);
    PMPI_Isend(b, n, MPI_INT, g_rank ^ mask, 1, g_hand, &r[1]);
    PMPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    for (int i = 0; i < n; ++i) b[i] += g_hand_in[static_cast<std::size_t>(i)];
  }
  return true;
}

void persistent_mode(Csv& csv, std::int64_t lo, std::int64_t hi, int base_reps, const std::string& which) {
  const int root = 0;
  csv.header({"op", "p", "bytes", "native_us", "native_persistent_us", "optcoll_us", "optcoll_persistent_us",
              "persistent_over_native", "algorithm", "by_hand_us"});
  for (const std::string op : {"bcast", "allreduce"}) {
    if (which != "both" && which != op) continue;
    const bool bc = op == "bcast";
    for (std::int64_t bytes : sizes(lo, hi)) {
      const std::int64_t count = std::max<std::int64_t>(bytes / 4, 1);
      const int n = static_cast<int>(count);
      std::vector<int> a(static_cast<std::size_t>(count), g_rank + 1);
      std::vector<int> b(static_cast<std::size_t>(count), 0);
      MPI_Request native_req = MPI_REQUEST_NULL;
      if (bc)
        native_bcast_init(a.data(), n, MPI_INT, root, MPI_COMM_WORLD, &native_req);
      else
        native_allreduce_init(a.data(), b.data(), n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &native_req);
      optcoll::Request ours_req =
          bc ? optcoll::bcast_init(a.data(), count, MPI_INT, root, MPI_COMM_WORLD)
             : optcoll::allreduce_init(a.data(), b.data(), count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      const auto native = [&] {
        if (bc)
          MPI_Bcast(a.data(), n, MPI_INT, root, MPI_COMM_WORLD);
        else
          MPI_Allreduce(a.data(), b.data(), n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      };
      const auto native_persistent = [&] {
        MPI_Start(&native_req);
        MPI_Wait(&native_req, MPI_STATUS_IGNORE);
      };
      const auto ours = [&] {
        if (bc)
          optcoll::bcast(a.data(), count, MPI_INT, root, MPI_COMM_WORLD);
        else
          optcoll::allreduce(a.data(), b.data(), count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      };
      const auto ours_persistent = [&] {
        ours_req.start();
        ours_req.wait();
      };
      const bool hand = by_hand(bc, a.data(), b.data(), n);  // (also its warm-up)
      const auto hand_written = [&] { by_hand(bc, a.data(), b.data(), n); };
      g_batch = batch_for(bytes);
      native();  // warm-up
      if (kNativePersistent) native_persistent();
      ours();
      ours_persistent();
      const int reps = reps_for(bytes, base_reps);
      std::vector<double> t0, t1, t2, t3, t4;
      for (int i = 0; i < reps; ++i) {
        t0.push_back(timed(native));
        if (kNativePersistent) t1.push_back(timed(native_persistent));
        t2.push_back(timed(ours));
        t3.push_back(timed(ours_persistent));
        if (hand) t4.push_back(timed(hand_written));
      }
      if (kNativePersistent) MPI_Request_free(&native_req);
      const optcoll::mpi::Decision d = optcoll::mpi::describe(
          MPI_COMM_WORLD, bc ? optcoll::plan::Collective::bcast : optcoll::plan::Collective::allreduce, count, MPI_INT,
          MPI_SUM);
      const double m0 = median(t0) * 1e6, m2 = median(t2) * 1e6, m3 = median(t3) * 1e6;
      const std::optional<double> m1 = kNativePersistent ? std::optional<double>(median(t1) * 1e6) : std::nullopt;
      std::optional<double> m4;
      if (hand) m4.emplace(median(t4) * 1e6);
      if (g_rank == 0) csv.row(op, g_size, count * 4, m0, m1, m2, m3, m3 / m0, d.algorithm, m4);
    }
  }
}

// A computation of `units` steps that the compiler cannot remove.
volatile double g_sink = 0;
void compute(std::int64_t units) {
  double x = g_sink;
  for (std::int64_t i = 0; i < units; ++i) x = x * 0.999999 + 1e-9;
  g_sink = x;
}

void overlap_mode(Csv& csv, std::int64_t lo, std::int64_t hi, int base_reps, const std::string& which) {
  const int root = 0;
  constexpr int kSlices = 16;
  csv.header({"op", "p", "bytes", "impl", "comm_us", "compute_us", "both_us", "hidden"});
  // Steps per microsecond of compute() on this machine (rank 0's, shared).
  double per_us = 0;
  {
    const double t0 = MPI_Wtime();
    compute(10'000'000);
    per_us = 10'000'000 / ((MPI_Wtime() - t0) * 1e6);
    MPI_Bcast(&per_us, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  }
  for (const std::string op : {"bcast", "allreduce"}) {
    if (which != "both" && which != op) continue;
    const bool bc = op == "bcast";
    for (std::int64_t bytes : sizes(lo, hi)) {
      const std::int64_t count = std::max<std::int64_t>(bytes / 4, 1);
      const int n = static_cast<int>(count);
      std::vector<int> a(static_cast<std::size_t>(count), g_rank + 1);
      std::vector<int> b(static_cast<std::size_t>(count), 0);
      // impl 0: native; 1: optcoll. start() begins the call, test() advances it.
      MPI_Request nr = MPI_REQUEST_NULL;
      optcoll::Request orq;
      const auto start = [&](int impl) {
        if (impl == 0) {
          if (bc)
            MPI_Ibcast(a.data(), n, MPI_INT, root, MPI_COMM_WORLD, &nr);
          else
            MPI_Iallreduce(a.data(), b.data(), n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &nr);
        } else {
          orq = bc ? optcoll::ibcast(a.data(), count, MPI_INT, root, MPI_COMM_WORLD)
                   : optcoll::iallreduce(a.data(), b.data(), count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        }
      };
      const auto test = [&](int impl) {
        if (impl == 0) {
          int flag = 0;
          MPI_Test(&nr, &flag, MPI_STATUS_IGNORE);
        } else {
          orq.test();
        }
      };
      const auto wait = [&](int impl) {
        if (impl == 0)
          MPI_Wait(&nr, MPI_STATUS_IGNORE);
        else
          orq.wait();
      };
      g_batch = 1;
      for (int impl : {0, 1}) {  // warm-up
        start(impl);
        wait(impl);
      }
      // The computation: as long as the slower implementation's call.
      double comm_max = 0;
      for (int impl : {0, 1})
        comm_max = std::max(comm_max, timed([&] {
                              start(impl);
                              wait(impl);
                            }));
      const auto units = static_cast<std::int64_t>(comm_max * 1e6 * per_us);
      const int reps = reps_for(bytes, base_reps);
      std::vector<double> tc[2], tp[2], tb[2];
      for (int i = 0; i < reps; ++i) {
        for (int impl : {0, 1}) {
          tc[impl].push_back(timed([&] {
            start(impl);
            wait(impl);
          }));
          tp[impl].push_back(timed([&] { compute(units); }));
          tb[impl].push_back(timed([&] {
            start(impl);
            for (int s = 0; s < kSlices; ++s) {
              compute(units / kSlices);
              test(impl);
            }
            wait(impl);
          }));
        }
      }
      for (int impl : {0, 1}) {
        const double c = median(tc[impl]) * 1e6, p = median(tp[impl]) * 1e6, both = median(tb[impl]) * 1e6;
        const double hidden = (c + p - both) / std::min(c, p);
        if (g_rank == 0) csv.row(op, g_size, count * 4, impl == 0 ? "native" : "optcoll", c, p, both, hidden);
      }
    }
  }
}

// Instruction-count mode (--count-calls K, run under callgrind by
// scripts/callgrind-requests.sh): each implementation's K calls of one size
// (8 B, or --min B) in a function of its own, so that callgrind's inclusive cost of the
// function divided by K is the instructions per call.
// (noipa: GCC would otherwise fold the four identical functions into one.)
#if defined(__clang__)
#define OPTCOLL_COUNTED(name) __attribute__((noinline)) void name(int k, const std::function<void()>& f)
#else
#define OPTCOLL_COUNTED(name) __attribute__((noipa)) void name(int k, const std::function<void()>& f)
#endif
OPTCOLL_COUNTED(counted_native) {
  for (int i = 0; i < k; ++i) f();
}
OPTCOLL_COUNTED(counted_native_persistent) {
  for (int i = 0; i < k; ++i) f();
}
OPTCOLL_COUNTED(counted_optcoll) {
  for (int i = 0; i < k; ++i) f();
}
OPTCOLL_COUNTED(counted_optcoll_persistent) {
  for (int i = 0; i < k; ++i) f();
}
OPTCOLL_COUNTED(counted_native_nonblocking) {
  for (int i = 0; i < k; ++i) f();
}
OPTCOLL_COUNTED(counted_optcoll_nonblocking) {
  for (int i = 0; i < k; ++i) f();
}
OPTCOLL_COUNTED(counted_by_hand) {
  for (int i = 0; i < k; ++i) f();
}
#undef OPTCOLL_COUNTED

void count_mode(int k, const std::string& op, std::int64_t bytes) {
  const bool bc = op == "bcast";
  const int n = static_cast<int>(std::max<std::int64_t>(bytes / 4, 2));
  std::vector<int> a(static_cast<std::size_t>(n), g_rank + 1), b(static_cast<std::size_t>(n), 0);
  MPI_Request nr = MPI_REQUEST_NULL;
  if (bc)
    native_bcast_init(a.data(), n, MPI_INT, 0, MPI_COMM_WORLD, &nr);
  else
    native_allreduce_init(a.data(), b.data(), n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &nr);
  optcoll::Request orq = bc ? optcoll::bcast_init(a.data(), n, MPI_INT, 0, MPI_COMM_WORLD)
                            : optcoll::allreduce_init(a.data(), b.data(), n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  const std::function<void()> native = [&] {
    if (bc)
      MPI_Bcast(a.data(), n, MPI_INT, 0, MPI_COMM_WORLD);
    else
      MPI_Allreduce(a.data(), b.data(), n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  };
  const std::function<void()> native_persistent = [&] {
    MPI_Start(&nr);
    MPI_Wait(&nr, MPI_STATUS_IGNORE);
  };
  const std::function<void()> ours = [&] {
    if (bc)
      optcoll::bcast(a.data(), n, MPI_INT, 0, MPI_COMM_WORLD);
    else
      optcoll::allreduce(a.data(), b.data(), n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  };
  const std::function<void()> ours_persistent = [&] {
    orq.start();
    orq.wait();
  };
  const std::function<void()> native_nonblocking = [&] {
    MPI_Request r = MPI_REQUEST_NULL;
    if (bc)
      MPI_Ibcast(a.data(), n, MPI_INT, 0, MPI_COMM_WORLD, &r);
    else
      MPI_Iallreduce(a.data(), b.data(), n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  };
  const std::function<void()> ours_nonblocking = [&] {
    optcoll::Request r = bc ? optcoll::ibcast(a.data(), n, MPI_INT, 0, MPI_COMM_WORLD)
                            : optcoll::iallreduce(a.data(), b.data(), n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    r.wait();
  };
  const bool hand = by_hand(bc, a.data(), b.data(), n);  // (also its warm-up)
  const std::function<void()> hand_written = [&] { by_hand(bc, a.data(), b.data(), n); };
  for (const auto* f :
       {&native, &native_persistent, &ours, &ours_persistent, &native_nonblocking, &ours_nonblocking})  // warm-up
    if (f != &native_persistent || kNativePersistent) (*f)();
  MPI_Barrier(MPI_COMM_WORLD);
  counted_native(k, native);
  MPI_Barrier(MPI_COMM_WORLD);
  if (kNativePersistent) counted_native_persistent(k, native_persistent);
  MPI_Barrier(MPI_COMM_WORLD);
  counted_optcoll(k, ours);
  MPI_Barrier(MPI_COMM_WORLD);
  counted_optcoll_persistent(k, ours_persistent);
  MPI_Barrier(MPI_COMM_WORLD);
  counted_native_nonblocking(k, native_nonblocking);
  MPI_Barrier(MPI_COMM_WORLD);
  counted_optcoll_nonblocking(k, ours_nonblocking);
  MPI_Barrier(MPI_COMM_WORLD);
  if (hand) counted_by_hand(k, hand_written);
  MPI_Barrier(MPI_COMM_WORLD);
  if (kNativePersistent) MPI_Request_free(&nr);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  MPI_Comm_dup(MPI_COMM_WORLD, &g_hand);
  std::int64_t lo = 8;
  std::int64_t hi = std::int64_t{16} << 20;
  int reps = 41;
  bool overlap = false;
  int count_calls = 0;
  std::string which = "both";
  std::string out;
  if (!Args()
           .flag("--overlap", overlap)
           .value("--count-calls", count_calls)
           .value("--min", lo)
           .value("--max", hi)
           .value("--reps", reps)
           .value("--op", which)
           .value("--out", out)
           .parse(argc, argv,
                  "mpi_requests [--overlap | --count-calls K] [--op bcast|allreduce|both] [--min B] [--max B] "
                  "[--reps R] [--out FILE]")) {
    MPI_Finalize();
    return 2;
  }
  if (count_calls > 0) {
    count_mode(count_calls, which == "both" ? "bcast" : which, lo);
    MPI_Comm_free(&g_hand);
    MPI_Finalize();
    return 0;
  }
  Csv csv(out, g_rank == 0);
  if (!csv.ok()) MPI_Abort(MPI_COMM_WORLD, 2);
  csv.begin(overlap ? "computation hidden inside nonblocking calls: native MPI_I<op> against optcoll's i<op>"
                    : "persistent start + wait against blocking calls, native and optcoll",
            command_line(argc, argv), mpi_meta());
  if (overlap)
    overlap_mode(csv, lo, hi, reps, which);
  else
    persistent_mode(csv, lo, hi, reps, which);
  MPI_Comm_free(&g_hand);
  MPI_Finalize();
  return 0;
}
