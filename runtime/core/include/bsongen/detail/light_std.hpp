#pragma once

// The two standard library pieces the light public headers (the ones every generated header
// includes) need, without the heavy headers that hold them. Every translation unit that includes
// a generated header pays for what is here, so it is measured (bench/compile_cost; g++ 12 and
// clang 14 at -O2, over a base of <string>, <vector>, <map>, <optional>, <array>, <span>).
//
// - std::chrono's clocks, durations and time points: bsongen::datetime is a system_clock time
//   point. libstdc++ 12's <chrono> also holds C++20's calendar, time zones and their formatting
//   and parsing, and pulls in <sstream> and <locale>: about +0.25 s (g++) and +0.5 s (clang) per
//   translation unit. Its <bits/chrono.h> (libstdc++ 11 on; <thread>, <mutex> and <chrono> itself
//   get the clocks from it) holds the clocks, durations, time points, their casts and the
//   std::chrono_literals, for +0.05 s. An internal header, so it is used only where the library
//   is libstdc++ and has it, and anywhere else the whole <chrono>: the types are the same either
//   way. Code that uses more of std::chrono (calendar types, operator<<) includes <chrono>, as
//   it should whatever bsongen includes.
// - std::pmr::memory_resource, which decode_options names only by pointer. libstdc++ 12's
//   <memory_resource> also brings <shared_mutex> and the pool resources (+0.1 s g++, +0.25 s
//   clang). libstdc++ declares the class ahead of its definition in that header, inside its
//   own version namespace macros; the same declaration here, with those macros, names the very
//   same class (so the runtime's sources, which include both, check that it still matches).
//   Anywhere else: <memory_resource>.

#include <cstddef>  // defines __GLIBCXX__ with libstdc++

#if defined(__GLIBCXX__) && __has_include(<bits/chrono.h>)
#include <bits/chrono.h>
#else
#include <chrono>
#endif

#if defined(__GLIBCXX__) && defined(_GLIBCXX_BEGIN_NAMESPACE_VERSION)
// (clang-format cannot read the version-namespace macros.)
// clang-format off
namespace std _GLIBCXX_VISIBILITY(default) {
_GLIBCXX_BEGIN_NAMESPACE_VERSION
namespace pmr {
class memory_resource;
}  // namespace pmr
_GLIBCXX_END_NAMESPACE_VERSION
}  // namespace std
// clang-format on
#else
#include <memory_resource>
#endif
