#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <exception>

#include "commands.hpp"
#include "optcoll/error.hpp"
#include "optcoll/logp/plan_tree.hpp"
#include "optcoll/select/settings.hpp"

namespace {

// CLI11 reports an unknown subcommand name as "A subcommand is required";
// name it and list the known ones instead. Follows the leading words of
// argv down the subcommand tree; stops at the first option or positional.
void check_subcommand_names(const CLI::App& app, int argc, char** argv) {
  const CLI::App* at = &app;
  for (int i = 1; i < argc && argv[i][0] != '-'; ++i) {
    const auto subs = at->get_subcommands([](const CLI::App*) { return true; });
    if (subs.empty()) return;
    const std::string word = argv[i];
    const CLI::App* next = nullptr;
    std::string known;
    for (const CLI::App* s : subs) {
      if (s->get_name() == word) next = s;
      known += (known.empty() ? "" : ", ") + s->get_name();
    }
    if (next == nullptr)
      throw optcoll::cli::UsageError(fmt::format("unknown subcommand '{}' (choose one of: {})", word, known));
    at = next;
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"optcoll: round-optimal collective communication schedules, simulator and tools"};
  app.require_subcommand(1);
  int exit_code = 0;
  optcoll::cli::add_all_commands(app, exit_code);
  try {
    // OPTCOLL_LOGP: the LogP parameters of the logp_tree plans.
    const optcoll::select::Settings settings = optcoll::select::Settings::from_environment();
    if (settings.logp[0] > 0)
      optcoll::logp::set_plan_parameters({settings.logp[0], settings.logp[1], settings.logp[2], 0});
    check_subcommand_names(app, argc, argv);
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "optcoll: {}\n", e.what());
    return 2;
  } catch (const optcoll::cli::UsageError& e) {
    fmt::print(stderr, "optcoll: {}\n", e.what());
    return 2;
  } catch (const optcoll::Error& e) {
    fmt::print(stderr, "optcoll: {}\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "optcoll: internal error: {}\n", e.what());
    return 1;
  }
  return exit_code;
}
