// The exercises of optcoll-tune and the demo, one class per shape
// (shapes.hpp), and the factory over ops.def.
#include "exercise.hpp"

#include <algorithm>
#include <vector>

#include "optcoll/optcoll.h"

namespace optcoll::pmpi {
namespace {

using Ints = std::vector<int>;

int elements(std::int64_t bytes) {
  return static_cast<int>(std::max<std::int64_t>(bytes / static_cast<std::int64_t>(sizeof(int)), 1));
}

int rank_of(MPI_Comm comm) {
  int r = 0;
  PMPI_Comm_rank(comm, &r);
  return r;
}

// Rank- and position-dependent integers, small enough that sums of p of
// them do not overflow.
void fill(Ints& v, int rank) {
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = static_cast<int>((i * 2654435761U + 977U * static_cast<unsigned>(rank)) % 100003U);
}

}  // namespace

// One class template per shape, named as the shape.
namespace exercises {

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

}  // namespace exercises

std::unique_ptr<Exercise> make_exercise(Op op, MPI_Comm comm, std::int64_t bytes) {
  switch (op) {
#define OPTCOLL_PMPI_OP(Name, collective, shape) \
  case Op::Name:                                 \
    return std::make_unique<exercises::shape<&OPTCOLL_##Name, &PMPI_##Name>>(comm, bytes);
#include "ops.def"
#undef OPTCOLL_PMPI_OP
  }
  return nullptr;
}

}  // namespace optcoll::pmpi
