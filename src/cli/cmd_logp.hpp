// `optcoll logp ...`: the LogP constructions of Karp et al. 1993 (logp/).
// Shared by cmd_logp.cpp (options) and cmd_logp_run.cpp (the subcommands).
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "optcoll/logp/simulator.hpp"
#include "optcoll/logp/svg.hpp"

namespace optcoll::cli::logp_cmd {

struct Args {
  std::string what;  // tree, reach, kitem, continuous, alltoall, combine, sum
  // Machine parameters as given; -1: the subcommand's default (its figure).
  std::int64_t L = -1, o = -1, g = -1, G = -1;
  std::int64_t P = -1;  // per subcommand default when not given
  std::int64_t k = 1;
  std::int64_t t = -1;
  std::int64_t n = 0;
  std::int64_t items = 0;
  bool endgame = false;
  bool figure2 = false;
  bool base_cases = false;
  bool idempotent = false;
  bool noncommutative = false;
  bool json = false;
  std::string svg;
  std::string gantt;
};

int run(const Args& a);

// Shared helpers (cmd_logp_run.cpp).
using json = nlohmann::ordered_json;
// The machine: the subcommand's default with the given options; the postal
// subcommands reject --o and --g. Throws UsageError.
logp::Params machine(const Args& a, bool postal_only, logp::Params fallback);
void need(bool ok, const std::string& msg);  // UsageError(msg) unless ok
std::int64_t procs(const Args& a, std::int64_t fallback);
json verdict(const logp::SimReport& r);
std::string verdict_line(const logp::SimReport& r);
logp::SimReport sim(const logp::Schedule& s);  // with the timeline
void pictures(const Args& a, const logp::Schedule& s, const logp::SimReport& r, const logp::TreePicture* tree,
              const std::string& title);

// The postal-model subcommands (cmd_logp_postal.cpp).
int kitem(const Args& a);
int continuous(const Args& a);

}  // namespace optcoll::cli::logp_cmd
