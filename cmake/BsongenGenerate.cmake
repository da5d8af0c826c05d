# bsongen_generate(TARGET <name> SCHEMAS <file>... [OUTPUT_DIR <dir>])
#
# Generates `<stem>.bsongen.hpp` for each schema file at build time into OUTPUT_DIR (default
# ${CMAKE_CURRENT_BINARY_DIR}/<name>) and creates <name>, an INTERFACE library carrying that
# include directory and bsongen::codec (what generated code links). Link it and
# #include "<stem>.bsongen.hpp".
#
# The outputs depend on the schemas, the generator's Python modules and its templates, so editing
# any of them regenerates. A schema used here must leave `output` unset (or equal to its stem).
#
#   bsongen_generate(TARGET shop_schemas SCHEMAS schemas/orders.yaml)
#   target_link_libraries(app PRIVATE shop_schemas)
#
# With HEADERS (annotated C++ headers) instead of SCHEMAS: see "HEADERS mode" at the end.
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

function(bsongen_generate)
  cmake_parse_arguments(ARG "" "TARGET;OUTPUT_DIR;OUTPUT_NAME" "SCHEMAS;HEADERS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "bsongen_generate: unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_TARGET)
    message(FATAL_ERROR "bsongen_generate: TARGET is required")
  endif()
  if(ARG_HEADERS)  # C++ headers through bsongen-scan: see "HEADERS mode" at the end of this file
    _bsongen_generate_from_headers("${ARG_TARGET}" "${ARG_OUTPUT_DIR}" "${ARG_OUTPUT_NAME}"
                                   "${ARG_SCHEMAS}" ${ARG_HEADERS})
    return()
  endif()
  if(NOT ARG_SCHEMAS)
    message(FATAL_ERROR "bsongen_generate(${ARG_TARGET}): give at least one file in SCHEMAS")
  endif()
  if(NOT ARG_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/${ARG_TARGET}")
  endif()
  _bsongen_find_python(python)

  file(GLOB generator_inputs CONFIGURE_DEPENDS
       "${BSONGEN_GENERATOR_DIR}/bsongen_gen/*.py" "${BSONGEN_GENERATOR_DIR}/templates/*.j2")
  list(APPEND generator_inputs "${BSONGEN_GENERATOR_DIR}/bsongen")

  set(schemas "")
  set(outputs "")
  foreach(schema IN LISTS ARG_SCHEMAS)
    get_filename_component(schema "${schema}" ABSOLUTE)
    get_filename_component(stem "${schema}" NAME_WE)
    list(APPEND schemas "${schema}")
    list(APPEND outputs "${ARG_OUTPUT_DIR}/${stem}.bsongen.hpp")
  endforeach()

  add_custom_command(
    OUTPUT ${outputs}
    COMMAND "${python}" "${BSONGEN_GENERATOR_DIR}/bsongen" generate ${schemas}
            --out "${ARG_OUTPUT_DIR}" --source-root "${CMAKE_SOURCE_DIR}"
    # The generator leaves unchanged files alone; touch so the outputs are newer than inputs.
    COMMAND "${CMAKE_COMMAND}" -E touch ${outputs}
    DEPENDS ${schemas} ${generator_inputs}
    COMMENT "bsongen: generating ${ARG_TARGET}"
    VERBATIM)
  add_custom_target(${ARG_TARGET}_generate DEPENDS ${outputs})

  add_library(${ARG_TARGET} INTERFACE)
  target_include_directories(${ARG_TARGET} INTERFACE "${ARG_OUTPUT_DIR}")
  target_link_libraries(${ARG_TARGET} INTERFACE bsongen::codec)
  add_dependencies(${ARG_TARGET} ${ARG_TARGET}_generate)
endfunction()

# --- HEADERS mode ----------------------------------------------------------------------------
#
# bsongen_generate(TARGET <existing target> HEADERS <header>... [OUTPUT_NAME <name>]
#                  [OUTPUT_DIR <dir>])
#
# Scans annotated C++ headers (bsongen/annotate.hpp) with bsongen-scan, using the include
# directories, compile definitions and C++ standard of <target> (read at generate time, so
# target_include_directories calls made after this one count too), generates
# `<name>.bsongen.hpp` (default: the first header's stem) into OUTPUT_DIR (default
# ${CMAKE_CURRENT_BINARY_DIR}/<target>_bsongen), and adds that folder and bsongen::codec to
# <target> (PUBLIC for libraries, PRIVATE for executables).
#
# The scan regenerates when any file it read changes (the scanner writes a depfile of every header
# the parse included), when the target's flags change, or when the scanner is rebuilt; generation
# reruns when the model, the generator's modules or its templates change.
#
#   add_executable(app main.cpp)
#   target_include_directories(app PRIVATE include)
#   bsongen_generate(TARGET app HEADERS include/app/order.hpp)
#   # main.cpp: #include "order.bsongen.hpp"
function(_bsongen_generate_from_headers target output_dir output_name schemas)
  set(headers ${ARGN})
  if(schemas)
    message(FATAL_ERROR "bsongen_generate(${target}): SCHEMAS and HEADERS are separate calls "
            "(HEADERS adds to an existing target, SCHEMAS creates one)")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "bsongen_generate(${target}): with HEADERS, TARGET names an existing "
            "target; its include directories and definitions are used to parse the headers")
  endif()
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
  file(GLOB generator_inputs CONFIGURE_DEPENDS
       "${BSONGEN_GENERATOR_DIR}/bsongen_gen/*.py" "${BSONGEN_GENERATOR_DIR}/templates/*.j2")
  list(APPEND generator_inputs "${BSONGEN_GENERATOR_DIR}/bsongen")

  if(NOT output_dir)
    set(output_dir "${CMAKE_CURRENT_BINARY_DIR}/${target}_bsongen")
  endif()
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
  set(generated "${output_dir}/${output_name}.bsongen.hpp")

  # The target's flags, one argument per line (bsongen-scan's @file format): no quoting needed
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
    OUTPUT "${generated}"
    COMMAND "${python}" "${BSONGEN_GENERATOR_DIR}/bsongen" generate --model "${model}"
            --out "${output_dir}" --source-root "${CMAKE_SOURCE_DIR}"
    # The generator leaves an unchanged file alone; touch so the output is newer than its inputs.
    COMMAND "${CMAKE_COMMAND}" -E touch "${generated}"
    DEPENDS "${model}" ${generator_inputs}
    COMMENT "bsongen: generating ${output_name}.bsongen.hpp for ${target}"
    VERBATIM)
  # Named after the output too, so one target may call bsongen_generate(HEADERS) more than once.
  add_custom_target(${target}_bsongen_${output_name} DEPENDS "${generated}")
  add_dependencies(${target} ${target}_bsongen_${output_name})

  get_target_property(type ${target} TYPE)
  if(type STREQUAL "EXECUTABLE")
    set(scope PRIVATE)
  elseif(type STREQUAL "INTERFACE_LIBRARY")
    set(scope INTERFACE)
  else()
    set(scope PUBLIC)
  endif()
  target_include_directories(${target} ${scope} "${output_dir}")
  target_link_libraries(${target} ${scope} bsongen::codec)
endfunction()
