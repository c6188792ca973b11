// Reachability in the LogP model (Karp et al. 1993, Definitions 2.2, 2.5,
// Theorem 2.2, Fact 2.1).
//
// P(t; L, o, g) is the number of nodes of the universal broadcast tree with
// label <= t: a node labelled x has children x + L + 2o + i*g, so with
// d = L + 2o,
//     P(t) = 0 for t < 0,   P(t) = 1 + sum_{i >= 0} P(t - d - i*g).
// In the postal model (o = 0, g = 1) P(t) = f_t, the generalized Fibonacci
// numbers f_i = 1 for 0 <= i < L, f_i = f_{i-1} + f_{i-L} (Theorem 2.2), and
// 1 + f_0 + ... + f_t = f_{t+L} (Fact 2.1). B(P) = min{t : P(t) >= P}.
//
// All counts are exact 64-bit integers; a value that does not fit in
// int64_t is reported as std::nullopt (overflow), never wrapped.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "optcoll/logp/params.hpp"

namespace optcoll::logp {

// f_i of Definition 2.5 for latency L >= 1; nullopt on overflow. O(i) time,
// O(L) memory.
std::optional<std::int64_t> postal_fib(std::int64_t L, std::int64_t i);

// f_0 .. f_n (n >= 0); stops early at the first overflowing term, so the
// result may be shorter than n + 1. O(n).
std::vector<std::int64_t> postal_fib_sequence(std::int64_t L, std::int64_t n);

// P(t; L, o, g); nullopt on overflow. O(t / gcd(L + 2o, g)) time and memory,
// so t up to about 1e8 / gcd. Throws optcoll::Error for invalid parameters
// or t above that limit.
std::optional<std::int64_t> reachable(std::int64_t t, const Params& p);

// B(P; L, o, g) for P >= 1, without building the tree: the smallest t with
// P(t) >= P. O(B(P) / gcd) time.
std::int64_t broadcast_time(std::int64_t P, const Params& p);

// In the postal model: the index n with f_n < N <= f_{n+1} used in §3
// (so B(N) = n + 1 for N >= 2); requires N >= 2.
std::int64_t postal_index(std::int64_t L, std::int64_t N);

}  // namespace optcoll::logp
