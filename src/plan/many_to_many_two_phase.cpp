// Many-to-many by two-phase balanced routing (communication-primitives
// notes §9). A skewed exchange (one rank sending or receiving far more than
// the others) run directly puts all of a hot rank's volume S_i (or R_j)
// through its one port, message by message. Instead:
//
//   phase 1: every message m_{i,j} is split into p pieces (plan::piece: as
//            evenly as possible, the extra elements rotated by i + j), and
//            piece k goes to rank k: an all-to-all in which rank i sends
//            about S_i / p to every rank (plus rounding);
//   phase 2: rank k forwards piece k of every m_{i,j} it holds to j: an
//            all-to-all in which rank j receives about R_j / p from every rank.
//
// Both phases use the shift schedule (alltoall_shift.cpp), 2(p-1) rounds.
// A hot sender's volume leaves it as p messages of S/p, spread over all
// ports; a hot receiver's arrives as p messages of R/p. The notes' cost
// O(tau p + mu (R + S + p^2)) counts the p^2 piece boundaries; here every
// rank knows the whole count matrix (the MPI layer allgathers it first), so
// the pieces need no labels.
//
// Layout (alltoall.hpp, c = p): receive piece i*p + x = piece x of m_{i,r},
// send piece p^2 + j*p + x = piece x of m_{r,j}, working group
// 2p^2 + i*p + j = piece r of m_{i,j} (held between the phases).
//
// Invariants (the simulator checks them): in phase 1 round j, rank r sends
// send pieces (d, k) for every d, k = r + j, and k receives them into its
// working groups (r, d) in the same order with the same sizes (both are
// piece(|m_{r,d}|, p, r, d, k)); in phase 2 round j, rank r sends working
// groups (i, t), t = r + j, and t receives them into receive pieces (i, r).
// Empty pieces are skipped at both ends; so is an empty message.
#include "optcoll/error.hpp"
#include "optcoll/plan/algorithms.hpp"
#include "optcoll/plan/alltoall.hpp"

namespace optcoll::plan {
namespace {

class ManyToManyTwoPhase final : public RankPlan {
 public:
  ManyToManyTwoPhase(const PlanContext& ctx, rank_t rank) : p_(ctx.spec.p), r_(rank) {
    const BlockLayout* lay = ctx.rank_layouts != nullptr ? ctx.rank_layouts + rank : ctx.layout;
    if (ctx.spec.op != Collective::many_to_many || lay == nullptr || lay->blocks_per_group() != 1 ||
        lay->data_groups() < 3 * p_ * p_)
      throw Error(Errc::internal, "many_to_many two_phase: needs a many_to_many layout with working groups");
    lay_ = lay;
  }
  std::int64_t rounds() const noexcept override { return p_ > 1 ? 2 * (p_ - 1) : 1; }
  const BlockLayout& layout() const noexcept override { return *lay_; }

  void step(std::int64_t i, Step& out) const override {
    const std::int64_t half = p_ - 1;
    if (i == 0) {
      // Phase 1, own pieces: send piece (d, r) -> working group (r, d).
      for (rank_t d = 0; d < p_; ++d) local(send_piece(d, r_), work(r_, d), out);
      if (p_ == 1)
        for (rank_t s = 0; s < p_; ++s) local(work(s, r_), recv_piece(s, r_), out);
    }
    if (p_ == 1) return;
    if (i == half) {
      // Phase 2, pieces held for myself: working group (s, r) -> receive piece (s, r).
      for (rank_t s = 0; s < p_; ++s) local(work(s, r_), recv_piece(s, r_), out);
    }
    const bool first = i < half;
    const rank_t j = (first ? i : i - half) + 1;
    const rank_t to = (r_ + j) % p_;
    const rank_t from = (r_ - j + p_) % p_;
    for (rank_t o = 0; o < p_; ++o) {
      // Phase 1: pieces (o, to) of my message to o; phase 2: piece r of m_{o,to}.
      add(first ? send_piece(o, to) : work(o, to), to, out.send_to, out.send);
      // Phase 1: piece r of m_{from,o}; phase 2: piece from of m_{o,r}.
      add(first ? work(from, o) : recv_piece(o, from), from, out.recv_from, out.recv);
    }
  }

 private:
  std::int64_t recv_piece(rank_t s, rank_t x) const noexcept { return s * p_ + x; }
  std::int64_t send_piece(rank_t d, rank_t x) const noexcept { return p_ * p_ + d * p_ + x; }
  std::int64_t work(rank_t i, rank_t j) const noexcept { return 2 * p_ * p_ + i * p_ + j; }
  void add(std::int64_t b, rank_t peer, rank_t& who, std::vector<BlockRun>& runs) const {
    if (lay_->group(b).count == 0) return;
    who = peer;
    runs.push_back({b, 1});
  }
  void local(std::int64_t from, std::int64_t to, Step& out) const {
    if (lay_->group(to).count > 0) out.local.push_back({{from, 1}, {to, 1}, Action::copy});
  }

  rank_t p_, r_;
  const BlockLayout* lay_ = nullptr;
};

}  // namespace

std::unique_ptr<RankPlan> make_many_to_many_two_phase(const PlanContext& ctx, rank_t rank) {
  checked_blocks(ctx.spec);
  return std::make_unique<ManyToManyTwoPhase>(ctx, rank);
}

}  // namespace optcoll::plan
