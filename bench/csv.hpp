// The benchmarks' one CSV writer. A file is "# key: value" lines (what
// was measured, when, on which machine, under which command), then a header
// and one row per measurement: the format of bench/results/*.csv, which
// scripts/render-benchmarks.py renders into docs/benchmarks/. The programs
// write it themselves so that a result carries its machine and command from
// the start, instead of being annotated by hand afterwards.
//
//   Csv csv(out);                                 // out empty: stdout
//   csv.begin("what was measured", command_line(argc, argv), {{"ranks", "8"}});
//   csv.meta("calibration", "...");               // more "# key: value" lines
//   csv.header({"op", "bytes", "native_us"});
//   csv.row("bcast", 1024, 12.5);
//
// Cells: strings quoted where CSV needs it, integers as they are, floating
// point with 6 significant digits (fixed() for a set number of decimals),
// std::nullopt empty. Units belong in the column names (native_us), never
// in the cells. Every line is flushed: a benchmark killed half-way keeps
// its rows. MPI-free (the MPI benchmarks add mpi_meta(), mpi_timing.hpp).
#pragma once

#include <fmt/core.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace optcoll::bench {

using Meta = std::vector<std::pair<std::string, std::string>>;

// One field, quoted (RFC 4180) where a comma, a quote, a line break or
// leading or trailing blanks would otherwise change what a reader sees.
inline std::string csv_field(std::string_view s) {
  const bool quote =
      s.find_first_of(",\"\r\n") != std::string_view::npos || (!s.empty() && (s.front() == ' ' || s.back() == ' '));
  if (!quote) return std::string(s);
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// `v` with `decimals` digits after the point, for columns whose precision is
// known (simulated microseconds).
inline std::string fixed(double v, int decimals) {
  return fmt::format("{:.{}f}", v, decimals);
}

template <class T>
std::string csv_cell(const T& v) {
  if constexpr (std::is_same_v<T, std::nullopt_t>) {
    return {};
  } else if constexpr (std::is_same_v<T, bool>) {
    return v ? "1" : "0";
  } else if constexpr (std::is_integral_v<T>) {
    return fmt::format("{}", v);
  } else if constexpr (std::is_floating_point_v<T>) {
    return fmt::format("{:.6g}", v);
  } else if constexpr (requires {
                         v.has_value();
                         *v;
                       }) {
    return v.has_value() ? csv_cell(*v) : std::string();
  } else {
    return csv_field(std::string_view(v));
  }
}

// The command line as one could type it again: arguments with blanks or
// shell characters in single quotes.
inline std::string command_line(int argc, char** argv) {
  std::string out;
  for (int i = 0; i < argc; ++i) {
    const std::string_view a = argv[i];
    const bool plain = !a.empty() && a.find_first_not_of(
                                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                         "0123456789_-+=.,:/@%") == std::string_view::npos;
    if (i > 0) out += ' ';
    if (plain) {
      out += a;
      continue;
    }
    out += '\'';
    for (const char c : a) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

// Removes `name VALUE` from argv (for the programs with positional
// arguments) and sets `value` to VALUE; false, with a message, if VALUE is
// missing.
inline bool take_option(int& argc, char** argv, std::string_view name, std::string& value) {
  for (int i = 1; i < argc; ++i) {
    if (argv[i] != name) continue;
    if (i + 1 >= argc) {
      fmt::print(stderr, "{}: {} needs a value\n", argv[0], name);
      return false;
    }
    value = argv[i + 1];
    for (int j = i; j + 2 <= argc; ++j) argv[j] = argv[j + 2];
    argc -= 2;
    --i;
  }
  return true;
}

namespace detail {

inline std::string first_line_of(const char* path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

inline std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) != 0) continue;
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) break;
    const std::size_t start = line.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? std::string() : line.substr(start);
  }
  return "unknown CPU model";
}

}  // namespace detail

// What the machine is and how busy it was when the benchmark started: the
// UTC time, host name, online CPUs, CPU model, and the 1/5/15-minute load
// averages (on a shared machine the load explains the spread).
inline Meta machine_meta() {
  char date[32] = "unknown";
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  if (gmtime_r(&now, &utc) != nullptr) std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &utc);
  char name[256] = {};
  const std::string host = gethostname(name, sizeof name - 1) == 0 ? name : "unknown host";
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  std::istringstream loadavg(detail::first_line_of("/proc/loadavg"));
  std::string l1, l5, l15;
  loadavg >> l1 >> l5 >> l15;
  const std::string load = l15.empty() ? "unknown" : fmt::format("{} {} {} (1, 5, 15 min)", l1, l5, l15);
  return {{"date", date},
          {"machine", fmt::format("{}, {} online CPUs, {}", host, cpus, detail::cpu_model())},
          {"load_at_start", load}};
}

class Csv {
 public:
  enum class Mode { truncate, append };

  // Writes to `path`, or to stdout when `path` is empty; a writer that is
  // not `enabled` (every MPI rank but 0) writes nothing.
  explicit Csv(const std::string& path, bool enabled = true, Mode mode = Mode::truncate) : on_(enabled) {
    if (!on_) return;
    if (path.empty()) {
      f_ = stdout;
      return;
    }
    f_ = std::fopen(path.c_str(), mode == Mode::append ? "a" : "w");
    own_ = true;
    if (f_ == nullptr) fmt::print(stderr, "cannot write {}: {}\n", path, std::strerror(errno));
  }
  ~Csv() {
    if (own_ && f_ != nullptr) std::fclose(f_);
  }
  Csv(const Csv&) = delete;
  Csv& operator=(const Csv&) = delete;

  // False if the file could not be opened (the constructor said why).
  bool ok() const { return !on_ || f_ != nullptr; }

  // The leading metadata: title, date, machine, load_at_start, `extra`
  // (the MPI library, ranks, ...) and the command.
  void begin(std::string_view title, std::string_view command, const Meta& extra = {}) {
    if (!on_) return;
    meta("title", title);
    for (const auto& [k, v] : machine_meta()) meta(k, v);
    for (const auto& [k, v] : extra) meta(k, v);
    meta("command", command);
  }

  // One "# key: value" line; before the header only (a reader takes the
  // leading '#' lines as metadata). Line breaks in `value` become blanks.
  void meta(std::string_view key, std::string_view value) {
    if (columns_ != 0) throw std::logic_error("csv: metadata after the header");
    std::string v(value);
    for (char& c : v)
      if (c == '\n' || c == '\r') c = ' ';
    line(fmt::format("# {}: {}", key, v));
  }

  void header(const std::vector<std::string>& columns) {
    columns_ = columns.size();
    std::vector<std::string> fields;
    for (const std::string& c : columns) fields.push_back(csv_field(c));
    line(join(fields));
  }
  void header(std::initializer_list<std::string_view> columns) {
    std::vector<std::string> c;
    for (const std::string_view s : columns) c.emplace_back(s);
    header(c);
  }

  // One row of already formatted cells (csv_cell), as many as the header
  // has columns (a short row would make the file unreadable for the
  // renderer, so it is a programming error).
  void row_cells(const std::vector<std::string>& cells) {
    if (columns_ != 0 && cells.size() != columns_)
      throw std::logic_error(fmt::format("csv: a row of {} cells under {} columns", cells.size(), columns_));
    line(join(cells));
  }
  template <class... T>
  void row(const T&... v) {
    row_cells({csv_cell(v)...});
  }

 private:
  static std::string join(const std::vector<std::string>& cells) {
    std::string s;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (i > 0) s += ',';
      s += cells[i];
    }
    return s;
  }
  void line(const std::string& s) {
    if (!on_ || f_ == nullptr) return;
    std::fputs(s.c_str(), f_);
    std::fputc('\n', f_);
    std::fflush(f_);
  }

  std::FILE* f_ = nullptr;
  bool own_ = false;
  bool on_ = true;
  std::size_t columns_ = 0;
};

}  // namespace optcoll::bench
