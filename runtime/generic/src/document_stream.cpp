// Streams of concatenated BSON documents (see document_stream.hpp).

#include "bsongen/document_stream.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <istream>
#include <ostream>
#include <string>

namespace bsongen {
namespace {

std::string document_label(std::size_t index, std::size_t offset) {
  return "document " + std::to_string(index) + " (at byte " + std::to_string(offset) + ")";
}

}  // namespace

std::size_t document_stream_reader::read_some(std::uint8_t* out, std::size_t n) {
  if (istream_ != nullptr) {
    istream_->read(reinterpret_cast<char*>(out), static_cast<std::streamsize>(n));
    const auto got = static_cast<std::size_t>(istream_->gcount());
    if (got < n && istream_->bad()) source_failed_ = true;
    return got;
  }
  const std::size_t got = std::fread(out, 1, n, file_);
  if (got < n && std::ferror(file_) != 0) source_failed_ = true;
  return got;
}

error document_stream_reader::fail(error e) {
  failure_ = e;
  return e;
}

result<bool> document_stream_reader::next(document_view& doc) {
  if (failure_.code != error_code::ok) return failure_;
  const std::size_t start = offset_;

  std::uint8_t prefix[4];
  const std::size_t got = read_some(prefix, 4);
  if (source_failed_) {
    return fail(
        error(error_code::io_error, "reading " + document_label(index_, start) + " failed", start));
  }
  if (got == 0) return false;
  if (got < 4) {
    return fail(error(error_code::truncated,
                      "stream ends inside the length of " + document_label(index_, start) + ": " +
                          std::to_string(got) + " of 4 bytes",
                      start + got));
  }
  const std::int32_t declared = detail::load_i32_le(prefix);
  if (declared < 5) {
    return fail(error(error_code::invalid_length,
                      document_label(index_, start) + " declares " + std::to_string(declared) +
                          " bytes, below the minimum of 5",
                      start));
  }
  const auto length = static_cast<std::size_t>(declared);
  if (length > options_.max_size) {
    return fail(error(error_code::too_large,
                      document_label(index_, start) + " declares " + std::to_string(length) +
                          " bytes, beyond the limit of " + std::to_string(options_.max_size),
                      start));
  }

  // The body is read in chunks that grow with what has arrived, never sized from the declared
  // length alone: a 4-byte stream that declares max_size must not make the reader allocate it.
  // Memory stays within a small multiple of the bytes actually read (plus one 64 KiB chunk).
  constexpr std::size_t min_chunk = 64 * 1024;
  std::size_t have = 4;
  buffer_.resize_uninitialized(have);
  std::memcpy(buffer_.data(), prefix, 4);
  while (have < length) {
    const std::size_t chunk = std::min(length - have, std::max(have, min_chunk));
    buffer_.resize_uninitialized(have + chunk);
    const std::size_t arrived = read_some(buffer_.data() + have, chunk);
    have += arrived;
    if (source_failed_) {
      return fail(error(error_code::io_error,
                        "reading " + document_label(index_, start) + " failed", start));
    }
    if (arrived < chunk) {
      return fail(error(error_code::truncated,
                        "stream ends inside " + document_label(index_, start) + ": " +
                            std::to_string(have) + " of its " + std::to_string(length) + " bytes",
                        start + have));
    }
  }

  auto view = document_view::from_bytes(buffer_.span(), options_);
  if (!view) {
    error e = std::move(view).error();
    e.message = document_label(index_, start) + ": " + e.message;
    e.offset += start;
    return fail(std::move(e));
  }
  doc = *view;
  offset_ = start + length;
  ++index_;
  return true;
}

result<void> document_stream_writer::write_bytes(std::span<const std::uint8_t> bytes) {
  if (ostream_ != nullptr) {
    ostream_->write(reinterpret_cast<const char*>(bytes.data()),
                    static_cast<std::streamsize>(bytes.size()));
    if (!*ostream_) {
      return error(error_code::io_error, "writing document " + std::to_string(count_) + " failed",
                   bytes_);
    }
  } else if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) {
    return error(error_code::io_error,
                 "writing document " + std::to_string(count_) + " failed: " + std::strerror(errno),
                 bytes_);
  }
  ++count_;
  bytes_ += bytes.size();
  return {};
}

result<void> document_stream_writer::write(document_view doc) { return write_bytes(doc.bytes()); }

result<void> document_stream_writer::write(document_ref doc) {
  scratch_.clear();
  if (auto r = encode_document(doc, scratch_); !r) return r;
  return write_bytes(scratch_.bytes());
}

}  // namespace bsongen
