// MPI's lifetime rules for requests: a program may free the datatype, the
// operator and the communicator of a nonblocking or persistent collective
// right after starting it (MPI-4.0 §2.5.1), and the call completes as if
// nothing had been freed. Every nonblocking and persistent collective of
// the C++ API, each made on a fresh communicator with a fresh derived
// datatype (the strided type with holes, or the 2x2 matrix type with its
// non-commutative product, made anew for each call), all three freed at
// once (the operator with OPTCOLL_Op_free, optcoll.h's contract), then
// completed (a persistent request started and completed five times on new
// data). Oracle: the native MPI collective on MPI_COMM_WORLD with the
// test's long-lived copies of the same type and operator, from the same
// buffers; word by word, holes included. Afterwards no communicator state
// of optcoll's is left alive (the requests kept it, and let it go).
#include <gtest/gtest.h>

#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "mpi/comm/comm_state.hpp"
#include "mpi_test_util.hpp"
#include "optcoll/optcoll.h"
#include "optcoll/optcoll.hpp"

namespace optcoll::test {
namespace {

// A fresh copy of a test type (freed by the test right after the call).
MPI_Datatype fresh_type(Kind k) {
  MPI_Datatype t = MPI_DATATYPE_NULL;
  if (k == Kind::strided) {
    MPI_Datatype v = MPI_DATATYPE_NULL;
    MPI_Type_vector(2, 1, 2, MPI_INT, &v);
    MPI_Type_create_resized(v, 0, 4 * sizeof(std::int32_t), &t);
    MPI_Type_free(&v);
  } else {
    MPI_Type_contiguous(4, MPI_INT, &t);
  }
  MPI_Type_commit(&t);
  return t;
}

// The arguments of one call: buffers of the case's element counts and the
// v-variants' counts (rank i: (i mod 3) + 1 elements; displacements packed
// in rank order).
struct Call {
  int p = 1;
  int rank = 0;
  int root = 0;
  Buffer send;
  Buffer recv;
  std::vector<std::int64_t> counts, displs;
  std::vector<int> icounts, idispls;
  std::int64_t total = 0;
  Call(int p_, int rank_, Kind k, std::int64_t send_elems, std::int64_t recv_elems)
      : p(p_), rank(rank_), root(p_ - 1), send(k, send_elems), recv(k, recv_elems) {
    for (int i = 0; i < p; ++i) {
      counts.push_back(i % 3 + 1);
      displs.push_back(total);
      icounts.push_back(i % 3 + 1);
      idispls.push_back(static_cast<int>(total));
      total += i % 3 + 1;
    }
  }
  std::int64_t mine() const { return counts[static_cast<std::size_t>(rank)]; }
};

using Make = std::function<Request(Call&, MPI_Datatype, MPI_Op, MPI_Comm, bool persistent)>;
using Native = std::function<void(Call&, MPI_Datatype, MPI_Op)>;

struct Case {
  std::string name;
  Kind kind;  // strided: a copy collective; matrix: a reduction with the matrix product
  std::function<std::int64_t(int p)> send_elems, recv_elems;
  Make make;
  Native native;
  bool persistent_form = true;  // igatherv / iscatterv: nonblocking only (their _init is the tree's, below)
  bool exscan = false;          // rank 0's result is undefined
};

constexpr std::int64_t kCount = 5;

std::vector<Case> cases() {
  const auto fixed = [](std::int64_t n) { return [n](int) { return n; }; };
  const auto times_p = [](std::int64_t n) { return [n](int p) { return n * p; }; };
  const auto v_total = [](int p) {
    std::int64_t t = 0;
    for (int i = 0; i < p; ++i) t += i % 3 + 1;
    return t;
  };
  std::vector<Case> c;
  c.push_back({"bcast", Kind::strided, fixed(kCount), fixed(0),
               [](Call& a, MPI_Datatype t, MPI_Op, MPI_Comm comm, bool per) {
                 return per ? bcast_init(a.send.data(), kCount, t, a.root, comm)
                            : ibcast(a.send.data(), kCount, t, a.root, comm);
               },
               [](Call& a, MPI_Datatype t, MPI_Op) { MPI_Bcast(a.send.data(), kCount, t, a.root, MPI_COMM_WORLD); }});
  c.push_back({"reduce", Kind::matrix, fixed(kCount), fixed(kCount),
               [](Call& a, MPI_Datatype t, MPI_Op op, MPI_Comm comm, bool per) {
                 return per ? reduce_init(a.send.data(), a.recv.data(), kCount, t, op, a.root, comm)
                            : ireduce(a.send.data(), a.recv.data(), kCount, t, op, a.root, comm);
               },
               [](Call& a, MPI_Datatype t, MPI_Op op) {
                 MPI_Reduce(a.send.data(), a.recv.data(), kCount, t, op, a.root, MPI_COMM_WORLD);
               }});
  c.push_back({"allreduce", Kind::matrix, fixed(kCount), fixed(kCount),
               [](Call& a, MPI_Datatype t, MPI_Op op, MPI_Comm comm, bool per) {
                 return per ? allreduce_init(a.send.data(), a.recv.data(), kCount, t, op, comm)
                            : iallreduce(a.send.data(), a.recv.data(), kCount, t, op, comm);
               },
               [](Call& a, MPI_Datatype t, MPI_Op op) {
                 MPI_Allreduce(a.send.data(), a.recv.data(), kCount, t, op, MPI_COMM_WORLD);
               }});
  c.push_back({"scan", Kind::matrix, fixed(kCount), fixed(kCount),
               [](Call& a, MPI_Datatype t, MPI_Op op, MPI_Comm comm, bool per) {
                 return per ? scan_init(a.send.data(), a.recv.data(), kCount, t, op, comm)
                            : iscan(a.send.data(), a.recv.data(), kCount, t, op, comm);
               },
               [](Call& a, MPI_Datatype t, MPI_Op op) {
                 MPI_Scan(a.send.data(), a.recv.data(), kCount, t, op, MPI_COMM_WORLD);
               }});
  c.push_back({"exscan", Kind::matrix, fixed(kCount), fixed(kCount),
               [](Call& a, MPI_Datatype t, MPI_Op op, MPI_Comm comm, bool per) {
                 return per ? exscan_init(a.send.data(), a.recv.data(), kCount, t, op, comm)
                            : iexscan(a.send.data(), a.recv.data(), kCount, t, op, comm);
               },
               [](Call& a, MPI_Datatype t, MPI_Op op) {
                 MPI_Exscan(a.send.data(), a.recv.data(), kCount, t, op, MPI_COMM_WORLD);
               },
               true, true});
  c.push_back({"reduce_scatter_block", Kind::matrix, times_p(kCount), fixed(kCount),
               [](Call& a, MPI_Datatype t, MPI_Op op, MPI_Comm comm, bool per) {
                 return per ? reduce_scatter_block_init(a.send.data(), a.recv.data(), kCount, t, op, comm)
                            : ireduce_scatter_block(a.send.data(), a.recv.data(), kCount, t, op, comm);
               },
               [](Call& a, MPI_Datatype t, MPI_Op op) {
                 MPI_Reduce_scatter_block(a.send.data(), a.recv.data(), kCount, t, op, MPI_COMM_WORLD);
               }});
  c.push_back({"reduce_scatter", Kind::matrix, v_total, fixed(3),
               [](Call& a, MPI_Datatype t, MPI_Op op, MPI_Comm comm, bool per) {
                 return per ? reduce_scatter_init(a.send.data(), a.recv.data(), a.counts, t, op, comm)
                            : ireduce_scatter(a.send.data(), a.recv.data(), a.counts, t, op, comm);
               },
               [](Call& a, MPI_Datatype t, MPI_Op op) {
                 MPI_Reduce_scatter(a.send.data(), a.recv.data(), a.icounts.data(), t, op, MPI_COMM_WORLD);
               }});
  c.push_back({"allgather", Kind::strided, fixed(kCount), times_p(kCount),
               [](Call& a, MPI_Datatype t, MPI_Op, MPI_Comm comm, bool per) {
                 return per ? allgather_init(a.send.data(), a.recv.data(), kCount, t, comm)
                            : iallgather(a.send.data(), a.recv.data(), kCount, t, comm);
               },
               [](Call& a, MPI_Datatype t, MPI_Op) {
                 MPI_Allgather(a.send.data(), kCount, t, a.recv.data(), kCount, t, MPI_COMM_WORLD);
               }});
  c.push_back({"allgatherv", Kind::strided, fixed(3), v_total,
               [](Call& a, MPI_Datatype t, MPI_Op, MPI_Comm comm, bool per) {
                 return per ? allgatherv_init(a.send.data(), a.mine(), a.recv.data(), a.counts, a.displs, t, comm)
                            : iallgatherv(a.send.data(), a.mine(), a.recv.data(), a.counts, a.displs, t, comm);
               },
               [](Call& a, MPI_Datatype t, MPI_Op) {
                 MPI_Allgatherv(a.send.data(), static_cast<int>(a.mine()), t, a.recv.data(), a.icounts.data(),
                                a.idispls.data(), t, MPI_COMM_WORLD);
               }});
  c.push_back({"gather", Kind::strided, fixed(kCount), times_p(kCount),
               [](Call& a, MPI_Datatype t, MPI_Op, MPI_Comm comm, bool per) {
                 return per ? gather_init(a.send.data(), kCount, t, a.recv.data(), kCount, t, a.root, comm)
                            : igather(a.send.data(), kCount, t, a.recv.data(), kCount, t, a.root, comm);
               },
               [](Call& a, MPI_Datatype t, MPI_Op) {
                 MPI_Gather(a.send.data(), kCount, t, a.recv.data(), kCount, t, a.root, MPI_COMM_WORLD);
               }});
  c.push_back({"scatter", Kind::strided, times_p(kCount), fixed(kCount),
               [](Call& a, MPI_Datatype t, MPI_Op, MPI_Comm comm, bool per) {
                 return per ? scatter_init(a.send.data(), kCount, t, a.recv.data(), kCount, t, a.root, comm)
                            : iscatter(a.send.data(), kCount, t, a.recv.data(), kCount, t, a.root, comm);
               },
               [](Call& a, MPI_Datatype t, MPI_Op) {
                 MPI_Scatter(a.send.data(), kCount, t, a.recv.data(), kCount, t, a.root, MPI_COMM_WORLD);
               }});
  c.push_back({"gatherv", Kind::strided, fixed(3), v_total,
               [](Call& a, MPI_Datatype t, MPI_Op, MPI_Comm comm, bool per) {
                 return per ? gatherv_init(a.send.data(), a.mine(), t, a.recv.data(), a.counts, a.displs, t, a.root,
                                           comm)
                            : igatherv(a.send.data(), a.mine(), t, a.recv.data(), a.counts, a.displs, t, a.root, comm);
               },
               [](Call& a, MPI_Datatype t, MPI_Op) {
                 MPI_Gatherv(a.send.data(), static_cast<int>(a.mine()), t, a.recv.data(), a.icounts.data(),
                             a.idispls.data(), t, a.root, MPI_COMM_WORLD);
               }});
  c.push_back({"scatterv", Kind::strided, v_total, fixed(3),
               [](Call& a, MPI_Datatype t, MPI_Op, MPI_Comm comm, bool per) {
                 return per ? scatterv_init(a.send.data(), a.counts, a.displs, t, a.recv.data(), a.mine(), t, a.root,
                                            comm)
                            : iscatterv(a.send.data(), a.counts, a.displs, t, a.recv.data(), a.mine(), t, a.root, comm);
               },
               [](Call& a, MPI_Datatype t, MPI_Op) {
                 MPI_Scatterv(a.send.data(), a.icounts.data(), a.idispls.data(), t, a.recv.data(),
                              static_cast<int>(a.mine()), t, a.root, MPI_COMM_WORLD);
               }});
  c.push_back({"alltoall", Kind::strided, times_p(2), times_p(2),
               [](Call& a, MPI_Datatype t, MPI_Op, MPI_Comm comm, bool per) {
                 return per ? alltoall_init(a.send.data(), 2, t, a.recv.data(), 2, t, comm)
                            : ialltoall(a.send.data(), 2, t, a.recv.data(), 2, t, comm);
               },
               [](Call& a, MPI_Datatype t, MPI_Op) {
                 MPI_Alltoall(a.send.data(), 2, t, a.recv.data(), 2, t, MPI_COMM_WORLD);
               }});
  // Alltoallv: rank i sends (i mod 3) + 1 elements to everyone, packed.
  c.push_back({"alltoallv", Kind::strided, [](int p) { return std::int64_t{3} * p; }, v_total,
               [](Call& a, MPI_Datatype t, MPI_Op, MPI_Comm comm, bool per) {
                 const std::vector<std::int64_t> sc(static_cast<std::size_t>(a.p), a.mine());
                 std::vector<std::int64_t> sd(sc.size());
                 for (std::size_t i = 0; i < sd.size(); ++i) sd[i] = static_cast<std::int64_t>(i) * a.mine();
                 return per ? alltoallv_init(a.send.data(), sc, sd, t, a.recv.data(), a.counts, a.displs, t, comm)
                            : ialltoallv(a.send.data(), sc, sd, t, a.recv.data(), a.counts, a.displs, t, comm);
               },
               [](Call& a, MPI_Datatype t, MPI_Op) {
                 const std::vector<int> sc(static_cast<std::size_t>(a.p), static_cast<int>(a.mine()));
                 std::vector<int> sd(sc.size());
                 for (std::size_t i = 0; i < sd.size(); ++i) sd[i] = static_cast<int>(i) * static_cast<int>(a.mine());
                 MPI_Alltoallv(a.send.data(), sc.data(), sd.data(), t, a.recv.data(), a.icounts.data(),
                               a.idispls.data(), t, MPI_COMM_WORLD);
               }});
  return c;
}

// The long-lived type and operator of the native oracle.
MPI_Datatype oracle_type(Kind k) {
  return k == Kind::strided ? Types::get().strided : Types::get().matrix;
}

void check_case(const Case& c, bool persistent) {
  const int p = world_size();
  const int rank = world_rank();
  const std::string what = c.name + (persistent ? " (persistent)" : " (nonblocking)") + " p=" + std::to_string(p);
  const bool reduction = c.kind == Kind::matrix;
  const std::int64_t states = mpi::live_comm_states();
  Call mine(p, rank, c.kind, c.send_elems(p), c.recv_elems(p));
  Call ref(p, rank, c.kind, c.send_elems(p), c.recv_elems(p));
  mine.send.fill(seed_of({rank, 1}));

  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Datatype type = fresh_type(c.kind);
  MPI_Op op = MPI_OP_NULL;
  if (reduction) MPI_Op_create(&matrix_fn, 0, &op);
  {
    Request r = c.make(mine, type, op, comm, persistent);
    // Everything the call was given, freed at once.
    MPI_Type_free(&type);
    if (reduction) {
      ASSERT_EQ(OPTCOLL_Op_free(&op), MPI_SUCCESS) << what;
      EXPECT_EQ(op, MPI_OP_NULL) << what;
    }
    MPI_Comm_free(&comm);
    EXPECT_EQ(r.comm(), MPI_COMM_NULL) << what << ": the request's communicator was freed";
    const int runs = persistent ? 5 : 1;
    for (int run = 0; run < runs; ++run) {
      if (persistent) {
        mine.send.fill(seed_of({rank, run, 7}));
        r.start();
      }
      // The oracle from the same input and the same prior receive buffer.
      ref.send.words = mine.send.words;
      ref.recv.words = mine.recv.words;
      r.wait();
      c.native(ref, oracle_type(c.kind), Ops::get().matrix);
      if (c.exscan && rank == 0) continue;
      ASSERT_EQ(first_difference(mine.recv, ref.recv), -1) << what << " run " << run << ": receive buffer";
      ASSERT_EQ(first_difference(mine.send, ref.send), -1) << what << " run " << run << ": send buffer";
    }
  }
  EXPECT_EQ(mpi::live_comm_states(), states) << what << ": the freed communicator's state outlived its requests";
}

class Lifetime : public ::testing::TestWithParam<bool> {};

TEST_P(Lifetime, HandlesFreedRightAfterTheCall) {
  for (const Case& c : cases()) {
    if (GetParam() && !c.persistent_form) continue;
    check_case(c, GetParam());
    if (::testing::Test::HasFatalFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(Forms, Lifetime, ::testing::Values(false, true),
                         [](const auto& param_info) { return param_info.param ? "persistent" : "nonblocking"; });

// Several requests outstanding on a communicator the program frees while
// they run: each completes, in any order of waits.
TEST(Lifetime, CommunicatorFreedWithRequestsPending) {
  const int p = world_size();
  const int rank = world_rank();
  const std::int64_t states = mpi::live_comm_states();
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  std::vector<std::int32_t> a(1000), b(1000), sum(1000), ref(1000);
  std::iota(a.begin(), a.end(), rank);
  if (rank == 0) std::iota(b.begin(), b.end(), 17);
  {
    Request r1 = iallreduce(a.data(), sum.data(), 1000, MPI_INT, MPI_SUM, comm);
    Request r2 = ibcast(b.data(), 1000, MPI_INT, 0, comm);
    MPI_Comm_free(&comm);
    r2.wait();
    r1.wait();
  }
  MPI_Allreduce(a.data(), ref.data(), 1000, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(sum, ref);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(b[static_cast<std::size_t>(i)], 17 + i) << "p=" << p;
  EXPECT_EQ(mpi::live_comm_states(), states);
}

}  // namespace
}  // namespace optcoll::test
