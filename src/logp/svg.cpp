// SVG trees and Gantt charts (see svg.hpp).
#include "optcoll/logp/svg.hpp"

#include <algorithm>
#include <sstream>

#include "optcoll/error.hpp"
#include "text.hpp"

namespace optcoll::logp {
namespace {

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

const char* kFont = "font-family=\"Helvetica,Arial,sans-serif\"";

// Items as the paper's letters (a = the first) when there are few.
std::string item_name(std::int64_t item, std::int64_t items) {
  return items <= 26 ? std::string(1, static_cast<char>('a' + item)) : std::to_string(item);
}

// A tick step of 1, 2 or 5 times a power of ten giving about `want` ticks.
std::int64_t tick_step(std::int64_t span, std::int64_t want) {
  std::int64_t step = 1;
  for (;;) {
    for (std::int64_t m : {1, 2, 5})
      if (span / (step * m) <= want) return step * m;
    step *= 10;
  }
}

}  // namespace

std::string tree_svg(const TreePicture& t) {
  const auto n = t.parent.size();
  if (n == 0 || n > 4096 || t.time.size() != n)
    throw Error(Errc::invalid_count, detail::format("tree picture: {} nodes (1..4096 with a time each)", n));
  std::vector<std::vector<std::size_t>> kids(n);
  std::vector<std::int64_t> depth(n, 0);
  for (std::size_t v = 1; v < n; ++v) {
    const auto p = static_cast<std::size_t>(t.parent[v]);
    kids[p].push_back(v);
    depth[v] = depth[p] + 1;
  }
  // x: leaves left to right in depth-first order, a parent over its children.
  std::vector<double> x(n, 0);
  double next_leaf = 0;
  std::vector<std::pair<std::size_t, std::size_t>> stack{{0, 0}};
  while (!stack.empty()) {
    auto& [v, i] = stack.back();
    if (i < kids[v].size()) {
      const std::size_t c = kids[v][i++];
      stack.emplace_back(c, 0);
      continue;
    }
    x[v] = kids[v].empty() ? next_leaf++ : (x[kids[v].front()] + x[kids[v].back()]) / 2;
    stack.pop_back();
  }
  const double dx = 64, dy = 74, mx = 40, my = 60;
  const std::int64_t rows = *std::max_element(depth.begin(), depth.end()) + 1;
  const double width =
      std::max({2 * mx + std::max(next_leaf - 1, 0.0) * dx, 320.0, 2 * mx + 8.5 * static_cast<double>(t.title.size())});
  const double height = 2 * my + static_cast<double>(rows - 1) * dy + 20;
  auto px = [&](std::size_t v) { return mx + x[v] * dx; };
  auto py = [&](std::size_t v) { return my + static_cast<double>(depth[v]) * dy; };
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height << "\" viewBox=\"0 0 "
    << width << ' ' << height << "\">\n";
  o << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  o << "<text x=\"" << mx << "\" y=\"24\" " << kFont << " font-size=\"15\">" << escape(t.title) << "</text>\n";
  for (std::size_t v = 1; v < n; ++v) {
    const auto p = static_cast<std::size_t>(t.parent[v]);
    o << "<line x1=\"" << px(p) << "\" y1=\"" << py(p) << "\" x2=\"" << px(v) << "\" y2=\"" << py(v)
      << "\" stroke=\"#555\" stroke-width=\"1.2\"/>\n";
  }
  for (std::size_t v = 0; v < n; ++v) {
    const std::string name = v < t.name.size() && !t.name[v].empty() ? t.name[v] : detail::format("P{}", v);
    o << "<g><title>" << escape(name) << ": " << escape(t.time_caption) << ' ' << t.time[v] << "</title>";
    o << "<circle cx=\"" << px(v) << "\" cy=\"" << py(v) << "\" r=\"17\" fill=\"#dbe8f6\" stroke=\"#2b5d8c\"/>";
    o << "<text x=\"" << px(v) << "\" y=\"" << py(v) - 2 << "\" text-anchor=\"middle\" " << kFont
      << " font-size=\"10\" fill=\"#2b5d8c\">" << escape(name) << "</text>";
    o << "<text x=\"" << px(v) << "\" y=\"" << py(v) + 10 << "\" text-anchor=\"middle\" " << kFont
      << " font-size=\"11\" font-weight=\"bold\">" << t.time[v] << "</text></g>\n";
  }
  o << "<text x=\"" << mx << "\" y=\"" << height - 10 << "\" " << kFont << " font-size=\"11\" fill=\"#555\">"
    << "bold number: " << escape(t.time_caption) << "</text>\n";
  o << "</svg>\n";
  return o.str();
}

std::string gantt_svg(const Schedule& s, const SimReport& report, const std::string& title) {
  if (s.P < 1 || s.P > 512) throw Error(Errc::invalid_count, detail::format("Gantt chart: P = {} (1..512)", s.P));
  const std::int64_t unit = std::max<std::int64_t>(s.params.g, 1);  // width of a zero-overhead message
  std::int64_t end = std::max<std::int64_t>(report.completion, 1);
  for (const Segment& g : report.timeline) end = std::max(end, std::max(g.end, g.start + unit));
  const double scale = std::clamp(1100.0 / static_cast<double>(end), 3.0, 40.0);
  const double left = 56, top = 44, row = 28;
  const double width = std::max({left + static_cast<double>(end) * scale + 30,
                                 2 * left + 8.5 * static_cast<double>(title.size()), left + 4 * 190 + 130});
  const double height = top + static_cast<double>(s.P) * row + 60;
  auto X = [&](std::int64_t t) { return left + static_cast<double>(t) * scale; };
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height << "\" viewBox=\"0 0 "
    << width << ' ' << height << "\">\n";
  o << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  o << "<text x=\"" << left << "\" y=\"22\" " << kFont << " font-size=\"15\">" << escape(title) << "</text>\n";
  const std::int64_t step = tick_step(end, 24);
  for (std::int64_t t = 0; t <= end; t += step) {
    o << "<line x1=\"" << X(t) << "\" y1=\"" << top - 4 << "\" x2=\"" << X(t) << "\" y2=\""
      << top + static_cast<double>(s.P) * row << "\" stroke=\"#e3e3e3\"/>";
    o << "<text x=\"" << X(t) << "\" y=\"" << top + static_cast<double>(s.P) * row + 14 << "\" text-anchor=\"middle\" "
      << kFont << " font-size=\"10\">" << t << "</text>\n";
  }
  for (proc_t q = 0; q < s.P; ++q)
    o << "<text x=\"" << left - 8 << "\" y=\"" << top + static_cast<double>(q) * row + 17 << "\" text-anchor=\"end\" "
      << kFont << " font-size=\"11\">P" << q << "</text>\n";
  if (report.completion >= 0)
    o << "<line x1=\"" << X(report.completion) << "\" y1=\"" << top - 8 << "\" x2=\"" << X(report.completion)
      << "\" y2=\"" << top + static_cast<double>(s.P) * row << "\" stroke=\"#c0392b\" stroke-dasharray=\"4 3\"/>\n";
  // Messages in flight (latency L): a thin line from the end of the send
  // overhead to the arrival, for small charts.
  if (s.messages.size() <= 3000)
    for (const Message& m : s.messages) {
      const std::int64_t leave = m.start + std::max<std::int64_t>(s.params.o, 0) + (m.bytes - 1) * s.params.G;
      const double y1 = top + static_cast<double>(m.from) * row + 8, y2 = top + static_cast<double>(m.to) * row + 19;
      o << "<line x1=\"" << X(leave) << "\" y1=\"" << y1 << "\" x2=\"" << X(leave + s.params.L) << "\" y2=\"" << y2
        << "\" stroke=\"#9aa7b4\" stroke-width=\"0.7\"/>\n";
    }
  for (const Segment& g : report.timeline) {
    const bool send = g.what == Activity::send;
    const char* fill = send                          ? "#4c78a8"
                       : g.what == Activity::receive ? "#59a14f"
                       : g.what == Activity::combine ? "#f28e2b"
                                                     : "#bab0ac";
    const std::int64_t e = g.end > g.start ? g.end : g.start + unit;
    const double y = top + static_cast<double>(g.proc) * row + (send ? 2 : 14);
    const double w = std::max(X(e) - X(g.start) - 1, 1.0);
    std::string label;
    if (g.what == Activity::compute)
      label = detail::format("+x{}..", g.label);
    else if (g.what != Activity::combine)
      label = s.payload == Payload::items && s.items > 1 ? item_name(g.label, s.items)
                                                         : detail::format(send ? "\u2192P{}" : "\u2190P{}", g.peer);
    o << "<g><title>P" << g.proc << ' ' << to_string(g.what) << " [" << g.start << ", " << e << ")"
      << (g.peer >= 0 ? detail::format(send ? " to P{}" : " from P{}", g.peer) : std::string())
      << (s.payload == Payload::items && g.label >= 0 ? ", item " + item_name(g.label, s.items) : std::string())
      << "</title><rect x=\"" << X(g.start) << "\" y=\"" << y << "\" width=\"" << w << "\" height=\"11\" fill=\""
      << fill << "\"/>";
    if (w >= 7.0 * static_cast<double>(label.size()) && !label.empty())
      o << "<text x=\"" << X(g.start) + w / 2 << "\" y=\"" << y + 9 << "\" text-anchor=\"middle\" " << kFont
        << " font-size=\"9\" fill=\"white\">" << escape(label) << "</text>";
    o << "</g>\n";
  }
  const double ly = top + static_cast<double>(s.P) * row + 36;
  double lx = left;
  for (const auto& [name, fill] :
       std::vector<std::pair<const char*, const char*>>{{"send (overhead o, upper lane)", "#4c78a8"},
                                                        {"receive (overhead o)", "#59a14f"},
                                                        {"combine", "#f28e2b"},
                                                        {"additions", "#bab0ac"}}) {
    o << "<rect x=\"" << lx << "\" y=\"" << ly - 9 << "\" width=\"12\" height=\"10\" fill=\"" << fill << "\"/>";
    o << "<text x=\"" << lx + 16 << "\" y=\"" << ly << "\" " << kFont << " font-size=\"11\">" << name << "</text>\n";
    lx += 190;
  }
  o << "<text x=\"" << lx << "\" y=\"" << ly << "\" " << kFont << " font-size=\"11\" fill=\"#c0392b\">- - completion "
    << report.completion << "</text>\n";
  o << "</svg>\n";
  return o.str();
}

}  // namespace optcoll::logp
