# ompi/: mca_coll_optcoll.so, optcoll as an Open MPI 4.1 coll component
# (src/ompi/component.c), for programs in any language under Open MPI.
# Built when the MPI layer uses Open MPI 4.1 and its internal headers are
# installed (Debian's libopenmpi-dev); otherwise skipped with one message.
# Needs the drop-in's shapes and runtime (cmake/pmpi.cmake): included after it.
if(NOT TARGET optcoll_pmpi_impl OR NOT OPTCOLL_MPI_FLAVOR STREQUAL "openmpi")
  return()
endif()

find_path(OPTCOLL_OMPI_INCLUDE_DIR ompi/mca/coll/coll.h HINTS ${MPI_C_INCLUDE_DIRS} PATH_SUFFIXES openmpi
          DOC "Open MPI's internal headers (ompi/mca/coll/coll.h)")
set(_optcoll_ompi_skip "")
if(NOT EXISTS "${OPTCOLL_OMPI_INCLUDE_DIR}/ompi/mca/coll/coll.h" OR NOT EXISTS "${OPTCOLL_OMPI_INCLUDE_DIR}/opal_config.h")
  set(_optcoll_ompi_skip "Open MPI's internal headers (ompi/mca/coll/coll.h, opal_config.h) not found")
else()
  file(STRINGS ${OPTCOLL_OMPI_INCLUDE_DIR}/opal_config.h _optcoll_ompi_version
       REGEX "^#define OMPI_(MAJOR|MINOR)_VERSION ")
  string(REGEX REPLACE ".*OMPI_MAJOR_VERSION ([0-9]+).*OMPI_MINOR_VERSION ([0-9]+).*" "\\1.\\2" _optcoll_ompi_version
                       "${_optcoll_ompi_version}")
  if(NOT _optcoll_ompi_version VERSION_EQUAL 4.1)
    set(_optcoll_ompi_skip "Open MPI ${_optcoll_ompi_version}, the component needs 4.1")
  else()
    # The module API it fills in: 4.1's persistent entries.
    include(CheckCSourceCompiles)
    set(CMAKE_REQUIRED_INCLUDES ${OPTCOLL_OMPI_INCLUDE_DIR} ${MPI_C_INCLUDE_DIRS})
    check_c_source_compiles("#include \"ompi_config.h\"
#include \"ompi/mca/coll/coll.h\"
#include \"ompi/mca/pml/pml.h\"
int main(void) { mca_coll_base_module_t m; m.coll_bcast_init = 0; m.coll_iallreduce = 0; return 0; }"
                            OPTCOLL_OMPI_COLL_API)
    unset(CMAKE_REQUIRED_INCLUDES)
    if(NOT OPTCOLL_OMPI_COLL_API)
      set(_optcoll_ompi_skip "Open MPI's coll module API is not 4.1's")
    endif()
  endif()
endif()
# Where Open MPI looks for its components (mca_coll_tuned.so's folder).
get_filename_component(_optcoll_ompi_libdir "${MPI_C_LIB_NAMES}" DIRECTORY)
foreach(lib IN LISTS MPI_C_LIBRARIES)
  get_filename_component(_optcoll_ompi_libdir "${lib}" DIRECTORY)
endforeach()
find_path(OPTCOLL_OMPI_COMPONENT_DIR mca_coll_tuned.so HINTS ${_optcoll_ompi_libdir}
          PATH_SUFFIXES openmpi3 openmpi DOC "Open MPI's component folder")
find_library(OPTCOLL_OMPI_OPAL_LIBRARY open-pal HINTS ${_optcoll_ompi_libdir})
if(NOT _optcoll_ompi_skip AND (NOT OPTCOLL_OMPI_COMPONENT_DIR OR NOT OPTCOLL_OMPI_OPAL_LIBRARY))
  set(_optcoll_ompi_skip "Open MPI's component folder or libopen-pal not found")
endif()
if(_optcoll_ompi_skip)
  message(STATUS "optcoll: the Open MPI component is not built: ${_optcoll_ompi_skip}")
  if(OPTCOLL_BUILD_TESTS)  # reported as skipped, never passed
    add_test(NAME ompi_component COMMAND sh -c "echo \"SKIPPED: $1\"; exit 77" sh "${_optcoll_ompi_skip}")
    set_tests_properties(ompi_component PROPERTIES LABELS "mpi;ompi" SKIP_RETURN_CODE 77)
  endif()
  return()
endif()
message(STATUS "optcoll: Open MPI ${_optcoll_ompi_version} component (components: ${OPTCOLL_OMPI_COMPONENT_DIR})")

# Self-contained apart from Open MPI and the C++ runtime; exports only
# mca_coll_optcoll_component (src/ompi/exports.map).
add_library(mca_coll_optcoll MODULE src/ompi/component.c src/ompi/request.c src/ompi/bridge.cpp)
set_target_properties(mca_coll_optcoll PROPERTIES PREFIX "" C_STANDARD 11 C_EXTENSIONS ON
                                                  LINK_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/ompi/exports.map)
target_include_directories(mca_coll_optcoll PRIVATE ${OPTCOLL_OMPI_INCLUDE_DIR} src src/ompi src/pmpi)
target_link_libraries(mca_coll_optcoll PRIVATE optcoll_pmpi_impl MPI::MPI_C ${OPTCOLL_OMPI_OPAL_LIBRARY} optcoll_warnings)
# Open MPI's headers are not written for -Wpedantic -Wconversion: the C
# side keeps -Wall -Wextra.
set_source_files_properties(src/ompi/component.c src/ompi/request.c PROPERTIES COMPILE_OPTIONS
                            "-Wno-pedantic;-Wno-conversion;-Wno-sign-conversion;-Wno-shadow")
target_link_options(mca_coll_optcoll PRIVATE "LINKER:--version-script=${CMAKE_CURRENT_SOURCE_DIR}/src/ompi/exports.map"
                    "LINKER:--no-undefined")
# Installed at Open MPI's component folder relative to Open MPI's prefix:
# with that prefix (Debian: /usr) exactly where Open MPI looks; under any
# other prefix the same layout (then on OMPI_MCA_mca_base_component_path).
find_program(OPTCOLL_OMPI_INFO ompi_info HINTS ${_optcoll_ompi_libdir}/../bin)
set(_optcoll_ompi_prefix /usr)
if(OPTCOLL_OMPI_INFO)
  execute_process(COMMAND ${OPTCOLL_OMPI_INFO} --parsable --path prefix OUTPUT_VARIABLE _out ERROR_QUIET
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(_out MATCHES "^path:prefix:(.+)$")
    set(_optcoll_ompi_prefix ${CMAKE_MATCH_1})
  endif()
endif()
file(RELATIVE_PATH _optcoll_ompi_reldir ${_optcoll_ompi_prefix} ${OPTCOLL_OMPI_COMPONENT_DIR})
set(OPTCOLL_OMPI_INSTALL_DIR ${_optcoll_ompi_reldir} CACHE STRING
    "Where cmake --install puts mca_coll_optcoll.so (relative: under the install prefix)")
install(TARGETS mca_coll_optcoll LIBRARY DESTINATION ${OPTCOLL_OMPI_INSTALL_DIR})
# For the tests: Open MPI's own components and this one.
set(OPTCOLL_OMPI_COMPONENT_PATH "$<TARGET_FILE_DIR:mca_coll_optcoll>:${OPTCOLL_OMPI_COMPONENT_DIR}")

if(NOT OPTCOLL_BUILD_TESTS)
  return()
endif()
# The component under unmodified programs (tests/ompi/run_component_test.sh:
# the same output as without it, optcoll ran the calls): the drop-in's C
# programs (built against plain MPI by cmake/pmpi.cmake), a plain build of
# freed_handles.c (datatypes, operators and communicators freed while
# requests run), Fortran with `use mpi` and mpif.h, and mpi4py.
# optcoll_add_ompi_test(<name> NP <n>... [OPS <op>...] COMMAND <program> [args])
function(optcoll_add_ompi_test name)
  cmake_parse_arguments(ARG "" "" "NP;OPS;COMMAND" ${ARGN})
  list(JOIN ARG_OPS " " _ops)
  foreach(np IN LISTS ARG_NP)
    add_test(NAME ompi_${name}.np${np}
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tests/ompi/run_component_test.sh ${MPIEXEC_EXECUTABLE} ${np}
                     "${OPTCOLL_OMPI_COMPONENT_PATH}" ${ARG_COMMAND})
    set_tests_properties(ompi_${name}.np${np} PROPERTIES LABELS "mpi;ompi" TIMEOUT 300 RESOURCE_LOCK mpi
                         SKIP_RETURN_CODE 77 ENVIRONMENT "${OPTCOLL_MPI_TEST_ENV};OPTCOLL_TEST_OPS=${_ops}")
  endforeach()
endfunction()
optcoll_add_ompi_test(dropin NP 1 3 8 COMMAND $<TARGET_FILE:optcoll_pmpi_plain>)
optcoll_add_ompi_test(nonblocking NP 5 COMMAND $<TARGET_FILE:optcoll_pmpi_nonblocking_plain>)
optcoll_add_ompi_test(persistent NP 3 COMMAND $<TARGET_FILE:optcoll_pmpi_persistent_plain>)
# A C program of its own checks under the component, every call forced
# through optcoll (tests/pmpi/run_stress_test.sh), ops: OPTCOLL_TEST_OPS.
function(optcoll_add_ompi_checked name np source ops)
  add_executable(optcoll_ompi_${name} ${source})
  target_link_libraries(optcoll_ompi_${name} PRIVATE MPI::MPI_C)
  set_target_properties(optcoll_ompi_${name} PROPERTIES C_STANDARD 99 C_EXTENSIONS OFF)
  target_compile_options(optcoll_ompi_${name} PRIVATE -Wall -Wextra -Werror)
  add_test(NAME ompi_${name}.np${np}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tests/pmpi/run_stress_test.sh ${MPIEXEC_EXECUTABLE} ${np}
                   $<TARGET_FILE:optcoll_ompi_${name}>)
  set_tests_properties(ompi_${name}.np${np} PROPERTIES LABELS "mpi;ompi" TIMEOUT 300 RESOURCE_LOCK mpi SKIP_RETURN_CODE 77
                       ENVIRONMENT "${OPTCOLL_MPI_TEST_ENV};${_optcoll_forced};OPTCOLL_TEST_OPS=${ops};OMPI_MCA_mca_base_component_path=${OPTCOLL_OMPI_COMPONENT_PATH}")
endfunction()
# Both run through optcoll only: natively Open MPI 4.1.4 crashes on freed
# handles, and its libnbc now and then when a communicator is freed before
# its requests complete.
optcoll_add_ompi_checked(freed_handles 3 tests/pmpi/freed_handles.c "${_optcoll_request_names}")
# A communicator split and freed while requests on it run.
optcoll_add_ompi_checked(split_requests 5 tests/ompi/split_requests.c "Iallreduce Ibcast Allreduce_init")
# Three threads, each on its own communicator, all calling at once
# (MPI_THREAD_MULTIPLE; skipped where the library does not provide it).
find_package(Threads REQUIRED)
optcoll_add_ompi_checked(threads 3 tests/ompi/threads.c "Allreduce Bcast Iallreduce")
target_link_libraries(optcoll_ompi_threads PRIVATE Threads::Threads)
set(_optcoll_ompi_targets mca_coll_optcoll optcoll_ompi_freed_handles optcoll_ompi_split_requests optcoll_ompi_threads optcoll_pmpi_plain optcoll_pmpi_nonblocking_plain
                          optcoll_pmpi_persistent_plain)

# Fortran (gfortran with Open MPI's Fortran bindings), when there is one.
include(CheckLanguage)
check_language(Fortran)
if(CMAKE_Fortran_COMPILER)
  enable_language(Fortran)
  find_package(MPI COMPONENTS Fortran)
endif()
if(TARGET MPI::MPI_Fortran)
  foreach(f use_mpi:fortran_use_mpi.f90 mpif:fortran_mpif.f)
    string(REPLACE ":" ";" f "${f}")
    list(GET f 0 _name)
    list(GET f 1 _source)
    add_executable(optcoll_ompi_fortran_${_name} tests/ompi/${_source})
    target_link_libraries(optcoll_ompi_fortran_${_name} PRIVATE MPI::MPI_Fortran)
    optcoll_add_ompi_test(fortran_${_name} NP 3 OPS Bcast Allreduce
                          COMMAND $<TARGET_FILE:optcoll_ompi_fortran_${_name}>)
    list(APPEND _optcoll_ompi_targets optcoll_ompi_fortran_${_name})
  endforeach()
else()
  add_test(NAME ompi_fortran COMMAND sh -c "echo 'SKIPPED: no Fortran compiler with MPI (Debian: gfortran)'; exit 77")
  set_tests_properties(ompi_fortran PROPERTIES LABELS "mpi;ompi" SKIP_RETURN_CODE 77)
endif()
# mpi4py (Debian's python3-mpi4py, built against this Open MPI).
optcoll_add_ompi_test(mpi4py NP 3 OPS Bcast Allreduce Iallreduce
                      COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/tests/pmpi/mpi4py_collectives.py)
add_custom_target(optcoll_ompi_all DEPENDS ${_optcoll_ompi_targets})
add_dependencies(optcoll_mpi_all optcoll_ompi_all)
