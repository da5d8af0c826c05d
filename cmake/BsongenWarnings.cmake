# The warning set every bsongen target builds clean with, on g++ 12 and clang 14 alike
# (BSONGEN_WARNING_FLAGS also drives tests that run a compiler themselves, e.g. the header
# self-containment test).
set(BSONGEN_WARNING_FLAGS -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion)

# bsongen_set_warnings(<target>)
function(bsongen_set_warnings target)
  target_compile_options(${target} PRIVATE ${BSONGEN_WARNING_FLAGS})
  if(BSONGEN_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
