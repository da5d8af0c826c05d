# ctest driver: installs this build into a scratch prefix, then configures, builds and runs
# examples/quickstart against it through find_package(bsongen).
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DSCRATCH=... -DCXX=... -P install_example_test.cmake
file(REMOVE_RECURSE "${SCRATCH}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${SCRATCH}/prefix"
                RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "cmake --install failed")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}/examples/quickstart"
                        -B "${SCRATCH}/build" -DCMAKE_PREFIX_PATH=${SCRATCH}/prefix
                        -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Release
                RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "configuring the example against the installed package failed")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${SCRATCH}/build" RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "building the example against the installed package failed")
endif()
execute_process(COMMAND "${SCRATCH}/build/quickstart" RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "the installed-package example did not run cleanly")
endif()
message(STATUS "quickstart built and ran against the installed bsongen package")
