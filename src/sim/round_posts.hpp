// What every rank posts in one round of the simulator (simulator.cpp):
// its send and receive, recorded by a plan::Executor through
// plan::post_round, in chunks of ranks that threads fill and match in
// parallel; and the comparisons of the two ends' block runs. Internal to
// src/sim/.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "optcoll/plan/executor.hpp"
#include "optcoll/plan/plan.hpp"

namespace optcoll::sim::detail {

using plan::Action;
using plan::BlockRun;
using plan::rank_t;

// What one rank posted in one round. A single run (the common case) is kept
// inline; several runs go to the round's arena.
struct Post {
  rank_t send_to = -1;
  rank_t recv_from = -1;
  BlockRun send_run, recv_run;  // when the count below is 1
  std::uint32_t send_runs = 0, recv_runs = 0;
  std::size_t send_at = 0, recv_at = 0;  // offsets in the chunk's arena otherwise
  std::uint32_t chunk = 0;
  Action action = Action::copy;
};

// Ranks are processed in contiguous chunks, one per thread for large p.
// Each chunk records into its own arena and local-operation list.
struct Chunk {
  std::size_t begin = 0, end = 0;
  std::vector<BlockRun> arena;
  std::vector<std::pair<std::size_t, plan::LocalOp>> locals;  // (rank, op), in posting order
  std::vector<std::string> errors;
  std::int64_t messages = 0, total_bytes = 0, max_message_bytes = 0;
  double slowest = 0;
};

struct RoundPosts {
  std::vector<Post> post;
  std::vector<Chunk> chunks;

  RoundPosts(rank_t p, unsigned threads) : post(static_cast<std::size_t>(p)), chunks(threads) {
    const auto n = static_cast<std::size_t>(p);
    for (std::size_t t = 0; t < threads; ++t) {
      chunks[t].begin = n * t / threads;
      chunks[t].end = n * (t + 1) / threads;
      for (std::size_t r = chunks[t].begin; r < chunks[t].end; ++r) post[r].chunk = static_cast<std::uint32_t>(t);
    }
  }
  std::span<const BlockRun> sent(std::size_t r) const {
    const Post& x = post[r];
    return x.send_runs == 1 ? std::span<const BlockRun>(&x.send_run, 1)
                            : std::span<const BlockRun>(chunks[x.chunk].arena.data() + x.send_at, x.send_runs);
  }
  std::span<const BlockRun> received(std::size_t r) const {
    const Post& x = post[r];
    return x.recv_runs == 1 ? std::span<const BlockRun>(&x.recv_run, 1)
                            : std::span<const BlockRun>(chunks[x.chunk].arena.data() + x.recv_at, x.recv_runs);
  }
};

// Runs fn(chunk) for every chunk, on its own thread when there are several.
template <class Fn>
void for_chunks(std::vector<Chunk>& chunks, Fn&& fn) {
  std::vector<std::thread> threads;
  for (std::size_t t = 1; t < chunks.size(); ++t) threads.emplace_back([&, t] { fn(chunks[t]); });
  fn(chunks[0]);
  for (auto& th : threads) th.join();
}

// The simulator's side of the executor interface: it only records.
class RecordingExecutor final : public plan::Executor {
 public:
  RecordingExecutor(RoundPosts& posts, Chunk& chunk) : posts_(posts), chunk_(chunk) {}
  std::size_t rank = 0;

  void send(rank_t to, std::span<const BlockRun> runs) override {
    Post& x = posts_.post[rank];
    x.send_to = to;
    x.send_runs = static_cast<std::uint32_t>(runs.size());
    if (runs.size() == 1) {
      x.send_run = runs[0];
    } else {
      x.send_at = chunk_.arena.size();
      chunk_.arena.insert(chunk_.arena.end(), runs.begin(), runs.end());
    }
  }
  void recv(rank_t from, std::span<const BlockRun> runs, Action a) override {
    Post& x = posts_.post[rank];
    x.recv_from = from;
    x.action = a;
    x.recv_runs = static_cast<std::uint32_t>(runs.size());
    if (runs.size() == 1) {
      x.recv_run = runs[0];
    } else {
      x.recv_at = chunk_.arena.size();
      chunk_.arena.insert(chunk_.arena.end(), runs.begin(), runs.end());
    }
  }
  void local(const plan::LocalOp& op) override { chunk_.locals.emplace_back(rank, op); }
  void wait() override {}

 private:
  RoundPosts& posts_;
  Chunk& chunk_;
};

// Whether the runs name blocks of the same positions, in the same order.
inline bool same_blocks(const plan::BlockLayout& lay, std::span<const BlockRun> a, std::span<const BlockRun> b) {
  std::size_t i = 0, j = 0;
  std::int64_t ia = 0, jb = 0;  // position inside a[i], b[j]
  while (i < a.size() && j < b.size()) {
    if (a[i].first + ia != b[j].first + jb && lay.position(a[i].first + ia) != lay.position(b[j].first + jb))
      return false;
    const std::int64_t step = std::min(a[i].count - ia, b[j].count - jb);
    ia += step;
    jb += step;
    if (ia == a[i].count) ++i, ia = 0;
    if (jb == b[j].count) ++j, jb = 0;
  }
  return i == a.size() && j == b.size();
}

// Personalized exchanges: blocks travel to other block ids, so the two ends
// must agree block by block on the sizes (each from its own layout).
inline bool same_sizes(const plan::BlockLayout& la, std::span<const BlockRun> a, const plan::BlockLayout& lb,
                       std::span<const BlockRun> b) {
  std::size_t i = 0, j = 0;
  std::int64_t ia = 0, jb = 0;
  while (i < a.size() && j < b.size()) {
    const std::int64_t x = a[i].first + ia, y = b[j].first + jb;
    if (x < 0 || x >= la.blocks() || y < 0 || y >= lb.blocks() || la.block(x).count != lb.block(y).count) return false;
    if (++ia == a[i].count) ++i, ia = 0;
    if (++jb == b[j].count) ++j, jb = 0;
  }
  return i == a.size() && j == b.size();
}

}  // namespace optcoll::sim::detail
