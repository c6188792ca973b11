// The differential driver's Gather, Gatherv, Scatter and Scatterv (and the
// persistent gatherv_init / scatterv_init), each through optcoll and
// through native MPI on identical buffers, compared byte for byte.
#include "differential_common.hpp"
#include "optcoll/optcoll.h"

namespace optcoll::differential {
namespace {

// Gather(v) and Scatter(v). The root's buffer holds every rank's group at its
// displacement (packed in rank order, or reverse order with gaps for the v
// variants); the C++ API draws a tree the call can run and, for the v
// variants, sometimes the persistent form (start + wait, twice).
struct Rooted {
  int root = 0;
  bool is_root = false;
  std::vector<std::int64_t> counts;
  std::vector<std::int64_t> displs;
  std::int64_t extent = 0;  // elements of the root's buffer
};

Rooted rooted(const Call& c, bool v_variant) {
  Rooted r;
  r.root = static_cast<int>(c.root_draw % static_cast<std::uint64_t>(c.size));
  r.is_root = c.rank == r.root;
  const auto p = static_cast<std::size_t>(c.size);
  r.counts = v_variant ? counts_of(c) : std::vector<std::int64_t>(p, c.count);
  r.displs.resize(p);
  const bool reverse = v_variant && c.algorithm_draw % 3 == 0;
  for (std::size_t i = 0; i < p; ++i) {
    const std::size_t g = reverse ? p - 1 - i : i;
    r.displs[g] = r.extent;
    r.extent += r.counts[g] + (reverse ? 1 : 0);
  }
  return r;
}

Options tree_options(const Call& c, bool v_variant) {
  static const char* const regular[] = {"", "binomial"};
  static const char* const irregular[] = {"", "adaptive_binomial", "binomial", "two"};
  Options o;
  o.algorithm =
      v_variant ? irregular[c.algorithm_draw % std::size(irregular)] : regular[c.algorithm_draw % std::size(regular)];
  return o;
}

bool persistent_draw(const Call& c, bool v_variant) {
  return v_variant && c.cpp_api && c.blocks_draw % 4 == 1;
}

void run_gather_common(const Call& c, Tally& t, bool v_variant) {
  const Rooted r = rooted(c, v_variant);
  const Options o = tree_options(c, v_variant);
  const bool persistent = persistent_draw(c, v_variant);
  const std::string what = describe(c, v_variant ? (persistent ? "gatherv_init" : "gatherv") : "gather",
                                    c.cpp_api && !persistent ? &o : nullptr);
  const std::int64_t mine = r.counts[static_cast<std::size_t>(c.rank)];
  Bytes send;
  Bytes recv;
  fill(send, *c.type, mine, c.seed, salt(c, 1, c.rank));
  fill(recv, *c.type, r.is_root ? r.extent : 0, c.seed, salt(c, 2, c.rank));
  const bool in_place = c.in_place && r.is_root;
  if (in_place)
    std::copy(send.begin(), send.end(), recv.begin() + r.displs[static_cast<std::size_t>(c.rank)] * c.type->extent);
  const Bytes original = send;
  Bytes native = recv;
  const void* sb = in_place ? MPI_IN_PLACE : send.data();
  const std::vector<int> ci = to_int(r.counts);
  const std::vector<int> di = to_int(r.displs);
  const MPI_Datatype ty = c.type->type;
  const auto n = static_cast<int>(mine);
  const int rc = guarded([&] {
    if (persistent) {
      Request q = gatherv_init(sb, mine, ty, recv.data(), r.counts, r.displs, ty, r.root, c.ocomm);
      for (int i = 0; i < 2; ++i) {
        q.start();
        q.wait();
      }
      return MPI_SUCCESS;
    }
    if (!c.cpp_api)
      return v_variant ? OPTCOLL_Gatherv(sb, n, ty, recv.data(), ci.data(), di.data(), ty, r.root, c.ocomm)
                       : OPTCOLL_Gather(sb, n, ty, recv.data(), n, ty, r.root, c.ocomm);
    if (v_variant)
      gatherv(sb, mine, ty, recv.data(), r.counts, r.displs, ty, r.root, c.ocomm, o);
    else
      gather(sb, mine, ty, recv.data(), mine, ty, r.root, c.ocomm, o);
    return MPI_SUCCESS;
  });
  // The oracle is MPI_Gatherv for both (equal counts for Gather), as for
  // Scatter below: MPICH 4.0.2's MPI_Gather returns "Message truncated" for
  // the resized struct type with gaps (1021 and 4093 elements, 5 and 6
  // ranks; the long profile, seeds 20261129-30), its MPI_Gatherv does not.
  const void* nsb = in_place ? MPI_IN_PLACE : original.data();
  const int nrc = MPI_Gatherv(nsb, n, ty, native.data(), ci.data(), di.data(), ty, r.root, c.comm);
  const bool optcoll_failed = failed(c, t, what, rc, "optcoll");
  const bool bad = failed(c, t, what, nrc, "native") || optcoll_failed;
  corrupt(c, r.is_root ? recv : send);
  if (bad) return;
  if (r.is_root) compare(c, t, what, "recvbuf", recv, native);
  if (!in_place) compare(c, t, what, "sendbuf (must be unchanged)", send, original);
}

void run_scatter_common(const Call& c, Tally& t, bool v_variant) {
  const Rooted r = rooted(c, v_variant);
  const Options o = tree_options(c, v_variant);
  const bool persistent = persistent_draw(c, v_variant);
  const std::string what = describe(c, v_variant ? (persistent ? "scatterv_init" : "scatterv") : "scatter",
                                    c.cpp_api && !persistent ? &o : nullptr);
  const std::int64_t mine = r.counts[static_cast<std::size_t>(c.rank)];
  Bytes send;
  Bytes recv;
  fill(send, *c.type, r.is_root ? r.extent : 0, c.seed, salt(c, 1, c.rank));
  fill(recv, *c.type, mine, c.seed, salt(c, 2, c.rank));
  const bool in_place = c.in_place && r.is_root;
  const Bytes original = send;
  Bytes native = recv;
  void* rb = in_place ? MPI_IN_PLACE : recv.data();
  const std::vector<int> ci = to_int(r.counts);
  const std::vector<int> di = to_int(r.displs);
  const MPI_Datatype ty = c.type->type;
  const auto n = static_cast<int>(mine);
  const int rc = guarded([&] {
    if (persistent) {
      Request q = scatterv_init(send.data(), r.counts, r.displs, ty, rb, mine, ty, r.root, c.ocomm);
      for (int i = 0; i < 2; ++i) {
        q.start();
        q.wait();
      }
      return MPI_SUCCESS;
    }
    if (!c.cpp_api)
      return v_variant ? OPTCOLL_Scatterv(send.data(), ci.data(), di.data(), ty, rb, n, ty, r.root, c.ocomm)
                       : OPTCOLL_Scatter(send.data(), n, ty, rb, n, ty, r.root, c.ocomm);
    if (v_variant)
      scatterv(send.data(), r.counts, r.displs, ty, rb, mine, ty, r.root, c.ocomm, o);
    else
      scatter(send.data(), mine, ty, rb, mine, ty, r.root, c.ocomm, o);
    return MPI_SUCCESS;
  });
  // The oracle is MPI_Scatterv for both (equal counts for Scatter): MPICH
  // 4.0.2's MPI_Scatter returns "Message truncated" for a resized struct
  // type with gaps (extent 32, 8191 elements, 3 ranks, root 2; reproduced
  // without optcoll), its MPI_Scatterv does not.
  void* nrb = in_place ? MPI_IN_PLACE : native.data();
  const int nrc = MPI_Scatterv(original.data(), ci.data(), di.data(), ty, nrb, n, ty, r.root, c.comm);
  const bool optcoll_failed = failed(c, t, what, rc, "optcoll");
  const bool bad = failed(c, t, what, nrc, "native") || optcoll_failed;
  corrupt(c, in_place ? send : recv);
  if (bad) return;
  if (!in_place) compare(c, t, what, "recvbuf", recv, native);
  compare(c, t, what, "sendbuf (must be unchanged)", send, original);
}

}  // namespace

void run_gather(const Call& c, Tally& t) {
  run_gather_common(c, t, false);
}
void run_gatherv(const Call& c, Tally& t) {
  run_gather_common(c, t, true);
}
void run_scatter(const Call& c, Tally& t) {
  run_scatter_common(c, t, false);
}
void run_scatterv(const Call& c, Tally& t) {
  run_scatter_common(c, t, true);
}

}  // namespace optcoll::differential
