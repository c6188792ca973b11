// The benchmark's operations (cases.hpp): buffers, calls, results.
#include "cases.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <stdexcept>

#include "mpi_timing.hpp"
#include "optcoll/model/distributions.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::bench::smpi {
namespace {

constexpr int kRoot = 0;
constexpr unsigned char kSentinel = 0x5A;

// Input element i of rank r: small, so that sums over 2^20 ranks stay exact.
int pattern(int rank, std::int64_t i) {
  return static_cast<int>((static_cast<std::int64_t>(rank) * 7919 + i * 31) % 1009) + 1;
}

// Element i of the sum of the patterns of ranks [0, ranks): the pattern is
// periodic in i (period 1009), so one table of 1009 sums serves any length.
std::vector<int> pattern_prefix_sum(int ranks, std::int64_t elements) {
  constexpr int kPeriod = 1009;
  std::vector<int> table(kPeriod, 0);
  for (int q = 0; q < ranks; ++q)
    for (int i = 0; i < kPeriod; ++i) table[static_cast<std::size_t>(i)] += pattern(q, i);
  std::vector<int> out(static_cast<std::size_t>(elements));
  for (std::int64_t i = 0; i < elements; ++i)
    out[static_cast<std::size_t>(i)] = table[static_cast<std::size_t>(i % kPeriod)];
  return out;
}

std::vector<std::int64_t> as64(const std::vector<int>& v) {
  return {v.begin(), v.end()};
}

// Per-rank counts of a distribution with at least one element per
// weighted rank; sums to max(total, what that needs).
std::vector<int> group_counts(const std::string& dist, std::int64_t total) {
  const model::Distribution d = *model::parse_distribution(dist);
  std::int64_t need = 1;
  if (d == model::Distribution::regular) need = g_size;
  if (d == model::Distribution::irregular) {
    need = 0;
    for (int i = 0; i < g_size; ++i) need += i % 3;
    need = std::max<std::int64_t>(need, 1);
  }
  const std::vector<std::int64_t> c = model::distribute(d, g_size, std::max(total, need), g_size / 2);
  return {c.begin(), c.end()};
}

std::vector<int> displacements(const std::vector<int>& counts) {
  std::vector<int> d(counts.size(), 0);
  for (std::size_t i = 1; i < counts.size(); ++i) d[i] = d[i - 1] + counts[i - 1];
  return d;
}

std::int64_t sum(const std::vector<int>& v) {
  return std::accumulate(v.begin(), v.end(), std::int64_t{0});
}

std::size_t at(int i) {
  return static_cast<std::size_t>(i);
}

}  // namespace

void Buffer::allocate(std::int64_t elements, bool shared) {
  release();
  const auto bytes = static_cast<std::size_t>(std::max<std::int64_t>(elements, 1)) * sizeof(int);
  // (smpicxx makes malloc and free macros of SMPI's, which also take
  // shared blocks; so no std:: here.)
  data_ = static_cast<int*>(shared ? SMPI_SHARED_MALLOC(bytes) : malloc(bytes));
  if (data_ == nullptr) throw std::bad_alloc();
  size_ = elements;
  shared_ = shared;
}

void Buffer::release() noexcept {
  if (data_ == nullptr) return;
  if (shared_)
    SMPI_SHARED_FREE(data_);
  else
    free(data_);
  data_ = nullptr;
  size_ = 0;
}

void Case::prepare() const {
  if (send.size() > 0)
    for (std::int64_t i = 0; i < send.size(); ++i) send.data()[i] = pattern(g_rank, i);
  std::memset(recv.data(), kSentinel, static_cast<std::size_t>(recv.size()) * sizeof(int));
  if (root_input_in_recv && g_rank == kRoot)
    for (std::int64_t i = 0; i < recv.size(); ++i) recv.data()[i] = pattern(g_rank, i);
}

const std::vector<std::pair<std::string, std::string>>& all_operations() {
  static const std::vector<std::pair<std::string, std::string>> ops{
      {"bcast", "regular"},
      {"reduce", "regular"},
      {"allgather", "regular"},
      {"allgatherv", "regular"},
      {"allgatherv", "irregular"},
      {"allgatherv", "degenerate"},
      {"reduce_scatter_block", "regular"},
      {"reduce_scatter", "irregular"},
      {"allreduce", "regular"},
      {"gather", "regular"},
      {"gatherv", "irregular"},
      {"scatter", "regular"},
      {"scatterv", "irregular"},
      {"scan", "regular"},
      {"exscan", "regular"},
      {"alltoall", "regular"},
      {"alltoallv", "irregular"},
  };
  return ops;
}

std::int64_t case_bytes_per_rank(const std::string& op, const std::string& dist, std::int64_t bytes, int p) {
  (void)dist;
  const std::int64_t e = std::max<std::int64_t>(bytes / 4, 1);
  const std::int64_t group = std::max<std::int64_t>(e / p, 1);
  std::int64_t elements = 2 * e;  // vector ops; the v-variants' largest group is at most the whole vector
  if (op == "alltoall" || op == "alltoallv") elements = 2 * 3 * group * p;
  if (op == "allgather" || op == "gather" || op == "scatter" || op == "reduce_scatter_block")
    elements = group * p + group;
  return std::max<std::int64_t>(elements, 2 * p) * 4;
}

std::unique_ptr<Case> make_case(const std::string& op, const std::string& dist, std::int64_t bytes, bool shared) {
  auto c = std::make_unique<Case>();
  Case& k = *c;
  k.op = op;
  k.dist = dist;
  k.bytes = bytes;
  const std::int64_t e = std::max<std::int64_t>(bytes / 4, 1);
  const std::int64_t group = std::max<std::int64_t>(e / g_size, 1);
  const int g = static_cast<int>(group);
  const int n = static_cast<int>(e);
  const auto p64 = static_cast<std::int64_t>(g_size);
  auto alloc = [&](std::int64_t send, std::int64_t recv) {
    k.send.allocate(send, shared);
    k.recv.allocate(recv, shared);
  };
  MPI_Comm w = MPI_COMM_WORLD;
  if (op == "bcast") {
    alloc(0, e);
    k.root_input_in_recv = true;
    k.native = [&k, n, w] { MPI_Bcast(k.recv.data(), n, MPI_INT, kRoot, w); };
    k.ours = [&k, e, w](const Options& o) { optcoll::bcast(k.recv.data(), e, MPI_INT, kRoot, w, o); };
    k.result_count = e;
    k.describable = true;
    k.coll = plan::Collective::bcast;
    k.describe_count = e;
  } else if (op == "reduce" || op == "allreduce" || op == "scan" || op == "exscan") {
    alloc(e, e);
    if (op == "reduce") {
      k.native = [&k, n, w] { MPI_Reduce(k.send.data(), k.recv.data(), n, MPI_INT, MPI_SUM, kRoot, w); };
      k.ours = [&k, e, w](const Options& o) {
        optcoll::reduce(k.send.data(), k.recv.data(), e, MPI_INT, MPI_SUM, kRoot, w, o);
      };
      k.result_count = g_rank == kRoot ? e : 0;
      k.coll = plan::Collective::reduce;
    } else if (op == "allreduce") {
      k.native = [&k, n, w] { MPI_Allreduce(k.send.data(), k.recv.data(), n, MPI_INT, MPI_SUM, w); };
      k.ours = [&k, e, w](const Options& o) {
        optcoll::allreduce(k.send.data(), k.recv.data(), e, MPI_INT, MPI_SUM, w, o);
      };
      k.result_count = e;
      k.coll = plan::Collective::allreduce;
    } else if (op == "scan") {
      k.native = [&k, n, w] { MPI_Scan(k.send.data(), k.recv.data(), n, MPI_INT, MPI_SUM, w); };
      k.ours = [&k, e, w](const Options& o) { optcoll::scan(k.send.data(), k.recv.data(), e, MPI_INT, MPI_SUM, w, o); };
      k.result_count = e;
      k.expected = [e] { return pattern_prefix_sum(g_rank + 1, e); };
      k.coll = plan::Collective::scan;
    } else {
      k.native = [&k, n, w] { MPI_Exscan(k.send.data(), k.recv.data(), n, MPI_INT, MPI_SUM, w); };
      k.ours = [&k, e, w](const Options& o) {
        optcoll::exscan(k.send.data(), k.recv.data(), e, MPI_INT, MPI_SUM, w, o);
      };
      k.result_count = g_rank == 0 ? 0 : e;  // undefined at rank 0
      k.expected = [e] { return pattern_prefix_sum(g_rank, g_rank == 0 ? 0 : e); };
      k.coll = plan::Collective::exscan;
    }
    k.describable = true;
    k.describe_count = e;
  } else if (op == "allgather" || op == "gather" || op == "scatter" || op == "reduce_scatter_block") {
    const std::int64_t all = group * p64;
    if (op == "allgather") {
      alloc(group, all);
      k.native = [&k, g, w] { MPI_Allgather(k.send.data(), g, MPI_INT, k.recv.data(), g, MPI_INT, w); };
      k.ours = [&k, group, w](const Options& o) {
        optcoll::allgather(k.send.data(), k.recv.data(), group, MPI_INT, w, o);
      };
      k.result_count = all;
      k.describable = true;
      k.coll = plan::Collective::allgather;
    } else if (op == "gather") {
      alloc(group, g_rank == kRoot ? all : 0);
      k.native = [&k, g, w] { MPI_Gather(k.send.data(), g, MPI_INT, k.recv.data(), g, MPI_INT, kRoot, w); };
      k.ours = [&k, group, w](const Options& o) {
        optcoll::gather(k.send.data(), group, MPI_INT, k.recv.data(), group, MPI_INT, kRoot, w, o);
      };
      k.result_count = g_rank == kRoot ? all : 0;
    } else if (op == "scatter") {
      alloc(g_rank == kRoot ? all : 0, group);
      k.native = [&k, g, w] { MPI_Scatter(k.send.data(), g, MPI_INT, k.recv.data(), g, MPI_INT, kRoot, w); };
      k.ours = [&k, group, w](const Options& o) {
        optcoll::scatter(k.send.data(), group, MPI_INT, k.recv.data(), group, MPI_INT, kRoot, w, o);
      };
      k.result_count = group;
    } else {
      alloc(all, group);
      k.native = [&k, g, w] { MPI_Reduce_scatter_block(k.send.data(), k.recv.data(), g, MPI_INT, MPI_SUM, w); };
      k.ours = [&k, group, w](const Options& o) {
        optcoll::reduce_scatter_block(k.send.data(), k.recv.data(), group, MPI_INT, MPI_SUM, w, o);
      };
      k.result_count = group;
      k.describable = true;
      k.coll = plan::Collective::reduce_scatter;
    }
    k.describe_count = group;
  } else if (op == "allgatherv" || op == "gatherv" || op == "scatterv" || op == "reduce_scatter") {
    k.rcounts = group_counts(dist, e);
    k.rdispls = displacements(k.rcounts);
    const std::int64_t all = sum(k.rcounts);
    const int mine = k.rcounts[at(g_rank)];
    const auto counts = std::make_shared<std::vector<std::int64_t>>(as64(k.rcounts));
    const auto displs = std::make_shared<std::vector<std::int64_t>>(as64(k.rdispls));
    if (op == "allgatherv") {
      alloc(mine, all);
      k.native = [&k, mine, w] {
        MPI_Allgatherv(k.send.data(), mine, MPI_INT, k.recv.data(), k.rcounts.data(), k.rdispls.data(), MPI_INT, w);
      };
      k.ours = [&k, mine, counts, displs, w](const Options& o) {
        optcoll::allgatherv(k.send.data(), mine, k.recv.data(), *counts, *displs, MPI_INT, w, o);
      };
      k.result_count = all;
      k.describable = true;
      k.coll = plan::Collective::allgather;
    } else if (op == "gatherv") {
      alloc(mine, g_rank == kRoot ? all : 0);
      k.native = [&k, mine, w] {
        MPI_Gatherv(k.send.data(), mine, MPI_INT, k.recv.data(), k.rcounts.data(), k.rdispls.data(), MPI_INT, kRoot, w);
      };
      k.ours = [&k, mine, counts, displs, w](const Options& o) {
        optcoll::gatherv(k.send.data(), mine, MPI_INT, k.recv.data(), *counts, *displs, MPI_INT, kRoot, w, o);
      };
      k.result_count = g_rank == kRoot ? all : 0;
    } else if (op == "scatterv") {
      alloc(g_rank == kRoot ? all : 0, mine);
      k.native = [&k, mine, w] {
        MPI_Scatterv(k.send.data(), k.rcounts.data(), k.rdispls.data(), MPI_INT, k.recv.data(), mine, MPI_INT, kRoot,
                     w);
      };
      k.ours = [&k, mine, counts, displs, w](const Options& o) {
        optcoll::scatterv(k.send.data(), *counts, *displs, MPI_INT, k.recv.data(), mine, MPI_INT, kRoot, w, o);
      };
      k.result_count = mine;
    } else {
      alloc(all, mine);
      k.native = [&k, w] { MPI_Reduce_scatter(k.send.data(), k.recv.data(), k.rcounts.data(), MPI_INT, MPI_SUM, w); };
      k.ours = [&k, counts, w](const Options& o) {
        optcoll::reduce_scatter(k.send.data(), k.recv.data(), *counts, MPI_INT, MPI_SUM, w, o);
      };
      k.result_count = mine;
      k.describable = true;
      k.coll = plan::Collective::reduce_scatter;
    }
    k.describe_count = *std::max_element(k.rcounts.begin(), k.rcounts.end());
    k.describe_smallest = *std::min_element(k.rcounts.begin(), k.rcounts.end());
    k.describe_total = sum(k.rcounts);
    std::vector<plan::Segment> groups;
    for (const int count : k.rcounts) groups.push_back({0, count});
    k.describe_doubling = plan::doubling_elements(groups);
  } else if (op == "alltoall" || op == "alltoallv") {
    k.scounts.assign(at(g_size), g);
    k.rcounts.assign(at(g_size), g);
    if (op == "alltoallv")  // rank i sends ((i + j) mod 3) groups to rank j
      for (int j = 0; j < g_size; ++j) {
        k.scounts[at(j)] = ((g_rank + j) % 3) * g;
        k.rcounts[at(j)] = ((j + g_rank) % 3) * g;
      }
    k.sdispls = displacements(k.scounts);
    k.rdispls = displacements(k.rcounts);
    alloc(sum(k.scounts), sum(k.rcounts));
    if (op == "alltoall") {
      k.native = [&k, g, w] { MPI_Alltoall(k.send.data(), g, MPI_INT, k.recv.data(), g, MPI_INT, w); };
      k.ours = [&k, group, w](const Options& o) {
        optcoll::alltoall(k.send.data(), group, MPI_INT, k.recv.data(), group, MPI_INT, w, o);
      };
      k.describable = true;
      k.coll = plan::Collective::alltoall;
      k.describe_count = group;
    } else {
      const auto sc = std::make_shared<std::vector<std::int64_t>>(as64(k.scounts));
      const auto sd = std::make_shared<std::vector<std::int64_t>>(as64(k.sdispls));
      const auto rc = std::make_shared<std::vector<std::int64_t>>(as64(k.rcounts));
      const auto rd = std::make_shared<std::vector<std::int64_t>>(as64(k.rdispls));
      k.native = [&k, w] {
        MPI_Alltoallv(k.send.data(), k.scounts.data(), k.sdispls.data(), MPI_INT, k.recv.data(), k.rcounts.data(),
                      k.rdispls.data(), MPI_INT, w);
      };
      k.ours = [&k, sc, sd, rc, rd, w](const Options& o) {
        optcoll::alltoallv(k.send.data(), *sc, *sd, MPI_INT, k.recv.data(), *rc, *rd, MPI_INT, w, o);
      };
    }
    k.result_count = k.recv.size();
  } else {
    throw std::invalid_argument("unknown operation " + op);
  }
  return c;
}

}  // namespace optcoll::bench::smpi
