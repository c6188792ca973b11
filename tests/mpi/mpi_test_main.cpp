// GoogleTest main for the MPI tests: initialises MPI, lets only rank 0 print
// the usual report (other ranks print their failures, prefixed with the
// rank), and exits non-zero at every rank if any rank failed. When every
// test that ran was skipped at every rank (GTEST_SKIP: not enough memory,
// one rank only), the exit code is kSkipped, which CTest reports as Skipped
// (SKIP_RETURN_CODE, set by optcoll_add_mpi_test) instead of Passed.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>
#include <memory>
#include <string>

namespace {

class RankFailurePrinter : public testing::EmptyTestEventListener {
 public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}
  // The test's name is taken here: OnTestPartResult runs with gtest's lock
  // held, where UnitTest::current_test_info() would deadlock.
  void OnTestStart(const testing::TestInfo& t) override { test_ = &t; }
  void OnTestEnd(const testing::TestInfo&) override { test_ = nullptr; }
  void OnTestPartResult(const testing::TestPartResult& r) override {
    if (!r.failed()) return;
    std::fprintf(stderr, "[rank %d] FAILED %s.%s at %s:%d\n%s\n", rank_,
                 test_ != nullptr ? test_->test_suite_name() : "?", test_ != nullptr ? test_->name() : "?",
                 r.file_name() != nullptr ? r.file_name() : "?", r.line_number(), r.message());
  }

 private:
  int rank_;
  const testing::TestInfo* test_ = nullptr;
};

}  // namespace

constexpr int kSkipped = 77;

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
  const testing::UnitTest& u = *testing::UnitTest::GetInstance();
  int all_skipped = u.test_to_run_count() > 0 && u.skipped_test_count() == u.test_to_run_count() ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &all_skipped, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Finalize();
  if (failed == 0 && all_skipped != 0) return kSkipped;
  return failed;
}
