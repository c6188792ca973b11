// Every subcommand's malformed or out-of-range options: exit code 2 and one
// line on stderr, "optcoll: <what is wrong>", nothing on stdout. Runs the
// real binary.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>

namespace {

struct Outcome {
  int code = -1;
  std::string out;
  std::string err;
};

std::string slurp(const std::string& path) {
  std::string text;
  if (FILE* f = std::fopen(path.c_str(), "r")) {
    std::array<char, 4096> buf{};
    std::size_t n = 0;
    while ((n = std::fread(buf.data(), 1, buf.size(), f)) > 0) text.append(buf.data(), n);
    std::fclose(f);
  }
  return text;
}

Outcome run(const std::string& args) {
  const std::string dir = ::testing::TempDir();
  // Per process: CTest runs the tests of this file in parallel.
  const std::string stem = dir + "/optcoll_cli_errors." + std::to_string(getpid());
  const std::string out = stem + ".out";
  const std::string err = stem + ".err";
  const std::string cmd = std::string(OPTCOLL_CLI_PATH) + " " + args + " >" + out + " 2>" + err;
  const int status = std::system(cmd.c_str());
  Outcome o;
  o.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  o.out = slurp(out);
  o.err = slurp(err);
  std::remove(out.c_str());
  std::remove(err.c_str());
  return o;
}

struct BadCase {
  const char* args;
  const char* message;  // a substring the line must contain
};

// One row per distinct check; together they cover every subcommand's
// options and CLI11's own parse errors (missing, unknown, unconvertible).
constexpr BadCase kCases[] = {
    // CLI11 parse errors
    {"", "subcommand is required"},
    {"nosuchcommand", "unknown subcommand 'nosuchcommand' (choose one of: bench, logp,"},
    {"schedule", "-p is required"},
    {"schedule -p abc", "Could not convert"},
    {"schedule -p 5 --bogus", "--bogus"},
    {"verify --from 1 --to 2 --threads -1", "Could not convert"},
    {"simulate bcast -p 5 -m 1.5", "Could not convert"},
    {"trees --alpha x", "Could not convert"},
    {"logp tree -P x", "Could not convert"},
    {"bench", "subcommand is required"},
    {"logp", "subcommand is required"},
    {"logp treee", "unknown subcommand 'treee'"},
    // schedule
    {"schedule -p 0", "-p must be in [1, 2147483647]"},
    {"schedule -p 2147483648", "-p must be in"},
    {"schedule -p 99999999999999999999", "-p must be in"},
    {"schedule -p 5 --root 5", "--root must be in [0, 5)"},
    {"schedule -p 5 --root -1", "--root must be in"},
    {"schedule -p 2147483647", "prints every rank"},
    // verify
    {"verify --from 10 --to 5", "--from <= --to"},
    {"verify --from 0 --to 5", "--from <= --to"},
    {"verify --from 1 --to 2147483648", "--to <= 2147483647"},
    {"verify --from 1 --to 200000000", "at most 10^8"},
    {"verify --from 1 --to 5 --sample-ranks -3", "--sample-ranks must be >= 0"},
    {"verify --from 1 --to 5 --threads 100000", "--threads must be in [0, 1024]"},
    {"verify --from 1 --to 5 --simulate-max-p -1", "--simulate-max-p must be >= 0"},
    // bench
    {"bench schedules --from 0 --to 3", "--from <= --to"},
    {"bench schedules --from 5 --to 3", "--from <= --to"},
    {"bench all-roots -p 0", "-p must be in"},
    {"bench all-roots -p 2147483648", "-p must be in"},
    {"bench nosuch", "unknown subcommand 'nosuch' (choose one of: schedules, all-roots)"},
    // simulate
    {"simulate allfoo -p 5 -m 10", "not in"},
    {"simulate bcast -p 0 -m 10", "-p must be in"},
    {"simulate bcast -p 5 -m 10 --root 5", "--root must be in"},
    {"simulate reduce -p 5 -m -1", "-m must be"},
    {"simulate bcast -p 5 -m 10 --elem-size 4", "multiple of --elem-size"},
    {"simulate bcast -p 5 -m 10 --elem-size 0", "--elem-size must be >= 1"},
    {"simulate bcast -p 5 -m 10 -n -3", "-n must be >= 1"},
    {"simulate bcast -p 5 -m 10 --algorithm nosuch", "no bcast algorithm 'nosuch'"},
    {"simulate reduce -p 5 -m 10 --noncommutative --algorithm circulant", "needs a commutative operator"},
    {"simulate bcast -p 5 -m 10 --alpha 0", "--alpha must be finite and > 0"},
    {"simulate bcast -p 5 -m 10 --alpha inf", "--alpha must be finite"},
    {"simulate bcast -p 5 -m 10 --beta nan", "--beta finite"},
    {"simulate bcast -p 5 -m 10 --L -5", "--L, --o, --g, --G and --L-far"},
    {"simulate bcast -p 5 -m 10 --G inf", "--L, --o, --g, --G and --L-far"},
    {"simulate bcast -p 5 -m 10 --L-far -1", "--L, --o, --g, --G and --L-far"},
    {"simulate bcast -p 5 -m 10 --latency-group -1", "--latency-group must be >= 0"},
    {"simulate bcast -p 5 -m 10 --threads 0", "--threads must be in [1, 1024]"},
    {"simulate allgather -p 5 -m 10 --dist foo", "--dist must be"},
    {"simulate allgather -p 70000 -m 10", "p <= 65536"},
    {"simulate scan -p 5 -m 10 --algorithm circulant", "no scan algorithm 'circulant'"},
    // model
    {"model -m 8", "-p is required"},
    {"model -p 0 -m 8", "-p must be in [1, 65536]"},
    {"model -p 70000 -m 8", "-p must be in [1, 65536]"},
    {"model -p 4 -m 0", "-m must be in"},
    {"model -p 4 -m 8 --alpha 0", "--alpha must be finite and > 0"},
    {"model -p 4 -m 8 --beta inf", "--beta finite"},
    // trees
    {"trees -p 0", "-p must be in [1, 5000]"},
    {"trees -p 5001", "-p must be in [1, 5000]"},
    {"trees -p 10 -b -1", "-b must be in"},
    {"trees -p 10 -b 1000000000000000000", "-b must be in"},
    {"trees -p 10 --rho 0", "--rho must be >= 1"},
    {"trees -p 10 --rho 100000", "--rho must be in"},
    {"trees -p 10 --alpha nan", "must be finite and >= 0"},
    {"trees -p 10 --gamma -1", "must be finite and >= 0"},
    {"trees -p 10 --dist x", "unknown distribution 'x'"},
    {"trees -p 10 --dist same,", "unknown distribution ''"},
    {"trees -p 10 --root 10", "--root must be in [0, p)"},
    {"trees -p 10 --root 1 --best-root", "exclude each other"},
    // logp
    {"logp tree -P 0", "-P must be in"},
    {"logp tree --L -2", "L = -2 is out of range"},
    {"logp tree --o 1 --L 2 --g 0", "g = 0 is out of range"},
    {"logp tree --svg /nonexistent/dir/x.svg", "cannot write"},
    {"logp reach", "give -t T and/or -P N"},
    {"logp reach -t 2000000000", "-t too large"},
    {"logp kitem -k 0", "-k must be in"},
    {"logp kitem -P 1", "-P must be in"},
    {"logp kitem --o 1", "postal model"},
    {"logp continuous -P 16777216", "no block-cyclic continuous schedule"},
    {"logp continuous --items 999999999999", "--items too large"},
    {"logp alltoall -k 0", "-k must be >= 1"},
    {"logp combine -P 0", "-P must be in"},
    {"logp sum -n -1", "-n must be in"},
    {"logp sum -t 99999999", "-t must be <= 10^6"},
};

TEST(CliErrors, EveryBadOptionExitsTwoWithOneLine) {
  for (const BadCase& c : kCases) {
    const Outcome o = run(c.args);
    EXPECT_EQ(o.code, 2) << c.args << "\n" << o.err;
    EXPECT_TRUE(o.out.empty()) << c.args << ": stdout " << o.out;
    ASSERT_FALSE(o.err.empty()) << c.args;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << c.args << ": " << o.err;
    EXPECT_EQ(o.err.back(), '\n') << c.args;
    EXPECT_EQ(o.err.rfind("optcoll: ", 0), 0U) << c.args << ": " << o.err;
    EXPECT_NE(o.err.find(c.message), std::string::npos) << c.args << ": expected '" << c.message << "' in " << o.err;
  }
}

TEST(CliErrors, HelpIsNotAnError) {
  for (const char* args : {"--help", "schedule --help", "logp tree --help"}) {
    const Outcome o = run(args);
    EXPECT_EQ(o.code, 0) << args;
    EXPECT_FALSE(o.out.empty()) << args;
  }
}

}  // namespace
