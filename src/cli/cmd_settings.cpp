// `optcoll settings [--markdown]`: every OPTCOLL_* environment variable the
// library reads (select/settings.hpp), and the values this process's
// environment gives them. --markdown prints the table docs/selection.md
// holds (a test keeps the two equal).
#include <fmt/core.h>

#include <string>

#include "commands.hpp"
#include "optcoll/select/settings.hpp"

namespace optcoll::cli {
namespace {

int run_settings(bool markdown) {
  if (markdown) {
    fmt::print("| variable | values | meaning |\n|---|---|---|\n");
    for (const select::Variable& v : select::variables())
      fmt::print("| `{}` | {} | {} |\n", v.name, v.values, v.meaning);
    return 0;
  }
  for (const select::Variable& v : select::variables()) fmt::print("{:<24} {}\n  {}\n", v.name, v.values, v.meaning);
  return 0;
}

void add_settings_command(CLI::App& app, int& exit_code) {
  auto markdown = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand("settings", "Every OPTCOLL_* environment variable and what it does");
  cmd->add_flag("--markdown", *markdown, "Print the Markdown table of docs/selection.md");
  cmd->callback([markdown, &exit_code] { exit_code = run_settings(*markdown); });
}

const Subcommand registered{"settings", &add_settings_command};

}  // namespace
}  // namespace optcoll::cli
