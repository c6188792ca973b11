# trees/: ordered gather/scatter trees (Traff 2018) — constructions, the
# completion-time evaluator and the DPs (their plans are in plan/); MPI-free. Included by
# the top-level CMakeLists.txt after the core targets exist.
set(OPTCOLL_TREES_SOURCES
  src/trees/model.cpp
  src/trees/tree.cpp
  src/trees/evaluate.cpp
  src/trees/block_sizes.cpp
  src/trees/dp_kernel.cpp
  src/trees/tree_linear.cpp
  src/trees/tree_binomial.cpp
  src/trees/tree_adaptive_binomial.cpp
  src/trees/tree_dp_homogeneous.cpp
  src/trees/tree_dp_binary.cpp
  src/trees/tree_dp_nonhomogeneous.cpp
  src/trees/tree_exhaustive.cpp
  src/trees/schedule.cpp
  src/trees/compare.cpp
)
target_sources(optcoll PRIVATE ${OPTCOLL_TREES_SOURCES})
target_sources(optcoll_cli PRIVATE src/cli/cmd_trees.cpp)
# The DPs' vectorized minima must equal the scalar formulas bit for bit
# (src/trees/dp_kernel.hpp): no fused multiply-add in either.
set_source_files_properties(src/trees/dp_kernel.cpp src/trees/tree_dp_homogeneous.cpp src/trees/tree_dp_binary.cpp
                            src/trees/tree_dp_nonhomogeneous.cpp PROPERTIES COMPILE_OPTIONS -ffp-contract=off)
# dp_kernel.cpp passes 32-byte vectors between its own inline helpers; GCC
# warns that their ABI differs without AVX, which cannot matter inside one file.
set_source_files_properties(src/trees/dp_kernel.cpp PROPERTIES COMPILE_OPTIONS "-ffp-contract=off;-Wno-psabi")

if(OPTCOLL_BUILD_TESTS)
  find_package(GTest REQUIRED)
  include(GoogleTest)
  add_executable(optcoll_trees_tests
    tests/trees/test_evaluate.cpp
    tests/trees/test_constructions.cpp
    tests/trees/test_dp.cpp
    tests/trees/test_partition.cpp
    tests/trees/test_paper_tables.cpp
    tests/trees/test_tree_plans.cpp
    tests/trees/test_cmd_trees.cpp
  )
  target_link_libraries(optcoll_trees_tests PRIVATE optcoll GTest::gtest_main nlohmann_json::nlohmann_json
                                                    optcoll_warnings)
  target_compile_definitions(optcoll_trees_tests PRIVATE OPTCOLL_CLI_PATH="$<TARGET_FILE:optcoll_cli>")
  add_dependencies(optcoll_trees_tests optcoll_cli)
  gtest_discover_tests(optcoll_trees_tests DISCOVERY_TIMEOUT 120 PROPERTIES LABELS "trees")
endif()

if(OPTCOLL_BUILD_BENCH)
  add_executable(trees_dp bench/trees_dp.cpp)
  target_link_libraries(trees_dp PRIVATE optcoll fmt::fmt optcoll_warnings)
endif()
