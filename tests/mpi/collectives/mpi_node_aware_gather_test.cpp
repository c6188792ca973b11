// Gather and Scatter through one rank per node ("leaders", the tree
// plan::LeadersTree) over MPI, on nodes imposed with OPTCOLL_NODE_SIZE
// (CTest sets it; odd p and an uneven last node), named through Options and
// through OPTCOLL_GATHER / OPTCOLL_SCATTER: against native MPI_Gather and
// MPI_Scatter on the same data, word for word (holes of the strided type
// included); every root (on every node, local indices beyond a smaller
// node's size); counts 0, 1, 7 and longer; MPI_IN_PLACE at the root;
// blocking, nonblocking and persistent forms (started twice).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mpi_test_util.hpp"
#include "node_aware_util.hpp"
#include "optcoll/optcoll.h"
#include "optcoll/optcoll.hpp"

namespace optcoll::test {
namespace {

const std::vector<std::int64_t> kCounts{0, 1, 7, 300};

// Words [at, at + n) of dst become src's first n (in place: the root's own
// block in the whole buffer, or out of it).
void copy_words(Buffer& dst, std::int64_t at, const Buffer& src, std::int64_t from, std::int64_t n) {
  for (std::int64_t w = 0; w < n; ++w)
    dst.words[static_cast<std::size_t>(at + w)] = src.words[static_cast<std::size_t>(from + w)];
}

TEST(MpiNodeAwareGather, Gather) {
  TestComm comm;
  if (!nodes_as_imposed(comm)) GTEST_SKIP() << "one node";
  const int p = world_size(), r = world_rank();
  for (const Kind kind : {Kind::int32, Kind::strided})
    for (const std::int64_t count : kCounts)
      for (int root = 0; root < p; ++root) {
        Buffer send(kind, count);
        send.fill(seed_of({r, count, root, 9}));
        Buffer expect(kind, count * p);
        const int n = static_cast<int>(count);
        ASSERT_EQ(MPI_Gather(send.data(), n, send.type(), expect.data(), n, send.type(), root, comm), MPI_SUCCESS);
        const std::int64_t own = count * send.stride();  // words of one block
        for (const Form f : kForms)
          for (const bool in_place : {false, true}) {
            SCOPED_TRACE(std::string("gather ") + name(f) + " count=" + std::to_string(count) +
                         " root=" + std::to_string(root) + (in_place ? " MPI_IN_PLACE" : "") + " " + name(kind));
            const Options o{"leaders", 0};
            Buffer got(kind, count * p);
            const bool ip = in_place && r == root;
            const void* sb = ip ? MPI_IN_PLACE : send.data();
            const auto reset = [&] {
              refill(got, nullptr);
              if (ip) copy_words(got, root * own, send, 0, own);
            };
            run(
                f, [&] { gather(sb, count, send.type(), got.data(), count, send.type(), root, comm, o); },
                [&](bool init) {
                  return init ? gather_init(sb, count, send.type(), got.data(), count, send.type(), root, comm, o)
                              : igather(sb, count, send.type(), got.data(), count, send.type(), root, comm, o);
                },
                reset);
            if (r == root) {
              EXPECT_EQ(first_difference(got, expect), -1);
            }
          }
      }
}

TEST(MpiNodeAwareGather, Scatter) {
  TestComm comm;
  if (!nodes_as_imposed(comm)) GTEST_SKIP() << "one node";
  const int p = world_size(), r = world_rank();
  for (const Kind kind : {Kind::int32, Kind::strided})
    for (const std::int64_t count : kCounts)
      for (int root = 0; root < p; ++root) {
        Buffer all(kind, count * p);
        all.fill(seed_of({count, root, 10}));
        Buffer expect(kind, count);
        const int n = static_cast<int>(count);
        ASSERT_EQ(MPI_Scatter(all.data(), n, all.type(), expect.data(), n, all.type(), root, comm), MPI_SUCCESS);
        const std::int64_t own = count * all.stride();
        for (const Form f : kForms)
          for (const bool in_place : {false, true}) {
            SCOPED_TRACE(std::string("scatter ") + name(f) + " count=" + std::to_string(count) +
                         " root=" + std::to_string(root) + (in_place ? " MPI_IN_PLACE" : "") + " " + name(kind));
            const Options o{"leaders", 0};
            const bool ip = in_place && r == root;
            Buffer got(kind, count);
            void* rb = ip ? MPI_IN_PLACE : got.data();
            run(
                f, [&] { scatter(all.data(), count, all.type(), rb, count, all.type(), root, comm, o); },
                [&](bool init) {
                  return init ? scatter_init(all.data(), count, all.type(), rb, count, all.type(), root, comm, o)
                              : iscatter(all.data(), count, all.type(), rb, count, all.type(), root, comm, o);
                },
                [&] { refill(got, nullptr); });
            if (ip) {  // the root's block stays where it is
              Buffer mine(kind, count);
              copy_words(mine, 0, all, root * own, own);
              EXPECT_EQ(first_difference(mine, expect), -1);
            } else {
              EXPECT_EQ(first_difference(got, expect), -1);
            }
          }
      }
}

// OPTCOLL_GATHER / OPTCOLL_SCATTER = leaders names the tree for the C API,
// with roots on the last node.
TEST(MpiNodeAwareGather, NamedThroughTheEnvironment) {
  ScopedEnv gather_env("OPTCOLL_GATHER", "leaders");
  ScopedEnv scatter_env("OPTCOLL_SCATTER", "leaders");
  TestComm comm;
  if (!nodes_as_imposed(comm)) GTEST_SKIP() << "one node";
  const int p = world_size(), r = world_rank();
  for (const int root : {p - 1, p / 2}) {
    std::vector<int> mine(5), all(static_cast<std::size_t>(5 * p)), expect(all.size());
    for (int i = 0; i < 5; ++i) mine[static_cast<std::size_t>(i)] = 100 * r + i;
    ASSERT_EQ(MPI_Gather(mine.data(), 5, MPI_INT, expect.data(), 5, MPI_INT, root, comm), MPI_SUCCESS);
    ASSERT_EQ(OPTCOLL_Gather(mine.data(), 5, MPI_INT, all.data(), 5, MPI_INT, root, comm), MPI_SUCCESS);
    if (r == root) {
      EXPECT_EQ(all, expect);
    }
    std::vector<int> back(5, -1);
    ASSERT_EQ(OPTCOLL_Scatter(all.data(), 5, MPI_INT, back.data(), 5, MPI_INT, root, comm), MPI_SUCCESS);
    EXPECT_EQ(back, mine);
  }
}

}  // namespace
}  // namespace optcoll::test
