// The simulator's round loop: post every rank's step, match the messages,
// price them, move the symbolic payloads (payload.hpp), check the end state.
#include "optcoll/sim/simulator.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>

#include "optcoll/error.hpp"
#include "optcoll/plan/alltoall.hpp"
#include "optcoll/plan/executor.hpp"
#include "payload.hpp"
#include "round_posts.hpp"
#include "two_level.hpp"

namespace optcoll::sim {
namespace {

using detail::Chunk;
using detail::for_chunks;
using detail::Post;
using detail::RecordingExecutor;
using detail::RoundPosts;
using detail::same_blocks;
using detail::same_sizes;
using plan::Action;
using plan::BlockRun;
using plan::Collective;
using plan::rank_t;

// Which (rank, block) holds data at first and which must hold a final
// result, per Collective (plan.hpp); group g = block / n belongs to rank g.
struct Semantics {
  Collective op;
  rank_t root;
  std::int64_t n;  // blocks per group
  bool initially(rank_t r, std::int64_t b) const {
    switch (op) {
      case Collective::gather:
      case Collective::allgather:
        return b / n == r;
      case Collective::bcast:
      case Collective::scatter:
        return r == root;
      default:
        return true;  // reductions: every rank contributes to every block
    }
  }
  bool required(rank_t r, std::int64_t b) const {
    switch (op) {
      case Collective::gather:
      case Collective::reduce:
        return r == root;
      case Collective::scatter:
      case Collective::reduce_scatter:
        return b / n == r;
      case Collective::exscan:
        return r > 0;  // MPI leaves rank 0's result undefined
      default:
        return true;
    }
  }
  // The contributions a required block must hold: [lo, hi).
  std::pair<rank_t, rank_t> target(rank_t r, rank_t p) const {
    if (op == Collective::scan) return {0, r + 1};
    if (op == Collective::exscan) return {0, r};
    return {0, p};
  }
};

class Run {
 public:
  Run(const plan::PlanContext& ctx, plan::PlanFactory make, const SimOptions& opt)
      : p_(ctx.spec.p),
        opt_(opt),
        sem_{ctx.spec.op, ctx.spec.root, 1},
        posts_(p_, p_ >= kThreadedFrom ? std::max(1u, std::min(opt.threads, 64u)) : 1u),
        exchange_(plan::is_exchange(ctx.spec.op)),
        pieces_(plan::exchange_pieces(ctx.spec.op, ctx.spec.p)) {
    plans_.reserve(static_cast<std::size_t>(p_));
    for (rank_t r = 0; r < p_; ++r) plans_.push_back(make(ctx, r));
    res_.rounds = plans_[0]->rounds();
    layout_ = &plans_[0]->layout();
    sem_.n = layout_->blocks_per_group();
    res_.blocks = layout().blocks();
    for (rank_t r = 1; r < p_ && res_.ok(); ++r) {
      const plan::RankPlan& pr = *plans_[static_cast<std::size_t>(r)];
      if (pr.rounds() != res_.rounds || pr.layout().blocks() != res_.blocks)
        error("rank " + std::to_string(r) + " disagrees with rank 0 on the number of rounds or blocks");
      if (exchange_ && pr.layout().data_groups() < 2 * p_ * pieces_)
        error("rank " + std::to_string(r) + "'s layout lacks the exchange's send and receive pieces");
    }
  }

  template <class Tracker>
  SimResult simulate(const char* mode) {
    if (!res_.ok()) return res_;
    Tracker tracker = make_tracker<Tracker>(mode);
    std::vector<double> clock(static_cast<std::size_t>(p_), 0.0), next(clock);
    std::vector<double> abclock(clock), abnext(clock);
    std::vector<double> arrived(clock);  // SimOptions::streamed: each rank's last receive completed
    std::vector<std::int64_t> sent(static_cast<std::size_t>(p_), 0), received(sent), sent_before;
    std::optional<detail::TwoLevelClock> two_level;
    if (opt_.nodes != nullptr) two_level.emplace(*opt_.nodes, opt_.two_level);
    std::vector<typename Tracker::Value> values;
    // Local work (SimOptions::local_work), by round: added to a rank's
    // alpha-beta clock before the round's messages.
    std::vector<LocalWork> work(opt_.local_work);
    std::stable_sort(work.begin(), work.end(),
                     [](const LocalWork& a, const LocalWork& b) { return a.round < b.round; });
    std::size_t next_work = 0;
    const auto charge = [&](std::int64_t upto) {
      for (; next_work < work.size() && work[next_work].round <= upto; ++next_work)
        if (work[next_work].rank >= 0 && work[next_work].rank < p_)
          abclock[static_cast<std::size_t>(work[next_work].rank)] += work[next_work].seconds;
    };
    for (std::int64_t i = 0; i < res_.rounds && res_.ok(); ++i) {
      charge(i);
      for_chunks(posts_.chunks, [&](Chunk& c) {
        c.arena.clear();
        c.locals.clear();
        RecordingExecutor ex(posts_, c);
        plan::Step scratch;
        try {
          for (std::size_t r = c.begin; r < c.end; ++r) {
            ex.rank = r;
            posts_.post[r].send_to = posts_.post[r].recv_from = -1;
            plan::post_round(*plans_[r], i, scratch, ex);
          }
        } catch (const std::exception& e) {
          c.errors.push_back(at(i, ex.rank) + "plan failed: " + e.what());
        }
      });
      if (two_level) sent_before = sent;
      // Matching and cost, each rank looking at its own send and receive, so
      // that every write goes to its own entries.
      for_chunks(posts_.chunks, [&](Chunk& c) {
        c.messages = c.total_bytes = c.max_message_bytes = 0;
        c.slowest = 0;
        for (std::size_t r = c.begin; r < c.end && c.errors.empty(); ++r)
          match(i, r, c, clock, next, abclock, abnext, arrived, sent, received);
      });
      const std::int64_t messages_before = res_.messages;
      double slowest = 0;
      for (Chunk& c : posts_.chunks) {
        for (auto& e : c.errors) error(e);
        c.errors.clear();
        res_.messages += c.messages;
        res_.total_bytes += c.total_bytes;
        res_.max_message_bytes = std::max(res_.max_message_bytes, c.max_message_bytes);
        slowest = std::max(slowest, c.slowest);
      }
      if (!res_.ok()) break;
      if (res_.messages > messages_before) {
        ++res_.active_rounds;
        res_.last_active_round = i;
        res_.alpha_beta_time += slowest;
        if (two_level) {
          for (std::size_t r = 0; r < sent.size(); ++r)
            if (posts_.post[r].send_to >= 0)
              two_level->message(static_cast<rank_t>(r), posts_.post[r].send_to, sent[r] - sent_before[r]);
          res_.two_level_time += two_level->end_round();
        }
      }
      clock.swap(next);
      abclock.swap(abnext);
      check_locals(i);
      if (!tracked_.empty() && res_.ok()) move_payload(tracker, values, i);
    }
    charge(std::numeric_limits<std::int64_t>::max());
    if (res_.ok() && !tracked_.empty()) check_final(tracker);
    res_.loggp_time =
        std::max(*std::max_element(clock.begin(), clock.end()), *std::max_element(arrived.begin(), arrived.end()));
    res_.alpha_beta_clock_time = *std::max_element(abclock.begin(), abclock.end());
    for (std::size_t r = 0; r < sent.size(); ++r) {
      res_.max_bytes_sent = std::max(res_.max_bytes_sent, sent[r]);
      res_.max_bytes_received = std::max(res_.max_bytes_received, received[r]);
    }
    return res_;
  }

  const plan::BlockLayout& layout() const { return *layout_; }
  // Rank r's layout: its own for the exchanges, rank 0's (all equal) otherwise.
  const plan::BlockLayout& lay(std::size_t r) const { return exchange_ ? plans_[r]->layout() : *layout_; }
  SimResult& result() { return res_; }

 private:
  static constexpr rank_t kThreadedFrom = 4096;  // smaller p run on one thread

  std::string at(std::int64_t i, std::size_t r) const {
    return "round " + std::to_string(i) + ": rank " + std::to_string(r) + " ";
  }
  double ab_cost(std::int64_t bytes) const {
    return opt_.alpha_beta.alpha + opt_.alpha_beta.beta * static_cast<double>(bytes);
  }
  void error(const std::string& e) {
    if (static_cast<int>(res_.errors.size()) < opt_.max_errors) res_.errors.push_back(e);
  }

  // One rank's send and receive of round i: checks that the other ends
  // agree, prices both, and advances the rank's clocks.
  // Streamed (SimOptions::streamed): clock[r] is when rank r posts its
  // next send, which no receive holds back; arrived[r] (rank r's own entry
  // only) when its last receive completed.
  void match(std::int64_t i, std::size_t r, Chunk& c, const std::vector<double>& clock, std::vector<double>& next,
             const std::vector<double>& abclock, std::vector<double>& abnext, std::vector<double>& arrived,
             std::vector<std::int64_t>& sent, std::vector<std::int64_t>& received) const {
    const Post& x = posts_.post[r];
    const LogGP& m = opt_.loggp;
    double done = clock[r];
    double abdone = abclock[r];
    if (x.send_to >= 0) {
      const rank_t t = x.send_to;
      const auto tu = static_cast<std::size_t>(t);
      if (t >= p_ || tu == r) {
        c.errors.push_back(at(i, r) + "sends to invalid rank " + std::to_string(t));
        return;
      }
      if (posts_.post[tu].recv_from != static_cast<rank_t>(r) ||
          !(exchange_ ? same_sizes(lay(r), posts_.sent(r), lay(tu), posts_.received(tu))
                      : same_blocks(*layout_, posts_.sent(r), posts_.received(tu)))) {
        c.errors.push_back(at(i, r) + "sends to " + std::to_string(t) + ", which does not expect these blocks from it");
        return;
      }
      const std::int64_t bytes = message_bytes(i, r, posts_.sent(r), c);
      ++c.messages;
      c.total_bytes += bytes;
      c.max_message_bytes = std::max(c.max_message_bytes, bytes);
      sent[r] += bytes;
      c.slowest = std::max(c.slowest, ab_cost(bytes));
      done = std::max(clock[r] + m.o + static_cast<double>(std::max<std::int64_t>(bytes - 1, 0)) * m.G, clock[r] + m.g);
      abdone = std::max(abclock[r], abclock[tu]) + ab_cost(bytes);
    }
    if (x.recv_from >= 0) {
      const rank_t f = x.recv_from;
      const auto fu = static_cast<std::size_t>(f);
      if (f >= p_ || posts_.post[fu].send_to != static_cast<rank_t>(r)) {
        c.errors.push_back(at(i, r) + "waits for a message from " + std::to_string(f) + " that is never sent");
        return;
      }
      const std::int64_t bytes = message_bytes(i, r, posts_.received(r), c);
      received[r] += bytes;
      const rank_t group = opt_.latency_group;
      const bool far = group > 0 && f / group != static_cast<rank_t>(r) / group;
      const double arrival = clock[fu] + m.o + static_cast<double>(std::max<std::int64_t>(bytes - 1, 0)) * m.G +
                             (far ? opt_.far_latency : m.L);
      if (opt_.streamed)
        arrived[r] = std::max(arrived[r], arrival) + m.o;
      else
        done = std::max(done, std::max(clock[r], arrival) + m.o);
      abdone = std::max(abdone, std::max(abclock[r], abclock[fu]) + ab_cost(bytes));
    }
    next[r] = done;
    abnext[r] = abdone;
  }

  std::int64_t message_bytes(std::int64_t i, std::size_t r, std::span<const BlockRun> runs, Chunk& c) const {
    const plan::BlockLayout& lay = this->lay(r);
    std::int64_t elems = 0;
    for (const BlockRun& run : runs) {
      if (run.count == 1 && run.first >= 0 && run.first < lay.blocks()) {
        elems += lay.block(run.first).count;
        continue;
      }
      if (!lay.valid(run)) {
        c.errors.push_back(at(i, r) + "names an invalid block run [" + std::to_string(run.first) + ", +" +
                           std::to_string(run.count) + ")");
        return 0;
      }
      elems += lay.run(run).count;
    }
    return elems * opt_.elem_size;
  }

  // Tracked slots: the blocks whose position (data block) is tracked: every
  // non-empty data block, or evenly spaced ones including the first and the
  // last when p * blocks would exceed the memory budget.
  template <class Tracker>
  Tracker make_tracker(const char* mode) {
    if constexpr (std::is_same_v<Tracker, detail::TokenTracker>) {
      return make_token_tracker(mode);
    } else {
      return make_position_tracker<Tracker>(mode);
    }
  }

  // Exchanges: every block of every rank, or none beyond the budget.
  detail::TokenTracker make_token_tracker(const char* mode) {
    const std::int64_t blocks = layout().blocks();
    const bool fits = static_cast<double>(p_) * static_cast<double>(blocks) * detail::TokenTracker::entry_bytes(p_) <=
                      static_cast<double>(opt_.max_tracked_bytes);
    const std::int64_t slots = opt_.track_payload && fits ? blocks : 0;
    slot_of_.assign(static_cast<std::size_t>(blocks), -1);
    for (std::int64_t b = 0; b < slots; ++b) {
      slot_of_[static_cast<std::size_t>(b)] = b;
      tracked_.push_back(b);
    }
    const std::int64_t pc = p_ * pieces_;
    res_.tracked_blocks = slots > 0 ? 2 * pc : 0;
    res_.payload = tracked_.empty() ? "none" : mode;
    detail::TokenTracker t(p_, slots);
    if (slots == 0) return t;
    t.resize(p_);
    t.read_only(pc, 2 * pc);
    for (rank_t r = 0; r < p_; ++r)
      for (std::int64_t g = 0; g < pc; ++g)  // send piece g: piece g % c of the message to g / c
        t.put(r, pc + g, (r * p_ + g / pieces_) * pieces_ + g % pieces_);
    return t;
  }

  template <class Tracker>
  Tracker make_position_tracker(const char* mode) {
    const plan::BlockLayout& lay = layout();
    std::vector<std::int64_t> positions;
    for (std::int64_t b = 0; b < lay.blocks(); ++b)
      if (lay.is_data(b) && lay.block(b).count > 0) positions.push_back(b);
    const double per_position = static_cast<double>(lay.blocks()) / static_cast<double>(std::max<std::int64_t>(
                                                                        lay.data_groups() * lay.blocks_per_group(), 1));
    const double budget = static_cast<double>(opt_.max_tracked_bytes) /
                          (static_cast<double>(p_) * Tracker::entry_bytes(p_) * per_position);
    const auto want = static_cast<std::int64_t>(std::min(budget, static_cast<double>(positions.size())));
    std::vector<char> chosen(static_cast<std::size_t>(lay.blocks()), 0);
    if (opt_.track_payload && want >= 1) {
      const auto m = static_cast<std::int64_t>(positions.size());
      for (std::int64_t k = 0; k < want; ++k)
        chosen[static_cast<std::size_t>(
            positions[static_cast<std::size_t>(want == 1 ? 0 : k * (m - 1) / (want - 1))])] = 1;
    }
    slot_of_.assign(static_cast<std::size_t>(lay.blocks()), -1);
    std::int64_t tracked_positions = 0;
    for (std::int64_t b = 0; b < lay.blocks(); ++b) {
      if (chosen[static_cast<std::size_t>(lay.position(b))] == 0) continue;
      slot_of_[static_cast<std::size_t>(b)] = static_cast<std::int64_t>(tracked_.size());
      tracked_.push_back(b);
      if (lay.is_data(b)) ++tracked_positions;
    }
    res_.tracked_blocks = tracked_positions;
    res_.payload = tracked_.empty() ? "none" : mode;
    const auto slots = static_cast<std::int64_t>(tracked_.size());
    Tracker t(p_, slots);
    for (rank_t r = 0; r < p_; ++r)
      for (std::int64_t s = 0; s < slots; ++s) {
        const std::int64_t b = tracked_[static_cast<std::size_t>(s)];
        if (lay.is_data(b) && sem_.initially(r, b)) t.set_initial(r, s);
      }
    return t;
  }

  // Local operations name valid runs of equal length and equal positions.
  void check_locals(std::int64_t i) {
    for (const Chunk& c : posts_.chunks)
      for (const auto& [r, op] : c.locals) {
        const plan::BlockLayout& lay = this->lay(r);
        const auto from = std::span(&op.from, 1), to = std::span(&op.to, 1);
        if (!lay.valid(op.from) || !lay.valid(op.to) || op.from.count != op.to.count ||
            !(exchange_ ? same_sizes(lay, from, lay, to) : same_blocks(lay, from, to))) {
          error(at(i, r) + "has an invalid local operation from [" + std::to_string(op.from.first) + ", +" +
                std::to_string(op.from.count) + ") to [" + std::to_string(op.to.first) + ", +" +
                std::to_string(op.to.count) + ")");
          return;
        }
      }
  }

  // All snapshots of the round first, then all receives: what travels is the
  // sender's state before the round.
  template <class Tracker>
  void move_payload(Tracker& tracker, std::vector<typename Tracker::Value>& values, std::int64_t i) {
    tracker.new_round();
    values.clear();
    auto each_tracked = [&](std::size_t r, auto&& fn) {
      for (const BlockRun& run : posts_.sent(r))
        for (std::int64_t b = run.first; b < run.first + run.count; ++b)
          if (const std::int64_t s = slot_of_[static_cast<std::size_t>(b)]; s >= 0) fn(b, s);
    };
    for (std::size_t r = 0; r < posts_.post.size(); ++r) {
      if (posts_.post[r].send_to < 0) continue;
      each_tracked(r, [&](std::int64_t b, std::int64_t s) {
        values.emplace_back();
        if (const std::string e = tracker.snapshot(static_cast<rank_t>(r), s, values.back()); !e.empty())
          error(at(i, r) + e + " (block " + std::to_string(b) + ")");
      });
    }
    // The receiver's blocks, in the same order as the sender's (same
    // positions, possibly other accumulators).
    std::size_t k = 0;
    for (std::size_t r = 0; r < posts_.post.size(); ++r) {
      const rank_t t = posts_.post[r].send_to;
      if (t < 0) continue;
      const auto tu = static_cast<std::size_t>(t);
      const Action a = posts_.post[tu].action;
      for (const BlockRun& run : posts_.received(tu))
        for (std::int64_t b = run.first; b < run.first + run.count; ++b)
          if (const std::int64_t s = slot_of_[static_cast<std::size_t>(b)]; s >= 0)
            if (const std::string e = tracker.apply(t, s, values[k++], a); !e.empty())
              error(at(i, tu) + e + " (block " + std::to_string(b) + " from " + std::to_string(r) + ")");
    }
    // Then every rank's local operations, in order, on its state after the
    // receive.
    for (const Chunk& c : posts_.chunks)
      for (const auto& [r, op] : c.locals) {
        for (std::int64_t d = 0; d < op.from.count; ++d) {
          const std::int64_t sf = slot_of_[static_cast<std::size_t>(op.from.first + d)];
          const std::int64_t st = slot_of_[static_cast<std::size_t>(op.to.first + d)];
          if (sf < 0) continue;  // same position, so both untracked
          typename Tracker::Value v{};
          std::string e = tracker.snapshot(static_cast<rank_t>(r), sf, v);
          if (e.empty()) e = tracker.apply(static_cast<rank_t>(r), st, v, op.action);
          if (!e.empty()) error(at(i, r) + e + " (local, block " + std::to_string(op.to.first + d) + ")");
        }
      }
  }

  template <class Tracker>
  void check_final(const Tracker& tracker) {
    if constexpr (std::is_same_v<Tracker, detail::TokenTracker>) {
      // Receive piece g of rank r: piece g % c of the message from g / c.
      for (rank_t r = 0; r < p_ && res_.ok(); ++r)
        for (std::int64_t g = 0; g < p_ * pieces_; ++g) {
          if (lay(static_cast<std::size_t>(r)).group(g).count == 0) continue;  // nothing to hold
          const std::int64_t want = ((g / pieces_) * p_ + r) * pieces_ + g % pieces_;
          if (tracker.token(r, g) != want) {
            error("after " + std::to_string(res_.rounds) + " rounds rank " + std::to_string(r) +
                  " lacks receive piece " + std::to_string(g) + " (holds token " + std::to_string(tracker.token(r, g)) +
                  ")");
            break;
          }
        }
      return;
    }
    if constexpr (requires { tracker.expression(0, 0); }) check_identical(tracker);
    for (rank_t r = 0; r < p_ && res_.ok(); ++r) {
      for (std::size_t s = 0; s < tracked_.size(); ++s)
        if (layout().is_data(tracked_[s]) && sem_.required(r, tracked_[s]) &&
            !tracker.complete(r, static_cast<std::int64_t>(s), sem_.target(r, p_).first, sem_.target(r, p_).second)) {
          error("after " + std::to_string(res_.rounds) + " rounds rank " + std::to_string(r) + " lacks " +
                (plan::is_reduction(sem_.op) ? "the complete result of block " : "block ") +
                std::to_string(tracked_[s]));
          break;
        }
    }
  }

  // SimResult::identical: the ranks that must end with the same reduced
  // block (the same contributions: all but scan and exscan, whose targets
  // differ by rank) hold the same expression.
  template <class Tracker>
  void check_identical(const Tracker& tracker) {
    if (sem_.op == Collective::scan || sem_.op == Collective::exscan) return;
    for (std::size_t s = 0; s < tracked_.size() && res_.identical; ++s) {
      const std::int64_t b = tracked_[s];
      if (!layout().is_data(b)) continue;
      rank_t first = -1;
      for (rank_t r = 0; r < p_ && res_.identical; ++r) {
        if (!sem_.required(r, b)) continue;
        const auto slot = static_cast<std::int64_t>(s);
        if (first < 0)
          first = r;
        else if (tracker.expression(r, slot) != tracker.expression(first, slot))
          res_.identical = false;
      }
    }
  }

  rank_t p_;
  SimOptions opt_;
  Semantics sem_;
  RoundPosts posts_;
  std::vector<std::unique_ptr<plan::RankPlan>> plans_;
  const plan::BlockLayout* layout_ = nullptr;
  std::vector<std::int64_t> tracked_;
  std::vector<std::int64_t> slot_of_;
  SimResult res_;
  bool exchange_ = false;    // per-rank layouts, tokens
  std::int64_t pieces_ = 1;  // c of an exchange
};

}  // namespace

SimResult simulate(const plan::PlanContext& ctx, plan::PlanFactory make, const SimOptions& opt) {
  plan::checked_blocks(ctx.spec);
  if (ctx.graph == nullptr || ctx.graph->p() != ctx.spec.p)
    throw Error(Errc::internal, "simulate: the context's graph does not match spec.p");
  if (opt.elem_size < 1) throw Error(Errc::invalid_count, "element size must be >= 1");
  if (plan::is_exchange(ctx.spec.op) && ctx.layout == nullptr && ctx.rank_layouts == nullptr)
    throw Error(Errc::internal, "simulate: an exchange needs the ranks' layouts");
  Run run(ctx, make, opt);
  if (plan::is_exchange(ctx.spec.op)) return run.simulate<detail::TokenTracker>("exact");
  if (!plan::is_reduction(ctx.spec.op)) return run.simulate<detail::HeldTracker>("exact");
  using detail::ExpressionTracker;
  if (!ctx.spec.commutative) return run.simulate<ExpressionTracker<detail::IntervalTracker>>("interval");
  if (ctx.spec.p <= opt.exact_limit) return run.simulate<ExpressionTracker<detail::SetTracker>>("exact");
  return run.simulate<ExpressionTracker<detail::FingerprintTracker>>("fingerprint");
}

SimResult simulate_exchange(plan::Collective op, plan::rank_t p, const std::vector<plan::BlockLayout>& layouts,
                            plan::PlanFactory make, const SimOptions& opt) {
  plan::PlanSpec spec;
  spec.op = op;
  spec.p = p;
  const schedule::Circulant g(p);
  plan::PlanContext ctx{spec, &g};
  ctx.rank_layouts = layouts.data();
  return simulate(ctx, make, opt);
}

}  // namespace optcoll::sim
