// optcoll's C++ API: round-optimal Bcast, Reduce, Allgather(v),
// Reduce_scatter(_block) and Allreduce over MPI (Träff 2024, Lang 2025),
// Scan and Exscan, Gather(v)/Scatter(v), Alltoall(v) and many-to-many.
//
// The same collectives as <optcoll/optcoll.h>, with 64-bit element counts
// (messages are chunked internally, so counts above 2^31-1 work), typed
// std::span overloads, per-call Options and exceptions instead of codes:
// every failure throws optcoll::MpiError carrying the MPI error code (the
// communicator's error handler is not invoked). Contracts as in the C API:
// collective over comm, the same count, datatype, op, root and Options at
// every rank.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "optcoll/error.hpp"

namespace optcoll {

// Per-call choices; empty / 0 means automatic. Must be equal at every rank.
struct Options {
  // A registry name (`optcoll simulate --help` lists them, as does the
  // MPI_ERR_ARG message): overrides OPTCOLL_BCAST / OPTCOLL_REDUCE. A reduce
  // algorithm that needs a commutative op is replaced by the default for a
  // non-commutative op (with one note on stderr), never run.
  std::string algorithm;
  // Forced block count n for pipelined algorithms (clamped to [1, count]);
  // overrides the alpha-beta choice and OPTCOLL_BLOCK_BYTES.
  std::int64_t blocks = 0;
};

// A failed optcoll call: code() is Errc::mpi, mpi_code() the MPI error code
// (an MPI error class for argument errors).
class MpiError : public Error {
 public:
  MpiError(int mpi_code, const std::string& what) : Error(Errc::mpi, what), mpi_code_(mpi_code) {}
  int mpi_code() const noexcept { return mpi_code_; }
  // MPI_Error_class of the code.
  int mpi_class() const noexcept;

 private:
  int mpi_code_;
};

// MPI_Bcast of count elements of type from root.
void bcast(void* buffer, std::int64_t count, MPI_Datatype type, int root, MPI_Comm comm, const Options& options = {});

// MPI_Reduce; sendbuf may be MPI_IN_PLACE at the root; recvbuf is only used
// at the root.
void reduce(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, int root,
            MPI_Comm comm, const Options& options = {});

// MPI_Allgather: rank g's sendcount elements of sendtype end in recvbuf's
// block g (recvcount elements of recvtype, the same signature) at every
// rank. sendbuf may be MPI_IN_PLACE (the own block is already in recvbuf).
void allgather(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
               std::int64_t recvcount, MPI_Datatype recvtype, MPI_Comm comm, const Options& options = {});
// The same with count elements of one type per rank.
inline void allgather(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Comm comm,
                      const Options& options = {}) {
  allgather(sendbuf, count, type, recvbuf, count, type, comm, options);
}

// MPI_Allgatherv: rank g's sendcount elements end at recvbuf + displs[g]
// (in elements of recvtype) at every rank; recvcounts[g] must equal rank g's
// sendcount. recvcounts and displs: one entry per rank, equal everywhere.
void allgatherv(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> displs, MPI_Datatype recvtype,
                MPI_Comm comm, const Options& options = {});
// The same with one type.
inline void allgatherv(const void* sendbuf, std::int64_t sendcount, void* recvbuf,
                       std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> displs,
                       MPI_Datatype type, MPI_Comm comm, const Options& options = {}) {
  allgatherv(sendbuf, sendcount, type, recvbuf, recvcounts, displs, type, comm, options);
}

// MPI_Reduce_scatter_block: the p*recvcount-element vectors of all ranks are
// combined element by element; rank g receives elements
// [g*recvcount, (g+1)*recvcount) of the result. sendbuf may be MPI_IN_PLACE
// (the input is then recvbuf, p*recvcount elements).
void reduce_scatter_block(const void* sendbuf, void* recvbuf, std::int64_t recvcount, MPI_Datatype type, MPI_Op op,
                          MPI_Comm comm, const Options& options = {});

// MPI_Reduce_scatter: as reduce_scatter_block with rank g's part
// recvcounts[g] elements long, parts adjacent in rank order.
void reduce_scatter(const void* sendbuf, void* recvbuf, std::span<const std::int64_t> recvcounts, MPI_Datatype type,
                    MPI_Op op, MPI_Comm comm, const Options& options = {});

// MPI_Allreduce; sendbuf may be MPI_IN_PLACE.
void allreduce(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
               const Options& options = {});
// MPI_Scan / MPI_Exscan (rank r gets the combination of ranks 0..r, resp.
// 0..r-1, in rank order); sendbuf may be MPI_IN_PLACE. Exscan never writes
// rank 0's recvbuf (MPI leaves it undefined). Options::algorithm: ""
// (alpha-beta model), "doubling" (ceil(log2 p) rounds) or "pipeline" (a
// pipelined chain for long vectors).
void scan(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
          const Options& options = {});
void exscan(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
            const Options& options = {});
// MPI_Gather / MPI_Scatter; MPI_IN_PLACE as in MPI (Gather's sendbuf,
// Scatter's recvbuf, at the root). Options::algorithm: "" or "binomial".
void gather(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf, std::int64_t recvcount,
            MPI_Datatype recvtype, int root, MPI_Comm comm, const Options& options = {});
void scatter(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf, std::int64_t recvcount,
             MPI_Datatype recvtype, int root, MPI_Comm comm, const Options& options = {});

// MPI_Gatherv / MPI_Scatterv. The counts and displacements are read at the
// root only (at least p of each there, MPI_ERR_ARG otherwise; other ranks
// may pass empty spans). Options::algorithm: "" (TWO where Traff 2018's
// Lemma 2 applies, else the adaptive binomial tree),
// "adaptive_binomial", "binomial" (oblivious), "two" (whenever the sizes
// have two values).
void gatherv(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
             std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> displs, MPI_Datatype recvtype,
             int root, MPI_Comm comm, const Options& options = {});
void scatterv(const void* sendbuf, std::span<const std::int64_t> sendcounts, std::span<const std::int64_t> displs,
              MPI_Datatype sendtype, void* recvbuf, std::int64_t recvcount, MPI_Datatype recvtype, int root,
              MPI_Comm comm, const Options& options = {});

// MPI_Alltoall / MPI_Alltoallv with 64-bit counts and displacements (in
// elements): rank i's block for j ends in rank j's block for i. sendbuf may
// be MPI_IN_PLACE (the data is recvbuf's; the send arguments are ignored
// and may be empty). Options::algorithm: Alltoall "" (the alpha-beta model
// picks), "shift" or "bruck"; Alltoallv "" or "shift".
void alltoall(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf, std::int64_t recvcount,
              MPI_Datatype recvtype, MPI_Comm comm, const Options& options = {});
void alltoallv(const void* sendbuf, std::span<const std::int64_t> sendcounts, std::span<const std::int64_t> sdispls,
               MPI_Datatype sendtype, void* recvbuf, std::span<const std::int64_t> recvcounts,
               std::span<const std::int64_t> rdispls, MPI_Datatype recvtype, MPI_Comm comm,
               const Options& options = {});

// Many-to-many: a personalized exchange with Alltoallv's arguments (one
// datatype), for skewed traffic (communication-primitives notes §9): every
// message is split into p pieces spread over all ranks, which forward them
// to their destinations (two-phase balanced routing, 2(p-1) rounds); no
// message is larger than about S/p + R/p for largest send and receive
// volumes S and R. recvcounts[i] must equal rank i's sendcounts[me]
// (checked at every rank: MPI_ERR_TRUNCATE). Options::algorithm:
// "" or "two_phase"; "direct" (the shift schedule, as alltoallv) for
// comparison. Collective; sendbuf may be MPI_IN_PLACE. Every rank holds the
// p x p count matrix and a layout of 3p^2 pieces: meant for moderate p.
void many_to_many(const void* sendbuf, std::span<const std::int64_t> sendcounts, std::span<const std::int64_t> sdispls,
                  void* recvbuf, std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> rdispls,
                  MPI_Datatype type, MPI_Comm comm, const Options& options = {});

namespace detail {
struct Persistent;
}

// A persistent collective (the *_init calls): start() begins one
// operation, test() advances it without blocking and says whether it is
// complete, wait() completes it; as OPTCOLL_Start / OPTCOLL_Test /
// OPTCOLL_Wait. A nonblocking call (ibcast, ...) returns its request
// started; it cannot be started again. The destructor completes an active
// operation and frees the request. Every rank must start the requests of a
// communicator in the same order (MPI's rule for collectives); a start
// posts the first round and returns without waiting for other ranks.
class Request {
 public:
  Request() noexcept;
  explicit Request(std::unique_ptr<detail::Persistent> impl) noexcept;
  Request(Request&&) noexcept;
  Request& operator=(Request&&) noexcept;
  ~Request();
  void start();
  bool test();
  void wait();
  bool active() const noexcept;
  bool persistent() const noexcept;
  // The communicator the request was created on (MPI_COMM_NULL if null,
  // or once the program has freed that communicator: the request still
  // runs, on optcoll's own duplicate).
  MPI_Comm comm() const noexcept;
  explicit operator bool() const noexcept { return impl_ != nullptr; }

 private:
  std::unique_ptr<detail::Persistent> impl_;
};

// Persistent and nonblocking Bcast, Reduce and Allreduce: the plan the
// blocking call would run for these arguments, chosen and built once (at
// init, collective; the buffers must stay valid while the request lives).
Request bcast_init(void* buffer, std::int64_t count, MPI_Datatype type, int root, MPI_Comm comm,
                   const Options& options = {});
Request reduce_init(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, int root,
                    MPI_Comm comm, const Options& options = {});
Request allreduce_init(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op,
                       MPI_Comm comm, const Options& options = {});
Request ibcast(void* buffer, std::int64_t count, MPI_Datatype type, int root, MPI_Comm comm,
               const Options& options = {});
Request ireduce(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, int root,
                MPI_Comm comm, const Options& options = {});
Request iallreduce(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                   const Options& options = {});

// The same for the all-broadcasts, the reduce-scatters and the scans.
Request allgather_init(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                       std::int64_t recvcount, MPI_Datatype recvtype, MPI_Comm comm, const Options& options = {});
Request iallgather(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                   std::int64_t recvcount, MPI_Datatype recvtype, MPI_Comm comm, const Options& options = {});
Request allgatherv_init(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                        std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> displs,
                        MPI_Datatype recvtype, MPI_Comm comm, const Options& options = {});
Request iallgatherv(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                    std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> displs,
                    MPI_Datatype recvtype, MPI_Comm comm, const Options& options = {});
// Their one-type forms, as allgather and allgatherv above.
inline Request allgather_init(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Comm comm,
                              const Options& options = {}) {
  return allgather_init(sendbuf, count, type, recvbuf, count, type, comm, options);
}
inline Request iallgather(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Comm comm,
                          const Options& options = {}) {
  return iallgather(sendbuf, count, type, recvbuf, count, type, comm, options);
}
inline Request allgatherv_init(const void* sendbuf, std::int64_t sendcount, void* recvbuf,
                               std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> displs,
                               MPI_Datatype type, MPI_Comm comm, const Options& options = {}) {
  return allgatherv_init(sendbuf, sendcount, type, recvbuf, recvcounts, displs, type, comm, options);
}
inline Request iallgatherv(const void* sendbuf, std::int64_t sendcount, void* recvbuf,
                           std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> displs,
                           MPI_Datatype type, MPI_Comm comm, const Options& options = {}) {
  return iallgatherv(sendbuf, sendcount, type, recvbuf, recvcounts, displs, type, comm, options);
}
Request reduce_scatter_block_init(const void* sendbuf, void* recvbuf, std::int64_t recvcount, MPI_Datatype type,
                                  MPI_Op op, MPI_Comm comm, const Options& options = {});
Request ireduce_scatter_block(const void* sendbuf, void* recvbuf, std::int64_t recvcount, MPI_Datatype type, MPI_Op op,
                              MPI_Comm comm, const Options& options = {});
Request reduce_scatter_init(const void* sendbuf, void* recvbuf, std::span<const std::int64_t> recvcounts,
                            MPI_Datatype type, MPI_Op op, MPI_Comm comm, const Options& options = {});
Request ireduce_scatter(const void* sendbuf, void* recvbuf, std::span<const std::int64_t> recvcounts, MPI_Datatype type,
                        MPI_Op op, MPI_Comm comm, const Options& options = {});
Request scan_init(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                  const Options& options = {});
Request iscan(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
              const Options& options = {});
Request exscan_init(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                    const Options& options = {});
Request iexscan(const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                const Options& options = {});

// The same for Gather, Scatter, Alltoall and Alltoallv; nonblocking Gatherv
// and Scatterv (their persistent forms: gatherv_init below). Igatherv and
// Iscatterv build their tree at the call, which exchanges messages among
// the ranks: the call returns once every rank has made it.
Request gather_init(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                    std::int64_t recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                    const Options& options = {});
Request igather(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                std::int64_t recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, const Options& options = {});
Request scatter_init(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                     std::int64_t recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                     const Options& options = {});
Request iscatter(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                 std::int64_t recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, const Options& options = {});
Request igatherv(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                 std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> displs, MPI_Datatype recvtype,
                 int root, MPI_Comm comm, const Options& options = {});
Request iscatterv(const void* sendbuf, std::span<const std::int64_t> sendcounts, std::span<const std::int64_t> displs,
                  MPI_Datatype sendtype, void* recvbuf, std::int64_t recvcount, MPI_Datatype recvtype, int root,
                  MPI_Comm comm, const Options& options = {});
Request alltoall_init(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                      std::int64_t recvcount, MPI_Datatype recvtype, MPI_Comm comm, const Options& options = {});
Request ialltoall(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                  std::int64_t recvcount, MPI_Datatype recvtype, MPI_Comm comm, const Options& options = {});
Request alltoallv_init(const void* sendbuf, std::span<const std::int64_t> sendcounts,
                       std::span<const std::int64_t> sdispls, MPI_Datatype sendtype, void* recvbuf,
                       std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> rdispls,
                       MPI_Datatype recvtype, MPI_Comm comm, const Options& options = {});
Request ialltoallv(const void* sendbuf, std::span<const std::int64_t> sendcounts, std::span<const std::int64_t> sdispls,
                   MPI_Datatype sendtype, void* recvbuf, std::span<const std::int64_t> recvcounts,
                   std::span<const std::int64_t> rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                   const Options& options = {});

// Persistent Gatherv / Scatterv: the optimal ordered tree for these counts,
// computed once at the root (Traff 2018, Figure 6) and distributed; the
// buffers must stay valid while the request lives. Collective.
Request gatherv_init(const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, void* recvbuf,
                     std::span<const std::int64_t> recvcounts, std::span<const std::int64_t> displs,
                     MPI_Datatype recvtype, int root, MPI_Comm comm);
Request scatterv_init(const void* sendbuf, std::span<const std::int64_t> sendcounts,
                      std::span<const std::int64_t> displs, MPI_Datatype sendtype, void* recvbuf,
                      std::int64_t recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);

namespace detail {
template <class T, class... Us>
inline constexpr bool one_of = (std::is_same_v<T, Us> || ...);
template <class T>
inline constexpr bool has_mpi_type =
    one_of<T, char, signed char, unsigned char, short, unsigned short, int, unsigned, long, unsigned long, long long,
           unsigned long long, float, double, long double>;

// Span overloads: validates comm and the root's receive size, maps
// send == recv at the root to MPI_IN_PLACE.
void reduce_span(const void* send, std::size_t send_size, void* recv, std::size_t recv_size, MPI_Datatype type,
                 MPI_Op op, int root, MPI_Comm comm, const Options& options);
// Merges a sorted run of na keys at a with nb at b into out (na + nb keys),
// stably; ctx: the comparator.
using MergeFn = void (*)(const std::byte* a, std::int64_t na, const std::byte* b, std::int64_t nb, std::byte* out,
                         const void* ctx);
std::vector<std::byte> allmerge_bytes(std::span<const std::byte> mine, std::int64_t key_bytes, MergeFn merge,
                                      const void* ctx, MPI_Comm comm, std::string_view algorithm);
template <class T, class Compare>
void merge_keys(const std::byte* a, std::int64_t na, const std::byte* b, std::int64_t nb, std::byte* out,
                const void* ctx) {
  // The buffers hold whole keys but need not be aligned for T: copy through
  // properly typed storage.
  std::vector<T> x(static_cast<std::size_t>(na));
  std::vector<T> y(static_cast<std::size_t>(nb));
  std::vector<T> z(static_cast<std::size_t>(na + nb));
  if (na > 0) std::memcpy(x.data(), a, static_cast<std::size_t>(na) * sizeof(T));
  if (nb > 0) std::memcpy(y.data(), b, static_cast<std::size_t>(nb) * sizeof(T));
  std::merge(x.begin(), x.end(), y.begin(), y.end(), z.begin(), *static_cast<const Compare*>(ctx));
  if (!z.empty()) std::memcpy(out, z.data(), z.size() * sizeof(T));
}
// The order allmerge's merges use: cmp, and among keys that compare equal
// the order of their bytes. A strict total order on distinct byte
// patterns, so the merged run is the same whatever order the runs are
// merged in: every rank ends with the same bits.
template <class T, class Compare>
struct TieByBytes {
  Compare cmp;
  bool operator()(const T& a, const T& b) const {
    if (cmp(a, b)) return true;
    if (cmp(b, a)) return false;
    return std::memcmp(&a, &b, sizeof(T)) < 0;
  }
};
// Sorts each range of keys that compare equal under cmp (run is sorted by
// cmp) by their bytes: then run is sorted by TieByBytes. O(n) plus the ties.
template <class T, class Compare>
void order_ties(std::vector<T>& run, const TieByBytes<T, Compare>& order) {
  for (std::size_t i = 0; i < run.size();) {
    std::size_t j = i + 1;
    while (j < run.size() && !order.cmp(run[i], run[j])) ++j;
    if (j - i > 1)
      std::sort(run.begin() + static_cast<std::ptrdiff_t>(i), run.begin() + static_cast<std::ptrdiff_t>(j), order);
    i = j;
  }
}
// Checks recv_size >= send_size * factor (factor: the communicator's size
// when by_comm_size) and maps send == this rank's part of recv to
// MPI_IN_PLACE.
const void* span_send(const void* send, std::size_t send_size, const void* recv, std::size_t recv_size,
                      std::size_t elem_bytes, bool by_comm_size, MPI_Comm comm, const char* what);
}  // namespace detail

// Arithmetic types with a predefined MPI datatype.
template <class T>
concept MpiArithmetic = detail::has_mpi_type<std::remove_cv_t<T>>;

// The predefined MPI datatype of T.
template <MpiArithmetic T>
MPI_Datatype mpi_type() noexcept {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, char>)
    return MPI_CHAR;
  else if constexpr (std::is_same_v<U, signed char>)
    return MPI_SIGNED_CHAR;
  else if constexpr (std::is_same_v<U, unsigned char>)
    return MPI_UNSIGNED_CHAR;
  else if constexpr (std::is_same_v<U, short>)
    return MPI_SHORT;
  else if constexpr (std::is_same_v<U, unsigned short>)
    return MPI_UNSIGNED_SHORT;
  else if constexpr (std::is_same_v<U, int>)
    return MPI_INT;
  else if constexpr (std::is_same_v<U, unsigned>)
    return MPI_UNSIGNED;
  else if constexpr (std::is_same_v<U, long>)
    return MPI_LONG;
  else if constexpr (std::is_same_v<U, unsigned long>)
    return MPI_UNSIGNED_LONG;
  else if constexpr (std::is_same_v<U, long long>)
    return MPI_LONG_LONG;
  else if constexpr (std::is_same_v<U, unsigned long long>)
    return MPI_UNSIGNED_LONG_LONG;
  else if constexpr (std::is_same_v<U, float>)
    return MPI_FLOAT;
  else if constexpr (std::is_same_v<U, double>)
    return MPI_DOUBLE;
  else
    return MPI_LONG_DOUBLE;
}

// Broadcast of data.size() elements (equal at every rank).
template <MpiArithmetic T>
void bcast(std::span<T> data, int root, MPI_Comm comm, const Options& options = {}) {
  bcast(data.data(), static_cast<std::int64_t>(data.size()), mpi_type<T>(), root, comm, options);
}

// Reduction of send.size() elements (equal at every rank) into recv at the
// root, which needs recv.size() >= send.size() (MPI_ERR_BUFFER otherwise);
// recv is unused elsewhere and may be empty. At the root, send and recv may
// be the same span: the reduction is then done in place.
template <MpiArithmetic T>
void reduce(std::span<const T> send, std::span<T> recv, MPI_Op op, int root, MPI_Comm comm,
            const Options& options = {}) {
  detail::reduce_span(send.data(), send.size(), recv.data(), recv.size(), mpi_type<T>(), op, root, comm, options);
}

// Allreduce of send.size() elements into recv (recv.size() >= send.size(),
// MPI_ERR_BUFFER otherwise); send and recv may be the same span (in place).
template <MpiArithmetic T>
void allreduce(std::span<const T> send, std::span<T> recv, MPI_Op op, MPI_Comm comm, const Options& options = {}) {
  const void* s =
      detail::span_send(send.data(), send.size(), recv.data(), recv.size(), sizeof(T), false, comm, "allreduce");
  allreduce(s, recv.data(), static_cast<std::int64_t>(send.size()), mpi_type<T>(), op, comm, options);
}

// In-place allreduce of data.
template <MpiArithmetic T>
void allreduce(std::span<T> data, MPI_Op op, MPI_Comm comm, const Options& options = {}) {
  allreduce(MPI_IN_PLACE, data.data(), static_cast<std::int64_t>(data.size()), mpi_type<T>(), op, comm, options);
}

// Scan / Exscan of send.size() elements into recv (recv.size() >=
// send.size(), MPI_ERR_BUFFER otherwise); send and recv may be the same span
// (in place). Exscan leaves rank 0's recv as it was.
template <MpiArithmetic T>
void scan(std::span<const T> send, std::span<T> recv, MPI_Op op, MPI_Comm comm, const Options& options = {}) {
  const void* s = detail::span_send(send.data(), send.size(), recv.data(), recv.size(), sizeof(T), false, comm, "scan");
  scan(s, recv.data(), static_cast<std::int64_t>(send.size()), mpi_type<T>(), op, comm, options);
}
template <MpiArithmetic T>
void exscan(std::span<const T> send, std::span<T> recv, MPI_Op op, MPI_Comm comm, const Options& options = {}) {
  const void* s =
      detail::span_send(send.data(), send.size(), recv.data(), recv.size(), sizeof(T), false, comm, "exscan");
  exscan(s, recv.data(), static_cast<std::int64_t>(send.size()), mpi_type<T>(), op, comm, options);
}

// Allgather of send.size() elements per rank into recv (recv.size() >=
// p * send.size()); send may be recv's own part (in place).
template <MpiArithmetic T>
void allgather(std::span<const T> send, std::span<T> recv, MPI_Comm comm, const Options& options = {}) {
  const void* s =
      detail::span_send(send.data(), send.size(), recv.data(), recv.size(), sizeof(T), true, comm, "allgather");
  allgather(s, recv.data(), static_cast<std::int64_t>(send.size()), mpi_type<T>(), comm, options);
}

// Merge all-reduction (Lang 2025): mine is sorted by cmp (a strict weak
// order; any length, also 0); returns the sorted union of every rank's
// keys, duplicates kept, keys that compare equal in the order of their
// bytes, so that every rank gets the same bits. algorithm: "bruck" (default;
// Lang's Algorithm 1, ceil(log2 p) rounds, the partial buffer for
// non-powers of two), "circulant" (Algorithm 2, the same rounds, more
// merging) or "allgatherv" (gather all, then a pairwise merge tree). Time O(log p alpha + (p-1) m beta + p m merge) for
// m keys per rank.
template <class T, class Compare = std::less<T>>
requires std::is_trivially_copyable_v<T> std::vector<T> allmerge(std::span<const T> mine, MPI_Comm comm,
                                                                 Compare cmp = {}, std::string_view algorithm = {}) {
  const detail::TieByBytes<T, Compare> order{cmp};
  std::vector<T> own(mine.begin(), mine.end());
  detail::order_ties(own, order);
  const std::vector<std::byte> all =
      detail::allmerge_bytes(std::as_bytes(std::span<const T>(own)), static_cast<std::int64_t>(sizeof(T)),
                             &detail::merge_keys<T, detail::TieByBytes<T, Compare>>, &order, comm, algorithm);
  std::vector<T> out(all.size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), all.data(), all.size());
  return out;
}

}  // namespace optcoll
