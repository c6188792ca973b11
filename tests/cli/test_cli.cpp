// Runs the real `optcoll` binary and checks its output and exit codes.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "../schedule/paper_tables.hpp"
#include "cli_run.hpp"

namespace {

using optcoll::test::CliRun;

// Runs the CLI; captures stdout, or stderr when want_stderr.
CliRun run(const std::string& args, bool want_stderr = false) {
  return optcoll::test::run_cli(args, want_stderr);
}

CliRun run_stderr(const std::string& args) {
  return run(args, true);
}

std::vector<int> row_values(const std::string& text, const std::string& label) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(label, 0) == 0) {
      std::istringstream cells(line.substr(label.size()));
      std::vector<int> v;
      int x = 0;
      while (cells >> x) v.push_back(x);
      return v;
    }
  }
  return {};
}

TEST(Cli, SchedulePrintsTable1) {
  const CliRun r = run("schedule -p 17");
  ASSERT_EQ(r.code, 0);
  const auto& t = optcoll::test::kTable1;
  EXPECT_EQ(row_values(r.out, "b:"), t.b);
  for (int k = 0; k < t.q; ++k) {
    EXPECT_EQ(row_values(r.out, "recvblock[" + std::to_string(k) + "]:"), t.recv[static_cast<std::size_t>(k)]);
    EXPECT_EQ(row_values(r.out, "sendblock[" + std::to_string(k) + "]:"), t.send[static_cast<std::size_t>(k)]);
  }
}

TEST(Cli, ScheduleJsonWithRoot) {
  const CliRun r = run("schedule -p 17 --root 5 --json");
  ASSERT_EQ(r.code, 0);
  const auto j = nlohmann::ordered_json::parse(r.out);
  std::vector<std::string> keys;
  for (const auto& [k, v] : j.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"p", "q", "root", "skips", "ranks"}));
  EXPECT_EQ(j["p"], 17);
  EXPECT_EQ(j["q"], 5);
  EXPECT_EQ(j["root"], 5);
  EXPECT_EQ(j["skips"], (std::vector<int>{1, 2, 3, 5, 9, 17}));
  const auto& t = optcoll::test::kTable1;
  ASSERT_EQ(j["ranks"].size(), 17U);
  for (std::size_t rank = 0; rank < 17; ++rank) {
    const auto& e = j["ranks"][rank];
    const std::size_t v = (rank + 17 - 5) % 17;  // virtual rank
    std::vector<std::string> ek;
    for (const auto& [k, val] : e.items()) ek.push_back(k);
    EXPECT_EQ(ek, (std::vector<std::string>{"rank", "baseblock", "recv", "send"}));
    EXPECT_EQ(e["rank"], rank);
    EXPECT_EQ(e["baseblock"], t.b[v]);
    for (std::size_t k = 0; k < 5; ++k) {
      EXPECT_EQ(e["recv"][k], t.recv[k][v]);
      EXPECT_EQ(e["send"][k], t.send[k][v]);
    }
  }
}

TEST(Cli, ScheduleOfOneProcess) {
  const CliRun r = run("schedule -p 1 --json");
  ASSERT_EQ(r.code, 0);
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["q"], 0);
  EXPECT_EQ(j["skips"], (std::vector<int>{1}));
  EXPECT_EQ(j["ranks"][0]["recv"].size(), 0U);
}

TEST(Cli, BadInputGivesOneLineAndExitTwo) {
  for (const char* args :
       {"schedule -p 0", "schedule -p 5 --root 5", "schedule -p 5 --root -1", "schedule -p abc",
        "schedule -p 2147483648", "verify --from 10 --to 5", "bench schedules --from 0 --to 3", "nosuchcommand", "",
        "simulate bcast -p 0 -m 10", "simulate bcast -p 5 -m 10 --root 5", "simulate reduce -p 5 -m -1",
        "simulate bcast -p 5 -m 10 --algorithm nosuch", "simulate allfoo -p 5 -m 10",
        "simulate reduce -p 5 -m 10 --noncommutative --algorithm circulant", "simulate bcast -p 5 -m 10 -n -3",
        "simulate bcast -p 5 -m 10 --elem-size 4"}) {
    const CliRun r = run_stderr(args);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_FALSE(r.out.empty()) << args;
    // One line (plus possibly nothing else).
    EXPECT_LE(std::count(r.out.begin(), r.out.end(), '\n'), 1) << args << ": " << r.out;
  }
}

TEST(Cli, VerifyRangeSummary) {
  const CliRun r = run("verify --from 1 --to 300 --threads 2");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("verified 300 values of p in [1, 300] (exhaustive)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("failures=0"), std::string::npos);
  EXPECT_NE(r.out.find("max_violations=3"), std::string::npos);  // 3 first at p = 65
}

TEST(Cli, VerifySampledPowersOfTwo) {
  const CliRun r = run("verify --from 1 --to 2147483647 --pow2 --sample-ranks 20");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("failures=0"), std::string::npos);
}

TEST(Cli, SimulateJsonContract) {
  const CliRun r = run("simulate bcast -p 1000 -m 1048576 -n 16 --root 7 --alpha 3e-6 --beta 2e-10 --json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  for (const char* key : {"op", "p", "m", "n", "rounds", "lower_bound_rounds", "model_time", "baselines"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["op"], "bcast");
  EXPECT_EQ(j["algorithm"], "circulant");
  EXPECT_EQ(j["n"], 16);
  EXPECT_EQ(j["rounds"], 16 - 1 + 10);
  EXPECT_EQ(j["lower_bound_rounds"], 16 - 1 + 10);
  EXPECT_TRUE(j["data_flow"]["ok"]);
  EXPECT_EQ(j["max_bytes_received"], 1048576);
  // (n-1+q)(alpha + beta m/n), computed here independently.
  EXPECT_NEAR(j["model_time"].get<double>(), 25 * (3e-6 + 2e-10 * 65536), 1e-12);
  for (const char* b : {"binomial", "chain", "binary_tree", "scatter_allgather"}) {
    ASSERT_TRUE(j["baselines"].contains(b)) << b;
    EXPECT_EQ(j["baselines"][b]["method"], "simulated") << b;
    EXPECT_GT(j["baselines"][b]["model_time"].get<double>(), j["model_time"].get<double>()) << b;
  }
  EXPECT_NEAR(j["baselines"]["binomial"]["model_time"].get<double>(), 10 * (3e-6 + 2e-10 * 1048576), 1e-12);
}

TEST(Cli, SimulateReductions) {
  const CliRun c = run("simulate reduce -p 37 -m 4000 --root 36 --elem-size 4 --json");
  ASSERT_EQ(c.code, 0) << c.out;
  const auto jc = nlohmann::json::parse(c.out);
  EXPECT_EQ(jc["algorithm"], "circulant");
  EXPECT_EQ(jc["rounds"], jc["lower_bound_rounds"]);
  EXPECT_TRUE(jc["data_flow"]["ok"]);
  const CliRun o = run("simulate reduce -p 37 -m 4000 --root 5 --noncommutative --json");
  ASSERT_EQ(o.code, 0) << o.out;
  const auto jo = nlohmann::json::parse(o.out);
  EXPECT_EQ(jo["algorithm"], "binomial_ordered");
  EXPECT_EQ(jo["data_flow"]["mode"], "interval");
  EXPECT_TRUE(jo["data_flow"]["ok"]);
}

// Scan and Exscan in the simulator: the pipeline takes n+p-2 rounds, the
// doubling plan q, both with verified prefixes (intervals when the operator
// is not commutative).
TEST(Cli, SimulateScans) {
  const CliRun r = run("simulate scan -p 17 -m 1000000 --algorithm pipeline --json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["rounds"], j["n"].get<int>() + 17 - 2);
  EXPECT_EQ(j["rounds"], j["lower_bound_rounds"]);
  EXPECT_TRUE(j["data_flow"]["ok"]);
  EXPECT_LT(j["model_time"].get<double>(), j["baselines"]["recursive_doubling"]["model_time"].get<double>());
  const CliRun e = run("simulate exscan -p 9 -m 100 --noncommutative --json");
  ASSERT_EQ(e.code, 0) << e.out;
  const auto je = nlohmann::json::parse(e.out);
  EXPECT_EQ(je["algorithm"], "doubling");
  EXPECT_EQ(je["rounds"], 4);
  EXPECT_EQ(je["data_flow"]["mode"], "interval");
  EXPECT_TRUE(je["data_flow"]["ok"]);
}

// The acceptance run of the simulator: a million and three ranks, 16 MiB.
TEST(Cli, SimulateMillionRanks) {
  const CliRun r = run("simulate bcast -p 1000003 -m 16777216 --json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["rounds"], j["n"].get<int>() - 1 + 20);
  EXPECT_EQ(j["rounds"], j["lower_bound_rounds"]);
  EXPECT_TRUE(j["data_flow"]["ok"]);
  EXPECT_EQ(j["data_flow"]["tracked_blocks"], j["n"]);
}

// `optcoll model`: one row per operation, each with a verified optcoll plan
// within the paper's round bound, no slower than the best classic algorithm
// (5% slack), and the simulated costs grow with p and m as the notes'
// formulas do. The oracle is the formula itself, tau L(p) + mu m G(p) with
// the row's notes_latency L and notes_growth G (log p, p, p log p or 1),
// evaluated with the same alpha and beta: doubling m (large m) or p (small
// m: latency; large m for the mu m p operations) must change the simulated
// time by the formula's ratio within 12%. For the mu m log p operations at
// large m optcoll must grow no faster than the formula (its pipelines beat
// log p).
struct ModelRow {
  double time = 0;
  std::string latency;
  std::string growth;
  std::string algorithm;
};

std::map<std::string, ModelRow> model_rows(int p, long long m) {
  const CliRun r = run("model -p " + std::to_string(p) + " -m " + std::to_string(m) + " --json");
  EXPECT_EQ(r.code, 0) << r.out;
  std::map<std::string, ModelRow> out;
  if (r.code != 0) return out;
  // (The parsed document must outlive the loop: a range-for over a
  // member of a temporary reads freed memory, which ASan caught.)
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  for (const auto& row : doc["rows"]) {
    EXPECT_EQ(row["optcoll"]["method"], "simulated") << row["op"];
    out[row["op"].get<std::string>()] = {row["optcoll"]["time"].get<double>(), row["notes_latency"],
                                         row["notes_growth"], row["optcoll"]["algorithm"]};
  }
  return out;
}

// tau L(p) + mu m G(p) for the row's terms: "log p", "p", "p log p", "1".
double notes_formula(const ModelRow& row, double p, double m) {
  const double alpha = 2e-6, beta = 1e-10;
  const auto term = [&](const std::string& t) {
    if (t == "log p") return std::log2(p);
    if (t == "p") return p;
    if (t == "p log p") return p * std::log2(p);
    EXPECT_EQ(t, "1");
    return 1.0;
  };
  return alpha * term(row.latency) + beta * m * term(row.growth);
}

TEST(Cli, ModelTableRowsAndBaselines) {
  const CliRun r = run("model -p 12 -m 65536 --json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  std::set<std::string> ops;
  for (const auto& row : j["rows"]) {
    ops.insert(row["op"].get<std::string>());
    const double mine = row["optcoll"]["time"];
    EXPECT_GT(mine, 0) << row["op"];
    EXPECT_FALSE(row["notes_formula"].get<std::string>().empty());
    ASSERT_FALSE(row["baselines"].empty()) << row["op"];
    if (row["bound_rounds"].get<int>() >= 0) {
      EXPECT_EQ(row["optcoll"]["rounds"], row["bound_rounds"]) << row["op"];
    }
    for (const auto& b : row["baselines"]) {
      if (b["time"].get<double>() < 0) continue;
      EXPECT_LE(mine, 1.05 * b["time"].get<double>()) << row["op"] << " " << b;
    }
  }
  for (const char* op :
       {"bcast", "reduce", "allreduce", "scan", "exscan", "gather", "gatherv", "allgather", "allgatherv", "scatter",
        "scatterv", "reduce_scatter_block", "reduce_scatter", "alltoall", "alltoallv", "many_to_many"})
    EXPECT_TRUE(ops.count(op)) << op;
  const CliRun text = run("model -p 12 -m 65536");
  ASSERT_EQ(text.code, 0);
  EXPECT_NE(text.out.find("paper bound: n-1+ceil(log2 p) rounds"), std::string::npos) << text.out;
  EXPECT_EQ(run("model -p 0 -m 8").code, 2);
}

TEST(Cli, ModelCostsFollowTheNotesGrowth) {
  const auto check = [](int p0, long long m0, int p1, long long m1, bool log_rows_at_most) {
    const auto a = model_rows(p0, m0);
    const auto b = model_rows(p1, m1);
    ASSERT_EQ(a.size(), b.size());
    for (const auto& [op, row] : a) {
      const double sim = b.at(op).time / row.time;
      const double formula =
          notes_formula(b.at(op), p1, static_cast<double>(m1)) / notes_formula(row, p0, static_cast<double>(m0));
      const std::string where = op + " p " + std::to_string(p0) + "->" + std::to_string(p1) + " m " +
                                std::to_string(m0) + "->" + std::to_string(m1);
      // The pipelined scan chain (n grows with sqrt(m)) grows more slowly in
      // m than the doubling formula: it may only beat it.
      if ((log_rows_at_most && row.growth == "log p") || row.algorithm == "pipeline") {
        EXPECT_LE(sim, formula * 1.12) << where;
        EXPECT_GE(sim, 0.95) << where;
      } else {
        EXPECT_NEAR(sim / formula, 1.0, 0.12) << where << ": simulated " << sim << ", formula " << formula;
      }
    }
  };
  check(16, 1 << 20, 16, 1 << 21, false);  // m doubles: the mu m term
  check(24, 1 << 22, 24, 1 << 23, false);
  check(32, 8, 64, 8, false);  // p doubles, latency-bound: log p
  check(33, 8, 66, 8, false);
  check(16, 1 << 16, 32, 1 << 16, true);  // p doubles, bandwidth-bound
}

TEST(Cli, BenchSchedulesEndsWithNsPerRank) {
  const CliRun r = run("bench schedules --from 1000 --to 1003");
  ASSERT_EQ(r.code, 0);
  const auto pos = r.out.rfind("ns_per_rank: ");
  ASSERT_NE(pos, std::string::npos);
  EXPECT_GT(std::stod(r.out.substr(pos + 13)), 0.0);
}

}  // namespace
