#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <exception>

#include "commands.hpp"
#include "optcoll/error.hpp"

int main(int argc, char** argv) {
  CLI::App app{"optcoll: round-optimal collective communication schedules, simulator and tools"};
  app.require_subcommand(1);
  int exit_code = 0;
  optcoll::cli::add_all_commands(app, exit_code);
  try {
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
