#include "commands.hpp"

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

namespace optcoll::cli {
namespace {

std::vector<std::pair<std::string_view, AddCommand>>& registry() {
  static std::vector<std::pair<std::string_view, AddCommand>> commands;
  return commands;
}

}  // namespace

Subcommand::Subcommand(const char* name, AddCommand add) {
  registry().emplace_back(name, add);
}

void add_all_commands(CLI::App& app, int& exit_code) {
  auto commands = registry();
  std::sort(commands.begin(), commands.end());
  for (const auto& [name, add] : commands) add(app, exit_code);
}

}  // namespace optcoll::cli
