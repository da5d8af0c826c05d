# bsongen_set_warnings(<target>): the warning set every bsongen target builds clean with,
# on g++ 12 and clang 14 alike.
function(bsongen_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-sign-conversion)
  if(BSONGEN_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
