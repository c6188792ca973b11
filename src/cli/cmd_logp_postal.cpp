// `optcoll logp kitem` and `optcoll logp continuous`: k-item and continuous
// broadcast in the postal model (Karp et al. 1993, §3).
#include <fmt/core.h>

#include "cmd_logp.hpp"
#include "commands.hpp"
#include "optcoll/logp/continuous.hpp"
#include "optcoll/logp/kitem.hpp"

namespace optcoll::cli::logp_cmd {

using namespace optcoll::logp;

namespace {

std::string letter(std::int64_t item) {
  return item < 26 ? std::string(1, static_cast<char>('a' + item)) : std::to_string(item);
}

void reception_table(const Schedule& s) {
  std::int64_t end = 0;
  for (const Message& m : s.messages) end = std::max(end, m.start + s.params.L);
  fmt::print("receiving pattern (item received by each processor at each time; a = first item):\n     ");
  for (std::int64_t x = 0; x <= end; ++x) fmt::print("{:>3}", x);
  fmt::print("\n");
  for (proc_t q = 1; q < s.P; ++q) {
    std::vector<std::string> row(static_cast<std::size_t>(end + 1), ".");
    for (const Message& m : s.messages)
      if (m.to == q) row[static_cast<std::size_t>(m.start + s.params.L)] = letter(m.item);
    fmt::print("  P{:<2}", q);
    for (const auto& c : row) fmt::print("{:>3}", c);
    fmt::print("\n");
  }
}

}  // namespace

int kitem(const Args& a) {
  const Params p = machine(a, true, postal(3));
  std::int64_t P = procs(a, 10), k = a.k;
  if (a.figure2) P = 10, k = 8;
  need(P >= 2 && P <= 100000, "-P must be in [2, 100000]");
  need(k >= 1 && k <= 100000, "-k must be in [1, 100000]");
  const KItemBounds b = kitem_bounds(P, p.L, k);
  Schedule s;
  std::string method;
  if (a.figure2 || a.endgame) {
    need(P <= 40 && k <= 40, "--endgame searches exhaustively: use P, k <= 40");
    std::optional<ContinuousPlan> cont;
    BlockCyclic base;
    if (a.figure2) {
      need(p.L == 3, "--figure2 is L = 3");
      base = figure2_assignment(true);
      method = "Figure 2: words H5 acab, E2 a; D1 and receive-only alternate; endgame by exhaustive search";
    } else {
      cont = continuous_broadcast(P, p.L);
      need(cont.has_value(), "--endgame needs P-1 = f_t with a continuous schedule");
      base = cont->solution;
      method = "continuous phase (" + cont->method + ") + endgame by exhaustive search";
    }
    std::optional<Schedule> found;
    for (std::int64_t deadline = b.lower; !found && deadline <= b.single; ++deadline)
      found = kitem_with_endgame(base, k, deadline);
    need(found.has_value(), "no endgame found within the search budget");
    s = *found;
  } else {
    KItemPlan plan = kitem_single_sending(P, p.L, k);
    s = plan.schedule;
    method = plan.method;
  }
  const SimReport r = sim(s);
  if (a.json) {
    fmt::print("{}\n", json{{"P", P},
                            {"L", p.L},
                            {"k", k},
                            {"B(P-1)", b.B},
                            {"kstar", b.kstar},
                            {"lower_bound", b.lower},
                            {"single_sending_bound", b.single},
                            {"theorem_3_7_bound", b.theorem37},
                            {"method", method},
                            {"simulation", verdict(r)}}
                           .dump());
  } else {
    fmt::print("k-item broadcast, postal model: P={} L={} k={}\n", P, p.L, k);
    fmt::print("bounds: Theorem 3.1 {} (B(P-1)={}, k*={}), single-sending {}, Theorem 3.7 {}\n", b.lower, b.B, b.kstar,
               b.single, b.theorem37);
    fmt::print("schedule: {}\n", method);
    if (P <= 16 && k <= 16) reception_table(s);
    fmt::print("{}\n", verdict_line(r));
  }
  pictures(a, s, r, nullptr, fmt::format("k-item broadcast P={} L={} k={}", P, p.L, k));
  return r.ok() ? 0 : 1;
}

namespace {

TreePicture item_tree(const PostalTree& t, const std::string& title) {
  TreePicture pic{title, {}, {}, {}, "delay after the root got the item"};
  for (proc_t v = 0; v < std::min<proc_t>(t.size(), 4096); ++v)
    pic.parent.push_back(t.parent(v)), pic.time.push_back(t.delay(v));
  return pic;
}

}  // namespace

int continuous(const Args& a) {
  const std::int64_t P = procs(a, 10);
  const Params p = machine(a, true, postal(3));
  if (a.base_cases) {
    need(p.L >= 2 && p.L <= 16, "--base-cases needs 2 <= L <= 16");
    const BaseCases& bc = base_cases(p.L);
    json j{{"L", p.L},
           {"t0", bc.t0},
           {"c0", bc.c0},
           {"not_found", bc.not_found},
           {"unknown", bc.unknown},
           {"search_nodes", bc.search_nodes}};
    if (a.json) {
      fmt::print("{}\n", j.dump());
    } else {
      fmt::print(
          "L={}: base cases t = {}..{} (t(L) = {}), extension letter c0 = {}; the search did not solve t in {}\n", p.L,
          bc.t0, bc.t0 + p.L - 1, bc.t0, bc.c0, json(bc.not_found).dump());
      for (const auto& c : bc.cases) {
        fmt::print("  I({}): {} processors, root word", c.t, c.tree.size());
        for (auto d : c.words[0]) fmt::print(" {}", letter(c.tree.depth() - d));
        fmt::print(", receive-only {}\n", letter(c.tree.depth() - c.receive_only.at(0)));
      }
    }
    return bc.t0 >= 0 ? 0 : 1;
  }
  need(P >= 2 && P <= (std::int64_t{1} << 24), "-P must be in [2, 2^24]");
  const auto plan = continuous_broadcast(P, p.L);
  if (!plan)
    throw UsageError(fmt::format("no block-cyclic continuous schedule for P={} L={} (P-1 must be f_t)", P, p.L));
  const BlockCyclic& b = plan->solution;
  const std::int64_t items = a.items > 0 ? a.items : b.tree.depth() + 4;
  need(items <= (std::int64_t{1} << 26) / P, "--items too large for the simulator");
  Schedule s = block_cyclic_schedule(b, items);
  s.lower_bound = items - 1 + plan->optimal_delay;
  const SimReport r = sim(s);
  if (a.json) {
    fmt::print("{}\n", json{{"P", P},
                            {"L", p.L},
                            {"delay", plan->delay},
                            {"optimal_delay", plan->optimal_delay},
                            {"method", plan->method},
                            {"items", items},
                            {"simulation", verdict(r)}}
                           .dump());
  } else {
    fmt::print("continuous broadcast P={} L={}: delay {} (lower bound L + B(P-1) = {}), {}\n", P, p.L, plan->delay,
               plan->optimal_delay, plan->method);
    if (b.blocks.size() <= 40) {
      fmt::print("blocks (letters: a = delay {}, b = one less, ...; upper case: the node itself):\n", b.tree.depth());
      for (const Block& k : b.blocks) {
        std::string w;
        for (auto d : k.word) w += letter(b.tree.depth() - d);
        if (k.node >= 0)
          fmt::print("  P{}..P{}: node delay {} with {} children, word {}{}\n", k.first_proc,
                     k.first_proc + k.period - 1, b.tree.delay(k.node), b.tree.children(k.node),
                     static_cast<char>('A' + b.tree.depth() - b.tree.delay(k.node)), w);
        else
          fmt::print("  P{}: receive-only, {}\n", k.first_proc, w);
      }
    }
    fmt::print("{} items: {}\n", items, verdict_line(r));
  }
  const TreePicture pic = item_tree(b.tree, fmt::format("item broadcast tree, P-1={} L={}", P - 1, p.L));
  pictures(a, s, r, &pic, fmt::format("continuous broadcast P={} L={}", P, p.L));
  return r.ok() ? 0 : 1;
}

}  // namespace optcoll::cli::logp_cmd
