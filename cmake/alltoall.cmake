# Personalized exchanges: Alltoall, Alltoallv and many-to-many as
# plans (shift schedule, Bruck, two-phase routing), their alpha-beta prices,
# and, when the MPI layer is built, OPTCOLL_Alltoall(v) and
# optcoll::many_to_many. Included by the top-level CMakeLists.txt after the
# MPI layer.
target_sources(optcoll PRIVATE
  src/plan/alltoall_layout.cpp
  src/plan/alltoall_shift.cpp
  src/plan/alltoall_bruck.cpp
  src/plan/many_to_many_two_phase.cpp
  src/model/alltoall.cpp
)

if(TARGET optcoll_mpi)
  target_sources(optcoll_mpi PRIVATE src/mpi/collectives/alltoall.cpp src/mpi/collectives/many_to_many.cpp)
endif()

if(OPTCOLL_BUILD_TESTS)
  find_package(GTest REQUIRED)
  include(GoogleTest)
  add_executable(optcoll_alltoall_tests tests/alltoall/test_alltoall_plans.cpp)
  target_link_libraries(optcoll_alltoall_tests PRIVATE optcoll GTest::gtest_main optcoll_warnings)
  gtest_discover_tests(optcoll_alltoall_tests DISCOVERY_TIMEOUT 60 PROPERTIES LABELS "sim;alltoall")
endif()

if(TARGET optcoll_mpi AND OPTCOLL_BUILD_BENCH)
  add_executable(mpi_alltoall bench/mpi_alltoall.cpp)
  target_link_libraries(mpi_alltoall PRIVATE optcoll_mpi fmt::fmt optcoll_warnings)
endif()
