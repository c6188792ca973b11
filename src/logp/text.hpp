// A minimal "{}" formatter for logp/ messages, so that the library needs no
// formatting dependency (the CLI uses fmt). Each "{}" takes the next
// argument through operator<<; there are no format specifications.
#pragma once

#include <sstream>
#include <string>
#include <string_view>

namespace optcoll::logp::detail {

inline void format_to(std::ostringstream& out, std::string_view f) {
  out << f;
}

template <class A, class... Rest>
void format_to(std::ostringstream& out, std::string_view f, const A& a, const Rest&... rest) {
  const std::size_t at = f.find("{}");
  if (at == std::string_view::npos) {
    out << f;
    return;
  }
  out << f.substr(0, at) << a;
  format_to(out, f.substr(at + 2), rest...);
}

template <class... A>
std::string format(std::string_view f, const A&... a) {
  std::ostringstream out;
  format_to(out, f, a...);
  return out.str();
}

}  // namespace optcoll::logp::detail
