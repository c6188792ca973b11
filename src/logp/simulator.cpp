// The LogP/LogGP event simulator (see simulator.hpp for the rules checked).
#include "optcoll/logp/simulator.hpp"

#include "text.hpp"

#include <algorithm>
#include <limits>

#include "optcoll/error.hpp"

namespace optcoll::logp {
namespace {

constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

// A partial sum: operand runs [first, last] in the order they were added.
using Value = std::vector<std::pair<std::int64_t, std::int64_t>>;

void append_run(Value& v, std::int64_t a, std::int64_t b) {
  if (!v.empty() && v.back().second + 1 == a)
    v.back().second = b;
  else
    v.emplace_back(a, b);
}

void append(Value& v, const Value& w) {
  for (const auto& [a, b] : w) append_run(v, a, b);
}

class Errors {
 public:
  Errors(std::vector<std::string>& out, int max) : out_(out), max_(max) {}
  template <class... A>
  void add(std::string_view f, const A&... a) {
    if (static_cast<int>(out_.size()) < max_) out_.push_back(detail::format(f, a...));
    ++count_;
  }
  void finish() {
    if (count_ > max_) out_.push_back(detail::format("... and {} more violations", count_ - max_));
  }

 private:
  std::vector<std::string>& out_;
  int max_;
  std::int64_t count_ = 0;
};

// Whether `v` holds operands 0..n-1 as the schedule requires; else why not.
std::string check_sum(Value v, std::int64_t n, bool commutative, bool idempotent) {
  if (!commutative) {
    if (v.size() == 1 && v[0].first == 0 && v[0].second == n - 1) return {};
    if (v.empty()) return "empty";
    return detail::format("not the ordered sum x_0..x_{}: {} runs, first [{}, {}]", n - 1, v.size(), v[0].first,
                          v[0].second);
  }
  std::sort(v.begin(), v.end());
  std::int64_t next = 0;  // every operand below `next` is present
  for (const auto& [a, b] : v) {
    if (a < next && !idempotent) return detail::format("operand {} counted twice", a);
    if (a > next) return detail::format("operand {} missing", next);
    next = std::max(next, b + 1);
  }
  if (next != n) return detail::format("operand {} missing", next);
  return {};
}

// Busy intervals, gaps and capacity at every processor.
void check_machine(const Schedule& s, const std::vector<Segment>& segs, Errors& err, SimReport& rep) {
  const Params& p = s.params;
  std::vector<std::vector<const Segment*>> by_proc(static_cast<std::size_t>(s.P));
  for (const auto& g : segs) by_proc[static_cast<std::size_t>(g.proc)].push_back(&g);
  for (auto& list : by_proc) {
    std::sort(list.begin(), list.end(), [](auto* a, auto* b) { return a->start < b->start; });
    std::int64_t busy_until = std::numeric_limits<std::int64_t>::min();
    const Segment* last = nullptr;
    for (const Segment* g : list) {
      if (g->end == g->start) continue;
      if (g->start < busy_until)
        err.add("overhead: processor {} starts a {} at {} while busy until {} (a {})", g->proc, to_string(g->what),
                g->start, busy_until, to_string(last->what));
      if (g->end > busy_until) busy_until = g->end, last = g;
    }
  }
  // Gaps and capacity, per processor, for sends (start, bytes) and arrivals.
  struct Io {
    std::int64_t at;
    std::int64_t bytes;
    std::int64_t transit_from;
  };
  std::vector<std::vector<Io>> out(static_cast<std::size_t>(s.P)), in(static_cast<std::size_t>(s.P));
  for (const auto& m : s.messages) {
    const std::int64_t leave = m.start + p.o;
    const std::int64_t arrive = leave + (m.bytes - 1) * p.G + p.L;
    out[static_cast<std::size_t>(m.from)].push_back({m.start, m.bytes, leave});
    in[static_cast<std::size_t>(m.to)].push_back({arrive, m.bytes, leave});
  }
  auto scan = [&](std::vector<Io>& v, proc_t proc, const char* what, bool outgoing) {
    std::sort(v.begin(), v.end(), [](const Io& a, const Io& b) { return a.at < b.at; });
    for (std::size_t i = 1; i < v.size(); ++i) {
      // A send occupies the sender's link for (bytes-1)G after its start; an
      // arrival (last byte) the receiver's for (bytes-1)G before it.
      const std::int64_t need = p.g + ((outgoing ? v[i - 1].bytes : v[i].bytes) - 1) * p.G;
      if (v[i].at - v[i - 1].at < need)
        err.add("gap: processor {} {} at {} and {} (needs {} apart)", proc, what, v[i - 1].at, v[i].at, need);
    }
    // In transit: [leave, arrive). Ends sort before starts at equal times.
    std::vector<std::pair<std::int64_t, int>> ev;
    for (const Io& x : v) {
      const std::int64_t leave = x.transit_from;
      const std::int64_t arrive = outgoing ? x.at + p.o + (x.bytes - 1) * p.G + p.L : x.at;
      ev.emplace_back(leave, +1);
      ev.emplace_back(arrive, -1);
    }
    std::sort(ev.begin(), ev.end());
    std::int64_t cur = 0;
    for (const auto& e : ev) {
      cur += e.second;
      rep.max_in_transit = std::max(rep.max_in_transit, cur);
      if (cur > p.capacity()) {
        err.add("capacity: {} messages in transit {} processor {} at {} (ceil(L/g) = {})", cur,
                outgoing ? "from" : "to", proc, e.first, p.capacity());
        break;
      }
    }
  };
  for (proc_t q = 0; q < s.P; ++q) {
    scan(out[static_cast<std::size_t>(q)], q, "sends", true);
    scan(in[static_cast<std::size_t>(q)], q, "receives", false);
  }
}

}  // namespace

const char* to_string(Activity a) noexcept {
  switch (a) {
    case Activity::send:
      return "send";
    case Activity::receive:
      return "receive";
    case Activity::combine:
      return "combine";
    case Activity::compute:
      return "addition";
  }
  return "?";
}

SimReport simulate(const Schedule& s, const SimOptions& opt) {
  validate(s.params);
  if (s.P < 1) throw Error(Errc::invalid_p, detail::format("schedule '{}' has P = {}", s.name, s.P));
  const Params& p = s.params;
  SimReport rep;
  rep.lower_bound = s.lower_bound;
  Errors err(rep.errors, opt.max_errors);
  const bool items = s.payload == Payload::items;
  if (items && s.items > 0 && s.P > opt.max_item_cells / s.items)
    throw Error(Errc::invalid_count, detail::format("schedule '{}': P * items too large to simulate", s.name));

  // Timeline and sanity of every message and addition chain.
  std::vector<Segment> segs;
  segs.reserve(2 * s.messages.size() + s.computes.size());
  for (const auto& m : s.messages) {
    if (m.from < 0 || m.from >= s.P || m.to < 0 || m.to >= s.P || m.from == m.to || m.start < 0 || m.bytes < 1 ||
        (items && (m.item < 0 || m.item >= s.items))) {
      err.add("malformed message {} -> {} at {} (item {}, {} bytes)", m.from, m.to, m.start, m.item, m.bytes);
      err.finish();
      return rep;
    }
    const std::int64_t a = m.start + p.o + (m.bytes - 1) * p.G + p.L;
    segs.push_back({m.from, m.start, m.start + p.o, Activity::send, m.to, m.item});
    segs.push_back({m.to, a, a + p.o, Activity::receive, m.from, m.item});
    if (!items && s.combine_cost > 0)
      segs.push_back({m.to, a + p.o, a + p.o + s.combine_cost, Activity::combine, m.from, -1});
  }
  for (const auto& c : s.computes) {
    if (items || c.proc < 0 || c.proc >= s.P || c.start < 0 || c.count < 1 || c.first < 0 ||
        c.first + c.count > s.operands) {
      err.add("malformed addition chain at processor {} from {} ({} operands)", c.proc, c.start, c.count);
      err.finish();
      return rep;
    }
    segs.push_back({c.proc, c.start, c.start + c.count, Activity::compute, -1, c.first});
    rep.additions += c.count;
  }
  rep.messages = static_cast<std::int64_t>(s.messages.size());
  check_machine(s, segs, err, rep);

  // Data flow in time order: state changes (kind 0) before sends read (kind 1).
  struct Event {
    std::int64_t time;
    int kind;
    std::size_t index;  // message, or compute chain
    std::int64_t j;     // operand offset in a chain; -1 for a message
  };
  std::vector<Event> ev;
  const std::int64_t settle = 2 * p.o + p.L + (items ? 0 : s.combine_cost);
  for (std::size_t i = 0; i < s.messages.size(); ++i) {
    const auto& m = s.messages[i];
    ev.push_back({m.start, 1, i, -1});
    ev.push_back({m.start + settle + (m.bytes - 1) * p.G, 0, i, -1});
  }
  for (std::size_t i = 0; i < s.computes.size(); ++i)
    for (std::int64_t j = 0; j < s.computes[i].count; ++j) ev.push_back({s.computes[i].start + j + 1, 0, i, j});
  std::sort(ev.begin(), ev.end(), [](const Event& a, const Event& b) {
    return a.time != b.time ? a.time < b.time : a.kind != b.kind ? a.kind < b.kind : a.index < b.index;
  });

  const auto P = static_cast<std::size_t>(s.P);
  std::vector<std::int64_t> have;  // items: have[proc * items + item] = time available
  std::vector<Value> value;        // sums: current value per processor
  std::vector<Value> carried;      // sums: value each message carries
  std::vector<std::int64_t> last_change(P, 0);
  if (items) {
    have.assign(P * static_cast<std::size_t>(s.items), kNever);
    for (const auto& o : s.origins) {
      if (o.proc < 0 || o.proc >= s.P || o.first < 0 || o.first >= s.items) {
        err.add("malformed origin of item {} at processor {}", o.first, o.proc);
        continue;
      }
      auto& h = have[static_cast<std::size_t>(o.proc * s.items + o.first)];
      h = std::min(h, o.time);
    }
  } else {
    value.assign(P, {});
    carried.assign(s.messages.size(), {});
    for (const auto& o : s.origins) {
      if (o.proc < 0 || o.proc >= s.P || o.first < 0 || o.count < 1 || o.first + o.count > s.operands) {
        err.add("malformed initial operands at processor {}", o.proc);
        continue;
      }
      append_run(value[static_cast<std::size_t>(o.proc)], o.first, o.first + o.count - 1);
    }
  }
  for (const Event& e : ev) {
    if (e.j >= 0) {  // one addition of a chain
      const Compute& c = s.computes[e.index];
      append_run(value[static_cast<std::size_t>(c.proc)], c.first + e.j, c.first + e.j);
      last_change[static_cast<std::size_t>(c.proc)] = e.time;
      continue;
    }
    const Message& m = s.messages[e.index];
    if (items) {
      auto& src = have[static_cast<std::size_t>(m.from * s.items + m.item)];
      auto& dst = have[static_cast<std::size_t>(m.to * s.items + m.item)];
      if (e.kind == 1) {
        if (src > m.start)
          err.add("data: processor {} sends item {} at {} but has it {}", m.from, m.item, m.start,
                  src == kNever ? std::string("never") : detail::format("only at {}", src));
      } else {
        if (dst != kNever) {
          ++rep.duplicate_receptions;
          if (s.single_reception)
            err.add("duplicate: processor {} receives item {} at {} again (had it at {})", m.to, m.item, e.time, dst);
        }
        dst = std::min(dst, e.time);
      }
    } else if (e.kind == 1) {
      carried[e.index] = value[static_cast<std::size_t>(m.from)];
    } else {
      auto& v = value[static_cast<std::size_t>(m.to)];
      if (m.replace) v.clear();
      append(v, carried[e.index]);
      last_change[static_cast<std::size_t>(m.to)] = e.time;
    }
  }

  // What must hold at the end, and when it first did.
  if (items) {
    std::vector<proc_t> all;
    const std::vector<proc_t>* targets = &s.targets;
    if (targets->empty()) {
      all.resize(P);
      for (std::size_t q = 0; q < P; ++q) all[q] = static_cast<proc_t>(q);
      targets = &all;
    }
    for (proc_t q : *targets)
      for (std::int64_t i = 0; i < s.items; ++i) {
        const std::int64_t h = have[static_cast<std::size_t>(q * s.items + i)];
        if (h == kNever)
          err.add("delivery: item {} never reaches processor {}", i, q);
        else
          rep.completion = std::max(rep.completion, h);
      }
  } else {
    for (proc_t q : s.result_procs) {
      const Value& v = value[static_cast<std::size_t>(q)];
      if (q == s.result_procs.front())
        for (const auto& [a, b] : v) rep.operands_summed += b - a + 1;
      const std::string why = check_sum(v, s.operands, s.commutative, s.idempotent);
      if (!why.empty()) err.add("sum at processor {}: {}", q, why);
      rep.completion = std::max(rep.completion, last_change[static_cast<std::size_t>(q)]);
    }
  }
  if (s.promised_completion >= 0 && rep.completion > s.promised_completion)
    err.add("completion {} later than the construction promised ({})", rep.completion, s.promised_completion);
  err.finish();
  if (opt.timeline) rep.timeline = std::move(segs);
  return rep;
}

}  // namespace optcoll::logp
