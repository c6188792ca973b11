// The linear transmission cost model of Traff 2018 (§2.1): a message of m
// units from processor i to processor j costs alpha_ij + beta_ij * m, a local
// copy of m units at processor i costs gamma_i * m, and an empty message costs
// nothing (comm(0) = 0, §3.2): a subtree without data is never waited for.
// One-ported, fully connected; MPI-free.
#pragma once

#include <cstdint>
#include <vector>

namespace optcoll::trees {

using rank_t = std::int64_t;

// Gather trees send towards the root, scatter trees away from it. Only the
// non-homogeneous model tells them apart (the pair's direction); their
// completion times agree otherwise (time reversal, §5.1).
enum class Direction : std::uint8_t { gather, scatter };

class CostModel {
 public:
  // alpha + beta*m for every message, gamma*m for every local copy.
  // Throws optcoll::Error unless alpha, beta, gamma are finite and >= 0.
  static CostModel homogeneous(double alpha, double beta, double gamma);
  // alpha[i*p + j], beta[i*p + j] for a message from i to j (diagonal
  // ignored), gamma[i] for a copy at i. Throws on a size mismatch or a
  // negative or non-finite parameter.
  static CostModel pairwise(rank_t p, std::vector<double> alpha, std::vector<double> beta, std::vector<double> gamma);

  bool homogeneous() const noexcept { return p_ == 0; }
  // Number of processors of a pairwise model, 0 for a homogeneous one.
  rank_t p() const noexcept { return p_; }

  double alpha(rank_t from, rank_t to) const noexcept { return p_ == 0 ? alpha0_ : alpha_[index(from, to)]; }
  double beta(rank_t from, rank_t to) const noexcept { return p_ == 0 ? beta0_ : beta_[index(from, to)]; }
  double gamma(rank_t at) const noexcept { return p_ == 0 ? gamma0_ : gamma_[static_cast<std::size_t>(at)]; }

  // comm_{from,to}(m): 0 for m == 0.
  double comm(rank_t from, rank_t to, std::int64_t m) const noexcept {
    return m == 0 ? 0.0 : alpha(from, to) + beta(from, to) * static_cast<double>(m);
  }
  double copy(rank_t at, std::int64_t m) const noexcept { return gamma(at) * static_cast<double>(m); }

  // The message cost for a tree edge child -> parent (gather) or
  // parent -> child (scatter).
  double edge(Direction d, rank_t child, rank_t parent, std::int64_t m) const noexcept {
    return d == Direction::gather ? comm(child, parent, m) : comm(parent, child, m);
  }

 private:
  std::size_t index(rank_t from, rank_t to) const noexcept {
    return static_cast<std::size_t>(from) * static_cast<std::size_t>(p_) + static_cast<std::size_t>(to);
  }

  rank_t p_ = 0;
  double alpha0_ = 0, beta0_ = 0, gamma0_ = 0;
  std::vector<double> alpha_, beta_, gamma_;
};

}  // namespace optcoll::trees
