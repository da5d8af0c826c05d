#pragma once

// Sequences of concatenated BSON documents (the .bson files mongodump writes), read and written
// one document at a time, never the whole file at once.
//
//   std::ifstream in("users.bson", std::ios::binary);
//   bsongen::document_stream_reader reader(in);
//   bsongen::document_view doc;
//   for (;;) {
//     auto more = reader.next(doc);
//     if (!more) { std::cerr << more.error().to_string() << '\n'; break; }  // corrupt or truncated
//     if (!*more) break;                                                     // clean end
//     use(doc);                  // valid until the next call to next()
//   }
//
// Each document's declared length is checked against decode_options::max_size before its bytes
// are read, and the buffer grows with the bytes that actually arrive, so a corrupt length cannot
// make the reader allocate more than a small multiple of the input (plus one 64 KiB chunk); the
// reader keeps that one buffer, grown to the largest document seen. Every document is validated
// like document_view::from_bytes. Errors give the document's index (0-based) in the message and the
// byte offset from the start of the stream in error::offset; the documents before a bad one have
// already been delivered. After an error the reader stays failed and repeats it.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <iosfwd>
#include <span>

#include "bsongen/byte_buffer.hpp"
#include "bsongen/decode_options.hpp"
#include "bsongen/document.hpp"
#include "bsongen/document_view.hpp"
#include "bsongen/error.hpp"
#include "bsongen/writer.hpp"

namespace bsongen {

class document_stream_reader {
 public:
  // The stream or file must outlive the reader; the reader neither opens nor closes it.
  explicit document_stream_reader(std::istream& in, const decode_options& options = {}) noexcept
      : istream_(&in), options_(options) {}
  explicit document_stream_reader(std::FILE* in, const decode_options& options = {}) noexcept
      : file_(in), options_(options) {}

  // Reads the next document into `doc` and returns true; returns false at a clean end of stream
  // (between documents); returns an error for a document that is truncated, too large or invalid,
  // or when the source fails. `doc` points into the reader's buffer until the next call.
  [[nodiscard]] result<bool> next(document_view& doc);

  // Documents delivered so far (the index of the next one).
  [[nodiscard]] std::size_t documents_read() const noexcept { return index_; }
  // Bytes consumed so far: the offset at which the next document starts.
  [[nodiscard]] std::size_t offset() const noexcept { return offset_; }

 private:
  // Reads up to n bytes; fewer only at end of input or on failure (source_failed_ set).
  std::size_t read_some(std::uint8_t* out, std::size_t n);
  error fail(error e);

  std::istream* istream_ = nullptr;
  std::FILE* file_ = nullptr;
  decode_options options_;
  byte_buffer buffer_;
  std::size_t index_ = 0;
  std::size_t offset_ = 0;
  bool source_failed_ = false;
  error failure_;
};

class document_stream_writer {
 public:
  // The stream or file must outlive the writer; the writer does not close it.
  explicit document_stream_writer(std::ostream& out) noexcept : ostream_(&out) {}
  explicit document_stream_writer(std::FILE* out) noexcept : file_(out) {}

  // Appends one document's bytes; io_error when the destination fails.
  [[nodiscard]] result<void> write(document_view doc);
  // Encodes into a reused buffer, then appends.
  [[nodiscard]] result<void> write(document_ref doc);
  // Appends already encoded bytes, which the caller vouches are one valid document.
  [[nodiscard]] result<void> write_bytes(std::span<const std::uint8_t> bytes);

  [[nodiscard]] std::size_t documents_written() const noexcept { return count_; }
  [[nodiscard]] std::size_t bytes_written() const noexcept { return bytes_; }

 private:
  std::ostream* ostream_ = nullptr;
  std::FILE* file_ = nullptr;
  writer scratch_;
  std::size_t count_ = 0;
  std::size_t bytes_ = 0;
};

}  // namespace bsongen
