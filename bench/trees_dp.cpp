// Timing of the tree DPs (trees/): the homogeneous optimal tree (Figure 6)
// with the best root and with a fixed root, the binary tree (Figure 7), the
// non-homogeneous DP (Figure 5), and, for scale, a plain scalar triple loop
// over the same recurrence. The variants run alternately, `reps` rounds;
// medians of wall-clock and CPU seconds are written (the machine is shared).
//
//   trees_dp [p_homogeneous=2000] [p_pairwise=200] [reps=5] [--out FILE]
//
// Output: CSV (bench/csv.hpp) on stdout or to FILE, the machine and the
// command in the leading '#' lines, then one row per variant:
//   variant,median_wall_s,median_cpu_s,min_wall_s,runs
// The sum of the trees' times goes to stderr: printing it keeps the
// compiler from dropping the computations.
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "csv.hpp"
#include "optcoll/trees/block_sizes.hpp"
#include "optcoll/trees/constructions.hpp"

namespace {

using optcoll::trees::rank_t;

struct Timing {
  std::vector<double> wall, cpu;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// The recurrence of tree_dp_homogeneous.cpp as a plain loop (values only).
double naive(const std::vector<std::int64_t>& m, double alpha, double beta, double gamma) {
  const auto n = m.size();
  std::vector<double> C(n * n, 0.0), P(n + 1, 0.0);
  for (std::size_t x = 0; x < n; ++x) P[x + 1] = P[x] + static_cast<double>(m[x]);
  const auto comm = [&](double s) { return s > 0 ? alpha + beta * s : 0.0; };
  for (std::size_t i = n; i-- > 0;)
    for (std::size_t j = i + 1; j < n; ++j) {
      double best = std::numeric_limits<double>::infinity();
      for (std::size_t k = i; k < j; ++k) {
        const double left = k == i ? gamma * static_cast<double>(m[i]) : C[i * n + k];
        best = std::min(best, std::max(left, C[(k + 1) * n + j]) + comm(P[j + 1] - P[k + 1]));
        best = std::min(best, k + 1 == j ? C[i * n + j - 1] + comm(P[j] - P[i]) + gamma * static_cast<double>(m[j])
                                         : std::max(C[i * n + k], C[(k + 1) * n + j]) + comm(P[k + 1] - P[i]));
      }
      C[i * n + j] = best;
    }
  return C[n - 1];
}

}  // namespace

int main(int argc, char** argv) {
  using namespace optcoll::trees;
  const std::string command = optcoll::bench::command_line(argc, argv);
  std::string out;
  if (!optcoll::bench::take_option(argc, argv, "--out", out)) return 2;
  optcoll::bench::Csv csv(out);
  if (!csv.ok()) return 2;
  const rank_t p = argc > 1 ? std::atoll(argv[1]) : 2000;
  const rank_t pw = argc > 2 ? std::atoll(argv[2]) : 200;
  const int reps = argc > 3 ? std::atoi(argv[3]) : 5;

  const auto m = block_sizes(BlockDistribution::random, p, 1000, 5, 1);
  const auto model = CostModel::homogeneous(100, 1, 1);
  const auto mw = block_sizes(BlockDistribution::random, pw, 1000, 5, 1);
  // A two-level machine: 16 ranks per node, alpha and beta 10x across nodes.
  std::vector<double> a(static_cast<std::size_t>(pw * pw)), b(a.size()), g(static_cast<std::size_t>(pw), 1);
  for (rank_t i = 0; i < pw; ++i)
    for (rank_t j = 0; j < pw; ++j) {
      const bool local = i / 16 == j / 16;
      a[static_cast<std::size_t>(i * pw + j)] = local ? 100 : 1000;
      b[static_cast<std::size_t>(i * pw + j)] = local ? 1 : 10;
    }
  const auto pairwise = CostModel::pairwise(pw, a, b, g);
  csv.begin(fmt::format("gather/scatter tree DPs (Random distribution of Traff 2018 §5.1, b = 1000, seed 1; alpha "
                        "100, beta 1, gamma 1; non-homogeneous: 16 ranks per node, alpha 100 / beta 1 inside, "
                        "1000 / 10 across); the variants alternate, {} rounds",
                        reps),
            command);

  double sink = 0;
  struct Variant {
    std::string name;
    std::function<double()> run;
    Timing t;
  };
  std::vector<Variant> variants{
      {fmt::format("homogeneous DP, best root, p = {}", p),
       [&] { return optimal_tree(m, model, std::nullopt).time; },
       {}},
      {fmt::format("homogeneous DP, root p/2, p = {}", p), [&] { return optimal_tree(m, model, p / 2).time; }, {}},
      {fmt::format("binary DP, best root, p = {}", p),
       [&] { return optimal_binary_tree(m, model, std::nullopt).time; },
       {}},
      {fmt::format("plain triple loop (values only), p = {}", p), [&] { return naive(m, 100, 1, 1); }, {}},
      {fmt::format("non-homogeneous DP, best root, p = {}", pw),
       [&] { return optimal_tree_pairwise(mw, pairwise, std::nullopt).time; },
       {}},
  };
  for (int r = 0; r < reps; ++r) {
    for (Variant& v : variants) {
      const std::clock_t c0 = std::clock();
      const auto w0 = std::chrono::steady_clock::now();
      sink += v.run();
      const auto w1 = std::chrono::steady_clock::now();
      const std::clock_t c1 = std::clock();
      v.t.wall.push_back(std::chrono::duration<double>(w1 - w0).count());
      v.t.cpu.push_back(static_cast<double>(c1 - c0) / CLOCKS_PER_SEC);
    }
  }
  csv.header({"variant", "median_wall_s", "median_cpu_s", "min_wall_s", "runs"});
  for (const Variant& v : variants)
    csv.row(v.name, median(v.t.wall), median(v.t.cpu), *std::min_element(v.t.wall.begin(), v.t.wall.end()), reps);
  fmt::print(stderr, "trees_dp: checksum {}\n", sink);
  return 0;
}
