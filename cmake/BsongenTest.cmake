# bsongen_add_test(<name> SOURCES files... LABELS labels... [LIBRARIES libs...])
# One GoogleTest executable named after the unit it covers; every test in it is discovered into
# ctest with the given labels (the stable contract: runtime, generic, corpus, interop, generator,
# generated, scanner, fuzz, hostile, tools).
include(GoogleTest)
function(bsongen_add_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LABELS;LIBRARIES;PROPERTIES" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "bsongen_add_test(${name}): unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_SOURCES OR NOT ARG_LABELS)
    message(FATAL_ERROR "bsongen_add_test(${name}): SOURCES and LABELS are required")
  endif()
  add_executable(${name} ${ARG_SOURCES})
  # bsongen_test_support: tests/support (the BSON byte builder, encode/decode helpers).
  target_link_libraries(${name} PRIVATE bsongen::runtime bsongen_test_support GTest::gtest
                                        GTest::gtest_main ${ARG_LIBRARIES})
  target_compile_definitions(${name} PRIVATE
    BSONGEN_CORPUS_DIR="${BSONGEN_CORPUS_DIR}"
    BSONGEN_BENCH_DATA_DIR="${BSONGEN_BENCH_DATA_DIR}")
  bsongen_set_warnings(${name})
  gtest_discover_tests(${name} PROPERTIES ${ARG_PROPERTIES} DISCOVERY_TIMEOUT 60)
  # Labels are set from a file ctest reads after the discovered cases: passed through
  # gtest_discover_tests' PROPERTIES, a list such as "runtime;corpus" is flattened to its first item.
  # Hostile-input tests live beside the unit they attack, in suites named `hostile_<unit>` or
  # `<unit>_hostile`; those cases get the `hostile` label on top of the executable's labels.
  set(labels_file "${CMAKE_CURRENT_BINARY_DIR}/${name}_labels.cmake")
  file(WRITE "${labels_file}"
    "if(DEFINED ${name}_TESTS)\n"
    "  set_tests_properties(\${${name}_TESTS} PROPERTIES LABELS \"${ARG_LABELS}\")\n"
    "  foreach(test IN LISTS ${name}_TESTS)\n"
    "    if(test MATCHES \"(^|/)(hostile_[A-Za-z0-9_]*|[A-Za-z0-9_]*_hostile)\\\\.\")\n"
    "      set_tests_properties(\"\${test}\" PROPERTIES LABELS \"${ARG_LABELS};hostile\")\n"
    "    endif()\n"
    "  endforeach()\n"
    "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${labels_file}")
endfunction()
