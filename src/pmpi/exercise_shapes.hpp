// The exercise classes of optcoll-tune and the demo (exercise.hpp), one
// class template per shape (shapes*.hpp), named as the shape and
// instantiated with OPTCOLL_<Name> and PMPI_<Name> by make_exercise().
#pragma once

#include <algorithm>
#include <vector>

#include "exercise.hpp"

namespace optcoll::pmpi {
namespace detail {

using Ints = std::vector<int>;

inline int elements(std::int64_t bytes) {
  return static_cast<int>(std::max<std::int64_t>(bytes / static_cast<std::int64_t>(sizeof(int)), 1));
}

inline int rank_of(MPI_Comm comm) {
  int r = 0;
  PMPI_Comm_rank(comm, &r);
  return r;
}

// Rank- and position-dependent integers, small enough that sums of p of
// them do not overflow.
inline void fill(Ints& v, int rank) {
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = static_cast<int>((i * 2654435761U + 977U * static_cast<unsigned>(rank)) % 100003U);
}

}  // namespace detail

// One class template per shape, named as the shape.
namespace exercises {

using namespace detail;

template <auto Optcoll, auto Native>
class bcast final : public Exercise {
 public:
  bcast(MPI_Comm comm, std::int64_t bytes)
      : comm_(comm), rank_(rank_of(comm)), buf_(static_cast<std::size_t>(elements(bytes))) {}
  void run(bool optcoll) override {
    const int n = static_cast<int>(buf_.size());
    optcoll ? Optcoll(buf_.data(), n, MPI_INT, 0, comm_) : Native(buf_.data(), n, MPI_INT, 0, comm_);
  }
  bool same_results() override {
    reset();
    run(false);
    const Ints native = buf_;
    reset();
    run(true);
    return buf_ == native;
  }

 private:
  void reset() {
    fill(buf_, 0);
    if (rank_ != 0) std::fill(buf_.begin(), buf_.end(), -1);
  }
  MPI_Comm comm_;
  int rank_;
  Ints buf_;
};

template <auto Optcoll, auto Native>
class reduce final : public Exercise {
 public:
  reduce(MPI_Comm comm, std::int64_t bytes)
      : comm_(comm), rank_(rank_of(comm)), in_(static_cast<std::size_t>(elements(bytes))), out_(in_.size()) {
    fill(in_, rank_);
  }
  void run(bool optcoll) override {
    const int n = static_cast<int>(in_.size());
    optcoll ? Optcoll(in_.data(), out_.data(), n, MPI_INT, MPI_SUM, 0, comm_)
            : Native(in_.data(), out_.data(), n, MPI_INT, MPI_SUM, 0, comm_);
  }
  bool same_results() override {
    std::fill(out_.begin(), out_.end(), -1);
    run(false);
    const Ints native = out_;
    std::fill(out_.begin(), out_.end(), -2);
    run(true);
    return rank_ != 0 || out_ == native;
  }

 private:
  MPI_Comm comm_;
  int rank_;
  Ints in_, out_;
};

// Counts of the irregular (v) operations: per-rank counts around n of
// differing sizes (one rank with none when p > 2), and their offsets.
struct Irregular {
  std::vector<int> counts, displs;
  int total = 0;
  Irregular(int p, int n) : counts(static_cast<std::size_t>(p)), displs(static_cast<std::size_t>(p)) {
    for (int i = 0; i < p; ++i) {
      counts[static_cast<std::size_t>(i)] = p > 2 && i == p / 2 ? 0 : std::max(1, n / 2 + (n * (i % 3)) / 2);
      displs[static_cast<std::size_t>(i)] = total;
      total += counts[static_cast<std::size_t>(i)];
    }
  }
};

inline int size_of(MPI_Comm comm) {
  int p = 1;
  PMPI_Comm_size(comm, &p);
  return p;
}

// Runs f(false) and f(true) on fresh inputs (reset()), comparing out.
template <class Reset, class Run>
bool compare_runs(Ints& out, Reset&& reset, Run&& run) {
  reset();
  std::fill(out.begin(), out.end(), -1);
  run(false);
  const Ints native = out;
  reset();
  std::fill(out.begin(), out.end(), -1);  // (elements neither run writes stay equal)
  run(true);
  return out == native;
}

// MPI_Allreduce, MPI_Scan, MPI_Exscan (rank 0's MPI_Exscan result is undefined).
template <auto Optcoll, auto Native>
class allreduce final : public Exercise {
 public:
  allreduce(MPI_Comm comm, std::int64_t bytes)
      : comm_(comm), rank_(rank_of(comm)), in_(static_cast<std::size_t>(elements(bytes))), out_(in_.size()) {
    fill(in_, rank_);
  }
  void run(bool optcoll) override {
    const int n = static_cast<int>(in_.size());
    optcoll ? Optcoll(in_.data(), out_.data(), n, MPI_INT, MPI_SUM, comm_)
            : Native(in_.data(), out_.data(), n, MPI_INT, MPI_SUM, comm_);
  }
  bool same_results() override {
    const bool same = compare_runs(
        out_, [] {}, [&](bool o) { run(o); });
    return same || (Native == &PMPI_Exscan && rank_ == 0);
  }

 private:
  MPI_Comm comm_;
  int rank_;
  Ints in_, out_;
};

template <auto Optcoll, auto Native>
class reduce_scatter_block final : public Exercise {
 public:
  reduce_scatter_block(MPI_Comm comm, std::int64_t bytes)
      : comm_(comm),
        n_(std::max(1, elements(bytes) / size_of(comm))),
        in_(static_cast<std::size_t>(n_ * size_of(comm))),
        out_(static_cast<std::size_t>(n_)) {
    fill(in_, rank_of(comm));
  }
  void run(bool optcoll) override {
    optcoll ? Optcoll(in_.data(), out_.data(), n_, MPI_INT, MPI_SUM, comm_)
            : Native(in_.data(), out_.data(), n_, MPI_INT, MPI_SUM, comm_);
  }
  bool same_results() override {
    return compare_runs(
        out_, [] {}, [&](bool o) { run(o); });
  }

 private:
  MPI_Comm comm_;
  int n_;
  Ints in_, out_;
};

template <auto Optcoll, auto Native>
class reduce_scatter final : public Exercise {
 public:
  reduce_scatter(MPI_Comm comm, std::int64_t bytes)
      : comm_(comm),
        v_(size_of(comm), std::max(1, elements(bytes) / size_of(comm))),
        in_(static_cast<std::size_t>(v_.total)),
        out_(static_cast<std::size_t>(std::max(1, v_.counts[static_cast<std::size_t>(rank_of(comm))]))) {
    fill(in_, rank_of(comm));
  }
  void run(bool optcoll) override {
    optcoll ? Optcoll(in_.data(), out_.data(), v_.counts.data(), MPI_INT, MPI_SUM, comm_)
            : Native(in_.data(), out_.data(), v_.counts.data(), MPI_INT, MPI_SUM, comm_);
  }
  bool same_results() override {
    return compare_runs(
        out_, [] {}, [&](bool o) { run(o); });
  }

 private:
  MPI_Comm comm_;
  Irregular v_;
  Ints in_, out_;
};

template <auto Optcoll, auto Native>
class allgather final : public Exercise {
 public:
  allgather(MPI_Comm comm, std::int64_t bytes)
      : comm_(comm),
        n_(std::max(1, elements(bytes) / size_of(comm))),
        in_(static_cast<std::size_t>(n_)),
        out_(static_cast<std::size_t>(n_ * size_of(comm))) {
    fill(in_, rank_of(comm));
  }
  void run(bool optcoll) override {
    optcoll ? Optcoll(in_.data(), n_, MPI_INT, out_.data(), n_, MPI_INT, comm_)
            : Native(in_.data(), n_, MPI_INT, out_.data(), n_, MPI_INT, comm_);
  }
  bool same_results() override {
    return compare_runs(
        out_, [] {}, [&](bool o) { run(o); });
  }

 private:
  MPI_Comm comm_;
  int n_;
  Ints in_, out_;
};

template <auto Optcoll, auto Native>
class allgatherv final : public Exercise {
 public:
  allgatherv(MPI_Comm comm, std::int64_t bytes)
      : comm_(comm),
        v_(size_of(comm), std::max(1, elements(bytes) / size_of(comm))),
        in_(static_cast<std::size_t>(std::max(1, v_.counts[static_cast<std::size_t>(rank_of(comm))]))),
        out_(static_cast<std::size_t>(v_.total)) {
    fill(in_, rank_of(comm));
  }
  void run(bool optcoll) override {
    const int mine = v_.counts[static_cast<std::size_t>(rank_of(comm_))];
    optcoll ? Optcoll(in_.data(), mine, MPI_INT, out_.data(), v_.counts.data(), v_.displs.data(), MPI_INT, comm_)
            : Native(in_.data(), mine, MPI_INT, out_.data(), v_.counts.data(), v_.displs.data(), MPI_INT, comm_);
  }
  bool same_results() override {
    return compare_runs(
        out_, [] {}, [&](bool o) { run(o); });
  }

 private:
  MPI_Comm comm_;
  Irregular v_;
  Ints in_, out_;
};

// Root 0; the root's results only.
template <auto Optcoll, auto Native>
class gather final : public Exercise {
 public:
  gather(MPI_Comm comm, std::int64_t bytes)
      : comm_(comm),
        rank_(rank_of(comm)),
        n_(std::max(1, elements(bytes) / size_of(comm))),
        in_(static_cast<std::size_t>(n_)),
        out_(static_cast<std::size_t>(n_ * size_of(comm))) {
    fill(in_, rank_);
  }
  void run(bool optcoll) override {
    optcoll ? Optcoll(in_.data(), n_, MPI_INT, out_.data(), n_, MPI_INT, 0, comm_)
            : Native(in_.data(), n_, MPI_INT, out_.data(), n_, MPI_INT, 0, comm_);
  }
  bool same_results() override {
    return compare_runs(
               out_, [] {}, [&](bool o) { run(o); }) ||
           rank_ != 0;
  }

 private:
  MPI_Comm comm_;
  int rank_, n_;
  Ints in_, out_;
};

template <auto Optcoll, auto Native>
class gatherv final : public Exercise {
 public:
  gatherv(MPI_Comm comm, std::int64_t bytes)
      : comm_(comm),
        rank_(rank_of(comm)),
        v_(size_of(comm), std::max(1, elements(bytes) / size_of(comm))),
        in_(static_cast<std::size_t>(std::max(1, v_.counts[static_cast<std::size_t>(rank_)]))),
        out_(static_cast<std::size_t>(v_.total)) {
    fill(in_, rank_);
  }
  void run(bool optcoll) override {
    const int mine = v_.counts[static_cast<std::size_t>(rank_)];
    optcoll ? Optcoll(in_.data(), mine, MPI_INT, out_.data(), v_.counts.data(), v_.displs.data(), MPI_INT, 0, comm_)
            : Native(in_.data(), mine, MPI_INT, out_.data(), v_.counts.data(), v_.displs.data(), MPI_INT, 0, comm_);
  }
  bool same_results() override {
    return compare_runs(
               out_, [] {}, [&](bool o) { run(o); }) ||
           rank_ != 0;
  }

 private:
  MPI_Comm comm_;
  int rank_;
  Irregular v_;
  Ints in_, out_;
};

template <auto Optcoll, auto Native>
class scatter final : public Exercise {
 public:
  scatter(MPI_Comm comm, std::int64_t bytes)
      : comm_(comm),
        n_(std::max(1, elements(bytes) / size_of(comm))),
        in_(static_cast<std::size_t>(n_ * size_of(comm))),
        out_(static_cast<std::size_t>(n_)) {
    fill(in_, 0);
  }
  void run(bool optcoll) override {
    optcoll ? Optcoll(in_.data(), n_, MPI_INT, out_.data(), n_, MPI_INT, 0, comm_)
            : Native(in_.data(), n_, MPI_INT, out_.data(), n_, MPI_INT, 0, comm_);
  }
  bool same_results() override {
    return compare_runs(
        out_, [] {}, [&](bool o) { run(o); });
  }

 private:
  MPI_Comm comm_;
  int n_;
  Ints in_, out_;
};

template <auto Optcoll, auto Native>
class scatterv final : public Exercise {
 public:
  scatterv(MPI_Comm comm, std::int64_t bytes)
      : comm_(comm),
        rank_(rank_of(comm)),
        v_(size_of(comm), std::max(1, elements(bytes) / size_of(comm))),
        in_(static_cast<std::size_t>(v_.total)),
        out_(static_cast<std::size_t>(std::max(1, v_.counts[static_cast<std::size_t>(rank_)]))) {
    fill(in_, 0);
  }
  void run(bool optcoll) override {
    const int mine = v_.counts[static_cast<std::size_t>(rank_)];
    optcoll ? Optcoll(in_.data(), v_.counts.data(), v_.displs.data(), MPI_INT, out_.data(), mine, MPI_INT, 0, comm_)
            : Native(in_.data(), v_.counts.data(), v_.displs.data(), MPI_INT, out_.data(), mine, MPI_INT, 0, comm_);
  }
  bool same_results() override {
    return compare_runs(
        out_, [] {}, [&](bool o) { run(o); });
  }

 private:
  MPI_Comm comm_;
  int rank_;
  Irregular v_;
  Ints in_, out_;
};

// bytes: p blocks of one rank's send buffer.
template <auto Optcoll, auto Native>
class alltoall final : public Exercise {
 public:
  alltoall(MPI_Comm comm, std::int64_t bytes)
      : comm_(comm),
        n_(std::max(1, elements(bytes) / size_of(comm))),
        in_(static_cast<std::size_t>(n_ * size_of(comm))),
        out_(in_.size()) {
    fill(in_, rank_of(comm));
  }
  void run(bool optcoll) override {
    optcoll ? Optcoll(in_.data(), n_, MPI_INT, out_.data(), n_, MPI_INT, comm_)
            : Native(in_.data(), n_, MPI_INT, out_.data(), n_, MPI_INT, comm_);
  }
  bool same_results() override {
    return compare_runs(
        out_, [] {}, [&](bool o) { run(o); });
  }

 private:
  MPI_Comm comm_;
  int n_;
  Ints in_, out_;
};

// Counts around bytes / p^2 per message, differing by (i + j) mod 3, the
// messages with i + j = p / 2 (mod p) empty.
template <auto Optcoll, auto Native>
class alltoallv final : public Exercise {
 public:
  alltoallv(MPI_Comm comm, std::int64_t bytes) : comm_(comm) {
    const int p = size_of(comm), r = rank_of(comm);
    const int n = std::max(1, elements(bytes) / (p * p));
    const auto count = [&](int i, int j) {
      return (i + j) % p == p / 2 && p > 2 ? 0 : n / 2 + n * ((i + j) % 3) / 2 + 1;
    };
    int s = 0, t = 0;
    for (int o = 0; o < p; ++o) {
      sc_.push_back(count(r, o));
      sd_.push_back(s);
      s += sc_.back();
      rc_.push_back(count(o, r));
      rd_.push_back(t);
      t += rc_.back();
    }
    in_.resize(static_cast<std::size_t>(std::max(s, 1)));
    out_.resize(static_cast<std::size_t>(std::max(t, 1)));
    fill(in_, r);
  }
  void run(bool optcoll) override {
    optcoll ? Optcoll(in_.data(), sc_.data(), sd_.data(), MPI_INT, out_.data(), rc_.data(), rd_.data(), MPI_INT, comm_)
            : Native(in_.data(), sc_.data(), sd_.data(), MPI_INT, out_.data(), rc_.data(), rd_.data(), MPI_INT, comm_);
  }
  bool same_results() override {
    return compare_runs(
        out_, [] {}, [&](bool o) { run(o); });
  }

 private:
  MPI_Comm comm_;
  Ints sc_, sd_, rc_, rd_;
  Ints in_, out_;
};

}  // namespace exercises
}  // namespace optcoll::pmpi
