// Combining broadcast (Karp et al. 1993, §4.2) in the postal model.
#include "text.hpp"

#include "optcoll/error.hpp"
#include "optcoll/logp/alltoall.hpp"
#include "optcoll/logp/fibonacci.hpp"

namespace optcoll::logp {
namespace {

// The schedule of Theorem 4.1 on processors base..base+n-1, starting at t0:
// at time t0 + j (0 <= j <= T - L) processor i sends to i + f_{j+L-1} mod n.
void fibonacci_rounds(Schedule& s, proc_t base, proc_t n, std::int64_t T, std::int64_t t0,
                      const std::vector<std::int64_t>& f, std::int64_t L) {
  for (std::int64_t j = 0; j + L <= T; ++j) {
    const std::int64_t shift = f[static_cast<std::size_t>(j + L - 1)] % n;
    for (proc_t i = 0; i < n; ++i) s.messages.push_back({t0 + j, base + i, base + (i + shift) % n, -1, 1});
  }
}

}  // namespace

Combining combining_broadcast(proc_t P, std::int64_t L, CombineMode mode) {
  const Params params = postal(L);
  validate(params);
  if (P < 1 || P > (std::int64_t{1} << 24))
    throw Error(Errc::invalid_p, detail::format("combining broadcast needs 1 <= P <= 2^24, got {}", P));
  Combining c;
  c.lower_bound = broadcast_time(P, params);  // T_min
  const std::int64_t Tmin = c.lower_bound;
  const std::vector<std::int64_t> f = postal_fib_sequence(L, Tmin + L);
  Schedule& s = c.schedule;
  s.params = params;
  s.P = P;
  s.payload = Payload::sums;
  s.operands = P;
  for (proc_t i = 0; i < P; ++i) {
    s.origins.push_back({i, 0, i, 1});
    s.result_procs.push_back(i);
  }
  const bool exact_size = f[static_cast<std::size_t>(Tmin)] == P;
  if (exact_size || mode == CombineMode::idempotent) {
    c.method = exact_size ? "fibonacci" : "fibonacci-wrap";
    c.time = Tmin;
    s.idempotent = !exact_size;
    fibonacci_rounds(s, 0, P, Tmin, 0, f, L);
  } else {
    // Fold the e extra processors into the first e, run P' = f_{T'}, send back.
    c.method = "fold";
    const std::int64_t Tp = Tmin - 1;  // f_{Tmin-1} < P < f_{Tmin}
    const proc_t Pp = f[static_cast<std::size_t>(Tp)];
    const proc_t e = P - Pp;
    c.time = Tp + 2 * L;
    for (proc_t m = 0; m < e; ++m) s.messages.push_back({0, Pp + m, m, -1, 1});
    fibonacci_rounds(s, 0, Pp, Tp, L, f, L);
    for (proc_t m = 0; m < e; ++m) s.messages.push_back({L + Tp, m, Pp + m, -1, 1, true});
  }
  s.name = detail::format("combining broadcast P={} L={} ({})", P, L, c.method);
  s.lower_bound = Tmin;
  s.promised_completion = c.time;
  return c;
}

}  // namespace optcoll::logp
