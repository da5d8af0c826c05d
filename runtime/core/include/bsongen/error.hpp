#pragma once

// Errors with what, where (element path and byte offset) and a non-throwing result type.
//
//   bsongen::result<order> r = bsongen::decode<order>(bytes);
//   if (!r) std::cerr << r.error().to_string() << '\n';
//   // "type_mismatch at orders.3.qty (byte 117): expected int32, found string"
//
// Exceptions are offered on top (result::value() throws bsongen::exception), never required.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

namespace bsongen {

enum class error_code : std::uint8_t {
  ok = 0,              // no error
  truncated,           // the input ends before the declared length or the element does
  invalid_length,      // a length field is negative, too small, or disagrees with its contents
  missing_terminator,  // a document, string or key lacks its closing NUL byte
  invalid_type,        // an element type byte that BSON does not define
  invalid_utf8,        // a string or key is not valid UTF-8
  invalid_bool,        // a boolean byte other than 0 or 1
  invalid_value,       // a value outside what its type allows (bad hex, bad decimal string, ...)
  inexact,           // a conversion would lose digits or range (Decimal128 rounding, int overflow)
  too_deep,          // nesting beyond the configured depth limit
  too_large,         // a document beyond the configured size limit
  trailing_bytes,    // bytes left after the outermost document
  type_mismatch,     // an element whose BSON type the target field cannot hold
  missing_field,     // a required field is absent
  unknown_field,     // a field the schema does not know, under the 'reject' policy
  duplicate_field,   // a key seen twice, under the 'reject' policy
  buffer_too_small,  // a caller-supplied output buffer cannot hold the encoding
  json_syntax,       // Extended JSON text that is not well-formed JSON
  json_invalid,      // well-formed JSON that is not valid Extended JSON
  io_error,          // reading or writing a file or stream failed
  out_of_memory,     // an allocation failed (std::bad_alloc) while decoding or encoding
};

// A one-line description of an error code, e.g. "input ends before the declared length".
[[nodiscard]] std::string_view describe(error_code code) noexcept;
// The enumerator's name, e.g. "truncated".
[[nodiscard]] std::string_view name(error_code code) noexcept;

// `text` made safe to print on a terminal, as error::to_string() shows keys and messages: valid
// UTF-8 that displays as itself is kept; a backslash becomes \\; newline, tab and carriage
// return become \n \t \r; other control bytes and bytes that are not valid UTF-8 become \xNN;
// valid code points that are invisible or reorder text (C1 controls, bidirectional and zero-width
// marks, line separators, tags) become \uNNNN or \UNNNNNNNN. Distinct inputs give distinct
// outputs.
[[nodiscard]] std::string printable(std::string_view text);
void append_printable(std::string& out, std::string_view text);

struct error {
  error_code code = error_code::ok;
  std::string message;     // what is wrong, specific to this occurrence
  std::string path;        // element path from the outermost document: "orders.3.items.0.qty"
  std::size_t offset = 0;  // byte offset from the start of the outermost input

  error() = default;
  error(error_code c, std::string msg, std::size_t byte_offset = 0)
      : code(c), message(std::move(msg)), offset(byte_offset) {}

  // Decoders build paths on the way out of an error, so the success path never pays for them:
  // each nesting level prepends its key or index.
  void prepend_path(std::string_view segment);

  // "type_mismatch at orders.3.qty (byte 117): expected int32, found string"
  // The path and message go through printable(): keys come from the input, and the text is
  // meant for logs and terminals. `path` and `message` themselves keep the raw bytes.
  [[nodiscard]] std::string to_string() const;
};

class exception : public std::runtime_error {
 public:
  explicit exception(bsongen::error e) : std::runtime_error(e.to_string()), error_(std::move(e)) {}
  [[nodiscard]] const bsongen::error& error() const noexcept { return error_; }

 private:
  bsongen::error error_;
};

// An expected-like holder of a T or an error (std::expected is C++23).
template <class T>
class [[nodiscard]] result {
 public:
  using value_type = T;

  result(const T& v) : state_(std::in_place_index<0>, v) {}        // NOLINT: implicit by design
  result(T&& v) : state_(std::in_place_index<0>, std::move(v)) {}  // NOLINT
  result(bsongen::error e) : state_(std::in_place_index<1>, std::move(e)) {}  // NOLINT
  template <class... Args>
  explicit result(std::in_place_t, Args&&... args)
      : state_(std::in_place_index<0>, std::forward<Args>(args)...) {}

  [[nodiscard]] bool has_value() const noexcept { return state_.index() == 0; }
  explicit operator bool() const noexcept { return has_value(); }

  // Throws bsongen::exception when this holds an error.
  T& value() & {
    check();
    return *std::get_if<0>(&state_);
  }
  const T& value() const& {
    check();
    return *std::get_if<0>(&state_);
  }
  T&& value() && {
    check();
    return std::move(*std::get_if<0>(&state_));
  }

  // Precondition: has_value().
  T& operator*() & noexcept { return *std::get_if<0>(&state_); }
  const T& operator*() const& noexcept { return *std::get_if<0>(&state_); }
  T&& operator*() && noexcept { return std::move(*std::get_if<0>(&state_)); }
  T* operator->() noexcept { return std::get_if<0>(&state_); }
  const T* operator->() const noexcept { return std::get_if<0>(&state_); }

  // Precondition: !has_value().
  [[nodiscard]] const bsongen::error& error() const& noexcept { return *std::get_if<1>(&state_); }
  [[nodiscard]] bsongen::error& error() & noexcept { return *std::get_if<1>(&state_); }
  [[nodiscard]] bsongen::error&& error() && noexcept { return std::move(*std::get_if<1>(&state_)); }

 private:
  void check() const {
    if (!has_value()) throw exception(*std::get_if<1>(&state_));
  }
  std::variant<T, bsongen::error> state_;
};

template <>
class [[nodiscard]] result<void> {
 public:
  using value_type = void;

  result() = default;
  result(bsongen::error e) : error_(std::move(e)) {}  // NOLINT: implicit by design

  [[nodiscard]] bool has_value() const noexcept { return error_.code == error_code::ok; }
  explicit operator bool() const noexcept { return has_value(); }
  // Throws bsongen::exception when this holds an error.
  void value() const {
    if (!has_value()) throw exception(error_);
  }
  [[nodiscard]] const bsongen::error& error() const& noexcept { return error_; }
  [[nodiscard]] bsongen::error& error() & noexcept { return error_; }
  [[nodiscard]] bsongen::error&& error() && noexcept { return std::move(error_); }

 private:
  bsongen::error error_;
};

}  // namespace bsongen
