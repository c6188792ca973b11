// Self-contained SVG pictures of LogP trees and per-processor timelines
// (Gantt charts), as in Figures 1 and 6 of Karp et al. 1993. No fonts or
// scripts are referenced; the output opens in any browser.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "optcoll/logp/params.hpp"
#include "optcoll/logp/simulator.hpp"

namespace optcoll::logp {

// A rooted tree to draw: node 0 is the root, parent[v] < v (BFS order),
// children drawn in id order, each node labelled with `time[v]`.
struct TreePicture {
  std::string title;
  std::vector<proc_t> parent;      // -1 at the root
  std::vector<std::int64_t> time;  // the number shown under the node
  std::vector<std::string> name;   // e.g. "P3"; empty: "P<id>"
  std::string time_caption = "time";
};

// Nodes by depth (rows) and leaf order (columns). At most 4096 nodes.
std::string tree_svg(const TreePicture& t);

// One row per processor (at most 512), time running right: send overheads,
// receive overheads, combinations and additions as boxes labelled with the
// item or peer; with o = 0 a message is drawn one gap wide. `report` must
// come from simulate(..., {.timeline = true}).
std::string gantt_svg(const Schedule& s, const SimReport& report, const std::string& title);

}  // namespace optcoll::logp
