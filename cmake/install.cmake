# Installation: `cmake --install build [--prefix P]` gives
#   include/optcoll/...                  the headers
#   lib/liboptcoll.{so,a}                schedules, plans, simulator, trees, LogP (no MPI)
#   lib/liboptcoll_mpi.{so,a}            the MPI layer: <optcoll/optcoll.h>, <optcoll/optcoll.hpp>
#   lib/liboptcoll_pmpi.so               the drop-in interposition library (LD_PRELOAD or link)
#   bin/optcoll, bin/optcoll-tune        the CLI, the tuning program (MPI)
#   lib/cmake/optcoll/optcollConfig.cmake  find_package(optcoll): optcoll::optcoll and optcoll::mpi
#                                          (shared), optcoll::optcoll_static, optcoll::mpi_static
#   lib/pkgconfig/optcoll.pc, optcoll-mpi.pc
# The shared libraries are linked from the static ones (whole archive, no
# second compilation: the static libraries are position independent).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# (A target needs a source; everything comes from the archive.)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/optcoll_shared.cpp "// The objects of liboptcoll.so come from liboptcoll.a.\n")
add_library(optcoll_shared SHARED ${CMAKE_CURRENT_BINARY_DIR}/optcoll_shared.cpp)
set_target_properties(optcoll_shared PROPERTIES OUTPUT_NAME optcoll EXPORT_NAME optcoll VERSION ${PROJECT_VERSION}
                                                SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
target_link_libraries(optcoll_shared PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,optcoll>")
target_include_directories(optcoll_shared PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
                                                 $<INSTALL_INTERFACE:include>)
target_compile_features(optcoll_shared PUBLIC cxx_std_20)
set_target_properties(optcoll PROPERTIES EXPORT_NAME optcoll_static)
set(_optcoll_install_targets optcoll optcoll_shared optcoll_cli)

if(TARGET optcoll_mpi)
  add_library(optcoll_mpi_shared SHARED ${CMAKE_CURRENT_BINARY_DIR}/optcoll_shared.cpp)
  set_target_properties(optcoll_mpi_shared PROPERTIES OUTPUT_NAME optcoll_mpi EXPORT_NAME mpi VERSION ${PROJECT_VERSION}
                                                      SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
  # The archive by path, not the target: the target would bring the static
  # core along, and ld would take core objects from it into this library
  # although liboptcoll.so defines them.
  target_link_libraries(optcoll_mpi_shared PUBLIC optcoll_shared MPI::MPI_CXX MPI::MPI_C
                                           PRIVATE "-Wl,--whole-archive" $<TARGET_FILE:optcoll_mpi> "-Wl,--no-whole-archive")
  add_dependencies(optcoll_mpi_shared optcoll_mpi)
  set_target_properties(optcoll_mpi_shared PROPERTIES LINK_DEPENDS $<TARGET_FILE:optcoll_mpi>)
  set_target_properties(optcoll_mpi PROPERTIES EXPORT_NAME mpi_static)
  list(APPEND _optcoll_install_targets optcoll_mpi optcoll_mpi_shared optcoll_pmpi optcoll_tune)
endif()

install(TARGETS ${_optcoll_install_targets} EXPORT optcollTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/optcoll DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT optcollTargets NAMESPACE optcoll:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/optcoll)

if(TARGET optcoll_mpi)
  set(OPTCOLL_HAS_MPI ON)
else()
  set(OPTCOLL_HAS_MPI OFF)
endif()
configure_package_config_file(cmake/templates/optcollConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/optcollConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/optcoll)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/optcollConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/optcollConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/optcollConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/optcoll)

# pkg-config, relocatable: prefix is found from the .pc file's own place.
file(RELATIVE_PATH OPTCOLL_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" OPTCOLL_PC_TO_PREFIX "${OPTCOLL_PC_TO_PREFIX}")
foreach(pc optcoll optcoll-mpi)
  if(pc STREQUAL "optcoll-mpi" AND NOT OPTCOLL_HAS_MPI)
    continue()
  endif()
  configure_file(cmake/templates/${pc}.pc.in ${CMAKE_CURRENT_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()
