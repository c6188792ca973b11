// `optcoll trees` through the real binary: the paper's rows, the layout,
// the JSON, and usage errors (exit code 2).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "../cli/cli_run.hpp"
#include "paper_tables.hpp"

namespace {

using optcoll::test::CliRun;

// `optcoll trees ARGS`.
CliRun run(const std::string& args, bool want_stderr = false) {
  return optcoll::test::run_cli("trees " + args, want_stderr);
}

// Table 1's Two blocks rows (alpha 100, gamma 1), from the JSON.
TEST(CmdTrees, ReproducesTable1TwoBlocks) {
  const CliRun r = run("-p 2000 -b 1000 --alpha 100 --beta 1 --gamma 1 --dist two-blocks --json");
  ASSERT_EQ(r.code, 0);
  const auto j = nlohmann::json::parse(r.out);
  const auto& row = j["rows"][0];
  EXPECT_EQ(row["distribution"], "two-blocks");
  const optcoll::trees::paper::Row* paper = nullptr;
  for (const auto& x : optcoll::trees::paper::kTables)
    if (x.alpha == 100 && x.gamma == 1 && x.dist == optcoll::trees::BlockDistribution::two_blocks) paper = &x;
  ASSERT_NE(paper, nullptr);
  EXPECT_EQ(row["m"], paper->m);
  EXPECT_EQ(j["root"], 1000);
  const char* cols[] = {"linear", "binary", "oblivious", "adaptive", "optimal"};
  for (int c = 0; c < 5; ++c) {
    EXPECT_EQ(row["fixed"][cols[c]]["time"].get<double>(), paper->fixed[c]) << cols[c];
    EXPECT_EQ(row["best"][cols[c]]["time"].get<double>(), paper->best[c].time) << cols[c];
    EXPECT_EQ(row["best"][cols[c]]["root"].get<std::int64_t>(), paper->best[c].root) << cols[c];
  }
}

// The text layout: a header, then per distribution a fixed-root row and a
// best-root row with the roots in brackets.
TEST(CmdTrees, TextLayout) {
  const CliRun r = run("-p 8 -b 10 --alpha 5 --beta 1 --gamma 1 --dist same,skewed");
  ASSERT_EQ(r.code, 0);
  std::istringstream in(r.out);
  std::string line;
  std::vector<std::string> lines;
  while (std::getline(in, line)) lines.push_back(line);
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_NE(lines[0].find("root = 4"), std::string::npos);
  EXPECT_EQ(lines[1].rfind("distribution", 0), 0u);
  EXPECT_EQ(lines[2].rfind("same", 0), 0u);
  EXPECT_EQ(lines[2].find('('), std::string::npos);
  EXPECT_NE(lines[3].find('('), std::string::npos);
  EXPECT_EQ(lines[4].rfind("skewed", 0), 0u);
  // Same sizes, p = 8: every binomial-like tree costs 3 alpha + 80 = 95.
  std::istringstream cells(lines[2].substr(5));
  std::vector<double> v;
  double x = 0;
  while (cells >> x) v.push_back(x);
  ASSERT_EQ(v.size(), 6u);  // m, Linear, Binary, Oblivious, Adaptive, Optimal
  EXPECT_EQ(v[0], 80);
  EXPECT_EQ(v[3], 95);
  EXPECT_EQ(v[5], 95);
  // --best-root and --root R print one row per distribution.
  EXPECT_EQ(run("-p 8 --dist same --best-root").out.find("root ="), std::string::npos);
  const CliRun one = run("-p 8 --dist same --root 3");
  EXPECT_NE(one.out.find("root = 3"), std::string::npos);
}

TEST(CmdTrees, SeededRandomDistributions) {
  const CliRun a = run("-p 50 --dist random,spikes --seed 7 --json");
  const CliRun b = run("-p 50 --dist random,spikes --seed 7 --json");
  const CliRun c = run("-p 50 --dist random,spikes --seed 8 --json");
  ASSERT_EQ(a.code, 0);
  EXPECT_EQ(a.out, b.out);
  EXPECT_NE(a.out, c.out);
}

TEST(CmdTrees, UsageErrors) {
  EXPECT_EQ(run("-p 8 --dist nope").code, 2);
  EXPECT_EQ(run("-p 8 --root 2 --best-root").code, 2);
  EXPECT_EQ(run("-p 8 --root 8").code, 2);
  EXPECT_EQ(run("-p 0").code, 2);
  EXPECT_EQ(run("-p 100000").code, 2);
  EXPECT_EQ(run("-p 8 --gamma -1").code, 2);
  const CliRun e = run("-p 8 --dist nope", true);
  EXPECT_NE(e.out.find("unknown distribution"), std::string::npos);
  EXPECT_EQ(std::count(e.out.begin(), e.out.end(), '\n'), 1);
}

}  // namespace
