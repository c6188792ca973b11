// The policy rules (policy.hpp): keywords, the tuning file, the model.
#include "policy.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <sstream>
#include <tuple>

#include "optcoll/error.hpp"
#include "optcoll/model/alltoall.hpp"
#include "optcoll/model/baselines.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::pmpi {
namespace {

int ceil_log2(std::int64_t p) noexcept {
  int q = 0;
  while ((std::int64_t{1} << q) < p) ++q;
  return q;
}

double log_distance(std::int64_t a, std::int64_t b) noexcept {
  return std::abs(std::log2(static_cast<double>(std::max<std::int64_t>(a, 1))) -
                  std::log2(static_cast<double>(std::max<std::int64_t>(b, 1))));
}

bool parse_collective(std::string_view s, plan::Collective& out) noexcept {
  for (std::size_t i = 0; i < plan::kCollectives; ++i) {
    const auto c = static_cast<plan::Collective>(i);
    if (plan::to_string(c) == s) {
      out = c;
      return true;
    }
  }
  return false;
}

// Bruck's allgather of p equal groups of g bytes: q rounds, round k moving
// min(2^k, p - 2^k) groups, so q alpha + (p-1) g beta; the ring: p-1 rounds
// of one group.
double allgather_bruck(std::int64_t p, double g, const model::AlphaBeta& ab) noexcept {
  return ceil_log2(p) * ab.alpha + static_cast<double>(p - 1) * g * ab.beta;
}
double allgather_ring(std::int64_t p, double g, const model::AlphaBeta& ab) noexcept {
  return static_cast<double>(p - 1) * (ab.alpha + g * ab.beta);
}

}  // namespace

Mode parse_mode(std::string_view value) noexcept {
  if (value.empty() || value == "auto") return Mode::automatic;
  if (value == "native") return Mode::native;
  return Mode::optcoll;  // "optcoll" or an algorithm name
}

bool is_policy_keyword(std::string_view value) noexcept {
  return value == "auto" || value == "optcoll" || value == "native";
}

Tuning Tuning::parse(std::string_view text) {
  Tuning t;
  std::istringstream in{std::string(text)};
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::istringstream fields(line);
    std::string op;
    if (!(fields >> op)) continue;  // blank or comment
    TuningPoint pt;
    std::string rest;
    const bool ok = parse_collective(op, pt.op) && (fields >> pt.p >> pt.bytes >> pt.native_us >> pt.optcoll_us) &&
                    !(fields >> rest) && pt.p >= 1 && pt.bytes >= 0 && pt.native_us >= 0 && pt.optcoll_us >= 0;
    if (!ok)
      throw Error(Errc::invalid_count, "tuning file line " + std::to_string(number) +
                                           ": expected '<collective> <p> <bytes> <native us> <optcoll us>', got '" +
                                           line + "'");
    t.add(pt);
  }
  return t;
}

std::string Tuning::format() const {
  std::ostringstream out;
  out << "# optcoll tuning file (optcoll-tune): collective p bytes native_us optcoll_us\n";
  for (const TuningPoint& t : points_)
    out << plan::to_string(t.op) << ' ' << t.p << ' ' << t.bytes << ' ' << t.native_us << ' ' << t.optcoll_us << '\n';
  return out.str();
}

bool Tuning::covers(plan::Collective op) const noexcept {
  return std::any_of(points_.begin(), points_.end(), [&](const TuningPoint& t) { return t.op == op; });
}

bool Tuning::optcoll_wins(plan::Collective op, std::int64_t p, std::int64_t bytes) const noexcept {
  // Lexicographic: the nearest p first, then the nearest size; ties to the
  // smaller p, then the smaller size.
  const TuningPoint* best = nullptr;
  auto key = [&](const TuningPoint& t) {
    return std::tuple(log_distance(t.p, p), t.p, log_distance(t.bytes, bytes), t.bytes);
  };
  for (const TuningPoint& t : points_)
    if (t.op == op && (best == nullptr || key(t) < key(*best))) best = &t;
  return best != nullptr && best->optcoll_us < best->native_us;
}

ModelTimes model_times(plan::Collective op, std::int64_t p, std::int64_t bytes, bool commutative,
                       const model::AlphaBeta& ab) {
  using plan::Collective;
  const int q = ceil_log2(p);
  const double m = static_cast<double>(bytes);
  ModelTimes t;
  switch (op) {
    case Collective::bcast:
    case Collective::reduce: {
      // A reduction is a broadcast run backwards (Observation 1.3): the same
      // communication, so the same price (computation is not priced). Only
      // commutative ones run the circulant plan; the rank-ordered binomial
      // tree otherwise, which is what the native call does as well.
      // (MPI libraries, too, reduce with non-commutative operators along a
      // rank-ordered tree only.)
      const double binomial = model::price_binomial(p, bytes, ab).time;
      if (op == Collective::reduce && !commutative) {
        t.native = t.optcoll = binomial;
        break;
      }
      t.native = binomial;
      for (const model::BaselinePrice& b : model::price_baselines(p, bytes, bytes, ab))
        t.native = std::min(t.native, b.time);
      t.optcoll = model::circulant_time(q, bytes, model::choose_blocks(q, bytes, bytes, ab), ab);
      break;
    }
    case Collective::allgather:
    case Collective::reduce_scatter: {
      // bytes: the whole vector. The circulant all-broadcast moves the
      // (p-1)/p m bytes of Bruck's algorithm in its q rounds: no gain in
      // this model, so `auto` leaves these to the native call (a tie).
      const double g = m / static_cast<double>(p);
      t.native = std::min(allgather_bruck(p, g, ab), allgather_ring(p, g, ab));
      t.optcoll = allgather_bruck(p, g, ab);
      break;
    }
    case Collective::allreduce: {
      // Reduce-scatter then allgather, both circulant: 2 q alpha +
      // 2 (p-1)/p m beta for any p (Rabenseifner needs extra rounds when p
      // is not a power of two; the small-vector algorithms pay q m beta).
      t.native = std::min({model::price_allreduce_ring(p, bytes, ab).time,
                           model::price_allreduce_recursive_doubling(p, bytes, ab).time,
                           model::price_allreduce_rabenseifner(p, bytes, ab).time});
      t.optcoll = commutative ? 2 * allgather_bruck(p, m / static_cast<double>(p), ab) : t.native;
      break;
    }
    case Collective::gather:
    case Collective::scatter: {
      // Binomial trees on both sides (homogeneous sizes).
      t.native = allgather_bruck(p, m / static_cast<double>(p), ab);
      t.optcoll = t.native;
      break;
    }
    case Collective::scan:
    case Collective::exscan: {
      // Native: recursive doubling (MPICH; Open MPI's is no faster), q
      // rounds of the whole vector. optcoll: that, or the pipelined chain of
      // depth p-1 for long vectors (plan/scan_pipeline.cpp).
      t.native = q * (ab.alpha + ab.beta * m);
      t.optcoll = t.native;
      if (p >= 3) {
        const int depth = static_cast<int>(std::min<std::int64_t>(p - 1, INT_MAX));
        t.optcoll =
            std::min(t.optcoll, model::circulant_time(depth, bytes, model::choose_blocks(depth, bytes, bytes, ab), ab));
      }
      break;
    }
    case Collective::alltoall:
    case Collective::alltoallv:
    case Collective::many_to_many: {
      // bytes: one rank's whole send buffer. The native libraries run the
      // same two schedules (Bruck for small blocks, pairwise / shift for
      // large): a tie, left native until a tuning file says otherwise.
      const auto block = static_cast<std::int64_t>(m / static_cast<double>(p));
      t.native = std::min(model::alltoall_shift_time(p, block, ab), model::alltoall_bruck_time(p, block, ab));
      t.optcoll = t.native;
      break;
    }
  }
  return t;
}

}  // namespace optcoll::pmpi
