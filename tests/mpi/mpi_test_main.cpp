// GoogleTest main for the MPI tests: initialises MPI, lets only rank 0 print
// the usual report (other ranks print their failures, prefixed with the
// rank), and exits non-zero at every rank if any rank failed.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>
#include <memory>
#include <string>

namespace {

class RankFailurePrinter : public testing::EmptyTestEventListener {
 public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}
  // The test's name is kept from OnTestStart: OnTestPartResult runs under
  // GoogleTest's lock, and UnitTest::current_test_info() takes it again
  // (a deadlock at the first failure on a rank other than 0).
  void OnTestStart(const testing::TestInfo& t) override { test_ = std::string(t.test_suite_name()) + "." + t.name(); }
  void OnTestPartResult(const testing::TestPartResult& r) override {
    if (!r.failed()) return;
    std::fprintf(stderr, "[rank %d] FAILED %s at %s:%d\n%s\n", rank_, test_.c_str(),
                 r.file_name() != nullptr ? r.file_name() : "?", r.line_number(), r.message());
  }

 private:
  int rank_;
  std::string test_ = "?";
};

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) {
    testing::TestEventListeners& listeners = testing::UnitTest::GetInstance()->listeners();
    std::unique_ptr<testing::TestEventListener> quiet(listeners.Release(listeners.default_result_printer()));
    listeners.Append(std::make_unique<RankFailurePrinter>(rank).release());  // gtest owns listeners
  }
  int failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0 && failed != 0) std::fprintf(stderr, "FAILED on at least one rank\n");
  MPI_Finalize();
  return failed;
}
