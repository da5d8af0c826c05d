# bsongen_pmr_schema(<schema> <namespace> <new namespace> <output>): writes to <output> a copy of
# the schema file <schema> with `allocator: pmr` and its namespace renamed: the line
# `namespace: <namespace>...` becomes `namespace: <new namespace>...` (a prefix, so `combo::` ->
# `combo_pmr::` renames every `combo::partN`). The bench's generated_arena rows and
# combinations_pmr_test use it to run one model with both allocators side by side. Fails when the
# schema has no such line; rewrites <output> only when its text changes.
function(bsongen_pmr_schema schema namespace new_namespace output)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${schema}")
  file(READ "${schema}" text)
  string(REPLACE "\nnamespace: ${namespace}" "\nallocator: pmr\nnamespace: ${new_namespace}"
         pmr_text "${text}")
  if(pmr_text STREQUAL text)
    message(FATAL_ERROR "${schema}: no `namespace: ${namespace}` line to derive a pmr schema from")
  endif()
  file(CONFIGURE OUTPUT "${output}" CONTENT "${pmr_text}" @ONLY)
endfunction()
