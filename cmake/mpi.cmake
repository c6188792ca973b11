# The MPI layer (mpi/): optcoll_mpi (alias optcoll::mpi) with the C API
# <optcoll/optcoll.h>, the C++ API <optcoll/optcoll.hpp> and the executor.
# Built when find_package(MPI) succeeds; pick the MPI with
#   -DMPI_C_COMPILER=mpicc.mpich -DMPI_CXX_COMPILER=mpicxx.mpich
#   -DMPIEXEC_EXECUTABLE=$(command -v mpiexec.mpich)
# (default: the system's mpicc, Open MPI on Debian).
set(MPI_CXX_SKIP_MPICXX ON CACHE BOOL "Do not use the deprecated MPI C++ bindings")
find_package(MPI COMPONENTS C CXX)
if(NOT MPI_FOUND)
  message(STATUS "optcoll: MPI not found, the MPI layer is not built")
  return()
endif()

add_library(optcoll_mpi
  src/mpi/executor/datatype.cpp
  src/mpi/executor/executor.cpp
  src/mpi/executor/executor_apply.cpp
  src/mpi/executor/executor_resolved.cpp
  src/mpi/executor/local_reduce.cpp
  src/mpi/comm/comm_cache.cpp
  src/mpi/comm/calibrate.cpp
  src/mpi/comm/calibrate_logp.cpp
  src/mpi/comm/calibrate_two_level.cpp
  src/mpi/comm/nodes.cpp
  src/mpi/comm/choose.cpp
  src/mpi/checks/arguments.cpp
  src/mpi/checks/operators.cpp
  src/mpi/checks/type_signature.cpp
  src/mpi/checks/agreement.cpp
  src/mpi/executor/run_plan.cpp
  src/mpi/executor/prepared_plan.cpp
  src/mpi/collectives/bcast.cpp
  src/mpi/collectives/reduce.cpp
  src/mpi/collectives/allgather.cpp
  src/mpi/collectives/reduce_scatter.cpp
  src/mpi/collectives/allreduce.cpp
  src/mpi/collectives/scan.cpp
  src/mpi/collectives/allmerge.cpp
  src/mpi/collectives/rooted/tree_run.cpp
  src/mpi/collectives/rooted/gather_scatter.cpp
  src/mpi/collectives/rooted/rooted_call.cpp
  src/mpi/collectives/rooted/gatherv_scatterv.cpp
  src/mpi/collectives/rooted/gatherv_adaptive.cpp
  src/mpi/collectives/rooted/decision_relay.cpp
  src/mpi/collectives/rooted/gatherv_two.cpp
  src/mpi/collectives/rooted/gatherv_persistent.cpp
  src/mpi/requests/request.cpp
  src/mpi/requests/held_handles.cpp
  src/mpi/api/c_api.cpp
  src/mpi/api/c_api_requests.cpp
  src/mpi/api/c_api_int64.cpp
  src/mpi/api/cpp_api.cpp
)
add_library(optcoll::mpi ALIAS optcoll_mpi)
target_link_libraries(optcoll_mpi PUBLIC optcoll MPI::MPI_CXX MPI::MPI_C PRIVATE $<BUILD_INTERFACE:optcoll_warnings>)

# Feature checks for what not every MPI's mpi.h provides (SimGrid 3.32's
# SMPI defines the MPI_CXX_*_COMPLEX names over variables it never declares).
include(CheckCXXSourceCompiles)
set(CMAKE_REQUIRED_LIBRARIES MPI::MPI_CXX)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
check_cxx_source_compiles("#include <mpi.h>
MPI_Datatype t[] = {MPI_CXX_FLOAT_COMPLEX, MPI_CXX_DOUBLE_COMPLEX, MPI_CXX_LONG_DOUBLE_COMPLEX};
int main() { return 0; }" OPTCOLL_HAVE_MPI_CXX_COMPLEX)
unset(CMAKE_TRY_COMPILE_TARGET_TYPE)
unset(CMAKE_REQUIRED_LIBRARIES)
target_compile_definitions(optcoll_mpi PRIVATE OPTCOLL_HAVE_MPI_CXX_COMPLEX=$<BOOL:${OPTCOLL_HAVE_MPI_CXX_COMPLEX}>)
set_target_properties(optcoll_mpi PROPERTIES POSITION_INDEPENDENT_CODE ON)
# The MPI layer's private headers (src/mpi/*.hpp, included as "mpi/...")
# for the layers and tests built with it; not installed.
target_include_directories(optcoll_mpi PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/src>)

# Which MPI runs the tests: Open MPI needs root permission and
# oversubscription switched on (CI runs as root on 2 cores), MPICH nothing.
execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE _optcoll_mpiexec_version
                ERROR_VARIABLE _optcoll_mpiexec_version RESULT_VARIABLE _optcoll_rc)
if(_optcoll_mpiexec_version MATCHES "Open MPI|OpenRTE")
  set(OPTCOLL_MPI_FLAVOR openmpi)
elseif(_optcoll_mpiexec_version MATCHES "HYDRA|MPICH")
  set(OPTCOLL_MPI_FLAVOR mpich)
else()
  set(OPTCOLL_MPI_FLAVOR unknown)
endif()
message(STATUS "optcoll: MPI layer with ${OPTCOLL_MPI_FLAVOR} (${MPIEXEC_EXECUTABLE})")

# Environment of every mpiexec run by CTest.
set(OPTCOLL_MPI_TEST_ENV "")
if(OPTCOLL_MPI_FLAVOR STREQUAL "openmpi")
  # Root, more ranks than cores; no single-copy (CMA) transport, which
  # containers often forbid (ptrace scope): the tests must not depend on it.
  set(OPTCOLL_MPI_TEST_ENV OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
                           OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none)
endif()

# optcoll_add_mpi_test(<name> <target> NP <n>... [LABELS <l>...] [TIMEOUT <s>] [ENV <k=v>...] [ARGS <a>...])
# One CTest entry <name>.np<n> per rank count, running
#   MPIEXEC_EXECUTABLE -n <n> MPIEXEC_PREFLAGS <target> MPIEXEC_POSTFLAGS.
# Exit code 77 is reported as Skipped (the gtest main returns it when every
# test skipped itself, mpi_threads when MPI_THREAD_MULTIPLE is missing).
# MPI tests never run concurrently (RESOURCE_LOCK mpi): they oversubscribe
# the machine on their own.
function(optcoll_add_mpi_test name target)
  cmake_parse_arguments(ARG "" "TIMEOUT" "NP;LABELS;ENV;ARGS" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 600)
  endif()
  foreach(np IN LISTS ARG_NP)
    add_test(NAME ${name}.np${np}
             COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${np} ${MPIEXEC_PREFLAGS} $<TARGET_FILE:${target}>
                     ${MPIEXEC_POSTFLAGS} ${ARG_ARGS})
    set_tests_properties(${name}.np${np} PROPERTIES LABELS "mpi;${ARG_LABELS}" TIMEOUT ${ARG_TIMEOUT}
                                                    RESOURCE_LOCK mpi ENVIRONMENT "${OPTCOLL_MPI_TEST_ENV};${ARG_ENV}"
                                                    SKIP_RETURN_CODE 77)
  endforeach()
endfunction()

if(OPTCOLL_BUILD_TESTS)
  add_subdirectory(tests/mpi)
endif()

if(OPTCOLL_BUILD_BENCH)
  foreach(b mpi_bcast_reduce mpi_collectives mpi_gatherv mpi_requests)
    add_executable(${b} bench/${b}.cpp)
    target_link_libraries(${b} PRIVATE optcoll_mpi fmt::fmt optcoll_warnings)
  endforeach()
endif()
