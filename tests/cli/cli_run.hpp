// Runs the real `optcoll` binary (OPTCOLL_CLI_PATH) for the CLI tests.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace optcoll::test {

struct CliRun {
  int code = -1;  // the exit code; -1 when it did not exit normally
  std::string out;
};

// `optcoll ARGS`; captures stdout, or stderr when want_stderr.
inline CliRun run_cli(const std::string& args, bool want_stderr = false) {
  CliRun r;
  const std::string cmd =
      std::string(OPTCOLL_CLI_PATH) + " " + args + (want_stderr ? " 2>&1 1>/dev/null" : " 2>/dev/null");
  FILE* f = popen(cmd.c_str(), "r");
  if (f == nullptr) return r;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), f)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(f);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace optcoll::test
