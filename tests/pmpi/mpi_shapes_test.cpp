// The shapes of liboptcoll_pmpi.so (src/pmpi/shapes*.hpp) for every MPI
// argument list, with the MPI library's own collective standing in for
// optcoll: the shape hands it bytes (ByteStream, SegmentedBytes) and the
// result must equal the native call with the caller's datatypes. Covers
// named and derived (a strided int, packed) types on either side, mixed
// within one call, MPI_IN_PLACE, roots 0 and p-1, ranks without data, the
// every shape on MPI's int counts and arrays and (MPI-4) on the
// large-count bindings' MPI_Count / MPI_Aint ones, and the routes (OPTCOLL_BCAST=optcoll: every
// call counted as optcoll on the stand-in; an intercommunicator: fallback).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <functional>
#include <vector>

#include "exercise_shapes.hpp"
#include "mpi/api/c_api_int64.hpp"
#include "runtime.hpp"
#include "shapes.hpp"
#include "shapes_gather.hpp"
#include "shapes_reduction.hpp"

namespace optcoll::pmpi {
namespace {

using Ints = std::vector<int>;
namespace wide = mpi::wide;
constexpr Op kOp = Op::Bcast;  // the op these calls are counted under

int rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int size() {
  int p = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  return p;
}

// An int followed by a 4-byte hole: a derived type, so packed.
MPI_Datatype strided_int() {
  static MPI_Datatype t = [] {
    MPI_Datatype r;
    MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &r);
    MPI_Type_commit(&r);
    return r;
  }();
  return t;
}
// Ints a buffer of n elements of type t needs.
std::size_t ints(int n, MPI_Datatype t) {
  return static_cast<std::size_t>(n) * (t == MPI_INT ? 1 : 2) + 1;
}
void fill(Ints& v, int salt) {
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int>(i * 7 + 1000 * static_cast<std::size_t>(salt) + 3);
}

// The whole buffers after run(true) (the shape) and run(false) (native) must match.
void expect_same(const std::function<Ints(bool)>& run, const char* what) {
  // Every call here moves data, except at p = 1 (native: nothing to move).
  const Path path = size() > 1 ? Path::optcoll : Path::native;
  const std::int64_t before = calls(kOp, path);
  const Ints via_shape = run(true);
  EXPECT_EQ(calls(kOp, path), before + 1) << what << ": routed elsewhere";
  const Ints native = run(false);
  EXPECT_EQ(via_shape, native) << what;
}

// A stand-in for optcoll that must not be called.
int never(const mpi::CallInfo&, const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm) {
  ADD_FAILURE() << "optcoll called on an intercommunicator";
  return MPI_ERR_INTERN;
}

// The shapes hand optcoll 64-bit counts (src/mpi/api/c_api_int64.hpp); the MPI
// collective F standing in for optcoll gets them as MPI's ints (a count
// array, Reduce_scatter's, as an int copy that lives until the next one).
Ints narrow(wide::Counts a) {
  Ints out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) out[i] = static_cast<int>(a[i]);
  return out;
}
int narrow_arg(std::int64_t x) {
  return static_cast<int>(x);
}
const int* narrow_arg(wide::Counts a) {
  static Ints copy;
  copy = narrow(a);
  return copy.data();
}
template <class T>
T narrow_arg(T x) {
  return x;
}
// It also checks the Gate's description of the call that the shape hands
// optcoll (call_info.hpp): the communicator's size and this rank.
template <auto F>
constexpr auto standin = [](const mpi::CallInfo& c, auto... a) {
  EXPECT_EQ(c.size, size());
  EXPECT_EQ(c.rank, rank());
  return F(narrow_arg(a)...);
};

class PmpiShapes : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { setenv("OPTCOLL_BCAST", "optcoll", 1); }  // before the first routed call
  const std::vector<MPI_Datatype> types{MPI_INT, strided_int()};
  int p = size(), me = rank();
};

// Allgather on either binding's counts, against MPI's own binding of the
// same kind (Native).
template <class Count, auto Native>
void allgather_cases(const std::vector<MPI_Datatype>& types, int p, int me) {
  for (MPI_Datatype st : types)
    for (MPI_Datatype rt : types)
      for (const Count n : {Count{1}, Count{5}, Count{1000}})
        for (bool in_place : {false, true}) {
          if (in_place && st != rt) continue;
          expect_same(
              [&](bool shape) {
                Ints s(ints(static_cast<int>(n), st)), r(ints(static_cast<int>(n) * p, rt));
                fill(s, me);
                fill(r, 50 + me);
                const void* sb = in_place ? MPI_IN_PLACE : s.data();
                if (shape)
                  shapes::allgather<kOp>(shapes::Calls{standin<&PMPI_Allgather>, Native}, sb, n, st, r.data(), n, rt,
                                         MPI_COMM_WORLD);
                else
                  Native(sb, n, st, r.data(), n, rt, MPI_COMM_WORLD);
                return r;
              },
              "allgather");
        }
}

TEST_F(PmpiShapes, Allgather) {
  allgather_cases<int, &PMPI_Allgather>(types, p, me);
#if MPI_VERSION >= 4
  allgather_cases<MPI_Count, &PMPI_Allgather_c>(types, p, me);
#endif
}

// The v shapes' stand-ins: MPI's own int binding on the 64-bit byte counts.
int allgatherv_standin(const mpi::CallInfo&, const void* sb, std::int64_t sc, MPI_Datatype st, void* rb,
                       wide::Counts rc, wide::Counts rd, MPI_Datatype rt, MPI_Comm comm) {
  const Ints c = narrow(rc), d = narrow(rd);
  return PMPI_Allgatherv(sb, static_cast<int>(sc), st, rb, c.data(), d.data(), rt, comm);
}
int gatherv_standin(const mpi::CallInfo&, const void* sb, std::int64_t sc, MPI_Datatype st, void* rb, wide::Counts rc,
                    wide::Counts rd, MPI_Datatype rt, int root, MPI_Comm comm) {
  const Ints c = narrow(rc), d = narrow(rd);
  return PMPI_Gatherv(sb, static_cast<int>(sc), st, rb, c.data(), d.data(), rt, root, comm);
}
int scatterv_standin(const mpi::CallInfo&, const void* sb, wide::Counts sc, wide::Counts sd, MPI_Datatype st, void* rb,
                     std::int64_t rc, MPI_Datatype rt, int root, MPI_Comm comm) {
  const Ints c = narrow(sc), d = narrow(sd);
  return PMPI_Scatterv(sb, c.data(), d.data(), st, rb, static_cast<int>(rc), rt, root, comm);
}

// Each v shape runs one code path for both bindings: MPI's int arrays
// (Count, Displ = int) and, with MPI-4, the large-count bindings' MPI_Count
// counts and MPI_Aint displacements, checked against MPI's own binding of
// the same kind (Native).
template <class Count, class Displ, auto Native>
void allgatherv_cases(const std::vector<MPI_Datatype>& types, int p, int me) {
  for (MPI_Datatype st : types)
    for (MPI_Datatype rt : types)
      for (bool in_place : {false, true}) {
        if (in_place && st != rt) continue;
        // Counts 0, 1, 2, ...; gaps of one element between the groups, in reverse rank order.
        std::vector<Count> counts(static_cast<std::size_t>(p));
        std::vector<Displ> displs(static_cast<std::size_t>(p));
        int at = 0;
        for (int i = p - 1; i >= 0; --i) {
          counts[static_cast<std::size_t>(i)] = (i * 37) % 5;
          displs[static_cast<std::size_t>(i)] = at;
          at += (i * 37) % 5 + 1;
        }
        const Count mine = counts[static_cast<std::size_t>(me)];
        expect_same(
            [&](bool shape) {
              Ints s(ints(static_cast<int>(mine), st)), r(ints(at, rt));
              fill(s, me);
              fill(r, 50 + me);
              if (in_place) {  // this rank's group where it belongs
                const std::size_t stride = rt == MPI_INT ? 1 : 2;
                for (Count k = 0; k < mine; ++k)
                  r[static_cast<std::size_t>(displs[static_cast<std::size_t>(me)] + k) * stride] =
                      9000 + static_cast<int>(k);
              }
              const void* sb = in_place ? MPI_IN_PLACE : s.data();
              if (shape)
                shapes::allgatherv<kOp>(shapes::Calls{&allgatherv_standin, Native}, sb, mine, st, r.data(),
                                        counts.data(), displs.data(), rt, MPI_COMM_WORLD);
              else
                Native(sb, mine, st, r.data(), counts.data(), displs.data(), rt, MPI_COMM_WORLD);
              return r;
            },
            "allgatherv");
      }
}

TEST_F(PmpiShapes, Allgatherv) {
  allgatherv_cases<int, int, &PMPI_Allgatherv>(types, p, me);
#if MPI_VERSION >= 4
  allgatherv_cases<MPI_Count, MPI_Aint, &PMPI_Allgatherv_c>(types, p, me);
#endif
}

TEST_F(PmpiShapes, GatherAndScatter) {
  for (int root : {0, p - 1})
    for (MPI_Datatype st : types)
      for (MPI_Datatype rt : types)
        for (int n : {1, 300})
          for (bool in_place : {false, true}) {
            if (in_place && st != rt) continue;
            const bool ip = in_place && me == root;
            expect_same(
                [&](bool shape) {
                  Ints s(ints(n, st)), r(ints(n * p, rt));
                  fill(s, me);
                  fill(r, 50 + me);
                  const void* sb = ip ? MPI_IN_PLACE : s.data();
                  if (shape)
                    shapes::gather<kOp>(shapes::Calls{standin<&PMPI_Gather>, &PMPI_Gather}, sb, n, st, r.data(), n, rt,
                                        root, MPI_COMM_WORLD);
                  else
                    PMPI_Gather(sb, n, st, r.data(), n, rt, root, MPI_COMM_WORLD);
                  return r;
                },
                "gather");
            expect_same(
                [&](bool shape) {
                  Ints s(ints(n * p, st)), r(ints(n, rt));
                  fill(s, me);
                  fill(r, 50 + me);
                  void* rb = ip ? MPI_IN_PLACE : r.data();
                  if (shape)
                    shapes::scatter<kOp>(shapes::Calls{standin<&PMPI_Scatter>, &PMPI_Scatter}, s.data(), n, st, rb, n,
                                         rt, root, MPI_COMM_WORLD);
                  else
                    PMPI_Scatter(s.data(), n, st, rb, n, rt, root, MPI_COMM_WORLD);
                  return r;
                },
                "scatter");
          }
}

template <class Count, class Displ, auto NativeGatherv, auto NativeScatterv>
void gatherv_scatterv_cases(const std::vector<MPI_Datatype>& types, int p, int me) {
  std::vector<Count> counts(static_cast<std::size_t>(p));
  std::vector<Displ> displs(static_cast<std::size_t>(p));
  int at = 0;
  for (int i = 0; i < p; ++i) {
    counts[static_cast<std::size_t>(i)] = (i * 3) % 4;
    displs[static_cast<std::size_t>(i)] = at + 1;
    at += (i * 3) % 4 + 2;
  }
  const Count mine = counts[static_cast<std::size_t>(me)];
  for (int root : {0, p - 1})
    for (MPI_Datatype st : types)
      for (MPI_Datatype rt : types) {
        expect_same(
            [&](bool shape) {
              Ints s(ints(static_cast<int>(mine), st)), r(ints(at, rt));
              fill(s, me);
              fill(r, 50 + me);
              if (shape)
                shapes::gatherv<kOp>(shapes::Calls{&gatherv_standin, NativeGatherv}, s.data(), mine, st, r.data(),
                                     counts.data(), displs.data(), rt, root, MPI_COMM_WORLD);
              else
                NativeGatherv(s.data(), mine, st, r.data(), counts.data(), displs.data(), rt, root, MPI_COMM_WORLD);
              return r;
            },
            "gatherv");
        expect_same(
            [&](bool shape) {
              Ints s(ints(at, st)), r(ints(static_cast<int>(mine), rt));
              fill(s, me);
              fill(r, 50 + me);
              if (shape)
                shapes::scatterv<kOp>(shapes::Calls{&scatterv_standin, NativeScatterv}, s.data(), counts.data(),
                                      displs.data(), st, r.data(), mine, rt, root, MPI_COMM_WORLD);
              else
                NativeScatterv(s.data(), counts.data(), displs.data(), st, r.data(), mine, rt, root, MPI_COMM_WORLD);
              return r;
            },
            "scatterv");
      }
}

TEST_F(PmpiShapes, GathervAndScatterv) {
  gatherv_scatterv_cases<int, int, &PMPI_Gatherv, &PMPI_Scatterv>(types, p, me);
#if MPI_VERSION >= 4
  gatherv_scatterv_cases<MPI_Count, MPI_Aint, &PMPI_Gatherv_c, &PMPI_Scatterv_c>(types, p, me);
#endif
}

// Bcast and the reductions on either binding's counts (Count: int, or
// MPI_Count with MPI-4), against MPI's own binding of the same kind.
template <class Count, auto Bcast, auto Allreduce, auto ReduceScatterBlock, auto ReduceScatter>
void count_cases(int p, int me) {
  for (const Count n : {Count{1}, Count{17}, Count{1000}}) {
    const auto un = static_cast<std::size_t>(n);
    for (int root : {0, p - 1})
      expect_same(
          [&](bool shape) {
            Ints b(un);
            fill(b, me == root ? 7 : me);
            if (shape)
              shapes::bcast<kOp>(shapes::Calls{standin<&PMPI_Bcast>, Bcast}, b.data(), n, MPI_INT, root,
                                 MPI_COMM_WORLD);
            else
              Bcast(b.data(), n, MPI_INT, root, MPI_COMM_WORLD);
            return b;
          },
          "bcast");
    expect_same(
        [&](bool shape) {
          Ints s(un), r(s.size());
          fill(s, me);
          if (shape)
            shapes::allreduce<kOp>(shapes::Calls{standin<&PMPI_Allreduce>, Allreduce}, s.data(), r.data(), n, MPI_INT,
                                   MPI_SUM, MPI_COMM_WORLD);
          else
            Allreduce(s.data(), r.data(), n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
          return r;
        },
        "allreduce");
    expect_same(
        [&](bool shape) {
          Ints s(un * static_cast<std::size_t>(p)), r(un);
          fill(s, me);
          if (shape)
            shapes::reduce_scatter_block<kOp>(shapes::Calls{standin<&PMPI_Reduce_scatter_block>, ReduceScatterBlock},
                                              s.data(), r.data(), n, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
          else
            ReduceScatterBlock(s.data(), r.data(), n, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
          return r;
        },
        "reduce_scatter_block");
    std::vector<Count> counts(static_cast<std::size_t>(p));
    Count total = 0;
    for (int i = 0; i < p; ++i) total += counts[static_cast<std::size_t>(i)] = (n * (i + 1)) % 7;
    expect_same(
        [&](bool shape) {
          Ints s(static_cast<std::size_t>(total + 1)),
              r(static_cast<std::size_t>(counts[static_cast<std::size_t>(me)] + 1));
          fill(s, me);
          if (shape)
            shapes::reduce_scatter<kOp>(shapes::Calls{standin<&PMPI_Reduce_scatter>, ReduceScatter}, s.data(), r.data(),
                                        counts.data(), MPI_INT, MPI_SUM, MPI_COMM_WORLD);
          else
            ReduceScatter(s.data(), r.data(), counts.data(), MPI_INT, MPI_SUM, MPI_COMM_WORLD);
          return r;
        },
        "reduce_scatter");
  }
}

TEST_F(PmpiShapes, BcastAndReductions) {
  count_cases<int, &PMPI_Bcast, &PMPI_Allreduce, &PMPI_Reduce_scatter_block, &PMPI_Reduce_scatter>(p, me);
#if MPI_VERSION >= 4
  count_cases<MPI_Count, &PMPI_Bcast_c, &PMPI_Allreduce_c, &PMPI_Reduce_scatter_block_c, &PMPI_Reduce_scatter_c>(p, me);
#endif
}

TEST_F(PmpiShapes, IntercommunicatorFallsThrough) {
  if (p < 2) GTEST_SKIP() << "needs two ranks";
  MPI_Comm half, inter;
  MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, me % 2 == 0 ? 1 : 0, 7, &inter);
  const std::int64_t before = calls(kOp, Path::fallback);
  int v = me, sum = -1;
  shapes::allreduce<kOp>(shapes::Calls{&never, &PMPI_Allreduce}, &v, &sum, 1, MPI_INT, MPI_SUM, inter);
  EXPECT_EQ(calls(kOp, Path::fallback), before + 1);
  int expect = 0;  // the remote group's ranks
  for (int r = 0; r < p; ++r)
    if (r % 2 != me % 2) expect += r;
  EXPECT_EQ(sum, expect);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);
}

// The exercises of optcoll-tune (one per shape) run and compare, with the
// MPI collective in both roles; buffer sizes and arguments are what MPI
// accepts (a wrong size or count would fail or be caught by the MPI
// library's checks).
TEST_F(PmpiShapes, ExercisesRun) {
  for (const std::int64_t bytes : {4, 4000, 100000}) {
    std::vector<std::unique_ptr<Exercise>> all;
    all.push_back(std::make_unique<exercises::allreduce<&PMPI_Allreduce, &PMPI_Allreduce>>(MPI_COMM_WORLD, bytes));
    all.push_back(std::make_unique<exercises::allreduce<&PMPI_Exscan, &PMPI_Exscan>>(MPI_COMM_WORLD, bytes));
    all.push_back(
        std::make_unique<exercises::reduce_scatter_block<&PMPI_Reduce_scatter_block, &PMPI_Reduce_scatter_block>>(
            MPI_COMM_WORLD, bytes));
    all.push_back(
        std::make_unique<exercises::reduce_scatter<&PMPI_Reduce_scatter, &PMPI_Reduce_scatter>>(MPI_COMM_WORLD, bytes));
    all.push_back(std::make_unique<exercises::allgather<&PMPI_Allgather, &PMPI_Allgather>>(MPI_COMM_WORLD, bytes));
    all.push_back(std::make_unique<exercises::allgatherv<&PMPI_Allgatherv, &PMPI_Allgatherv>>(MPI_COMM_WORLD, bytes));
    all.push_back(std::make_unique<exercises::gather<&PMPI_Gather, &PMPI_Gather>>(MPI_COMM_WORLD, bytes));
    all.push_back(std::make_unique<exercises::gatherv<&PMPI_Gatherv, &PMPI_Gatherv>>(MPI_COMM_WORLD, bytes));
    all.push_back(std::make_unique<exercises::scatter<&PMPI_Scatter, &PMPI_Scatter>>(MPI_COMM_WORLD, bytes));
    all.push_back(std::make_unique<exercises::scatterv<&PMPI_Scatterv, &PMPI_Scatterv>>(MPI_COMM_WORLD, bytes));
    all.push_back(std::make_unique<exercises::bcast<&PMPI_Bcast, &PMPI_Bcast>>(MPI_COMM_WORLD, bytes));
    all.push_back(std::make_unique<exercises::reduce<&PMPI_Reduce, &PMPI_Reduce>>(MPI_COMM_WORLD, bytes));
    for (std::size_t i = 0; i < all.size(); ++i) {
      EXPECT_TRUE(all[i]->same_results()) << i << " " << bytes;
      all[i]->run(true);
      all[i]->run(false);
    }
  }
}

}  // namespace
}  // namespace optcoll::pmpi
