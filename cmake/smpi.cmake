# SimGrid/SMPI build (scripts/build-smpi.sh, ./build-smpi): the compilers are
# smpicc/smpicxx, so liboptcoll and liboptcoll_mpi are the ordinary sources
# compiled against SMPI's mpi.h, and the benchmark bench/smpi/collectives
# runs them under smpirun on a simulated platform (docs/smpi.md).
# An SMPI program is a shared object that smpirun loads once per simulated
# rank (global-variable privatization), so the optcoll libraries are linked
# into it statically: every rank then has its own copy of their globals.
option(OPTCOLL_SMPI "Build the SimGrid/SMPI benchmark (configure with smpicc/smpicxx as the compilers)" OFF)
if(NOT OPTCOLL_SMPI)
  return()
endif()
if(NOT TARGET optcoll_mpi)
  message(FATAL_ERROR "optcoll: OPTCOLL_SMPI needs the MPI layer (find_package(MPI) with smpicxx failed)")
endif()

add_executable(smpi_collectives bench/smpi/collectives.cpp bench/smpi/cases.cpp bench/smpi/native.cpp)
set_target_properties(smpi_collectives PROPERTIES OUTPUT_NAME collectives RUNTIME_OUTPUT_DIRECTORY
                                                  ${CMAKE_BINARY_DIR}/bench/smpi)
target_include_directories(smpi_collectives PRIVATE ${PROJECT_SOURCE_DIR}/bench)
target_link_libraries(smpi_collectives PRIVATE optcoll_mpi fmt::fmt optcoll_warnings)

# The quick SMPI profile (scripts/test-smpi.sh runs this build's tests):
# p = 64 and 100, every operation at 8 B and 64 KiB, optcoll checked against
# SMPI's own result; the check's own test (a wrong result must fail); and
# the calibration's reading of the platform (its links' beta, its alpha).
# Exit 77 (SimGrid missing) reports SKIPPED.
enable_testing()
add_test(NAME smpi_quick COMMAND ${PROJECT_SOURCE_DIR}/scripts/bench-smpi.sh --quick --jobs 2)
add_test(NAME smpi_selftest COMMAND ${PROJECT_SOURCE_DIR}/scripts/bench-smpi.sh --selftest)
# The multi-core-node smoke (scripts/bench-smpi-nodes.sh --smoke): the
# crossbar-8x8 platform, SMPI's node layout (8 nodes of 8 ranks) and the
# five node-aware operations at 8 B and 64 KiB, results checked (seconds).
add_test(NAME smpi_nodes COMMAND ${PROJECT_SOURCE_DIR}/scripts/bench-smpi-nodes.sh --smoke)
add_test(NAME smpi_calibration COMMAND ${PROJECT_SOURCE_DIR}/scripts/bench-smpi.sh --calibration)
set_tests_properties(smpi_quick smpi_selftest smpi_calibration smpi_nodes PROPERTIES ENVIRONMENT OPTCOLL_SMPI_NO_BUILD=1 SKIP_RETURN_CODE 77
                                                          LABELS smpi RESOURCE_LOCK smpi)
set_tests_properties(smpi_quick PROPERTIES TIMEOUT 600)
set_tests_properties(smpi_selftest smpi_calibration smpi_nodes PROPERTIES TIMEOUT 120)
