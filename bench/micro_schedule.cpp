// Google Benchmark micro-benchmarks of the per-rank schedule computations.
// For bench/results/, run it with --benchmark_format=csv (Google Benchmark's
// own CSV; its context, with the date, host, CPUs and load, goes to stderr)
// instead of bench/csv.hpp's writer, which the other benchmarks use.
#include <benchmark/benchmark.h>

#include "optcoll/schedule/all_roots.hpp"
#include "optcoll/schedule/circulant.hpp"
#include "reference/schedule_reference.hpp"

using optcoll::schedule::Circulant;
using optcoll::schedule::rank_t;

static void BM_RecvSend(benchmark::State& state) {
  const rank_t p = state.range(0);
  const Circulant g(p);
  const auto q = static_cast<std::size_t>(g.q());
  int recv[32];
  int send[32];
  rank_t r = 0;
  for (auto _ : state) {
    const int b = g.baseblock(r);
    g.recv_schedule(r, b, std::span<int>(recv, q));
    g.send_schedule(r, b, std::span<int>(send, q));
    benchmark::DoNotOptimize(recv);
    benchmark::DoNotOptimize(send);
    r = (r + 7919) % p;
  }
}
BENCHMARK(BM_RecvSend)->Arg(17)->Arg(1 << 16)->Arg(1048003)->Arg(2097005);

static void BM_Schedule(benchmark::State& state) {
  const rank_t p = state.range(0);
  const Circulant g(p);
  const auto q = static_cast<std::size_t>(g.q());
  int recv[32];
  int send[32];
  rank_t r = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(g.schedule(r, std::span<int>(recv, q), std::span<int>(send, q)));
    benchmark::DoNotOptimize(recv);
    benchmark::DoNotOptimize(send);
    r = (r + 7919) % p;
  }
}
BENCHMARK(BM_Schedule)->Arg(17)->Arg(1 << 16)->Arg(1048003)->Arg(2097005);

static void BM_ReferenceRecvSend(benchmark::State& state) {
  const rank_t p = state.range(0);
  optcoll::reference::ReferenceSchedule ref(p);
  int recv[34];
  int send[34];
  rank_t r = 0;
  for (auto _ : state) {
    ref.recv_schedule(r, recv);
    ref.send_schedule(r, send);
    benchmark::DoNotOptimize(recv);
    benchmark::DoNotOptimize(send);
    r = (r + 7919) % p;
  }
}
BENCHMARK(BM_ReferenceRecvSend)->Arg(17)->Arg(1 << 16)->Arg(1048003)->Arg(2097005);

static void BM_AllRoots(benchmark::State& state) {
  const Circulant g(state.range(0));
  for (auto _ : state) {
    const optcoll::schedule::AllRootsSchedule all(g);
    benchmark::DoNotOptimize(all.baseblock(0));
  }
}
BENCHMARK(BM_AllRoots)->Arg(1 << 16)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
