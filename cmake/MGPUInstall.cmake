# Install rules and the exported CMake package of mgpu, included from the top
# level once the libraries and tools exist (and before test/, which depends on
# everything installed here: the Downstream test installs the build tree).
#
#   cmake --install build --prefix P
#
# gives P/include/{mgpu,mgpu-c} (headers, .td and generated .inc files),
# P/lib (libraries, MGPUPlugin.so), P/bin (tools) and
# P/lib/cmake/MGPU/{MGPUConfig,MGPUTargets}.cmake for find_package(MGPU).
include(CMakePackageConfigHelpers)

set(MGPU_INSTALL_PACKAGEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/MGPU)

# Every target installed and exported; test/ makes check-mgpu depend on them,
# since installing needs each of them built.
set(MGPU_INSTALL_TARGETS MGPUTarget MGPUDialect MGPUKernelForm MGPUGPU MGPUHost MGPUPipelines MGPUCAPI
  MGPUMLIRCAPI MGPUPlugin mgpu-opt)
# Targets that exist only in some builds or trees.
foreach(target mgpu-run mgpu_cuda_runtime mgpu_host_runtime mgpu_runner_utils)
  if(TARGET ${target})
    list(APPEND MGPU_INSTALL_TARGETS ${target})
  endif()
endforeach()

# A library built with sanitizers needs its users to link the sanitizer
# runtimes (an executable whose libraries need libasan must load it first).
if(MGPU_SANITIZE)
  foreach(target MGPUTarget MGPUDialect MGPUKernelForm MGPUGPU MGPUHost MGPUPipelines MGPUCAPI MGPUMLIRCAPI)
    set_property(TARGET ${target} APPEND PROPERTY
      INTERFACE_LINK_OPTIONS -fsanitize=address,undefined)
  endforeach()
endif()

install(TARGETS ${MGPU_INSTALL_TARGETS}
  EXPORT MGPUTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
)

# Headers and TableGen sources, then the generated .inc files next to them.
install(DIRECTORY
    ${PROJECT_SOURCE_DIR}/include/mgpu
    ${PROJECT_SOURCE_DIR}/include/mgpu-c
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td"
)
install(DIRECTORY
    ${PROJECT_BINARY_DIR}/include/mgpu
    ${PROJECT_BINARY_DIR}/include/mgpu-c
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE
)

install(EXPORT MGPUTargets
  NAMESPACE MGPU::
  DESTINATION ${MGPU_INSTALL_PACKAGEDIR}
)
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/MGPUConfig.cmake.in
  ${PROJECT_BINARY_DIR}/lib/cmake/MGPU/MGPUConfig.cmake
  INSTALL_DESTINATION ${MGPU_INSTALL_PACKAGEDIR}
)
install(FILES ${PROJECT_BINARY_DIR}/lib/cmake/MGPU/MGPUConfig.cmake
  DESTINATION ${MGPU_INSTALL_PACKAGEDIR}
)
