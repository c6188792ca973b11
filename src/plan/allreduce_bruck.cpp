// Allreduce of short vectors in ceil(log2 p) rounds, commutative operators:
// Bruck's dissemination with Lang 2025's partial buffer (Algorithm 1), which
// keeps every contribution single for any p.
//
// With f = 2^floor(log2 p) and l = p - f, round k < log2 f sends the local
// result D (ranks P .. P+2^k-1) to P - 2^k and receives D of P + 2^k, so D
// doubles. If l > 0 a last round must deliver ranks P+f .. P+p-1, i.e. the
// l-partial (ranks P .. P+l-1) of rank P+f. It is assembled on the way:
// write l = 2^n1 + r1, r1 = 2^n2 + r2, ... (n1 > n2 > ...). The R-partial
// with R = 2^n + r is D before round n (2^n ranks) merged with the r-partial
// of rank P + 2^n, which that rank appends to its message in round n. So in
// round n_i a rank copies its old D into the partial buffer Pa and, if
// r_i > 0, merges the received r_i-partial into it.
//
// Correction to the paper: Algorithm 1 lists the pairs (n_i, r_i) with
// decreasing n and then visits them with an index from the front while k
// increases, so only the first pair is ever visited when l has two or more
// one-bits. The pairs must be visited in increasing n (the r-partial a round
// appends is built in an earlier round). The simulator shows it: with the
// printed order, p = 13 (l = 5 = 4 + 1) leaves every rank without the
// contribution of ranks P+8 .. P+12 but one (tests/sim/test_allgather.cpp).
#include <vector>

#include "optcoll/error.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::plan {
namespace {

class AllreduceBruck final : public RankPlan {
 public:
  AllreduceBruck(const PlanContext& ctx, rank_t rank, bool as_printed) : lay_(*ctx.layout), p_(ctx.spec.p), r_(rank) {
    const std::int64_t all = p_ * lay_.blocks_per_group();
    d_ = {0, all};
    s1_ = {all, all};
    s2_ = {2 * all, all};
    pa_ = {3 * all, all};
    while ((rank_t{2} << log_f_) <= p_) ++log_f_;
    l_ = p_ - (rank_t{1} << log_f_);
    if (p_ > 1 && lay_.data_extent() > 0) rounds_ = log_f_ + (l_ > 0 ? 1 : 0);
    // special_[k] = r >= 0 if round k is special with remainder r.
    special_.assign(static_cast<std::size_t>(log_f_ + 1), -1);
    std::vector<std::pair<int, rank_t>> pairs;
    for (rank_t R = l_; R > 0;) {
      int n = 0;
      while ((rank_t{2} << n) <= R) ++n;
      pairs.emplace_back(n, R - (rank_t{1} << n));
      R -= rank_t{1} << n;
    }
    if (as_printed) {  // only the first listed pair is ever reached
      if (!pairs.empty()) special_[static_cast<std::size_t>(pairs.front().first)] = pairs.front().second;
    } else {
      for (const auto& [n, r] : pairs) special_[static_cast<std::size_t>(n)] = r;
    }
  }

  std::int64_t rounds() const noexcept override { return rounds_; }
  const BlockLayout& layout() const noexcept override { return lay_; }

  void step(std::int64_t i, Step& out) const override {
    const int k = static_cast<int>(i);
    const rank_t s = rank_t{1} << k;
    out.send_to = wrap(r_ - s);
    out.recv_from = wrap(r_ + s);
    out.on_recv = Action::copy;
    if (k == log_f_) {  // the last round: the l-partial
      out.send.push_back(pa_);
      out.recv.push_back(s2_);
      out.local.push_back({s2_, d_, Action::combine_before});
      return;
    }
    const rank_t r = special_[static_cast<std::size_t>(k)];
    out.send.push_back(d_);
    out.recv.push_back(s1_);
    if (r > 0) {
      out.send.push_back(pa_);
      out.recv.push_back(s2_);
    }
    if (r >= 0) {  // Pa = old D (+) received r-partial
      out.local.push_back({d_, pa_, Action::copy});
      if (r > 0) out.local.push_back({s2_, pa_, Action::combine_before});
    }
    out.local.push_back({s1_, d_, Action::combine_before});
  }

 private:
  rank_t wrap(rank_t v) const noexcept { return ((v % p_) + p_) % p_; }

  const BlockLayout& lay_;
  rank_t p_;
  rank_t r_;
  int log_f_ = 0;
  rank_t l_ = 0;
  std::int64_t rounds_ = 0;
  std::vector<rank_t> special_;
  BlockRun d_, s1_, s2_, pa_;
};

std::unique_ptr<RankPlan> make(const PlanContext& ctx, rank_t rank, bool as_printed) {
  if (ctx.layout == nullptr || ctx.layout->groups() != 4 * ctx.spec.p)
    throw Error(Errc::internal, "allreduce needs allreduce_layout()");
  return std::make_unique<AllreduceBruck>(ctx, rank, as_printed);
}

}  // namespace

std::unique_ptr<RankPlan> make_allreduce_bruck(const PlanContext& ctx, rank_t rank) {
  return make(ctx, rank, false);
}

std::unique_ptr<RankPlan> make_allreduce_bruck_as_printed(const PlanContext& ctx, rank_t rank) {
  return make(ctx, rank, true);
}

}  // namespace optcoll::plan
