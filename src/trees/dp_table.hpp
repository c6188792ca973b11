// Shared pieces of the homogeneous tree DPs (tree_dp_homogeneous.cpp,
// tree_dp_binary.cpp): the instance in the form the inner loops read, and the
// range table. Internal to src/trees/.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "dp_kernel.hpp"
#include "optcoll/error.hpp"
#include "optcoll/trees/model.hpp"

namespace optcoll::trees::detail {

inline std::size_t at(rank_t x) {
  return static_cast<std::size_t>(x);
}

// Prefix sums as doubles (exact while the total is below 2^53).
struct Problem {
  rank_t p = 0;
  std::vector<double> P;   // P[x] = m_0 + ... + m_{x-1}
  std::vector<double> gm;  // gamma m_x
  Comm comm{0, 0};
  double S(rank_t i, rank_t j) const { return P[at(j + 1)] - P[at(i)]; }  // Size of [i, j]

  // Throws optcoll::Error for p < 1, a negative block or a pairwise model.
  Problem(std::span<const std::int64_t> m, const CostModel& model) : p(static_cast<rank_t>(m.size())) {
    if (p < 1) throw Error(Errc::invalid_p, "no block sizes");
    if (!model.homogeneous()) throw Error(Errc::invalid_count, "this tree DP needs a homogeneous cost model");
    comm = Comm{model.alpha(0, 0), model.beta(0, 0)};
    P.assign(m.size() + 1, 0.0);
    gm.resize(m.size());
    for (std::size_t x = 0; x < m.size(); ++x) {
      if (m[x] < 0) throw Error(Errc::invalid_count, "negative block size");
      P[x + 1] = P[x] + static_cast<double>(m[x]);
      gm[x] = model.copy(0, m[x]);
    }
  }
};

// C[i][j] for i <= j in packed rows, and its transpose in packed columns, so
// that both operands of a split are contiguous in the split point.
class Table {
 public:
  explicit Table(rank_t p) : p_(p), row_(size(p)), col_(size(p)) {}
  double get(rank_t i, rank_t j) const { return row_[roff(i) + at(j - i)]; }
  void set(rank_t i, rank_t j, double v) { row_[roff(i) + at(j - i)] = col_[coff(j) + at(i)] = v; }
  const double* row(rank_t i, rank_t j) const { return row_.data() + roff(i) + at(j - i); }  // C[i][j..]
  const double* col(rank_t j, rank_t i) const { return col_.data() + coff(j) + at(i); }      // C[i..][j]

 private:
  static std::size_t size(rank_t p) { return at(p) * at(p + 1) / 2; }
  std::size_t roff(rank_t i) const { return at(i) * (2 * at(p_) - at(i) + 1) / 2; }  // sum of p - x, x < i
  static std::size_t coff(rank_t j) { return at(j) * at(j + 1) / 2; }
  rank_t p_;
  std::vector<double> row_, col_;
};

// A[i][k] for i <= k in packed rows only.
class RowTable {
 public:
  explicit RowTable(rank_t p) : p_(p), row_(at(p) * at(p + 1) / 2) {}
  double get(rank_t i, rank_t k) const { return row_[off(i) + at(k - i)]; }
  void set(rank_t i, rank_t k, double v) { row_[off(i) + at(k - i)] = v; }
  const double* row(rank_t i, rank_t k) const { return row_.data() + off(i) + at(k - i); }  // A[i][k..]

 private:
  std::size_t off(rank_t i) const { return at(i) * (2 * at(p_) - at(i) + 1) / 2; }
  rank_t p_;
  std::vector<double> row_;
};

}  // namespace optcoll::trees::detail
