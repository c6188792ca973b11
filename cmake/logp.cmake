# logp/: LogP constructions of Karp, Sahay, Santos, Schauser (SPAA 1993):
# optimal broadcast trees, k-item and continuous broadcast, all-to-all and
# combining broadcast, optimal summation, and the LogP/LogGP event simulator
# that checks them. MPI-free; included by the top-level CMakeLists.txt after
# the core targets exist.
target_sources(optcoll PRIVATE
  src/logp/fibonacci.cpp
  src/logp/broadcast_tree.cpp
  src/logp/simulator.cpp
  src/logp/alltoall.cpp
  src/logp/combine.cpp
  src/logp/summation.cpp
  src/logp/block_cyclic.cpp
  src/logp/word_search.cpp
  src/logp/word_options.cpp
  src/logp/continuous.cpp
  src/logp/compose.cpp
  src/logp/kitem.cpp
  src/logp/kitem_endgame.cpp
  src/logp/svg.cpp
)
target_sources(optcoll_cli PRIVATE src/cli/cmd_logp.cpp src/cli/cmd_logp_run.cpp src/cli/cmd_logp_postal.cpp)

if(OPTCOLL_BUILD_TESTS)
  find_package(GTest REQUIRED)
  include(GoogleTest)
  add_executable(optcoll_logp_tests
    tests/logp/test_broadcast_tree.cpp
    tests/logp/test_simulator.cpp
    tests/logp/test_alltoall_combine.cpp
    tests/logp/test_summation.cpp
    tests/logp/test_continuous.cpp
    tests/logp/test_kitem.cpp
    tests/logp/test_plan_tree.cpp
  )
  target_link_libraries(optcoll_logp_tests PRIVATE optcoll GTest::gtest_main optcoll_warnings)
  gtest_discover_tests(optcoll_logp_tests DISCOVERY_TIMEOUT 60 PROPERTIES LABELS "logp")

  # The CLI, run as a binary.
  add_executable(optcoll_logp_cli_tests tests/logp/test_cli_logp.cpp)
  target_link_libraries(optcoll_logp_cli_tests PRIVATE GTest::gtest_main nlohmann_json::nlohmann_json optcoll_warnings)
  target_compile_definitions(optcoll_logp_cli_tests PRIVATE OPTCOLL_CLI_PATH="$<TARGET_FILE:optcoll_cli>")
  add_dependencies(optcoll_logp_cli_tests optcoll_cli)
  gtest_discover_tests(optcoll_logp_cli_tests DISCOVERY_TIMEOUT 60 PROPERTIES LABELS "logp;cli")
endif()

if(OPTCOLL_BUILD_BENCH)
  add_executable(logp_bench bench/logp_bench.cpp)
  target_link_libraries(logp_bench PRIVATE optcoll fmt::fmt optcoll_warnings)
endif()
