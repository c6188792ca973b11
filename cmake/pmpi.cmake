# pmpi/: liboptcoll_pmpi.so, the drop-in interposition library (MPI_Bcast,
# MPI_Reduce, ... on top of optcoll, per the OPTCOLL_<OP> policy), for the
# MPI this build uses: a build with MPICH gives the MPICH one. Needs the MPI
# layer (cmake/mpi.cmake); included after it.
if(NOT TARGET optcoll_mpi)
  return()
endif()

# Everything but the MPI_* definitions, for the library and its tests.
add_library(optcoll_pmpi_impl STATIC src/pmpi/policy.cpp src/pmpi/runtime.cpp src/pmpi/bytes.cpp)
target_include_directories(optcoll_pmpi_impl PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/src/pmpi>)
target_link_libraries(optcoll_pmpi_impl PUBLIC optcoll_mpi PRIVATE optcoll_warnings)
set_target_properties(optcoll_pmpi_impl PROPERTIES POSITION_INDEPENDENT_CODE ON)

# Self-contained apart from MPI and the C++ runtime (optcoll and optcoll_mpi
# linked in statically), exporting only MPI_* (src/pmpi/exports.map).
add_library(optcoll_pmpi SHARED src/pmpi/interpose.cpp src/pmpi/requests.cpp src/pmpi/request_ops.cpp src/pmpi/blocking.cpp
            src/pmpi/large_count.cpp)
target_link_libraries(optcoll_pmpi PRIVATE optcoll_pmpi_impl optcoll_warnings)
target_link_options(optcoll_pmpi PRIVATE "LINKER:--version-script=${CMAKE_CURRENT_SOURCE_DIR}/src/pmpi/exports.map"
                    "LINKER:--no-undefined")
set_target_properties(optcoll_pmpi PROPERTIES LINK_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/pmpi/exports.map)

if(OPTCOLL_BUILD_TESTS)
  # The policy rules, without MPI processes.
  find_package(GTest REQUIRED)
  include(GoogleTest)
  add_executable(optcoll_pmpi_policy_tests tests/pmpi/test_policy.cpp)
  target_link_libraries(optcoll_pmpi_policy_tests PRIVATE optcoll_pmpi_impl GTest::gtest_main optcoll_warnings)
  gtest_discover_tests(optcoll_pmpi_policy_tests DISCOVERY_TIMEOUT 60 PROPERTIES LABELS "pmpi")

  # The shapes of every MPI argument list, the MPI collective standing in for optcoll.
  add_executable(optcoll_pmpi_shapes_tests tests/pmpi/mpi_shapes_test.cpp)
  target_link_libraries(optcoll_pmpi_shapes_tests PRIVATE optcoll_pmpi_impl optcoll_mpi_test_main optcoll_warnings)
  optcoll_add_mpi_test(mpi_pmpi_shapes optcoll_pmpi_shapes_tests NP 1 2 3 5 LABELS pmpi)

  # The same blocking call again: its plan runs again, optcoll behind the shapes.
  add_executable(optcoll_pmpi_repeat_tests tests/pmpi/mpi_repeat_calls_test.cpp)
  target_link_libraries(optcoll_pmpi_repeat_tests PRIVATE optcoll_pmpi_impl optcoll_mpi_test_main optcoll_warnings)
  optcoll_add_mpi_test(mpi_pmpi_repeat optcoll_pmpi_repeat_tests NP 1 2 3 5 LABELS pmpi)

  # A drop-in test: an unmodified C program (source: its file, or a list of
  # them), built against plain MPI (<prefix>_plain) and once more linked with
  # liboptcoll_pmpi.so (<prefix>_linked), run with and without the library
  # under every policy by tests/pmpi/run_pmpi_test.sh: pmpi_<name>.np<p> for
  # each p.
  function(optcoll_add_dropin_test name prefix source)
    cmake_parse_arguments(PARSE_ARGV 3 ARG "" "DEFINE" "")
    foreach(kind plain linked)
      add_executable(${prefix}_${kind} ${source})
      set_target_properties(${prefix}_${kind} PROPERTIES C_STANDARD 99 C_EXTENSIONS OFF)
      target_compile_options(${prefix}_${kind} PRIVATE -Wall -Wextra -Werror)
      if(ARG_DEFINE)
        target_compile_definitions(${prefix}_${kind} PRIVATE ${ARG_DEFINE})
      endif()
    endforeach()
    target_link_libraries(${prefix}_plain PRIVATE MPI::MPI_C)
    target_link_libraries(${prefix}_linked PRIVATE optcoll_pmpi MPI::MPI_C)
    foreach(np IN LISTS ARG_UNPARSED_ARGUMENTS)
      add_test(NAME pmpi_${name}.np${np}
               COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tests/pmpi/run_pmpi_test.sh ${MPIEXEC_EXECUTABLE} ${np}
                       $<TARGET_FILE_DIR:optcoll_pmpi> $<TARGET_FILE:${prefix}_plain>
                       $<TARGET_FILE:${prefix}_linked>)
      set_tests_properties(pmpi_${name}.np${np} PROPERTIES LABELS "mpi;pmpi" TIMEOUT 300 RESOURCE_LOCK mpi
                                                          ENVIRONMENT "${OPTCOLL_MPI_TEST_ENV}")
    endforeach()
    add_dependencies(optcoll_mpi_all ${prefix}_plain ${prefix}_linked)
  endfunction()
  # MPICH's native collectives crawl on an oversubscribed node
  # (docs/decisions/poll-when-oversubscribed.md), hence fewer ranks there.
  set(_optcoll_pmpi_nps 1 2 3 5 7 8)
  if(OPTCOLL_MPI_FLAVOR STREQUAL "mpich")
    set(_optcoll_pmpi_nps 1 2 3 5)
  endif()
  # The program of most drop-in tests: every intercepted collective, the v
  # ones in their own file.
  set(_optcoll_plain "tests/pmpi/plain_collectives.c;tests/pmpi/plain_v_cases.c")
  optcoll_add_dropin_test(dropin optcoll_pmpi "${_optcoll_plain}" ${_optcoll_pmpi_nps})

  # Nonblocking and persistent collectives with every completion function,
  # native requests in the same arrays (tests/pmpi/plain_requests.c).
  optcoll_add_dropin_test(requests optcoll_pmpi_requests tests/pmpi/plain_requests.c 1 2 3 5)
  # Every case of plain_collectives.c in the nonblocking and the persistent
  # forms (tests/pmpi/request_forms.h): every MPI_I<op> and MPI_<Op>_init.
  optcoll_add_dropin_test(nonblocking optcoll_pmpi_nonblocking "${_optcoll_plain}" 1 3 5 DEFINE PLAIN_REQUEST_FORM=1)
  optcoll_add_dropin_test(persistent optcoll_pmpi_persistent "${_optcoll_plain}" 1 3 5 DEFINE PLAIN_REQUEST_FORM=2)
  # MPI-4's large-count bindings of every intercepted collective (MPICH 4;
  # Open MPI 4.1 has none), blocking, nonblocking and persistent.
  if(OPTCOLL_MPI_FLAVOR STREQUAL "mpich")
    optcoll_add_dropin_test(large optcoll_pmpi_large "${_optcoll_plain}" 1 3 5 DEFINE PLAIN_LARGE_COUNT)
    optcoll_add_dropin_test(large_nonblocking optcoll_pmpi_large_nonblocking "${_optcoll_plain}" 3 5
                            DEFINE "PLAIN_LARGE_COUNT;PLAIN_REQUEST_FORM=1")
    optcoll_add_dropin_test(large_persistent optcoll_pmpi_large_persistent "${_optcoll_plain}" 3 5
                            DEFINE "PLAIN_LARGE_COUNT;PLAIN_REQUEST_FORM=2")
    # Calls beyond INT_MAX bytes or elements (large-count bindings, and an
    # int binding with a large datatype), forced through optcoll
    # (tests/pmpi/beyond_int_max.c, np 2): about 9 GiB, Skipped without them.
    add_executable(optcoll_pmpi_beyond_int tests/pmpi/beyond_int_max.c)
    target_link_libraries(optcoll_pmpi_beyond_int PRIVATE MPI::MPI_C)
    set_target_properties(optcoll_pmpi_beyond_int PROPERTIES C_STANDARD 99 C_EXTENSIONS OFF)
    target_compile_options(optcoll_pmpi_beyond_int PRIVATE -Wall -Wextra -Werror)
    add_test(NAME pmpi_beyond_int.np2
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tests/pmpi/run_beyond_int_test.sh ${MPIEXEC_EXECUTABLE}
                     $<TARGET_FILE_DIR:optcoll_pmpi> $<TARGET_FILE:optcoll_pmpi_beyond_int>)
    set_tests_properties(pmpi_beyond_int.np2 PROPERTIES LABELS "mpi;pmpi;mpi_large" TIMEOUT 900 RESOURCE_LOCK mpi
                                                     SKIP_RETURN_CODE 77 ENVIRONMENT "${OPTCOLL_MPI_TEST_ENV}")
    add_dependencies(optcoll_mpi_all optcoll_pmpi_beyond_int)
  endif()

  # An unmodified mpi4py program under the preload (skipped without mpi4py,
  # or when mpi4py uses another MPI library).
  foreach(np 1 3)
    add_test(NAME pmpi_mpi4py.np${np}
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tests/pmpi/run_mpi4py_test.sh ${MPIEXEC_EXECUTABLE} ${np}
                     $<TARGET_FILE_DIR:optcoll_pmpi>)
    set_tests_properties(pmpi_mpi4py.np${np} PROPERTIES LABELS "mpi;pmpi" TIMEOUT 300 RESOURCE_LOCK mpi
                                                        SKIP_RETURN_CODE 77 ENVIRONMENT "${OPTCOLL_MPI_TEST_ENV}")
  endforeach()

  # Datatypes the OPTCOLL_* calls do not take (extent 0 or negative, a
  # predefined operator on a derived type), through the same test: reductions
  # must fall back to PMPI_*, copies and exchanges move bytes, and the output
  # must not change (tests/pmpi/unsupported_types.c).
  optcoll_add_dropin_test(unsupported optcoll_pmpi_unsupported tests/pmpi/unsupported_types.c 3)

  # Every intercepted collective thousands of times on communicators created
  # and freed, forced through optcoll (180 rounds: all 15 operations now run
  # in optcoll, which costs more per round): results checked, no memory growth
  # (tests/pmpi/stress_collectives.c), optcoll ran every operation (the
  # verbose summary, tests/pmpi/run_stress_test.sh); under ASan,
  # LeakSanitizer checks the rest (scripts/test-sanitizers.sh).
  add_executable(optcoll_pmpi_stress tests/pmpi/stress_collectives.c)
  target_link_libraries(optcoll_pmpi_stress PRIVATE optcoll_pmpi MPI::MPI_C)
  set_target_properties(optcoll_pmpi_stress PROPERTIES C_STANDARD 99 C_EXTENSIONS OFF)
  target_compile_options(optcoll_pmpi_stress PRIVATE -Wall -Wextra -Werror)
  set(_optcoll_forced OPTCOLL_BCAST=optcoll OPTCOLL_REDUCE=optcoll OPTCOLL_ALLGATHER=optcoll
                      OPTCOLL_REDUCE_SCATTER=optcoll OPTCOLL_ALLREDUCE=optcoll OPTCOLL_GATHER=optcoll
                      OPTCOLL_SCATTER=optcoll OPTCOLL_ALLTOALL=optcoll OPTCOLL_ALLTOALLV=optcoll
                      OPTCOLL_SCAN=optcoll OPTCOLL_EXSCAN=optcoll)
  foreach(np 3 4)
    add_test(NAME pmpi_stress.np${np}
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tests/pmpi/run_stress_test.sh ${MPIEXEC_EXECUTABLE} ${np}
                     $<TARGET_FILE:optcoll_pmpi_stress> 180)
    set_tests_properties(pmpi_stress.np${np} PROPERTIES LABELS "mpi;pmpi" TIMEOUT 600 RESOURCE_LOCK mpi
                                                        ENVIRONMENT "${OPTCOLL_MPI_TEST_ENV};${_optcoll_forced}")
  endforeach()

  # MPI's lifetime rules: every nonblocking and persistent collective with
  # its datatype, operator and communicator freed right after the call,
  # forced through optcoll, results against their closed forms
  # (tests/pmpi/freed_handles.c); the summary must count each form.
  add_executable(optcoll_pmpi_freed_handles tests/pmpi/freed_handles.c)
  target_link_libraries(optcoll_pmpi_freed_handles PRIVATE optcoll_pmpi MPI::MPI_C)
  set_target_properties(optcoll_pmpi_freed_handles PROPERTIES C_STANDARD 99 C_EXTENSIONS OFF)
  target_compile_options(optcoll_pmpi_freed_handles PRIVATE -Wall -Wextra -Werror)
  set(_optcoll_request_names Ibcast Ireduce Iallreduce Iscan Iexscan Ireduce_scatter_block Ireduce_scatter Iallgather
                             Iallgatherv Igather Igatherv Iscatter Iscatterv Ialltoall Ialltoallv)
  foreach(op Bcast Reduce Allreduce Scan Exscan Reduce_scatter_block Reduce_scatter Allgather Allgatherv Gather Gatherv
             Scatter Scatterv Alltoall Alltoallv)
    list(APPEND _optcoll_request_names ${op}_init)
  endforeach()
  list(JOIN _optcoll_request_names " " _optcoll_request_names)
  foreach(np 2 3 5)
    add_test(NAME pmpi_freed_handles.np${np}
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tests/pmpi/run_stress_test.sh ${MPIEXEC_EXECUTABLE} ${np}
                     $<TARGET_FILE:optcoll_pmpi_freed_handles>)
    set_tests_properties(pmpi_freed_handles.np${np} PROPERTIES LABELS "mpi;pmpi" TIMEOUT 300 RESOURCE_LOCK mpi
                         ENVIRONMENT "${OPTCOLL_MPI_TEST_ENV};${_optcoll_forced};OPTCOLL_TEST_OPS=${_optcoll_request_names}")
  endforeach()
  add_dependencies(optcoll_mpi_all optcoll_pmpi_freed_handles)
  # The drop-in's `auto`, both directions for every intercepted call
  # (tests/pmpi/test_auto.cpp): a plain MPI program under LD_PRELOAD, the
  # expected route from alpha-beta formulas and tuning files written in the
  # test, which does not link optcoll.
  add_executable(optcoll_pmpi_auto_points tests/pmpi/auto_points.c)
  target_link_libraries(optcoll_pmpi_auto_points PRIVATE MPI::MPI_C)
  set_target_properties(optcoll_pmpi_auto_points PROPERTIES C_STANDARD 99 C_EXTENSIONS OFF)
  target_compile_options(optcoll_pmpi_auto_points PRIVATE -Wall -Wextra -Werror)
  add_executable(optcoll_pmpi_auto_tests tests/pmpi/test_auto.cpp)
  target_link_libraries(optcoll_pmpi_auto_tests PRIVATE GTest::gtest_main optcoll_warnings)
  list(JOIN OPTCOLL_MPI_TEST_ENV " " _optcoll_mpi_env)
  target_compile_definitions(
    optcoll_pmpi_auto_tests PRIVATE OPTCOLL_MPIEXEC="${MPIEXEC_EXECUTABLE}" OPTCOLL_MPI_ENV="${_optcoll_mpi_env}"
                                    OPTCOLL_PMPI_LIB="$<TARGET_FILE:optcoll_pmpi>"
                                    OPTCOLL_AUTO_PROGRAM="$<TARGET_FILE:optcoll_pmpi_auto_points>"
                                    OPTCOLL_OPS_DEF="${CMAKE_CURRENT_SOURCE_DIR}/src/mpi/api/collectives.def")
  add_dependencies(optcoll_pmpi_auto_tests optcoll_pmpi optcoll_pmpi_auto_points)
  # (One label: gtest_discover_tests splits a list value into separate
  # arguments. `ctest -L mpi` takes a regular expression, so it runs these.)
  gtest_discover_tests(optcoll_pmpi_auto_tests DISCOVERY_TIMEOUT 60
                       PROPERTIES LABELS pmpi TIMEOUT 300 RESOURCE_LOCK mpi)

  add_dependencies(optcoll_mpi_all optcoll_pmpi optcoll_pmpi_policy_tests optcoll_pmpi_shapes_tests optcoll_pmpi_repeat_tests optcoll_pmpi_stress
                                 optcoll_pmpi_auto_tests)
endif()

# optcoll-tune: writes the tuning file OPTCOLL_TUNING_FILE loads (and is the
# engine of scripts/demo.sh).
add_library(optcoll_pmpi_exercise STATIC src/pmpi/exercise.cpp)
target_link_libraries(optcoll_pmpi_exercise PUBLIC optcoll_pmpi_impl PRIVATE optcoll_warnings)
add_executable(optcoll_tune src/pmpi/tune_main.cpp)
set_target_properties(optcoll_tune PROPERTIES OUTPUT_NAME optcoll-tune)
target_link_libraries(optcoll_tune PRIVATE optcoll_pmpi_exercise fmt::fmt CLI11::CLI11 optcoll_warnings)

if(OPTCOLL_BUILD_TESTS AND TARGET optcoll_cli)
  # The demo report in headless Chromium (tests/cli/report_browser_test.sh):
  # one chart per MPI call, every series increasing in size. Skipped (exit
  # 77) where Chromium is not installed.
  add_test(NAME cli_report_browser
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tests/cli/report_browser_test.sh ${MPIEXEC_EXECUTABLE}
                   $<TARGET_FILE:optcoll_tune> $<TARGET_FILE:optcoll_cli> ${CMAKE_CURRENT_BINARY_DIR}/report-browser)
  set_tests_properties(cli_report_browser PROPERTIES LABELS "cli" TIMEOUT 300 RESOURCE_LOCK mpi SKIP_RETURN_CODE 77
                                                     ENVIRONMENT "${OPTCOLL_MPI_TEST_ENV}")
endif()
