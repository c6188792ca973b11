// The `optcoll logp` subcommands (options in cmd_logp.cpp).
#include <fmt/core.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "cmd_logp.hpp"
#include "commands.hpp"
#include "optcoll/error.hpp"
#include "optcoll/logp/alltoall.hpp"
#include "optcoll/logp/broadcast_tree.hpp"
#include "optcoll/logp/continuous.hpp"
#include "optcoll/logp/fibonacci.hpp"
#include "optcoll/logp/kitem.hpp"
#include "optcoll/logp/simulator.hpp"
#include "optcoll/logp/summation.hpp"
#include "optcoll/logp/svg.hpp"

namespace optcoll::cli::logp_cmd {

using namespace optcoll::logp;

void write_file(const std::string& path, const std::string& text) {
  std::ofstream f(path);
  if (!f) throw UsageError(fmt::format("cannot write {}", path));
  f << text;
}

// The machine, checked; the postal subcommands take only L.
Params machine(const Args& a, bool postal_only, Params fallback) {
  if (postal_only && ((a.o >= 0 && a.o != 0) || (a.g >= 0 && a.g != 1) || a.G > 0))
    throw UsageError(fmt::format("logp {} is in the postal model (o = 0, g = 1): give only --L", a.what));
  if (a.L != -1) fallback.L = a.L;
  if (a.o != -1) fallback.o = a.o;
  if (a.g != -1) fallback.g = a.g;
  if (a.G != -1) fallback.G = a.G;
  const Params p = fallback;
  try {
    validate(p);
  } catch (const optcoll::Error& e) {
    throw UsageError(e.what());
  }
  return p;
}

void need(bool ok, const std::string& msg) {
  if (!ok) throw UsageError(msg);
}

std::int64_t procs(const Args& a, std::int64_t fallback) {
  return a.P >= 0 ? a.P : fallback;
}

json verdict(const SimReport& r) {
  return {{"ok", r.ok()},
          {"completion", r.completion},
          {"lower_bound", r.lower_bound},
          {"meets_bound", r.meets_bound()},
          {"messages", r.messages},
          {"max_in_transit", r.max_in_transit},
          {"errors", r.errors}};
}

std::string verdict_line(const SimReport& r) {
  std::string s =
      fmt::format("simulator: {}, completion {}", r.ok() ? "all LogP rules hold" : "VIOLATIONS", r.completion);
  if (r.lower_bound >= 0) s += fmt::format(" (lower bound {}{})", r.lower_bound, r.meets_bound() ? ", met" : "");
  for (const auto& e : r.errors) s += "\n  " + e;
  return s;
}

SimReport sim(const Schedule& s) {
  return simulate(s, SimOptions{true, 10, std::int64_t{1} << 27});
}

void pictures(const Args& a, const Schedule& s, const SimReport& r, const TreePicture* tree, const std::string& title) {
  if (!a.svg.empty()) write_file(a.svg, tree != nullptr ? tree_svg(*tree) : gantt_svg(s, r, title));
  if (!a.gantt.empty()) write_file(a.gantt, gantt_svg(s, r, title));
}

void print_timeline(const Schedule& s, const SimReport& r) {
  if (s.P > 64) return;
  fmt::print("per-processor activity (start-end):\n");
  for (proc_t q = 0; q < s.P; ++q) {
    std::string line;
    for (const Segment& g : r.timeline)
      if (g.proc == q)
        line += fmt::format(" {}{}[{}-{}]",
                            g.what == Activity::send      ? "send>P"
                            : g.what == Activity::receive ? "recv<P"
                            : g.what == Activity::combine ? "add"
                                                          : "adds",
                            g.peer >= 0 ? std::to_string(g.peer) : std::string(), g.start, g.end);
    fmt::print("  P{}:{}\n", q, line);
  }
}

namespace {

int tree(const Args& a) {
  const Params p = machine(a, false, Params{6, 2, 4, 0});
  const std::int64_t P = procs(a, 8);
  need(P >= 1 && P <= (std::int64_t{1} << 28), "-P must be in [1, 2^28]");
  const BroadcastTree t(P, p);
  const Schedule s = P <= (1 << 22) ? broadcast_schedule(t) : Schedule{};
  const SimReport r = P <= (1 << 22) ? sim(s) : SimReport{};
  TreePicture pic{fmt::format("B({}) for {}: broadcast time {}", P, p.str(), t.completion()),
                  {},
                  {},
                  {},
                  "time the datum is there"};
  for (proc_t v = 0; v < std::min<proc_t>(t.size(), 4096); ++v)
    pic.parent.push_back(t.parent(v)), pic.time.push_back(t.delay(v));
  if (a.json) {
    json j{{"P", P}, {"L", p.L}, {"o", p.o}, {"g", p.g}, {"broadcast_time", t.completion()}};
    if (P <= 4096) {
      j["delay"] = pic.time;
      j["parent"] = pic.parent;
    }
    if (P <= (1 << 22)) j["simulation"] = verdict(r);
    fmt::print("{}\n", j.dump());
  } else {
    fmt::print("B({}) for {}: broadcast time {}\n", P, p.str(), t.completion());
    if (P <= 64) {
      fmt::print("node parent delay sends-at\n");
      for (proc_t v = 0; v < t.size(); ++v) {
        std::string sends;
        for (proc_t i = 0; i < t.num_children(v); ++i)
          sends += fmt::format(" {}->P{}", t.send_time(v, i), t.first_child(v) + i);
        fmt::print("  P{:<3} {:>6} {:>5} {}\n", v, v == 0 ? std::string("-") : fmt::format("P{}", t.parent(v)),
                   t.delay(v), sends);
      }
      print_timeline(s, r);
    }
    if (P <= (1 << 22))
      fmt::print("{}\n", verdict_line(r));
    else
      fmt::print("simulation skipped (P > 2^22)\n");
  }
  if (P <= 4096) pictures(a, s, r, &pic, pic.title);
  return r.ok() ? 0 : 1;
}

int reach(const Args& a) {
  const Params p = machine(a, false, postal(3));
  need(a.t >= 0 || a.P >= 1, "give -t T and/or -P N");
  need(a.t <= (std::int64_t{1} << 30), "-t too large");
  json j{{"L", p.L}, {"o", p.o}, {"g", p.g}};
  if (a.t >= 0) {
    const auto v = reachable(a.t, p);
    j["t"] = a.t;
    j["P(t)"] = v ? json(*v) : json("overflow");
    if (!a.json)
      fmt::print("P({}; {}) = {}\n", a.t, p.str(), v ? std::to_string(*v) : std::string("overflow (> 2^63-1)"));
    if (p.postal()) {
      const auto f = postal_fib_sequence(p.L, a.t);
      j["f"] = f;
      if (!a.json) {
        std::string line;
        for (std::size_t i = 0; i < f.size(); ++i) line += fmt::format(" {}", f[i]);
        fmt::print("f_0..f_{}:{}{}\n", a.t, line, static_cast<std::int64_t>(f.size()) <= a.t ? " (then overflow)" : "");
      }
    }
  }
  if (a.P >= 1) {
    const std::int64_t b = broadcast_time(a.P, p);
    j["B(P)"] = b;
    if (!a.json) fmt::print("B({}; {}) = {}\n", a.P, p.str(), b);
  }
  if (a.json) fmt::print("{}\n", j.dump());
  return 0;
}

int alltoall(const Args& a) {
  const std::int64_t P = procs(a, 8);
  const Params p = machine(a, false, Params{6, 2, 4, 0});
  need(P >= 2 && P <= 4096, "-P must be in [2, 4096]");
  need(a.k >= 1 && a.k * P <= 100000, "-k must be >= 1 with k * P <= 100000");
  const AllToAll x = alltoall_broadcast(P, a.k, p);
  const SimReport r = sim(x.schedule);
  if (a.json) {
    fmt::print("{}\n", json{{"P", P},
                            {"k", a.k},
                            {"L", p.L},
                            {"o", p.o},
                            {"g", p.g},
                            {"gap_used", x.gap},
                            {"paper_bound", x.paper_bound},
                            {"completion", x.completion},
                            {"simulation", verdict(r)}}
                           .dump());
  } else {
    fmt::print("all-to-all broadcast P={} k={} {}: bound L+2o+g(k(P-1)-1) = {}\n", P, a.k, p.str(), x.paper_bound);
    if (x.gap != p.g)
      fmt::print("the paper's gap g = {} would overlap send and receive overheads; using {}\n", p.g, x.gap);
    fmt::print("{}\n", verdict_line(r));
  }
  pictures(a, x.schedule, r, nullptr, fmt::format("all-to-all P={} k={} {}", P, a.k, p.str()));
  return r.ok() ? 0 : 1;
}

int combine(const Args& a) {
  const std::int64_t P = procs(a, 8);
  const Params p = machine(a, true, postal(2));
  need(P >= 1 && P <= 100000, "-P must be in [1, 100000]");
  const Combining c = combining_broadcast(P, p.L, a.idempotent ? CombineMode::idempotent : CombineMode::exact);
  const SimReport r = sim(c.schedule);
  if (a.json) {
    fmt::print("{}\n", json{{"P", P},
                            {"L", p.L},
                            {"method", c.method},
                            {"time", c.time},
                            {"lower_bound", c.lower_bound},
                            {"simulation", verdict(r)}}
                           .dump());
  } else {
    fmt::print("combining broadcast P={} L={}: {} in time {} (lower bound {})\n", P, p.L, c.method, c.time,
               c.lower_bound);
    fmt::print("{}\n", verdict_line(r));
  }
  pictures(a, c.schedule, r, nullptr, fmt::format("combining broadcast P={} L={} ({})", P, p.L, c.method));
  return r.ok() ? 0 : 1;
}

int sum(const Args& a) {
  const std::int64_t P = procs(a, 8);
  const Params p = machine(a, false, Params{5, 2, 4, 0});
  need(P >= 1 && P <= 100000, "-P must be in [1, 100000]");
  const std::int64_t t = a.t >= 0 ? a.t : 28;
  need(t <= 1000000, "-t must be <= 10^6");
  need(a.n >= 0 && a.n <= 10000000, "-n must be in [1, 10^7]");
  const Summation s =
      a.n > 0 ? summation_of(a.n, P, p, !a.noncommutative) : optimal_summation(t, P, p, !a.noncommutative);
  const Schedule sch = s.schedule();
  const SimReport r = sim(sch);
  TreePicture pic{fmt::format("summation tree, t={} P={} {}: {} operands", s.t, s.procs.size(), p.str(), s.operands),
                  {},
                  {},
                  {},
                  "time the processor sends its partial sum (root: done)"};
  for (const auto& q : s.procs) pic.parent.push_back(q.parent), pic.time.push_back(q.send);
  if (a.json) {
    json procs = json::array();
    for (const auto& q : s.procs)
      procs.push_back({{"send", q.send}, {"parent", q.parent}, {"own_operands", q.own_operands}});
    fmt::print("{}\n", json{{"t", s.t},
                            {"P", P},
                            {"L", p.L},
                            {"o", p.o},
                            {"g", p.g},
                            {"operands", s.operands},
                            {"processors_used", s.procs.size()},
                            {"processors", procs},
                            {"simulation", verdict(r)}}
                           .dump());
  } else {
    fmt::print("optimal summation t={} P={} {}: {} operands on {} processors{}\n", s.t, P, p.str(), s.operands,
               s.procs.size(), a.noncommutative ? " (non-commutative: operands renumbered)" : "");
    if (s.procs.size() <= 64)
      for (std::size_t v = 0; v < s.procs.size(); ++v) {
        const auto& q = s.procs[v];
        fmt::print("  P{:<3} sends at {:>4} to {:>4}; own operands {:>5}; receptions at", v, q.send,
                   q.parent < 0 ? std::string("-") : fmt::format("P{}", q.parent), q.own_operands);
        for (auto x : q.arrive) fmt::print(" {}", x);
        fmt::print("\n");
      }
    fmt::print("{}\n", verdict_line(r));
  }
  pictures(a, sch, r, s.procs.size() <= 4096 ? &pic : nullptr, pic.title);
  return r.ok() ? 0 : 1;
}

}  // namespace

int run(const Args& a) {
  const bool tree_picture = a.what == "tree" || a.what == "sum" || a.what == "continuous";
  need(a.gantt.empty() || a.P <= 512, "--gantt is limited to P <= 512");
  need(a.svg.empty() || a.P <= (tree_picture ? 4096 : 512), "--svg is limited to P <= 4096 (trees) or 512 (timelines)");
  // An unwritable picture path fails before anything is printed.
  for (const std::string* path : {&a.svg, &a.gantt})
    if (!path->empty()) need(std::ofstream(*path, std::ios::app).good(), fmt::format("cannot write {}", *path));
  if (a.what == "tree") return tree(a);
  if (a.what == "reach") return reach(a);
  if (a.what == "kitem") return kitem(a);
  if (a.what == "continuous") return continuous(a);
  if (a.what == "alltoall") return alltoall(a);
  if (a.what == "combine") return combine(a);
  return sum(a);
}

}  // namespace optcoll::cli::logp_cmd
