// The oracle of the drop-in's `auto` tests (test_auto.cpp): the alpha-beta
// times of optcoll's algorithms and of the classic ones, written out from
// their round structure, independently of optcoll's code.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace pmpi_auto_oracle {

// ---------------------------------------------------------------------------
// The oracle: alpha-beta times. A round costs alpha + beta * (bytes of its
// largest message); q = ceil(log2 p).

struct AB {
  double alpha = 0;
  double beta = 0;
  double round(long bytes) const { return alpha + beta * static_cast<double>(bytes); }
};

inline long ceil_log2(long p) {
  long q = 0;
  while ((1L << q) < p) ++q;
  return q;
}
inline long floor_log2(long p) {
  long f = 0;
  while ((2L << f) <= p) ++f;
  return f;
}
inline long ceil_div(long a, long b) {
  return (a + b - 1) / b;
}

// The smallest value of time(n) for n = 1 .. max_n (pipelined algorithms
// take their best block count; max_n: the elements).
template <class F>
inline double best_n(long max_n, F time) {
  double best = time(1);
  for (long n = 2; n <= std::min(max_n, 100000L); ++n) best = std::min(best, time(n));
  return best;
}

// The circulant broadcast (and the reduction, the same rounds backwards):
// n - 1 + q rounds of one block of ceil(m / n) bytes.
inline double circulant(const AB& ab, long p, long m, long elements) {
  const long q = ceil_log2(p);
  return best_n(elements, [&](long n) { return static_cast<double>(n - 1 + q) * ab.round(ceil_div(m, n)); });
}

// The pipelined binary tree: node v (heap order) gets block 0 in round a(v),
// a(child) = a(v) + 1 for the left child and + 2 for the right one (its
// parent serves the left child first), a(root's children) from round 0;
// block j follows two rounds after block j - 1.
inline double binary_tree(const AB& ab, long p, long m, long elements) {
  std::vector<long> a(static_cast<std::size_t>(p), 0);
  a[0] = -1;
  long latest = 0;
  for (long v = 1; v < p; ++v) {
    const long parent = (v - 1) / 2;
    a[static_cast<std::size_t>(v)] = a[static_cast<std::size_t>(parent)] + (v == 2 * parent + 1 ? 1 : 2);
    latest = std::max(latest, a[static_cast<std::size_t>(v)]);
  }
  return best_n(elements, [&](long n) {
    // With two ranks the root has no right child: it sends every other round.
    const long busy = p == 2 ? n : latest + 2 * (n - 1) + 1;
    return static_cast<double>(busy) * ab.round(ceil_div(m, n));
  });
}

// Van de Geijn: a binomial scatter of p blocks (each holder of a range of
// blocks sends its upper part, at offset 2^(q-1-s) in round s), then a ring
// allgather of p - 1 rounds.
inline double scatter_allgather(const AB& ab, long p, long m) {
  const long q = ceil_log2(p);
  const long block = ceil_div(m, p);
  std::vector<std::pair<long, long>> ranges{{0, p}};
  double t = 0;
  for (long s = 0; s < q; ++s) {
    const long half = 1L << (q - 1 - s);
    long largest = 0;
    std::vector<std::pair<long, long>> next;
    for (auto [lo, hi] : ranges) {
      if (hi - lo > half) {
        largest = std::max(largest, hi - lo - half);
        next.push_back({lo + half, hi});
        hi = lo + half;
      }
      next.push_back({lo, hi});
    }
    ranges = next;
    t += ab.round(largest * block);
  }
  return t + static_cast<double>(p - 1) * ab.round(block);
}

// The classic broadcasts (and commutative reductions, run backwards, plus
// Rabenseifner's reduce-scatter + gather, which costs what the van de Geijn
// broadcast costs): binomial tree, pipelined chain, pipelined binary tree,
// van de Geijn.
inline double classic_bcast(const AB& ab, long p, long m, long elements) {
  const double binomial = static_cast<double>(ceil_log2(p)) * ab.round(m);
  const double chain =
      best_n(elements, [&](long n) { return static_cast<double>(p - 2 + n) * ab.round(ceil_div(m, n)); });
  return std::min({binomial, chain, binary_tree(ab, p, m, elements), scatter_allgather(ab, p, m)});
}

// Every group of an all-broadcast (allgather: what each rank contributes;
// reduce-scatter: what each rank gets).
inline double classic_all_broadcast(const AB& ab, const std::vector<long>& groups) {
  const auto p = static_cast<long>(groups.size());
  const long largest = *std::max_element(groups.begin(), groups.end());
  const double ring = static_cast<double>(p - 1) * ab.round(largest);
  // Bruck: in the round where every rank holds `have` groups it sends
  // min(have, p - have) of them, consecutive cyclically.
  double bruck = 0;
  for (long have = 1; have < p; have *= 2) {
    const long w = std::min(have, p - have);
    long most = 0;
    for (long r = 0; r < p; ++r) {
      long sum = 0;
      for (long k = 0; k < w; ++k) sum += groups[static_cast<std::size_t>((r + k) % p)];
      most = std::max(most, sum);
    }
    bruck += ab.round(most);
  }
  return std::min(ring, bruck);
}

// p circulant broadcasts at once, every group in n blocks: n - 1 + q
// rounds; a rank receives everything but its own group (the rank with the
// smallest group the most), and the part of the largest group the smallest
// lacks fills the pipeline in q - 1 rounds of its n-th part.
inline double circulant_all_broadcast(const AB& ab, const std::vector<long>& groups, long elem) {
  const auto p = static_cast<long>(groups.size());
  const long q = ceil_log2(p);
  long total = 0;
  for (const long g : groups) total += g;
  const long largest = *std::max_element(groups.begin(), groups.end());
  const long smallest = *std::min_element(groups.begin(), groups.end());
  return best_n(largest / elem, [&](long n) {
    return static_cast<double>(n - 1 + q) * ab.alpha + ab.beta * static_cast<double>(total - smallest) +
           static_cast<double>(q - 1) * ab.beta * static_cast<double>(ceil_div(largest - smallest, n));
  });
}

// An allreduce's vector of `count` elements as p groups (reduce-scatter,
// then allgather): count / p elements each, the first count % p one more.
inline std::vector<long> allreduce_groups(long p, long count, long elem) {
  std::vector<long> g(static_cast<std::size_t>(p));
  for (long i = 0; i < p; ++i) g[static_cast<std::size_t>(i)] = (count / p + (i < count % p ? 1 : 0)) * elem;
  return g;
}

// Recursive doubling: floor(log2 p) rounds of the vector, plus a fold and
// an unfold round unless p is a power of two.
inline double doubling(const AB& ab, long p, long m) {
  const bool pow2 = (p & (p - 1)) == 0;
  return static_cast<double>(floor_log2(p) + (pow2 ? 0 : 2)) * ab.round(m);
}

// The classic allreduces: ring (reduce-scatter and allgather, 2(p-1) rounds
// of m/p), recursive doubling, Rabenseifner (fold, recursive halving and
// doubling over the largest power of two, unfold).
inline double classic_allreduce(const AB& ab, long p, long m) {
  const double ring = static_cast<double>(2 * (p - 1)) * ab.round(ceil_div(m, p));
  const long f = 1L << floor_log2(p);
  double rabenseifner = f != p ? 2 * ab.round(m) : 0;
  for (long s = f / 2, half = m / 2; s >= 1; s /= 2, half /= 2) rabenseifner += 2 * ab.round(std::max(half, 1L));
  return std::min({ring, doubling(ab, p, m), rabenseifner});
}

// optcoll's allreduces: circulant reduce-scatter + allgather (commutative);
// up to 64 KiB also dissemination (q rounds of the vector; commutative and
// exact: integers), recursive doubling in rank order and reduce + broadcast
// along rank-ordered binomial trees (2q rounds), any operator.
inline double optcoll_allreduce(const AB& ab, long p, long count, long elem, bool commutative, bool exact) {
  const long m = count * elem;
  double best = 1e300;
  if (commutative) best = 2 * circulant_all_broadcast(ab, allreduce_groups(p, count, elem), elem);
  if (m <= (64 << 10)) {
    if (commutative && exact) best = std::min(best, static_cast<double>(ceil_log2(p)) * ab.round(m));
    best = std::min({best, doubling(ab, p, m), static_cast<double>(2 * ceil_log2(p)) * ab.round(m)});
  }
  return best;
}

// Scan / Exscan. optcoll: recursive doubling (q rounds of the vector) or a
// pipelined chain (n + p - 2 rounds of m / n; the linear plan needs the
// machine's o, which the model runs leave unknown); classic: recursive
// doubling (MPICH) or the chain of p - 1 whole-vector rounds (Open MPI).
inline double optcoll_scan(const AB& ab, long p, long m, long elements) {
  const double chain =
      best_n(elements, [&](long n) { return static_cast<double>(n + p - 2) * ab.round(ceil_div(m, n)); });
  return std::min(static_cast<double>(ceil_log2(p)) * ab.round(m), chain);
}
inline double classic_scan(const AB& ab, long p, long m) {
  return std::min(static_cast<double>(ceil_log2(p)) * ab.round(m), static_cast<double>(p - 1) * ab.round(m));
}

}  // namespace pmpi_auto_oracle
