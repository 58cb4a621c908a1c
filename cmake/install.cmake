# `cmake --install`: the gridfuzz executable, the API headers, the self-test plugin, the formats
# library (gridfuzz::formats: its archive and headers), and the CMake package (find_package(gridfuzz)
# + gridfuzz_add_plugin) for plugins built out of tree.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS gridfuzz RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# gridfuzz watch's injection library, where the installed gridfuzz looks for it.
install(TARGETS gridfuzz_watch_injection LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/gridfuzz)
if(TARGET gridfuzz_selftest_plugin)
  install(TARGETS gridfuzz_selftest_plugin LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/gridfuzz)
endif()
foreach(header ${GRIDFUZZ_API_HEADERS})
  get_filename_component(dir ${header} DIRECTORY)
  install(FILES ${PROJECT_SOURCE_DIR}/harness/include/${header} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/${dir})
endforeach()

set(GRIDFUZZ_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/gridfuzz)

# The formats library, exported as gridfuzz::formats beside gridfuzz::api: every header of
# formats/include (all public), the static archive, and its usage (include path, C++20, whether
# the i-quant types are in it). Its own install component, so that a test can install it alone
# (tests/cpu/formats: `cmake --install BUILD --component formats`).
install(TARGETS gridfuzz_formats EXPORT gridfuzzFormatsTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT formats)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/formats/include/gridfuzz/formats
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gridfuzz COMPONENT formats)
install(EXPORT gridfuzzFormatsTargets NAMESPACE gridfuzz:: FILE gridfuzzFormatsTargets.cmake
        DESTINATION ${GRIDFUZZ_CMAKE_DIR} COMPONENT formats)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/gridfuzzConfig.cmake.in
  ${PROJECT_BINARY_DIR}/gridfuzzConfig.cmake
  INSTALL_DESTINATION ${GRIDFUZZ_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR)
# Versioned like the project; the exact API check (GRIDFUZZ_API_VERSION) happens when gridfuzz loads a plugin.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/gridfuzzConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/gridfuzzConfig.cmake ${PROJECT_BINARY_DIR}/gridfuzzConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/gridfuzzPlugin.cmake
        DESTINATION ${GRIDFUZZ_CMAKE_DIR})
