# Install rules and the exported package: after `cmake --install`, a project gets the runtime's
# targets and bsongen_generate() from
#
#   find_package(bsongen 0.1 REQUIRED)                      # bsongen::core, ::generic, ::codec
#   find_package(bsongen 0.1 REQUIRED COMPONENTS extjson)   # also ::extjson and ::runtime
#
# Two export sets, so generated code needs no simdjson: bsongenTargets holds core, generic and
# codec (the standard library only); bsongenExtjsonTargets holds extjson, the only part linking
# simdjson, and the umbrella runtime. bsongenConfig.cmake loads the second when simdjson is found,
# and requires it when the extjson or runtime component is asked for.
#
# Layout: lib/libbsongen_<subsystem>.a, include/bsongen/ (every subsystem's headers, flat),
# lib/cmake/bsongen/ (config, version, the two target files, BsongenGenerate.cmake),
# share/bsongen/generator/ (the Python generator and templates).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(BSONGEN_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/bsongen")
set(BSONGEN_INSTALL_GENERATORDIR "${CMAKE_INSTALL_DATADIR}/bsongen/generator")

install(TARGETS bsongen_core bsongen_generic bsongen_codec
        EXPORT bsongenTargets
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
        LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}")
install(TARGETS bsongen_extjson bsongen_runtime
        EXPORT bsongenExtjsonTargets
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
        LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}")
foreach(subsystem IN LISTS BSONGEN_RUNTIME_SUBSYSTEMS)
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/runtime/${subsystem}/include/"
          DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
endforeach()
install(EXPORT bsongenTargets NAMESPACE bsongen:: DESTINATION "${BSONGEN_INSTALL_CMAKEDIR}")
install(EXPORT bsongenExtjsonTargets NAMESPACE bsongen::
        DESTINATION "${BSONGEN_INSTALL_CMAKEDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/generator/" DESTINATION "${BSONGEN_INSTALL_GENERATORDIR}"
        USE_SOURCE_PERMISSIONS PATTERN "__pycache__" EXCLUDE)

configure_package_config_file("${CMAKE_CURRENT_LIST_DIR}/bsongenConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/bsongenConfig.cmake"
  INSTALL_DESTINATION "${BSONGEN_INSTALL_CMAKEDIR}"
  PATH_VARS BSONGEN_INSTALL_GENERATORDIR)
write_basic_package_version_file("${PROJECT_BINARY_DIR}/bsongenConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}" COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/bsongenConfig.cmake"
              "${PROJECT_BINARY_DIR}/bsongenConfigVersion.cmake"
              "${CMAKE_CURRENT_LIST_DIR}/BsongenGenerate.cmake"
        DESTINATION "${BSONGEN_INSTALL_CMAKEDIR}")
