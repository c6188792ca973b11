// Subcommands of the `optcoll` CLI, one file each (cmd_<name>.cpp). A file
// registers its subcommand with a file-scope Subcommand object; main() adds
// them all, so a new subcommand touches no shared file but the build list.
#pragma once

#include <CLI/CLI.hpp>
#include <stdexcept>

namespace optcoll::cli {

// A user error: printed as one line, exit code 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Adds the subcommand to `app`; its callback stores the exit code.
using AddCommand = void (*)(CLI::App& app, int& exit_code);

struct Subcommand {
  Subcommand(const char* name, AddCommand add);
};

// Every registered subcommand, sorted by name.
void add_all_commands(CLI::App& app, int& exit_code);

}  // namespace optcoll::cli
