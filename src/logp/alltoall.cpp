// All-to-all broadcast (Karp et al. 1993, §4.1).
#include "text.hpp"

#include "optcoll/error.hpp"
#include "optcoll/logp/alltoall.hpp"

namespace optcoll::logp {
namespace {

// Whether some multiple m*gap, 1 <= m < rounds, lies strictly inside
// (L, L + 2o): then a send overhead and a receive overhead would overlap.
bool overheads_clash(std::int64_t gap, std::int64_t rounds, const Params& p) {
  if (p.o == 0) return false;
  const std::int64_t m = p.L / gap + 1;  // smallest multiple above L
  return m < rounds && m * gap < p.L + 2 * p.o;
}

}  // namespace

AllToAll alltoall_broadcast(proc_t P, std::int64_t k, const Params& params) {
  validate(params);
  if (P < 2) throw Error(Errc::invalid_p, detail::format("all-to-all needs P >= 2, got {}", P));
  if (k < 1) throw Error(Errc::invalid_count, detail::format("all-to-all needs k >= 1 items, got {}", k));
  if (P > (std::int64_t{1} << 26) / k)
    throw Error(Errc::invalid_count, detail::format("all-to-all: P * k = {} * {} too large", P, k));
  const std::int64_t rounds = k * (P - 1);
  AllToAll a;
  a.gap = params.g;
  while (overheads_clash(a.gap, rounds, params)) ++a.gap;
  a.paper_bound = params.L + 2 * params.o + params.g * (rounds - 1);
  a.completion = params.L + 2 * params.o + a.gap * (rounds - 1);
  Schedule& s = a.schedule;
  s.name = detail::format("all-to-all broadcast P={} k={} {}", P, k, params.str());
  s.params = params;
  s.P = P;
  s.items = P * k;
  for (proc_t i = 0; i < P; ++i)
    for (std::int64_t j = 0; j < k; ++j) s.origins.push_back({i, 0, i * k + j, 1});
  s.messages.reserve(static_cast<std::size_t>(P * rounds));
  for (std::int64_t r = 0; r < rounds; ++r)
    for (proc_t i = 0; i < P; ++i) {
      const proc_t to = (i + 1 + r % (P - 1)) % P;
      s.messages.push_back({r * a.gap, i, to, i * k + r / (P - 1), 1});
    }
  s.lower_bound = a.paper_bound;
  s.promised_completion = a.completion;
  return a;
}

}  // namespace optcoll::logp
