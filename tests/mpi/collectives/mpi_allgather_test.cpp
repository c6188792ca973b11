// optcoll::allgather and OPTCOLL_Allgatherv against native MPI_Allgather and
// MPI_Allgatherv on random data, word for word (gaps between groups and the
// holes of the strided type must keep their sentinel): every registry
// allgather algorithm, several block counts, MPI_IN_PLACE, counts 0, 1,
// q+1, 1000; the v-variant over the distributions regular, (i mod 3) m,
// degenerate, spikes, all zero and one zero, with displacements ascending
// and dense, and descending with gaps; differing send and receive types.
#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

#include "mpi_test_util.hpp"
#include "optcoll/optcoll.h"
#include "optcoll/optcoll.hpp"
#include "optcoll/plan/algorithms.hpp"

namespace optcoll::test {
namespace {

std::vector<Variant> variants(std::int64_t count) {
  return registry_variants(plan::Collective::allgather, count, true, {{"", 1, false}},
                           {{"", 3, true}, {"", kCountBlocks, false}});
}

TEST(MpiAllgather, AllAlgorithmsMatchNative) {
  TestComm comm;
  const int p = world_size();
  const int r = world_rank();
  for (Kind k : {Kind::int32, Kind::float64, Kind::strided}) {
    for (std::int64_t count : test_counts(p)) {
      Buffer send(k, count);
      send.fill(seed_of({r, count, static_cast<std::int64_t>(k)}));
      Buffer expect(k, p * count);
      ASSERT_EQ(MPI_Allgather(send.data(), static_cast<int>(count), send.type(), expect.data(), static_cast<int>(count),
                              send.type(), comm),
                MPI_SUCCESS);
      for (const Variant& v : variants(count)) {
        SCOPED_TRACE(where(p, 0, count, k, v.algorithm, v.blocks) + (v.in_place ? " MPI_IN_PLACE" : ""));
        Buffer got(k, p * count);
        const void* sendbuf = send.data();
        if (v.in_place) {
          // The own part already in place; everything else garbage (fill()
          // leaves the holes alone).
          got.fill(seed_of({r, 7}));
          for (std::int64_t w = 0; w < count * send.stride(); ++w)
            got.words[static_cast<std::size_t>(r * count * send.stride() + w)] =
                send.words[static_cast<std::size_t>(w)];
          sendbuf = MPI_IN_PLACE;
        }
        allgather(sendbuf, got.data(), count, send.type(), comm, Options{v.algorithm, v.blocks});
        EXPECT_EQ(first_difference(got, expect), -1);
      }
    }
  }
}

// Displacements of the v-variant: ascending and dense, or descending with a
// gap of `gap` elements after every group.
std::vector<int> displacements(const std::vector<int>& counts, bool descending, int gap) {
  const int p = static_cast<int>(counts.size());
  std::vector<int> d(counts.size());
  int at = 0;
  for (int j = 0; j < p; ++j) {
    const int i = descending ? p - 1 - j : j;
    d[static_cast<std::size_t>(i)] = at;
    at += counts[static_cast<std::size_t>(i)] + gap;
  }
  return d;
}

TEST(MpiAllgatherv, DistributionsMatchNative) {
  TestComm comm;
  const int p = world_size();
  const int r = world_rank();
  for (Kind k : {Kind::int32, Kind::strided}) {
    for (Dist dist : kDists) {
      for (int m : {1, 5, 300}) {
        const std::vector<int> counts = counts_of(dist, p, m);
        for (bool descending : {false, true}) {
          const std::vector<int> displs = displacements(counts, descending, descending ? 2 : 0);
          std::int64_t extent = 0;
          for (int i = 0; i < p; ++i)
            extent = std::max<std::int64_t>(extent,
                                            displs[static_cast<std::size_t>(i)] + counts[static_cast<std::size_t>(i)]);
          const int mine = counts[static_cast<std::size_t>(r)];
          Buffer send(k, mine);
          send.fill(seed_of({r, m, static_cast<std::int64_t>(dist)}));
          Buffer expect(k, extent);
          ASSERT_EQ(MPI_Allgatherv(send.data(), mine, send.type(), expect.data(), counts.data(), displs.data(),
                                   send.type(), comm),
                    MPI_SUCCESS);
          for (bool in_place : {false, true}) {
            SCOPED_TRACE(std::string("dist=") + name(dist) + " m=" + std::to_string(m) + " type=" + name(k) +
                         (descending ? " descending" : " ascending") + (in_place ? " MPI_IN_PLACE" : ""));
            Buffer got(k, extent);
            const void* sendbuf = send.data();
            if (in_place) {
              const std::int64_t at = displs[static_cast<std::size_t>(r)] * send.stride();
              std::copy(send.words.begin(), send.words.end() - 1, got.words.begin() + at);
              sendbuf = MPI_IN_PLACE;
            }
            ASSERT_EQ(OPTCOLL_Allgatherv(sendbuf, mine, send.type(), got.data(), counts.data(), displs.data(),
                                         send.type(), comm),
                      MPI_SUCCESS);
            EXPECT_EQ(first_difference(got, expect), -1);
          }
        }
      }
    }
  }
}

// OPTCOLL_Allgather with a different send type: c matrices (4 ints each)
// sent, 4c ints received.
TEST(MpiAllgather, CApiDifferentTypes) {
  TestComm comm;
  const int p = world_size();
  const int c = 37;
  Buffer send(Kind::matrix, c);
  send.fill(seed_of({world_rank(), 3}));
  Buffer expect(Kind::int32, std::int64_t{4} * c * p);
  Buffer got(Kind::int32, std::int64_t{4} * c * p);
  ASSERT_EQ(MPI_Allgather(send.data(), c, send.type(), expect.data(), 4 * c, MPI_INT, comm), MPI_SUCCESS);
  ASSERT_EQ(OPTCOLL_Allgather(send.data(), c, send.type(), got.data(), 4 * c, MPI_INT, comm), MPI_SUCCESS);
  EXPECT_EQ(first_difference(got, expect), -1);
  // Sizes that differ are an error, not a wrong answer.
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  const int rc = OPTCOLL_Allgather(send.data(), c, send.type(), got.data(), c, MPI_INT, comm);
  int cls = MPI_SUCCESS;
  MPI_Error_class(rc, &cls);
  EXPECT_EQ(cls, MPI_ERR_TRUNCATE);
}

TEST(MpiAllgather, TypedSpan) {
  TestComm comm;
  const int p = world_size();
  const int r = world_rank();
  std::vector<double> mine(17);
  std::iota(mine.begin(), mine.end(), 100.0 * r);
  std::vector<double> all(mine.size() * static_cast<std::size_t>(p));
  allgather(std::span<const double>(mine), std::span<double>(all), comm);
  for (int g = 0; g < p; ++g)
    for (std::size_t i = 0; i < mine.size(); ++i)
      ASSERT_EQ(all[static_cast<std::size_t>(g) * mine.size() + i], 100.0 * g + static_cast<double>(i));
  // In place: the own part of the receive span.
  std::vector<double> again(all.size(), -1.0);
  const std::size_t own = static_cast<std::size_t>(r) * mine.size();
  std::copy(mine.begin(), mine.end(), again.begin() + static_cast<std::ptrdiff_t>(own));
  allgather(std::span<const double>(again.data() + own, mine.size()), std::span<double>(again), comm);
  EXPECT_EQ(again, all);
}

}  // namespace
}  // namespace optcoll::test
