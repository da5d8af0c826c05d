# bsongen_generate(TARGET <name> SCHEMAS <file>... [OUTPUT_DIR <dir>])
#
# Generates `<stem>.bsongen.hpp` for each schema file at build time into OUTPUT_DIR (default
# ${CMAKE_CURRENT_BINARY_DIR}/<name>) and creates <name>, an INTERFACE library carrying that
# include directory and bsongen::runtime. Link it and #include "<stem>.bsongen.hpp".
#
# The outputs depend on the schemas, the generator's Python modules and its templates, so editing
# any of them regenerates. A schema used here must leave `output` unset (or equal to its stem).
#
#   bsongen_generate(TARGET shop_schemas SCHEMAS schemas/orders.yaml)
#   target_link_libraries(app PRIVATE shop_schemas)
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
  cmake_parse_arguments(ARG "" "TARGET;OUTPUT_DIR" "SCHEMAS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "bsongen_generate: unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_TARGET)
    message(FATAL_ERROR "bsongen_generate: TARGET is required")
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
  target_link_libraries(${ARG_TARGET} INTERFACE bsongen::runtime)
  add_dependencies(${ARG_TARGET} ${ARG_TARGET}_generate)
endfunction()
