# BSONGEN_SANITIZE: build every bsongen target (runtime, tests, tools) with these sanitizers.
#
#   cmake -S . -B build-asan -DBSONGEN_SANITIZE=address,undefined
#   cmake -S . -B build-tsan -DBSONGEN_SANITIZE=thread
#
# Included by the top-level CMakeLists.txt before any target is defined, so the flags reach the
# runtime as well as the tests: a sanitizer only sees the code it instrumented. Findings abort
# (-fno-sanitize-recover), so a sanitizer report fails the test that caused it instead of
# scrolling past. scripts/test-sanitized is the one-command way to run the suite like this.

set(BSONGEN_SANITIZE "" CACHE STRING
    "Sanitizers for every bsongen target: empty, 'address,undefined' or 'thread'")

if(BSONGEN_SANITIZE)
  if(BSONGEN_SANITIZE MATCHES "thread" AND BSONGEN_SANITIZE MATCHES "address")
    message(FATAL_ERROR "BSONGEN_SANITIZE: ThreadSanitizer cannot be combined with AddressSanitizer "
                        "(use two build trees, as scripts/test-sanitized does)")
  endif()
  if(NOT BSONGEN_SANITIZE MATCHES "^[a-z,]+$")
    message(FATAL_ERROR "BSONGEN_SANITIZE='${BSONGEN_SANITIZE}': expected a comma-separated list "
                        "such as 'address,undefined' or 'thread'")
  endif()
  # Reports need file:line, inlined frames included: line tables (-g1) where the build type
  # brings no debug information of its own; Debug and RelWithDebInfo keep their full -g.
  add_compile_options(-fsanitize=${BSONGEN_SANITIZE} -fno-sanitize-recover=all
                      -fno-omit-frame-pointer $<$<NOT:$<CONFIG:Debug,RelWithDebInfo>>:-g1>)
  add_link_options(-fsanitize=${BSONGEN_SANITIZE} -fno-sanitize-recover=all)
  message(STATUS "bsongen: building with -fsanitize=${BSONGEN_SANITIZE}")

  # An instrumented runtime needs the sanitizer runtime wherever it is linked, also by projects
  # consuming the installed package (tests/generated's find_package example): export the link
  # option with bsongen::core (every runtime target links it), once the top-level directory has defined it.
  function(_bsongen_sanitize_runtime_interface)
    if(TARGET bsongen_core)
      set_property(TARGET bsongen_core APPEND PROPERTY
                   INTERFACE_LINK_OPTIONS "-fsanitize=${BSONGEN_SANITIZE}")
    endif()
  endfunction()
  cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _bsongen_sanitize_runtime_interface)
endif()
