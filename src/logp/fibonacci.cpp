// Reachable counts P(t) and generalized Fibonacci numbers (Karp et al. 1993,
// §2). Every sum is checked: a count that would exceed int64_t is reported
// as overflow (std::nullopt), never wrapped.
#include "optcoll/logp/fibonacci.hpp"

#include "text.hpp"

#include <limits>
#include <numeric>

#include "optcoll/error.hpp"

namespace optcoll::logp {
namespace {

constexpr std::int64_t kMaxParam = std::int64_t{1} << 40;
// Label range of the O(t) recurrence (after dividing by the gcd).
constexpr std::int64_t kMaxSteps = std::int64_t{1} << 34;
// Marks an overflowed count in the recurrences below.
constexpr std::int64_t kOverflow = -1;

std::int64_t add_checked(std::int64_t a, std::int64_t b) noexcept {
  std::int64_t s = 0;
  if (a == kOverflow || b == kOverflow || __builtin_add_overflow(a, b, &s)) return kOverflow;
  return s;
}

// Runs P(x) for x = 0, h, 2h, ... (h = gcd(d, g): every label is a multiple
// of h) and calls visit(x/h, P(x)) until it returns false. Two ring buffers
// of max(d, g)/h + 1 entries hold N(x) = P(x) and S(x) = sum_i N(x - i*g),
// the recurrence being N(x) = 1 + S(x - d), S(x) = N(x) + S(x - g).
template <class Visit>
void run_reachable(const Params& p, Visit visit) {
  const std::int64_t d = p.hop();
  const std::int64_t h = std::gcd(d, p.g);
  const std::int64_t dd = d / h;
  const std::int64_t gg = p.g / h;
  const auto w = static_cast<std::size_t>(std::max(dd, gg) + 1);
  std::vector<std::int64_t> n(w, 0);
  std::vector<std::int64_t> s(w, 0);
  auto at = [w](std::int64_t x) { return static_cast<std::size_t>(x) % w; };
  for (std::int64_t x = 0;; ++x) {
    const std::int64_t from = x - dd >= 0 ? s[at(x - dd)] : 0;
    const std::int64_t nx = add_checked(1, from);
    const std::int64_t sx = add_checked(nx, x - gg >= 0 ? s[at(x - gg)] : 0);
    n[at(x)] = nx;
    s[at(x)] = sx;
    if (!visit(x, nx)) return;
  }
}

}  // namespace

std::string Params::str() const {
  return G == 0 ? detail::format("L={} o={} g={}", L, o, g) : detail::format("L={} o={} g={} G={}", L, o, g, G);
}

void validate(const Params& p) {
  auto bad = [](const char* what, std::int64_t v) {
    throw Error(Errc::invalid_count, detail::format("LogP parameter {} = {} is out of range", what, v));
  };
  if (p.L < 1 || p.L > kMaxParam) bad("L", p.L);
  if (p.o < 0 || p.o > kMaxParam) bad("o", p.o);
  if (p.g < 1 || p.g > kMaxParam) bad("g", p.g);
  if (p.G < 0 || p.G > kMaxParam) bad("G", p.G);
  if (p.o > p.g)
    throw Error(Errc::invalid_count,
                detail::format("LogP needs o <= g (a send overhead fits in the gap), got {}", p.str()));
}

std::optional<std::int64_t> postal_fib(std::int64_t L, std::int64_t i) {
  if (L < 1 || L > kMaxParam) throw Error(Errc::invalid_count, detail::format("postal latency L = {} out of range", L));
  if (i < 0) throw Error(Errc::invalid_count, detail::format("f_i needs i >= 0, got {}", i));
  if (i < L) return 1;
  // f_i - 1 = f_0 + ... + f_{i-L} (Fact 2.1) grows at least by one per step,
  // so an overflow happens before i reaches about 64 * L; the ring buffer
  // holds the last L terms.
  std::vector<std::int64_t> ring(static_cast<std::size_t>(L), 1);
  std::int64_t prev = 1;
  for (std::int64_t j = L; j <= i; ++j) {
    auto& slot = ring[static_cast<std::size_t>(j % L)];  // holds f_{j-L}
    const std::int64_t fj = add_checked(prev, slot);
    if (fj == kOverflow) return std::nullopt;
    slot = fj;
    prev = fj;
  }
  return prev;
}

std::vector<std::int64_t> postal_fib_sequence(std::int64_t L, std::int64_t n) {
  if (L < 1 || L > kMaxParam) throw Error(Errc::invalid_count, detail::format("postal latency L = {} out of range", L));
  std::vector<std::int64_t> f;
  for (std::int64_t i = 0; i <= n; ++i) {
    const std::int64_t v = i < L ? 1 : add_checked(f.back(), f[static_cast<std::size_t>(i - L)]);
    if (v == kOverflow) break;
    f.push_back(v);
  }
  return f;
}

std::optional<std::int64_t> reachable(std::int64_t t, const Params& p) {
  validate(p);
  if (t < 0) return 0;
  const std::int64_t h = std::gcd(p.hop(), p.g);
  const std::int64_t last = t / h;
  if (last > kMaxSteps) throw Error(Errc::invalid_count, detail::format("P(t): t = {} too large for {}", t, p.str()));
  std::int64_t result = 0;
  run_reachable(p, [&](std::int64_t x, std::int64_t nx) {
    result = nx;
    return x < last && nx != kOverflow;
  });
  if (result == kOverflow) return std::nullopt;
  return result;
}

std::int64_t broadcast_time(std::int64_t P, const Params& p) {
  validate(p);
  if (P < 1) throw Error(Errc::invalid_p, detail::format("B(P) needs P >= 1, got {}", P));
  const std::int64_t h = std::gcd(p.hop(), p.g);
  std::int64_t t = 0;
  run_reachable(p, [&](std::int64_t x, std::int64_t nx) {
    t = x * h;
    if (x > kMaxSteps) throw Error(Errc::invalid_count, detail::format("B({}) too large for {}", P, p.str()));
    return nx != kOverflow && nx < P;
  });
  return t;
}

std::int64_t postal_index(std::int64_t L, std::int64_t N) {
  if (N < 2) throw Error(Errc::invalid_p, detail::format("postal_index needs N >= 2, got {}", N));
  return broadcast_time(N, postal(L)) - 1;
}

}  // namespace optcoll::logp
