# bsongen_generate(TARGET <name> SCHEMAS <file>... [OUTPUT_DIR <dir>])
# bsongen_generate(TARGET <name> HEADERS <header>... [OUTPUT_NAME <name>] [OUTPUT_DIR <dir>])
#
# Creates <name>, a STATIC library holding the codecs bsongen generates at build time, and links
# it to bsongen::codec. Link it and #include "<stem>.bsongen.hpp": the header declares the types
# (SCHEMAS) and the codecs; the codecs' definitions are compiled once, into <name>, from
# `<stem>.bsongen.cpp`. Outputs go to OUTPUT_DIR (default ${CMAKE_CURRENT_BINARY_DIR}/<name>),
# which <name> carries as a PUBLIC include directory.
#
#   bsongen_generate(TARGET shop_schemas SCHEMAS schemas/orders.yaml)
#   target_link_libraries(app PRIVATE shop_schemas)
#
# SCHEMAS: one `<stem>.bsongen.hpp/.cpp` pair per YAML schema, named after the schema file (a
# schema used here must leave `output` unset or equal to its stem; OUTPUT_NAME is refused).
#
# HEADERS: annotated C++ headers (bsongen/annotate.hpp) read by bsongen-scan, with the include
# directories, compile definitions and C++ standard of <name> itself (read when the build is
# generated, so target_include_directories(<name> ...) calls after this one count), into one pair
# `<OUTPUT_NAME>.bsongen.hpp/.cpp` (default: the first header's stem). Give <name> what parsing the
# headers needs:
#
#   bsongen_generate(TARGET order_codecs HEADERS include/app/order.hpp)
#   target_include_directories(order_codecs PUBLIC include)
#   target_link_libraries(app PRIVATE order_codecs)   # main.cpp: #include "order.bsongen.hpp"
#
# Regeneration: the outputs depend on the inputs and on every file `bsongen inputs` lists (the
# generator's modules, templates and style). The generator rewrites only files whose contents
# change and records each run in a stamp file, so editing a schema comment recompiles nothing.
#
# The generator runs on a Python 3 with Jinja2 and PyYAML: BSONGEN_PYTHON, or the first of
# /usr/bin/python3 and the Python3 CMake finds that imports both.

set(BSONGEN_GENERATOR_DIR "${CMAKE_CURRENT_LIST_DIR}/../generator" CACHE PATH
    "Folder holding the bsongen generator (the `bsongen` script, bsongen_gen/, templates/)")

function(_bsongen_find_python out)
  if(BSONGEN_PYTHON)
    set(${out} "${BSONGEN_PYTHON}" PARENT_SCOPE)
    return()
  endif()
  set(candidates /usr/bin/python3)
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(Python3_Interpreter_FOUND)
    list(APPEND candidates "${Python3_EXECUTABLE}")
  endif()
  foreach(candidate IN LISTS candidates)
    if(EXISTS "${candidate}")
      execute_process(COMMAND "${candidate}" -c "import jinja2, yaml"
                      RESULT_VARIABLE failed OUTPUT_QUIET ERROR_QUIET)
      if(NOT failed)
        set(BSONGEN_PYTHON "${candidate}" CACHE FILEPATH
            "Python 3 with Jinja2 and PyYAML, for the bsongen generator")
        set(${out} "${candidate}" PARENT_SCOPE)
        return()
      endif()
    endif()
  endforeach()
  message(FATAL_ERROR "bsongen_generate: no Python 3 with Jinja2 and PyYAML found (tried "
          "${candidates}). Install python3-jinja2 and python3-yaml, or set BSONGEN_PYTHON.")
endfunction()

# The generator's own files (`bsongen inputs`), as build dependencies; CMake reruns when one is
# added or removed from that list.
function(_bsongen_generator_inputs python out)
  execute_process(COMMAND "${python}" "${BSONGEN_GENERATOR_DIR}/bsongen" inputs
                  OUTPUT_VARIABLE listed RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "bsongen_generate: `bsongen inputs` failed")
  endif()
  string(STRIP "${listed}" listed)
  string(REPLACE "\n" ";" listed "${listed}")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
               "${BSONGEN_GENERATOR_DIR}/bsongen_gen" "${BSONGEN_GENERATOR_DIR}/templates")
  set(${out} ${listed} PARENT_SCOPE)
endfunction()

function(_bsongen_codec_library target output_dir sources)
  add_library(${target} STATIC ${sources})
  target_include_directories(${target} PUBLIC "${output_dir}")
  target_link_libraries(${target} PUBLIC bsongen::codec)
  target_compile_features(${target} PUBLIC cxx_std_20)
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  if(COMMAND bsongen_set_warnings)  # bsongen's own build: generated code meets its warning set
    bsongen_set_warnings(${target})
  endif()
endfunction()

function(bsongen_generate)
  cmake_parse_arguments(ARG "" "TARGET;OUTPUT_DIR;OUTPUT_NAME" "SCHEMAS;HEADERS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "bsongen_generate: unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_TARGET)
    message(FATAL_ERROR "bsongen_generate: TARGET (the library to create) is required")
  endif()
  if(TARGET ${ARG_TARGET})
    message(FATAL_ERROR "bsongen_generate(${ARG_TARGET}): a target of that name exists; TARGET "
            "names the library bsongen_generate creates (link it to your own target; "
            "CHANGELOG.md shows the migration)")
  endif()
  if(ARG_SCHEMAS AND ARG_HEADERS)
    message(FATAL_ERROR "bsongen_generate(${ARG_TARGET}): SCHEMAS and HEADERS are separate calls")
  endif()
  if(NOT ARG_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/${ARG_TARGET}")
  endif()
  if(ARG_HEADERS)
    _bsongen_generate_from_headers("${ARG_TARGET}" "${ARG_OUTPUT_DIR}" "${ARG_OUTPUT_NAME}"
                                   ${ARG_HEADERS})
    return()
  endif()
  if(NOT ARG_SCHEMAS)
    message(FATAL_ERROR "bsongen_generate(${ARG_TARGET}): give at least one file in SCHEMAS "
            "(or HEADERS)")
  endif()
  if(ARG_OUTPUT_NAME)
    message(FATAL_ERROR "bsongen_generate(${ARG_TARGET}): OUTPUT_NAME applies to HEADERS only; "
            "with SCHEMAS each output is named after its schema file")
  endif()
  _bsongen_find_python(python)
  _bsongen_generator_inputs("${python}" generator_inputs)

  set(schemas "")
  set(outputs "")
  set(sources "")
  foreach(schema IN LISTS ARG_SCHEMAS)
    get_filename_component(schema "${schema}" ABSOLUTE)
    get_filename_component(stem "${schema}" NAME_WE)
    list(APPEND schemas "${schema}")
    list(APPEND outputs "${ARG_OUTPUT_DIR}/${stem}.bsongen.hpp" "${ARG_OUTPUT_DIR}/${stem}.bsongen.cpp")
    list(APPEND sources "${ARG_OUTPUT_DIR}/${stem}.bsongen.cpp")
  endforeach()
  set(stamp "${ARG_OUTPUT_DIR}/${ARG_TARGET}.bsongen-stamp")

  add_custom_command(
    OUTPUT "${stamp}"
    BYPRODUCTS ${outputs}
    COMMAND "${python}" "${BSONGEN_GENERATOR_DIR}/bsongen" generate ${schemas}
            --out "${ARG_OUTPUT_DIR}" --source-root "${CMAKE_SOURCE_DIR}" --stamp "${stamp}"
    DEPENDS ${schemas} ${generator_inputs}
    COMMENT "bsongen: generating ${ARG_TARGET}"
    VERBATIM)
  add_custom_target(${ARG_TARGET}_generate DEPENDS "${stamp}")
  _bsongen_codec_library(${ARG_TARGET} "${ARG_OUTPUT_DIR}" "${sources}")
  add_dependencies(${ARG_TARGET} ${ARG_TARGET}_generate)
endfunction()

# --- HEADERS mode ----------------------------------------------------------------------------
#
# The scan regenerates when any file it read changes (the scanner writes a depfile of every header
# the parse included), when the target's flags change, or when the scanner is rebuilt; generation
# reruns when the model or the generator's files change.
function(_bsongen_generate_from_headers target output_dir output_name)
  set(headers ${ARGN})
  if(TARGET bsongen_scan)
    set(scanner "$<TARGET_FILE:bsongen_scan>")
    set(scanner_dependency bsongen_scan)
  else()
    find_program(BSONGEN_SCAN_EXECUTABLE bsongen-scan)
    if(NOT BSONGEN_SCAN_EXECUTABLE)
      message(FATAL_ERROR "bsongen_generate(${target}): HEADERS needs bsongen-scan; build it "
              "(BSONGEN_BUILD_SCANNER, needs llvm-14-dev and libclang-14-dev) or set "
              "BSONGEN_SCAN_EXECUTABLE")
    endif()
    set(scanner "${BSONGEN_SCAN_EXECUTABLE}")
    set(scanner_dependency "${BSONGEN_SCAN_EXECUTABLE}")
  endif()
  _bsongen_find_python(python)
  _bsongen_generator_inputs("${python}" generator_inputs)

  # Headers inside the source tree are passed relative to it (the scan runs there), so the model's
  # origin and locations read "include/app/order.hpp" rather than a machine's absolute path.
  set(header_args "")
  set(header_files "")
  foreach(header IN LISTS headers)
    get_filename_component(header "${header}" ABSOLUTE)
    list(APPEND header_files "${header}")
    file(RELATIVE_PATH relative "${CMAKE_SOURCE_DIR}" "${header}")
    if(relative MATCHES "^\\.\\./")
      list(APPEND header_args "${header}")
    else()
      list(APPEND header_args "${relative}")
    endif()
  endforeach()
  if(NOT output_name)
    list(GET header_files 0 first_header)
    get_filename_component(output_name "${first_header}" NAME_WE)
  endif()
  set(model "${output_dir}/${output_name}.model.json")
  set(generated "${output_dir}/${output_name}.bsongen.hpp" "${output_dir}/${output_name}.bsongen.cpp")
  set(stamp "${output_dir}/${output_name}.bsongen-stamp")

  # The library's flags, one argument per line (bsongen-scan's @file format): no quoting needed
  # for paths with spaces, and generator expressions in them are evaluated per configuration.
  # Entries that evaluate to nothing (e.g. nlohmann_json's `$<$<NOT:$<BOOL:ON>>:...>`) are dropped:
  # each would be a bare -D or -I that swallows the next line.
  set(includes "$<FILTER:$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>,INCLUDE,.>")
  set(definitions "$<FILTER:$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>,INCLUDE,.>")
  set(standard "$<TARGET_PROPERTY:${target},CXX_STANDARD>")
  set(args_file "${output_dir}/${output_name}-$<CONFIG>.scan-args")
  file(GENERATE OUTPUT "${args_file}" CONTENT
       "$<$<BOOL:${includes}>:-I$<JOIN:${includes},\n-I>\n>$<$<BOOL:${definitions}>:-D$<JOIN:${definitions},\n-D>\n>--std\nc++$<IF:$<BOOL:${standard}>,${standard},20>\n")

  add_custom_command(
    OUTPUT "${model}"
    COMMAND "${scanner}" ${header_args} "@${args_file}" --output-name "${output_name}"
            -o "${model}" --depfile "${model}.d"
    DEPENDS ${header_files} "${args_file}" ${scanner_dependency}
    DEPFILE "${model}.d"
    WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
    COMMENT "bsongen-scan: scanning the headers of ${target}"
    VERBATIM)
  add_custom_command(
    OUTPUT "${stamp}"
    BYPRODUCTS ${generated}
    COMMAND "${python}" "${BSONGEN_GENERATOR_DIR}/bsongen" generate --model "${model}"
            --out "${output_dir}" --source-root "${CMAKE_SOURCE_DIR}" --stamp "${stamp}"
    DEPENDS "${model}" ${generator_inputs}
    COMMENT "bsongen: generating ${output_name}.bsongen.hpp/.cpp for ${target}"
    VERBATIM)
  add_custom_target(${target}_generate DEPENDS "${stamp}")
  _bsongen_codec_library(${target} "${output_dir}" "${output_dir}/${output_name}.bsongen.cpp")
  add_dependencies(${target} ${target}_generate)
endfunction()
