// Subcommands of the `optcoll` CLI. Each registers its options on the app and
// returns the callback result through `exit_code`.
#pragma once

#include <CLI/CLI.hpp>

namespace optcoll::cli {

// A user error: printed as one line, exit code 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void add_schedule_command(CLI::App& app, int& exit_code);
void add_verify_command(CLI::App& app, int& exit_code);
void add_bench_command(CLI::App& app, int& exit_code);

}  // namespace optcoll::cli
