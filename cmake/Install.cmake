# What `cmake --install` puts where. Component `emulator`: the CANN-layout headers, the bundled
# providers, a CMake package (find_package(aclnn_check): aclnn_check::emulator is the cpu provider,
# aclnn_check::reference the ref provider) and a pkg-config file (aclnn_check), so that a program
# written for CANN builds against the cpu provider unchanged. Component `harness`: aclnn-check.
include(CMakePackageConfigHelpers)

# The headers keep CANN's layout under their own folder: -I<prefix>/include/aclnn_check stands in
# for CANN's -I<toolkit>/include, and its aclnnop/ subfolder for CANN's -I<toolkit>/include/aclnnop.
set(aclnn_check_include_dir include/aclnn_check)
# aclnn-check finds the bundled providers in ../lib/aclnn-check (src/device_access/loader.cc).
set(aclnn_check_provider_dir lib/aclnn-check)
set(aclnn_check_cmake_dir lib/cmake/aclnn_check)

foreach(backend cpu ref)
  target_include_directories(aclnn_${backend} INTERFACE
    $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include/aclnnop>
    $<INSTALL_INTERFACE:${aclnn_check_include_dir}>
    $<INSTALL_INTERFACE:${aclnn_check_include_dir}/aclnnop>)
endforeach()
set_target_properties(aclnn_cpu PROPERTIES EXPORT_NAME emulator)
set_target_properties(aclnn_ref PROPERTIES EXPORT_NAME reference)

install(TARGETS aclnn_cpu aclnn_ref EXPORT aclnn_check_targets
        LIBRARY DESTINATION ${aclnn_check_provider_dir} COMPONENT emulator)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/ DESTINATION ${aclnn_check_include_dir}
        COMPONENT emulator)
install(EXPORT aclnn_check_targets NAMESPACE aclnn_check:: FILE aclnn_checkTargets.cmake
        DESTINATION ${aclnn_check_cmake_dir} COMPONENT emulator)
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/aclnn_checkConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/aclnn_checkConfig.cmake
                              INSTALL_DESTINATION ${aclnn_check_cmake_dir})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/aclnn_checkConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/aclnn_checkConfig.cmake
              ${CMAKE_BINARY_DIR}/aclnn_checkConfigVersion.cmake
        DESTINATION ${aclnn_check_cmake_dir} COMPONENT emulator)
configure_file(${CMAKE_SOURCE_DIR}/cmake/aclnn_check.pc.in ${CMAKE_BINARY_DIR}/aclnn_check.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/aclnn_check.pc DESTINATION lib/pkgconfig COMPONENT emulator)

install(TARGETS aclnn-check RUNTIME DESTINATION bin COMPONENT harness)
