// Runs `optcoll logp ...` and checks the figures' numbers, exit codes and
// the SVG output.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "../cli/cli_run.hpp"

namespace {

using optcoll::test::CliRun;

// `optcoll logp ARGS`.
CliRun run(const std::string& args, bool want_stderr = false) {
  return optcoll::test::run_cli("logp " + args, want_stderr);
}

nlohmann::json run_json(const std::string& args) {
  const CliRun r = run(args + " --json");
  EXPECT_EQ(r.code, 0) << args;
  return nlohmann::json::parse(r.out);
}

TEST(CliLogp, Figure1Tree) {
  const auto j = run_json("tree -P 8 --L 6 --o 2 --g 4");
  EXPECT_EQ(j["broadcast_time"], 24);
  EXPECT_EQ(j["delay"], (std::vector<int>{0, 10, 14, 18, 22, 20, 24, 24}));
  EXPECT_EQ(j["parent"], (std::vector<int>{-1, 0, 0, 0, 0, 1, 1, 2}));
  EXPECT_TRUE(j["simulation"]["ok"]);
  EXPECT_TRUE(j["simulation"]["meets_bound"]);
}

TEST(CliLogp, Figure6Summation) {
  const auto j = run_json("sum -t 28 -P 8 --L 5 --o 2 --g 4");
  EXPECT_EQ(j["operands"], 79);
  EXPECT_EQ(j["simulation"]["completion"], 28);
  EXPECT_TRUE(j["simulation"]["ok"]);
  const auto k = run_json("sum -n 79 -P 8 --L 5 --o 2 --g 4 --noncommutative");
  EXPECT_EQ(k["t"], 28);
  EXPECT_TRUE(k["simulation"]["ok"]);
}

TEST(CliLogp, Figure2KItem) {
  const auto j = run_json("kitem --figure2");
  EXPECT_EQ(j["lower_bound"], 15);
  EXPECT_EQ(j["kstar"], 2);
  EXPECT_EQ(j["simulation"]["completion"], 15);
  EXPECT_TRUE(j["simulation"]["ok"]);
  const auto c = run_json("continuous -P 10 --L 3");
  EXPECT_EQ(c["delay"], 10);
  EXPECT_TRUE(c["simulation"]["ok"]);
  const auto s = run_json("kitem -P 100 --L 3 -k 20");
  EXPECT_TRUE(s["simulation"]["ok"]);
  EXPECT_LE(s["simulation"]["completion"].get<int>(), s["theorem_3_7_bound"].get<int>());
}

TEST(CliLogp, OtherSubcommands) {
  const auto c = run_json("combine -P 13 --L 2");
  EXPECT_EQ(c["time"], 6);
  EXPECT_TRUE(c["simulation"]["ok"]);
  const auto a = run_json("alltoall -P 5 -k 1 --L 6 --o 2 --g 4");
  EXPECT_EQ(a["gap_used"], 5);
  EXPECT_EQ(a["paper_bound"], 22);
  const auto r = run_json("reach -t 10 --L 3");
  EXPECT_EQ(r["P(t)"], 28);
  EXPECT_EQ(r["f"], (std::vector<int>{1, 1, 1, 2, 3, 4, 6, 9, 13, 19, 28}));
  const auto b = run_json("continuous --L 4 --base-cases");
  EXPECT_GE(b["t0"].get<int>(), 9);
}

TEST(CliLogp, BadInputIsAUsageError) {
  for (const char* args : {"tree -P 0", "tree --L 0", "tree --o 5 --g 4", "kitem --L 3 --o 1 --g 2", "sum -P 0",
                           "continuous -P 12 --L 3", "kitem -P 1"}) {
    const CliRun r = run(args, true);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << args << ": " << r.out;
  }
}

TEST(CliLogp, SvgFiles) {
  const std::string tree = ::testing::TempDir() + "logp_tree.svg", gantt = ::testing::TempDir() + "logp_gantt.svg";
  ASSERT_EQ(run("tree --svg " + tree + " --gantt " + gantt).code, 0);
  std::ifstream t(tree), g(gantt);
  std::stringstream ts, gs;
  ts << t.rdbuf();
  gs << g.rdbuf();
  EXPECT_EQ(ts.str().rfind("<svg xmlns", 0), 0u);
  EXPECT_NE(ts.str().find("</svg>"), std::string::npos);
  std::size_t circles = 0;
  for (std::size_t at = 0; (at = ts.str().find("<circle", at)) != std::string::npos; ++at) ++circles;
  EXPECT_EQ(circles, 8u);
  std::size_t boxes = 0;
  for (std::size_t at = 0; (at = gs.str().find("<rect x=", at)) != std::string::npos; ++at) ++boxes;
  EXPECT_EQ(boxes, 14u + 4u);  // 7 sends, 7 receives, 4 legend boxes
}

}  // namespace
