// `optcoll report --results R.csv [--schedule-p P] [--title T] [--note N] -o index.html`:
// a self-contained HTML page (inline SVG, no scripts, no external files) of
// optcoll-tune's measurements: the table, one time-against-size plot per MPI
// call (the CSV's op column: Allgather and Allgatherv are two calls, two
// charts; each series in increasing size), and a picture of the circulant
// schedule of p ranks (Träff 2024:
// the graph's skip edges, round by round, and every rank's baseblock,
// receive and send schedule, the layout of Table 1). scripts/demo.sh writes
// demo-report/index.html with it.
#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "optcoll/schedule/circulant.hpp"

namespace optcoll::cli {
namespace {

using schedule::rank_t;

struct ReportArgs {
  std::string results;
  std::string output;
  std::string title = "optcoll against the native MPI collectives";
  std::string note;
  std::int64_t p = 17;
};

struct Row {
  std::string op;
  std::int64_t p = 0;
  std::int64_t bytes = 0;
  double native_us = 0;
  double optcoll_us = 0;
  std::string same;
};

// Colours of the series and of the schedule's rounds.
constexpr const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                    "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"};
constexpr const char* kFont = R"~(font-family="Helvetica,Arial,sans-serif")~";

std::string escape(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else
      out += c;
  }
  return out;
}

std::string human(std::int64_t b) {
  if (b >= (1 << 20) && b % (1 << 20) == 0) return fmt::format("{} MiB", b >> 20);
  if (b >= (1 << 10) && b % (1 << 10) == 0) return fmt::format("{} KiB", b >> 10);
  return fmt::format("{} B", b);
}

std::vector<Row> read_results(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw UsageError("cannot read " + path);
  std::vector<Row> rows;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (number == 1 || line.empty()) continue;  // the header
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) f.push_back(cell);
    if (f.size() == 5) f.emplace_back();
    Row r;
    try {
      if (f.size() != 6) throw std::invalid_argument("fields");
      r = {f[0], std::stoll(f[1]), std::stoll(f[2]), std::stod(f[3]), std::stod(f[4]), f[5]};
    } catch (const std::exception&) {
      throw UsageError(fmt::format("{} line {}: expected op,p,bytes,native_us,optcoll_us,same", path, number));
    }
    rows.push_back(r);
  }
  if (rows.empty()) throw UsageError(path + " holds no measurements");
  return rows;
}

// Time (us) against size (bytes), both on log scales, native and optcoll.
std::string plot_svg(const std::string& op, const std::vector<Row>& rows) {
  const double W = 520, H = 320, L = 70, R = 20, T = 30, B = 50;
  double x0 = 1e300, x1 = 0, y0 = 1e300, y1 = 0;
  for (const Row& r : rows) {
    x0 = std::min(x0, static_cast<double>(r.bytes));
    x1 = std::max(x1, static_cast<double>(r.bytes));
    y0 = std::min({y0, r.native_us, r.optcoll_us});
    y1 = std::max({y1, r.native_us, r.optcoll_us});
  }
  const double lx0 = std::log2(std::max(x0, 1.0));
  const double lx1 = std::max(std::log2(std::max(x1, 1.0)), lx0 + 1);
  const double ly0 = std::floor(std::log10(std::max(y0, 1e-3)));
  const double ly1 = std::max(std::ceil(std::log10(std::max(y1, 1e-3))), ly0 + 1);
  auto X = [&](double b) { return L + (std::log2(std::max(b, 1.0)) - lx0) / (lx1 - lx0) * (W - L - R); };
  auto Y = [&](double us) { return H - B - (std::log10(std::max(us, 1e-3)) - ly0) / (ly1 - ly0) * (H - T - B); };
  std::string s = fmt::format(R"~(<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" {} font-size="11">)~",
                              W, H, kFont);
  s += fmt::format(R"~(<text x="{}" y="18" font-size="14" font-weight="bold">MPI_{}</text>)~", L, escape(op));
  s += fmt::format(R"~(<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#999"/>)~", L, T, W - L - R,
                   H - T - B);
  for (double e = ly0; e <= ly1; ++e) {
    const double y = Y(std::pow(10.0, e));
    s += fmt::format(R"~(<line x1="{}" x2="{}" y1="{:.1f}" y2="{:.1f}" stroke="#ddd"/>)~", L, W - R, y, y);
    s += fmt::format(R"~(<text x="{}" y="{:.1f}" text-anchor="end">{}</text>)~", L - 6, y + 4,
                     e >= 0 ? fmt::format("{:.0f}", std::pow(10.0, e)) : fmt::format("{:g}", std::pow(10.0, e)));
  }
  for (const Row& r : rows) {
    const double x = X(static_cast<double>(r.bytes));
    s += fmt::format(R"~(<line x1="{:.1f}" x2="{:.1f}" y1="{}" y2="{}" stroke="#eee"/>)~", x, x, T, H - B);
    s += fmt::format(R"~(<text x="{:.1f}" y="{}" text-anchor="middle">{}</text>)~", x, H - B + 15, human(r.bytes));
  }
  s += fmt::format(R"~(<text x="{}" y="{}" text-anchor="middle">payload (bytes, log scale)</text>)~", (L + W - R) / 2,
                   H - 12);
  s += fmt::format(
      R"~(<text x="14" y="{}" text-anchor="middle" transform="rotate(-90 14 {})">time per call (us, log scale)</text>)~",
      (T + H - B) / 2, (T + H - B) / 2);
  const auto series = [&](bool optcoll, const char* colour, const char* name, double legend_y) {
    std::string pts;
    for (const Row& r : rows)
      pts += fmt::format("{:.1f},{:.1f} ", X(static_cast<double>(r.bytes)), Y(optcoll ? r.optcoll_us : r.native_us));
    s += fmt::format(R"~(<polyline points="{}" fill="none" stroke="{}" stroke-width="2"/>)~", pts, colour);
    for (const Row& r : rows)
      s += fmt::format(R"~(<circle cx="{:.1f}" cy="{:.1f}" r="3" fill="{}"/>)~", X(static_cast<double>(r.bytes)),
                       Y(optcoll ? r.optcoll_us : r.native_us), colour);
    s += fmt::format(R"~(<line x1="{}" x2="{}" y1="{}" y2="{}" stroke="{}" stroke-width="2"/>)~", L + 10, L + 30,
                     legend_y, legend_y, colour);
    s += fmt::format(R"~(<text x="{}" y="{}">{}</text>)~", L + 36, legend_y + 4, name);
  };
  series(false, kPalette[0], "native", T + 14);
  series(true, kPalette[1], "optcoll", T + 30);
  return s + "</svg>";
}

// The circulant graph of p ranks on a circle, edge r -> r + skip[k] in
// round k's colour; and every rank's schedule as a grid of block numbers.
std::string schedule_svg(std::int64_t p) {
  const schedule::Circulant g(p);
  const int q = g.q();
  std::vector<schedule::RankSchedule> all;
  for (rank_t r = 0; r < p; ++r) all.push_back(schedule::make_rank_schedule(g, r));
  const double cell = 26, gx = 460, gy = 40;
  const double W = gx + 110 + cell * static_cast<double>(p), H = std::max(440.0 + 16 * q, gy + cell * (2 * q + 2) + 40);
  std::string s = fmt::format(
      R"~(<svg xmlns="http://www.w3.org/2000/svg" width="{:.0f}" height="{:.0f}" {} font-size="11">)~", W, H, kFont);
  s += fmt::format(R"~(<text x="10" y="18" font-size="14" font-weight="bold">Circulant graph, p = {}, q = {}: skips)~",
                   p, q);
  for (int k = 0; k <= q; ++k) s += fmt::format(" {}", g.skip(k));
  s += "</text>";
  const double cx = 220, cy = 240, rad = 170;
  auto px = [&](rank_t r) { return cx + rad * std::sin(2 * M_PI * static_cast<double>(r) / static_cast<double>(p)); };
  auto py = [&](rank_t r) { return cy - rad * std::cos(2 * M_PI * static_cast<double>(r) / static_cast<double>(p)); };
  for (int k = 0; k < q; ++k) {
    const char* colour = kPalette[k % 10];
    for (rank_t r = 0; r < p; ++r) {
      const rank_t t = (r + g.skip(k)) % p;
      // Shortened towards the target so that the arrow tip stays visible.
      const double x2 = px(t) + (px(r) - px(t)) * 0.08, y2 = py(t) + (py(r) - py(t)) * 0.08;
      s += fmt::format(R"~(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="{}" stroke-opacity="0.55"/>)~",
                       px(r), py(r), x2, y2, colour);
      s += fmt::format(R"~(<circle cx="{:.1f}" cy="{:.1f}" r="2.5" fill="{}"/>)~", x2, y2, colour);
    }
    s += fmt::format(R"~(<line x1="20" x2="40" y1="{}" y2="{}" stroke="{}" stroke-width="3"/>)~", 440 + 16 * k,
                     440 + 16 * k, colour);
    s += fmt::format(R"~(<text x="46" y="{}">round k = {}: r sends to r + {}</text>)~", 444 + 16 * k, k, g.skip(k));
  }
  for (rank_t r = 0; r < p; ++r) {
    s += fmt::format(R"~(<circle cx="{:.1f}" cy="{:.1f}" r="11" fill="white" stroke="#333"/>)~", px(r), py(r));
    s += fmt::format(R"~(<text x="{:.1f}" y="{:.1f}" text-anchor="middle">{}</text>)~", px(r), py(r) + 4, r);
  }
  // The grid: rows b, recvblock[k], sendblock[k]; blocks coloured, negative ones grey.
  s += fmt::format(R"~(<text x="{}" y="{}" font-weight="bold">Schedules (root 0): block per rank and round)</text>)~",
                   gx, gy - 14);
  const auto row = [&](int i, const std::string& label, auto&& value) {
    const double y = gy + cell * i;
    s += fmt::format(R"~(<text x="{}" y="{:.1f}">{}</text>)~", gx, y + cell * 0.65, label);
    for (rank_t r = 0; r < p; ++r) {
      const int v = value(all[static_cast<std::size_t>(r)]);
      const double x = gx + 110 + cell * static_cast<double>(r);
      const std::string fill = v < 0 ? "#e5e5e5" : kPalette[v % 10];
      s += fmt::format(
          R"~(<rect x="{:.1f}" y="{:.1f}" width="{}" height="{}" fill="{}" fill-opacity="{}" stroke="white"/>)~", x, y,
          cell, cell, fill, v < 0 ? 1.0 : 0.45);
      s += fmt::format(R"~(<text x="{:.1f}" y="{:.1f}" text-anchor="middle">{}</text>)~", x + cell / 2, y + cell * 0.65,
                       v);
    }
  };
  for (rank_t r = 0; r < p; ++r)
    s += fmt::format(R"~(<text x="{:.1f}" y="{:.1f}" text-anchor="middle" fill="#555">{}</text>)~",
                     gx + 110 + cell * (static_cast<double>(r) + 0.5), gy - 2, r);
  row(0, "b (baseblock)", [](const schedule::RankSchedule& x) { return x.baseblock; });
  for (int k = 0; k < q; ++k)
    row(1 + k, fmt::format("recvblock[{}]", k),
        [k](const schedule::RankSchedule& x) { return x.recv[static_cast<std::size_t>(k)]; });
  for (int k = 0; k < q; ++k)
    row(1 + q + k, fmt::format("sendblock[{}]", k),
        [k](const schedule::RankSchedule& x) { return x.send[static_cast<std::size_t>(k)]; });
  return s + "</svg>";
}

int run_report(const ReportArgs& a) {
  if (a.p < 2 || a.p > 64) throw UsageError(fmt::format("--schedule-p must be in [2, 64], got {}", a.p));
  const std::vector<Row> rows = read_results(a.results);
  std::map<std::string, std::vector<Row>> by_op;
  std::vector<std::string> order;
  for (const Row& r : rows) {
    if (by_op.find(r.op) == by_op.end()) order.push_back(r.op);
    by_op[r.op].push_back(r);
  }
  // A series is drawn in the order of its points: by size.
  for (auto& [op, series] : by_op)
    std::stable_sort(series.begin(), series.end(), [](const Row& x, const Row& y) { return x.bytes < y.bytes; });
  std::string h = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + escape(a.title) +
                  "</title>\n<style>body{font-family:Helvetica,Arial,sans-serif;margin:2em;max-width:1400px}"
                  "table{border-collapse:collapse}td,th{padding:2px 10px;text-align:right;border-bottom:1px solid #ddd}"
                  "td:first-child,th:first-child{text-align:left}.win{color:#2ca02c}.lose{color:#d62728}"
                  ".plots svg{margin:0 1em 1em 0}</style></head><body>\n";
  h += "<h1>" + escape(a.title) + "</h1>\n";
  if (!a.note.empty()) h += "<p>" + escape(a.note) + "</p>\n";
  h += fmt::format(
      "<p>p = {} ranks. Time per call: median over repetitions, maximum over ranks "
      "(optcoll-tune). native/optcoll &gt; 1: optcoll is faster.</p>\n",
      rows.front().p);
  h += "<div class=\"plots\">\n";
  for (const std::string& op : order) h += plot_svg(op, by_op[op]) + "\n";
  h += "</div>\n<h2>Measurements</h2>\n<table><tr><th>op</th><th>bytes</th><th>native us</th><th>optcoll us</th>"
       "<th>native/optcoll</th><th>results equal</th></tr>\n";
  for (const Row& r : rows) {
    const double ratio = r.native_us / r.optcoll_us;
    h += fmt::format(
        "<tr><td>MPI_{}</td><td>{}</td><td>{:.1f}</td><td>{:.1f}</td><td class=\"{}\">{:.2f}</td><td>{}</td></tr>\n",
        escape(r.op), human(r.bytes), r.native_us, r.optcoll_us, ratio >= 1 ? "win" : "lose", ratio, escape(r.same));
  }
  h += "</table>\n<h2>The circulant schedule</h2>\n";
  h += fmt::format(
      "<p>Träff 2024: in round k every rank r sends to r + skip[k] and receives from r - skip[k] (mod "
      "p); recvblock[k] and sendblock[k] say which block, b is the rank's baseblock (negative: a block "
      "of the previous phase). For p = 17 this is Table 1 of the paper "
      "(<code>optcoll schedule -p {}</code>).</p>\n",
      a.p);
  h += schedule_svg(a.p) + "\n</body></html>\n";
  std::ofstream out(a.output);
  out << h;
  if (!out) throw UsageError("cannot write " + a.output);
  return 0;
}

void add_report_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ReportArgs>();
  auto* cmd = app.add_subcommand("report", "HTML report (inline SVG) of optcoll-tune measurements");
  cmd->add_option("--results", args->results, "CSV written by optcoll-tune --csv")->required();
  cmd->add_option("-o,--output", args->output, "HTML file to write")->required();
  cmd->add_option("--schedule-p", args->p, "Ranks of the schedule picture (2..64)");
  cmd->add_option("--title", args->title, "Page title");
  cmd->add_option("--note", args->note, "A line of context (machine, MPI, command)");
  cmd->callback([args, &exit_code] { exit_code = run_report(*args); });
}

const Subcommand kReport{"report", add_report_command};

}  // namespace
}  // namespace optcoll::cli
