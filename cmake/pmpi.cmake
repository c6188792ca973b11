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
add_library(optcoll_pmpi SHARED src/pmpi/interpose.cpp)
target_link_libraries(optcoll_pmpi PRIVATE optcoll_pmpi_impl optcoll_warnings)
target_link_options(optcoll_pmpi PRIVATE "LINKER:--version-script=${CMAKE_CURRENT_SOURCE_DIR}/src/pmpi/exports.map"
                    "LINKER:--no-undefined")
set_target_properties(optcoll_pmpi PROPERTIES LINK_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/pmpi/exports.map)
