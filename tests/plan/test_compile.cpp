// plan::compile on hand-made plans: the entries written out by hand from
// the rules of compiled.hpp (where messages read and write, the initial
// content's copies, segments split at boundaries, contract errors).
#include <gtest/gtest.h>

#include <vector>

#include "optcoll/error.hpp"
#include "optcoll/plan/compiled.hpp"

namespace optcoll::plan {
namespace {

using Kind = Compiled::Kind;

// A plan given as its steps.
class Steps final : public RankPlan {
 public:
  Steps(BlockLayout layout, std::vector<Step> steps) : layout_(std::move(layout)), steps_(std::move(steps)) {}
  std::int64_t rounds() const noexcept override { return static_cast<std::int64_t>(steps_.size()); }
  void step(std::int64_t i, Step& out) const override { out = steps_[static_cast<std::size_t>(i)]; }
  const BlockLayout& layout() const noexcept override { return layout_; }

 private:
  BlockLayout layout_;
  std::vector<Step> steps_;
};

struct E {
  Kind kind;
  std::int64_t at, count;
  rank_t peer = 0;
  bool operator==(const E&) const = default;
};
std::vector<E> entries(const Compiled& c) {
  std::vector<E> out;
  for (const Compiled::Entry& e : c.entries)
    out.push_back({e.kind, e.at, e.count, Compiled::is_message(e.kind) ? e.peer : 0});
  return out;
}

// 4 elements in 2 blocks: block 0 = [0, 2), block 1 = [2, 4). Round 0 sends
// block 0 to rank 1 and receives block 1 from it (combine_after); round 1
// receives block 0 from rank 1 (combine_before).
Steps two_rounds() {
  Step a;
  a.send_block(1, 0);
  a.recv_block(1, 1, Action::combine_after);
  Step b;
  b.recv_block(1, 0, Action::combine_before);
  return Steps(BlockLayout(4, 2), {a, b});
}

TEST(Compile, InBufferContent) {
  const Compiled c = compile(two_rounds(), {});
  EXPECT_EQ(entries(c),
            (std::vector<E>{{Kind::recv_combine, 2, 2, 1}, {Kind::send, 0, 2, 1}, {Kind::recv_combine, 0, 2, 1}}));
  EXPECT_EQ(c.apply, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(c.round_end, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(c.largest, 2);
}

TEST(Compile, InitialContentCommutative) {
  // Round 0: block 1 is first combined (combine_after): received into the
  // buffer as initial (+) in; block 0 is sent untouched: from the initial
  // content. Round 1: block 0, still untouched, first combined with a
  // commutative operator: the same. Nothing is left to copy at the end.
  const Compiled c = compile(two_rounds(), {true, true, true});
  EXPECT_EQ(
      entries(c),
      (std::vector<E>{{Kind::recv_initial, 2, 2, 1}, {Kind::send_initial, 0, 2, 1}, {Kind::recv_initial, 0, 2, 1}}));
}

TEST(Compile, InitialContentNotCommutative) {
  // Round 1's combine_before would compute initial (+) in, the wrong order:
  // block 0 is copied in first and the message combined from scratch.
  const Compiled c = compile(two_rounds(), {true, false, true});
  EXPECT_EQ(entries(c), (std::vector<E>{{Kind::recv_initial, 2, 2, 1},
                                        {Kind::send_initial, 0, 2, 1},
                                        {Kind::initial, 0, 2, 0},
                                        {Kind::recv_combine, 0, 2, 1}}));
  EXPECT_EQ(c.apply, (std::vector<std::size_t>{2, 4}));
}

TEST(Compile, UntouchedBlocksCopiedAtTheEndOnlyWhenComplete) {
  Step a;
  a.send_block(1, 1);
  const Steps plan(BlockLayout(4, 2), {a});
  // Blocks 0 and 1 (elements [0, 4)), adjacent: one copy.
  EXPECT_EQ(entries(compile(plan, {true, true, true})),
            (std::vector<E>{{Kind::send_initial, 2, 2, 1}, {Kind::initial, 0, 4, 0}}));
  EXPECT_EQ(entries(compile(plan, {true, true, false})), (std::vector<E>{{Kind::send_initial, 2, 2, 1}}));
  // Not across a boundary of the caller's memory areas.
  const std::int64_t boundary = 2;
  CompileOptions cut{true, true, true};
  cut.boundaries = {&boundary, 1};
  EXPECT_EQ(entries(compile(plan, cut)),
            (std::vector<E>{{Kind::send_initial, 2, 2, 1}, {Kind::initial, 0, 2, 0}, {Kind::initial, 2, 2, 0}}));
}

TEST(Compile, SegmentsSplitAtBoundariesAndMerged) {
  // Blocks 0 and 1 of 4 elements each: one run is one segment [0, 8), cut
  // at a part boundary at 4; two runs of adjacent blocks merge.
  Step a;
  a.send_to = 2;
  a.send = {{0, 2}};
  const Steps plan(BlockLayout(8, 2), {a});
  const std::int64_t cut[] = {4};
  const Compiled split = compile(plan, {false, true, true, cut});
  ASSERT_EQ(split.entries.size(), 1u);
  EXPECT_EQ(split.entries[0].segs, 2);
  Segment one;
  const auto segs = split.segments_of(split.entries[0], one);
  EXPECT_EQ(std::vector<Segment>(segs.begin(), segs.end()), (std::vector<Segment>{{0, 4}, {4, 4}}));
  EXPECT_EQ(split.entries[0].count, 8);
  Step b;
  b.send_to = 2;
  b.send = {{0, 1}, {1, 1}};
  const Compiled merged = compile(Steps(BlockLayout(8, 2), {b}), {});
  ASSERT_EQ(merged.entries.size(), 1u);
  EXPECT_EQ(merged.entries[0].segs, 1);
  EXPECT_EQ(merged.entries[0].count, 8);
}

// Independent rounds (the executor's window): compiled for a plan of final
// messages, every message straight in or out, and no element written by
// one entry and read or written by another, but for the last round's steps.
// 10 elements in 5 blocks of 2.
TEST(Compile, IndependentOnlyWhenNoEntryTouchesAnothersElements) {
  const auto plan = [](std::vector<Step> steps) { return Steps(BlockLayout(10, 5), std::move(steps)); };
  const auto compile = [](const RankPlan& p, CompileOptions o = {.final_messages = true}) {
    return plan::compile(p, o);
  };
  const auto round = [](std::int64_t send, std::int64_t recv) {
    Step s;
    s.send_block(1, send);
    s.recv_block(1, recv, Action::copy);
    return s;
  };
  const auto with_copy = [](Step s, std::int64_t from, std::int64_t to) {
    s.local.push_back({{from, 1}, {to, 1}, Action::copy});
    return s;
  };
  // Sends blocks 0 and 1, receives into 2 and 3: independent; also with a
  // copy of block 0 (read twice) into block 4.
  EXPECT_TRUE(compile(plan({round(0, 2), round(1, 3)})).independent);
  EXPECT_FALSE(compile(plan({round(0, 2), round(1, 3)}), {}).independent);  // not a plan of final messages
  EXPECT_TRUE(compile(plan({round(0, 2), with_copy(round(1, 3), 0, 4)})).independent);
  // Round 1 sends what round 0 received.
  EXPECT_FALSE(compile(plan({round(0, 2), round(2, 3)})).independent);
  // Both rounds receive into block 2.
  EXPECT_FALSE(compile(plan({round(0, 2), round(1, 2)})).independent);
  // A copy into a block that a later message sends, or out of one a later
  // message receives.
  EXPECT_FALSE(compile(plan({with_copy(round(0, 2), 4, 1), round(1, 3)})).independent);
  EXPECT_FALSE(compile(plan({with_copy(round(0, 2), 3, 4), round(1, 3)})).independent);
  // The last round's steps run after every message, in flight or not: they
  // may read what arrived, write what was sent, and combine (the linear
  // scan's fold).
  EXPECT_TRUE(compile(plan({round(0, 2), with_copy(round(1, 3), 4, 0)})).independent);
  Step fold = round(1, 3);
  fold.local.push_back({{2, 1}, {0, 1}, Action::combine_before});
  fold.local.push_back({{3, 1}, {0, 1}, Action::combine_after});
  EXPECT_TRUE(compile(plan({round(0, 2), fold})).independent);
  // A combining receive, or a single round, is never independent.
  Step combine;
  combine.send_block(1, 1);
  combine.recv_block(1, 3, Action::combine_after);
  EXPECT_FALSE(compile(plan({round(0, 2), combine})).independent);
  EXPECT_FALSE(compile(plan({round(0, 2)})).independent);
}

TEST(Compile, ContractErrors) {
  Step bad_run;
  bad_run.send_to = 1;
  bad_run.send = {{1, 5}};
  EXPECT_THROW(compile(Steps(BlockLayout(4, 2), {bad_run}), {}), Error);
  Step uneven;
  uneven.local.push_back({{0, 2}, {0, 1}, Action::copy});
  EXPECT_THROW(compile(Steps(BlockLayout(4, 2), {uneven}), {}), Error);
  // A round that first combines into block 0 straight in the buffer and
  // sends blocks 0 and 1: the send would read block 0 while it is written.
  Step overlap;
  overlap.recv_block(1, 0, Action::combine_after);
  overlap.send_to = 1;
  overlap.send = {{0, 2}};
  EXPECT_NO_THROW(compile(Steps(BlockLayout(4, 2), {overlap}), {}));
  EXPECT_THROW(compile(Steps(BlockLayout(4, 2), {overlap}), {true, true, true}), Error);
}

// compile_exchange() against compile() of the same round written as a plan
// (10 elements, one block each): the same entries and round bounds, and
// the same with either message missing.
TEST(Compile, ExchangeIsTheCompiledRound) {
  const auto same = [](const Compiled& a, const Compiled& b) {
    EXPECT_EQ(entries(a), entries(b));
    EXPECT_EQ(a.apply, b.apply);
    EXPECT_EQ(a.round_end, b.round_end);
    EXPECT_EQ(a.largest, b.largest);
    EXPECT_EQ(a.data_extent, b.data_extent);
    EXPECT_EQ(a.extent, b.extent);
    EXPECT_FALSE(a.independent);
  };
  Step both;
  both.send_to = 2;
  both.send = {{0, 4}};
  both.recv_from = 3;
  both.recv = {{6, 3}};
  Compiled c;
  compile_exchange(2, {0, 4}, 3, {6, 3}, 10, c);
  same(c, compile(Steps(BlockLayout(10, 10), {both}), {}));
  Step send_only = both;
  send_only.recv_from = -1;
  send_only.recv.clear();
  compile_exchange(2, {0, 4}, 3, {6, 0}, 10, c);  // an empty receive is none
  same(c, compile(Steps(BlockLayout(10, 10), {send_only}), {}));
  Step recv_only = both;
  recv_only.send_to = -1;
  recv_only.send.clear();
  compile_exchange(-1, {0, 4}, 3, {6, 3}, 10, c);
  same(c, compile(Steps(BlockLayout(10, 10), {recv_only}), {}));
  EXPECT_THROW(compile_exchange(2, {0, 4}, 3, {3, 2}, 10, c), Error);  // the receive overwrites the send
  EXPECT_THROW(compile_exchange(2, {0, 4}, 3, {8, 3}, 10, c), Error);  // beyond the buffer
}

}  // namespace
}  // namespace optcoll::plan
