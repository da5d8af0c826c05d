// Validating decode of untrusted BSON into a generic document (and validation alone, for views).
//
// One loop, no recursion: nesting lives in an explicit frame stack on the heap, so no depth can
// overflow the C++ stack and max_depth is checked before a level is entered. Every read is
// bounded by the end of the document that contains it, which is itself checked against its
// parent before it is entered, so nothing is read outside the input. Errors name the element
// path and the byte offset of the offending element; the path is built only on failure.

#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "bsongen/detail/utf8.hpp"
#include "bsongen/document.hpp"
#include "bsongen/document_view.hpp"

namespace bsongen {
namespace {

using detail::container;
using detail::node;

constexpr std::uint32_t no_parent = std::numeric_limits<std::uint32_t>::max();

enum class frame_kind : std::uint8_t { document, array, scope };

struct frame {
  const std::uint8_t* end;  // the frame's terminating NUL
  const char* key;          // key of the element that opened it: the path segment
  std::uint32_t key_size;
  std::uint32_t scratch_base;  // first scratch slot of this frame's elements
  std::uint32_t parent_index;  // scratch slot of the node that receives the container
  frame_kind kind;
};

// Reused across decodes on a thread, so a steady stream of decodes allocates only its arenas.
struct decode_scratch {
  std::vector<node> nodes;
  std::vector<frame> frames;
};

decode_scratch& thread_scratch() {
  thread_local decode_scratch scratch;
  return scratch;
}

std::string count_text(std::size_t n, const char* unit) {
  return std::to_string(n) + ' ' + unit;
}

// Checks the outermost framing: what must hold before a byte is allocated or copied.
result<void> check_envelope(std::span<const std::uint8_t> bytes, const decode_options& options) {
  if (bytes.size() < 5) {
    return error(error_code::truncated,
                 "input has " + count_text(bytes.size(), "bytes") + ", a document needs at least 5", 0);
  }
  const std::int32_t declared = detail::load_i32_le(bytes.data());
  if (declared < 5) {
    return error(error_code::invalid_length,
                 "document length " + std::to_string(declared) + " is below the minimum of 5", 0);
  }
  const auto length = static_cast<std::size_t>(declared);
  if (length > options.max_size) {
    return error(error_code::too_large,
                 "document length " + std::to_string(length) + " exceeds the limit of " +
                     std::to_string(options.max_size) + " bytes",
                 0);
  }
  if (length > bytes.size()) {
    return error(error_code::truncated,
                 "document declares " + count_text(length, "bytes") + " but the input has " +
                     std::to_string(bytes.size()),
                 bytes.size());
  }
  if (length < bytes.size()) {
    return error(error_code::trailing_bytes,
                 count_text(bytes.size() - length, "bytes") + " follow the document's declared end", length);
  }
  if (bytes[length - 1] != 0) {
    return error(error_code::missing_terminator, "document does not end with a NUL byte", length - 1);
  }
  return {};
}

template <bool Build>
class decoder {
 public:
  decoder(const std::uint8_t* base, std::size_t size, const decode_options& options, detail::arena* a,
          decode_scratch& scratch)
      : base_(base), size_(size), options_(options), arena_(a), scratch_(scratch) {}

  result<void> run(container* root) {
    std::vector<frame>& frames = scratch_.frames;
    std::vector<node>& nodes = scratch_.nodes;
    frames.clear();
    if constexpr (Build) nodes.clear();
    frames.push_back({base_ + size_ - 1, nullptr, 0, 0, no_parent, frame_kind::document});
    const bool check_utf8 = options_.validate_utf8;
    const std::uint8_t* p = base_ + 4;

    for (;;) {
      const std::uint8_t* const end = frames.back().end;
      if (p == end) {
        close_frame(root);
        frames.pop_back();
        if (frames.empty()) return {};
        p = end + 1;
        continue;
      }

      const std::uint8_t* const element_start = p;
      const std::uint8_t type = *p++;
      if (!is_bson_type(type)) [[unlikely]] {
        if (type == 0) {
          return fail(error_code::invalid_length, "document ends (NUL type byte) before its declared length",
                      element_start, {});
        }
        return fail(error_code::invalid_type, "unknown element type byte 0x" + hex(type), element_start, {});
      }
      const void* key_nul = std::memchr(p, 0, static_cast<std::size_t>(end - p));
      if (key_nul == nullptr) [[unlikely]] {
        return fail(error_code::missing_terminator, "key has no NUL before the end of its document",
                    element_start, {});
      }
      const char* const key = reinterpret_cast<const char*>(p);
      const auto key_size = static_cast<std::uint32_t>(static_cast<const std::uint8_t*>(key_nul) - p);
      const std::string_view key_view(key, key_size);
      if (check_utf8 && !detail::is_valid_utf8(p, key_size)) [[unlikely]] {
        return fail(error_code::invalid_utf8, "key is not valid UTF-8", element_start, key_view);
      }
      p += key_size + 1;
      const auto avail = static_cast<std::size_t>(end - p);

      node n;
      if constexpr (Build) {
        n.key = key;
        n.key_size = key_size;
        n.type = static_cast<bson_type>(type);
        n.subtype = 0;
        n.unused = 0;
      }

      switch (static_cast<bson_type>(type)) {
        case bson_type::double_:
        case bson_type::datetime:
        case bson_type::int64:
        case bson_type::timestamp:
          if (avail < 8) [[unlikely]] return past_end(8, element_start, key_view);
          if constexpr (Build) n.as.u64 = detail::load_u64_le(p);
          p += 8;
          break;
        case bson_type::int32:
          if (avail < 4) [[unlikely]] return past_end(4, element_start, key_view);
          if constexpr (Build) n.as.i32 = detail::load_i32_le(p);
          p += 4;
          break;
        case bson_type::boolean:
          if (avail < 1) [[unlikely]] return past_end(1, element_start, key_view);
          if (*p > 1) [[unlikely]] {
            return fail(error_code::invalid_bool, "boolean byte is 0x" + hex(*p) + ", not 0 or 1", element_start,
                        key_view);
          }
          if constexpr (Build) n.as.boolean = *p != 0;
          p += 1;
          break;
        case bson_type::null:
        case bson_type::undefined:
        case bson_type::min_key:
        case bson_type::max_key:
          if constexpr (Build) n.as.u64 = 0;
          break;
        case bson_type::object_id:
          if (avail < 12) [[unlikely]] return past_end(12, element_start, key_view);
          if constexpr (Build) std::memcpy(n.as.bytes, p, 12);
          p += 12;
          break;
        case bson_type::decimal128:
          if (avail < 16) [[unlikely]] return past_end(16, element_start, key_view);
          if constexpr (Build) std::memcpy(n.as.bytes, p, 16);
          p += 16;
          break;
        case bson_type::string:
        case bson_type::javascript:
        case bson_type::symbol: {
          std::uint32_t text_size = 0;
          if (auto r = read_string(p, avail, text_size, check_utf8, element_start, key_view); !r) return r;
          if constexpr (Build) n.as.text = {reinterpret_cast<const char*>(p + 4), text_size, 0};
          p += 4 + text_size + 1;
          break;
        }
        case bson_type::document:
        case bson_type::array: {
          if (avail < 4) [[unlikely]] return past_end(4, element_start, key_view);
          const std::int32_t length = detail::load_i32_le(p);
          if (auto r = check_embedded(length, avail, p, element_start, key_view); !r) return r;
          if (frames.size() >= options_.max_depth) [[unlikely]] return too_deep(element_start, key_view);
          std::uint32_t parent = no_parent;
          if constexpr (Build) {
            n.as.doc = {};
            parent = static_cast<std::uint32_t>(nodes.size());
            nodes.push_back(n);
          }
          frames.push_back({p + length - 1, key, key_size, static_cast<std::uint32_t>(nodes.size()), parent,
                            type == 0x03 ? frame_kind::document : frame_kind::array});
          p += 4;
          continue;
        }
        case bson_type::binary: {
          if (avail < 5) [[unlikely]] return past_end(5, element_start, key_view);
          const std::int32_t length = detail::load_i32_le(p);
          if (length < 0) [[unlikely]] {
            return fail(error_code::invalid_length, "binary length " + std::to_string(length) + " is negative",
                        element_start, key_view);
          }
          if (static_cast<std::size_t>(length) > avail - 5) [[unlikely]] {
            return fail(error_code::invalid_length,
                        "binary length " + std::to_string(length) + " runs past the end of its document",
                        element_start, key_view);
          }
          const std::uint8_t subtype = p[4];
          const std::uint8_t* data = p + 5;
          auto data_size = static_cast<std::uint32_t>(length);
          if (subtype == 0x02) {
            // The deprecated subtype repeats the length inside the payload; both must agree.
            if (length < 4 || detail::load_i32_le(data) != length - 4) [[unlikely]] {
              return fail(error_code::invalid_length,
                          "binary subtype 0x02 inner length disagrees with its outer length " +
                              std::to_string(length),
                          element_start, key_view);
            }
            data += 4;
            data_size -= 4;
          }
          if constexpr (Build) {
            n.subtype = subtype;
            n.as.text = {reinterpret_cast<const char*>(data), data_size, 0};
          }
          p += 5 + static_cast<std::size_t>(length);
          break;
        }
        case bson_type::regex: {
          const void* pattern_nul = std::memchr(p, 0, avail);
          const void* options_nul =
              pattern_nul == nullptr
                  ? nullptr
                  : std::memchr(static_cast<const std::uint8_t*>(pattern_nul) + 1, 0,
                                static_cast<std::size_t>(end - (static_cast<const std::uint8_t*>(pattern_nul) + 1)));
          if (options_nul == nullptr) [[unlikely]] {
            return fail(error_code::missing_terminator,
                        "regex pattern or options lack a NUL before the end of the document", element_start,
                        key_view);
          }
          const auto pattern_size = static_cast<std::uint32_t>(static_cast<const std::uint8_t*>(pattern_nul) - p);
          const std::uint8_t* opts = p + pattern_size + 1;
          const auto options_size =
              static_cast<std::uint32_t>(static_cast<const std::uint8_t*>(options_nul) - opts);
          if (check_utf8 && (!detail::is_valid_utf8(p, pattern_size) || !detail::is_valid_utf8(opts, options_size)))
              [[unlikely]] {
            return fail(error_code::invalid_utf8, "regex is not valid UTF-8", element_start, key_view);
          }
          if constexpr (Build) n.as.text = {reinterpret_cast<const char*>(p), pattern_size, options_size};
          p = opts + options_size + 1;
          break;
        }
        case bson_type::db_pointer: {
          std::uint32_t text_size = 0;
          if (auto r = read_string(p, avail, text_size, check_utf8, element_start, key_view); !r) return r;
          if (avail - 5 - text_size < 12) [[unlikely]] return past_end(4 + text_size + 1 + 12, element_start, key_view);
          if constexpr (Build) n.as.text = {reinterpret_cast<const char*>(p + 4), text_size, 0};
          p += 4 + text_size + 1 + 12;
          break;
        }
        case bson_type::javascript_with_scope: {
          if (avail < 4) [[unlikely]] return past_end(4, element_start, key_view);
          const std::int32_t total = detail::load_i32_le(p);
          // int32 total, string (int32 length >= 1, bytes, NUL), document (>= 5 bytes).
          if (total < 14 || static_cast<std::size_t>(total) > avail) [[unlikely]] {
            return fail(error_code::invalid_length,
                        "code with scope length " + std::to_string(total) + " is below 14 or past its document",
                        element_start, key_view);
          }
          std::uint32_t code_size = 0;
          if (auto r = read_string(p + 4, static_cast<std::size_t>(total) - 4, code_size, check_utf8,
                                   element_start, key_view);
              !r) {
            return r;
          }
          const std::uint8_t* scope = p + 4 + 4 + code_size + 1;
          const auto scope_room = static_cast<std::size_t>(p + total - scope);
          if (scope_room < 5 || detail::load_i32_le(scope) != static_cast<std::int64_t>(scope_room)) [[unlikely]] {
            return fail(error_code::invalid_length,
                        "code with scope length " + std::to_string(total) +
                            " disagrees with its code and scope lengths",
                        element_start, key_view);
          }
          if (scope[scope_room - 1] != 0) [[unlikely]] {
            return fail(error_code::missing_terminator, "scope document does not end with a NUL byte",
                        element_start, key_view);
          }
          if (frames.size() >= options_.max_depth) [[unlikely]] return too_deep(element_start, key_view);
          std::uint32_t parent = no_parent;
          if constexpr (Build) {
            auto* cws = arena_->template allocate_array<detail::code_with_scope>(1);
            cws->code = reinterpret_cast<const char*>(p + 8);
            cws->code_size = code_size;
            cws->scope = {};
            n.as.cws = cws;
            parent = static_cast<std::uint32_t>(nodes.size());
            nodes.push_back(n);
          }
          frames.push_back({scope + scope_room - 1, key, key_size, static_cast<std::uint32_t>(nodes.size()), parent,
                            frame_kind::scope});
          p = scope + 4;
          continue;
        }
      }
      if constexpr (Build) nodes.push_back(n);
    }
  }

 private:
  void close_frame(container* root) {
    if constexpr (Build) {
      std::vector<node>& nodes = scratch_.nodes;
      const frame& f = scratch_.frames.back();
      const auto count = static_cast<std::uint32_t>(nodes.size() - f.scratch_base);
      container c{nullptr, count, count};
      if (count != 0) {
        c.elements = arena_->allocate_array<node>(count);
        std::memcpy(static_cast<void*>(c.elements), nodes.data() + f.scratch_base, count * sizeof(node));
        nodes.resize(f.scratch_base);
      }
      if (f.parent_index == no_parent) {
        *root = c;
      } else if (f.kind == frame_kind::scope) {
        nodes[f.parent_index].as.cws->scope = c;
      } else {
        nodes[f.parent_index].as.doc = c;
      }
    } else {
      (void)root;
    }
  }

  // A BSON string at p: int32 length >= 1, that many bytes, the last one NUL.
  result<void> read_string(const std::uint8_t* p, std::size_t avail, std::uint32_t& text_size, bool check_utf8,
                           const std::uint8_t* element_start, std::string_view key) {
    if (avail < 4) [[unlikely]] return past_end(4, element_start, key);
    const std::int32_t length = detail::load_i32_le(p);
    if (length < 1) [[unlikely]] {
      return fail(error_code::invalid_length, "string length " + std::to_string(length) + " is below 1",
                  element_start, key);
    }
    if (static_cast<std::size_t>(length) > avail - 4) [[unlikely]] {
      return fail(error_code::invalid_length,
                  "string length " + std::to_string(length) + " runs past the end of its document", element_start,
                  key);
    }
    if (p[4 + length - 1] != 0) [[unlikely]] {
      return fail(error_code::missing_terminator, "string does not end with a NUL byte", element_start, key);
    }
    text_size = static_cast<std::uint32_t>(length - 1);
    if (check_utf8 && !detail::is_valid_utf8(p + 4, text_size)) [[unlikely]] {
      return fail(error_code::invalid_utf8, "string is not valid UTF-8", element_start, key);
    }
    return {};
  }

  result<void> check_embedded(std::int32_t length, std::size_t avail, const std::uint8_t* p,
                              const std::uint8_t* element_start, std::string_view key) {
    if (length < 5) [[unlikely]] {
      return fail(error_code::invalid_length,
                  "embedded document length " + std::to_string(length) + " is below the minimum of 5",
                  element_start, key);
    }
    if (static_cast<std::size_t>(length) > avail) [[unlikely]] {
      return fail(error_code::invalid_length,
                  "embedded document length " + std::to_string(length) + " runs past the end of its parent",
                  element_start, key);
    }
    if (p[length - 1] != 0) [[unlikely]] {
      return fail(error_code::missing_terminator, "embedded document does not end with a NUL byte",
                  element_start, key);
    }
    return {};
  }

  error past_end(std::size_t needed, const std::uint8_t* element_start, std::string_view key) {
    return fail(error_code::truncated,
                "value needs " + count_text(needed, "bytes") + " but its document ends first", element_start, key);
  }

  error too_deep(const std::uint8_t* element_start, std::string_view key) {
    return fail(error_code::too_deep,
                "nesting exceeds the depth limit of " + std::to_string(options_.max_depth), element_start, key);
  }

  // The error at `where`, with the path of open frames plus the current element's key.
  [[gnu::noinline]] error fail(error_code code, std::string message, const std::uint8_t* where,
                               std::string_view key) {
    error e(code, std::move(message), static_cast<std::size_t>(where - base_));
    // Joined front to back: prepending one segment per level is quadratic in the depth, seconds
    // at 100,000 levels when max_depth is raised. Same result as prepend_path from the inside
    // out: the segments joined by '.', empty segments after the last non-empty one dropped.
    const std::vector<frame>& frames = scratch_.frames;
    const std::size_t segments = frames.size() + (!key.empty() || key.data() != nullptr ? 1 : 0);
    const auto segment = [&](std::size_t i) {
      return i < frames.size() ? std::string_view(frames[i].key, frames[i].key_size) : key;
    };
    std::size_t last = 0;  // one past the last non-empty segment
    for (std::size_t i = 1; i < segments; ++i) {
      if (!segment(i).empty()) last = i + 1;
    }
    for (std::size_t i = 1; i < last; ++i) {
      if (i > 1) e.path += '.';
      e.path += segment(i);
    }
    return e;
  }

  static std::string hex(std::uint8_t byte) {
    static constexpr char digits[] = "0123456789abcdef";
    return {digits[byte >> 4], digits[byte & 15]};
  }

  const std::uint8_t* base_;
  std::size_t size_;
  const decode_options& options_;
  detail::arena* arena_;
  decode_scratch& scratch_;
};

}  // namespace

result<document> decode_document(std::span<const std::uint8_t> bytes, const decode_options& options) {
  if (auto r = check_envelope(bytes, options); !r) return std::move(r).error();
  std::pmr::memory_resource* upstream = options.memory != nullptr ? options.memory : detail::default_block_resource();
  // Room for the input copy plus the nodes of a typical document (32 bytes per element of usually
  // 8-20 encoded bytes); the arena grows in blocks when a document has smaller elements.
  detail::arena_ptr a(detail::arena::create(upstream, bytes.size() * 4 + 64, options.pooled));
  auto* copy = static_cast<std::uint8_t*>(a->allocate(bytes.size(), 8));
  std::memcpy(copy, bytes.data(), bytes.size());

  document out;
  decoder<true> d(copy, bytes.size(), options, a.get(), thread_scratch());
  if (auto r = d.run(&out.root_); !r) return std::move(r).error();
  out.arena_ = std::move(a);
  out.source_size_ = bytes.size();
  return out;
}

result<void> validate_document(std::span<const std::uint8_t> bytes, const decode_options& options) {
  if (auto r = check_envelope(bytes, options); !r) return r;
  decoder<false> d(bytes.data(), bytes.size(), options, nullptr, thread_scratch());
  return d.run(nullptr);
}

result<document_view> document_view::from_bytes(std::span<const std::uint8_t> bytes, const decode_options& options) {
  if (auto r = validate_document(bytes, options); !r) return std::move(r).error();
  return document_view(bytes);
}

}  // namespace bsongen
