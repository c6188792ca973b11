// Shared by the bad-input tests (mpi_bad_input_test.cpp,
// mpi_bad_input_tree_test.cpp): a communicator whose error handler counts
// the errors raised through it, the expected error classes, and the check
// that a communicator still works after them.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mpi_test_util.hpp"
#include "optcoll/optcoll.h"

namespace optcoll::test {

inline int error_class(int code) {
  int c = code;
  MPI_Error_class(code, &c);
  return c;
}

// Errors raised through the handler of a BadInputComm.
inline int g_raised = 0;
inline void count_raised(MPI_Comm*, int*, ...) {
  ++g_raised;
}

// A duplicate of `of` (MPI_COMM_WORLD by default) whose handler counts and
// returns.
class BadInputComm {
 public:
  explicit BadInputComm(MPI_Comm of = MPI_COMM_WORLD) {
    MPI_Comm_dup(of, &comm_);
    MPI_Errhandler h = MPI_ERRHANDLER_NULL;
    MPI_Comm_create_errhandler(&count_raised, &h);
    MPI_Comm_set_errhandler(comm_, h);
    MPI_Errhandler_free(&h);
  }
  ~BadInputComm() { MPI_Comm_free(&comm_); }
  BadInputComm(const BadInputComm&) = delete;
  BadInputComm& operator=(const BadInputComm&) = delete;
  operator MPI_Comm() const { return comm_; }  // NOLINT: used as MPI_Comm

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

struct Case {
  std::string what;
  int expected;
  int code;
};

inline void expect_classes(const std::vector<Case>& cases) {
  for (const Case& c : cases) EXPECT_EQ(error_class(c.code), c.expected) << c.what;
}

// How many of cases are errors (each raised once through the handler).
inline int errors_in(const std::vector<Case>& cases) {
  int n = 0;
  for (const Case& c : cases) n += c.expected != MPI_SUCCESS ? 1 : 0;
  return n;
}

// The communicator still works: a broadcast and a reduction right after.
inline void expect_usable(MPI_Comm comm) {
  int p = 1;
  int r = 0;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  std::vector<int> v(37, r == p - 1 ? 7 : 0);
  ASSERT_EQ(OPTCOLL_Bcast(v.data(), 37, MPI_INT, p - 1, comm), MPI_SUCCESS);
  for (int x : v) ASSERT_EQ(x, 7);
  std::vector<int> sum(37, -1);
  ASSERT_EQ(OPTCOLL_Reduce(v.data(), sum.data(), 37, MPI_INT, MPI_SUM, 0, comm), MPI_SUCCESS);
  if (r == 0) {
    for (int x : sum) ASSERT_EQ(x, 7 * p);
  }
}

}  // namespace optcoll::test
