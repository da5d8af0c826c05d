# ctest driver for tests/install (see CMakeLists.txt there).
#
#   cmake -DMODE=install -DBUILD_DIR=... -DPREFIX=... -P install_package_test.cmake
#   cmake -DMODE=generated_only|extjson_component -DPREFIX=... -DCONSUMER_DIR=... -DSCRATCH=...
#         -DCXX=... -DGENERATOR=... -DQUICKSTART_DIR=... -P install_package_test.cmake

function(run)
  cmake_parse_arguments(ARG "MAY_FAIL" "WHAT;RESULT;OUTPUT" "COMMAND" ${ARGN})
  execute_process(COMMAND ${ARG_COMMAND} RESULT_VARIABLE failed OUTPUT_VARIABLE out
                  ERROR_VARIABLE out)
  if(failed AND NOT ARG_MAY_FAIL)
    message(FATAL_ERROR "${ARG_WHAT} failed (${failed}):\n${out}")
  endif()
  if(ARG_RESULT)
    set(${ARG_RESULT} "${failed}" PARENT_SCOPE)
  endif()
  if(ARG_OUTPUT)
    set(${ARG_OUTPUT} "${out}" PARENT_SCOPE)
  endif()
endfunction()

if(MODE STREQUAL "install")
  file(REMOVE_RECURSE "${PREFIX}")
  run(WHAT "cmake --install" COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}")
  foreach(file IN ITEMS bsongenConfig.cmake bsongenTargets.cmake bsongenExtjsonTargets.cmake)
    if(NOT EXISTS "${PREFIX}/lib/cmake/bsongen/${file}")
      message(FATAL_ERROR "the installed package has no lib/cmake/bsongen/${file}")
    endif()
  endforeach()
  # The generated-code export set must not mention simdjson at all.
  file(GLOB core_files "${PREFIX}/lib/cmake/bsongen/bsongenTargets*.cmake")
  foreach(file IN LISTS core_files)
    file(READ "${file}" text)
    if(text MATCHES "simdjson|extjson")
      message(FATAL_ERROR "${file} references simdjson or extjson")
    endif()
  endforeach()
  message(STATUS "installed into ${PREFIX}")
  return()
endif()

# A consumer project: configure (simdjson hidden for generated_only), build verbosely, run.
file(REMOVE_RECURSE "${SCRATCH}")
set(configure "${CMAKE_COMMAND}" -S "${CONSUMER_DIR}" -G "${GENERATOR}"
    "-DCMAKE_PREFIX_PATH=${PREFIX}" "-DCMAKE_CXX_COMPILER=${CXX}" -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF "-DEXPECTED_PREFIX=${PREFIX}"
    "-DQUICKSTART_DIR=${QUICKSTART_DIR}")
if(MODE STREQUAL "generated_only")
  list(APPEND configure -DCMAKE_DISABLE_FIND_PACKAGE_simdjson=ON)
endif()
run(WHAT "configuring ${CONSUMER_DIR} against ${PREFIX}" COMMAND ${configure} -B "${SCRATCH}/build")
run(WHAT "building ${CONSUMER_DIR}" OUTPUT build_log
    COMMAND "${CMAKE_COMMAND}" --build "${SCRATCH}/build" --verbose)

if(MODE STREQUAL "generated_only")
  # Nothing in the build, link lines included, names simdjson.
  string(FIND "${build_log}" "simdjson" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "the generated-code-only build mentions simdjson:\n${build_log}")
  endif()
  run(WHAT "running the generated-code-only program" OUTPUT out
      COMMAND "${SCRATCH}/build/generated_only")
  if(NOT out MATCHES "type_mismatch at age \\(byte 21\\): expected int32, found string")
    message(FATAL_ERROR "unexpected output of the generated-code-only program:\n${out}")
  endif()

  # Asking for Extended JSON when simdjson cannot be found fails at find_package, naming it.
  run(WHAT "configuring with COMPONENTS extjson and no simdjson" MAY_FAIL RESULT failed OUTPUT out
      COMMAND ${configure} -B "${SCRATCH}/build-extjson" -DWANT_EXTJSON=ON)
  if(NOT failed)
    message(FATAL_ERROR "find_package(bsongen COMPONENTS extjson) succeeded without simdjson:\n"
                        "${out}")
  endif()
  if(NOT out MATCHES "simdjson")
    message(FATAL_ERROR "the failure does not name simdjson:\n${out}")
  endif()
  message(STATUS "generated code built and ran against the installed package without simdjson")
elseif(MODE STREQUAL "extjson_component")
  string(FIND "${build_log}" "simdjson" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the extjson consumer did not link simdjson:\n${build_log}")
  endif()
  run(WHAT "running the extjson consumer" OUTPUT out
      COMMAND "${SCRATCH}/build/extjson_component")
  message(STATUS "${out}")
else()
  message(FATAL_ERROR "unknown MODE '${MODE}'")
endif()
