// bsongen::value: construction from C++ values, type tags, accessors, copies and equality.

#include "bsongen/value.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "bsongen/document.hpp"

namespace bsongen {
namespace {

TEST(value, integers_pick_int32_or_int64_by_width) {
  EXPECT_EQ(value(7).type(), bson_type::int32);
  EXPECT_EQ(value(std::int16_t{-3}).as_int32(), -3);
  EXPECT_EQ(value(std::uint16_t{65535}).as_int32(), 65535);
  EXPECT_EQ(value(std::uint32_t{4'000'000'000U}).as_int64(), 4'000'000'000LL);
  EXPECT_EQ(value(std::int64_t{-1}).type(), bson_type::int64);
  EXPECT_EQ(value(9'000'000'000LL).as_int64(), 9'000'000'000LL);
  EXPECT_EQ(value(std::uint64_t{5}).as_int64(), 5);
  EXPECT_THROW((void)value(std::numeric_limits<std::uint64_t>::max()), exception);
}

TEST(value, scalars_and_strings) {
  EXPECT_EQ(value().type(), bson_type::null);
  EXPECT_EQ(value(nullptr).type(), bson_type::null);
  EXPECT_TRUE(value(true).as_bool());
  EXPECT_EQ(value(2.5).as_double(), 2.5);
  EXPECT_EQ(value(2.5f).as_double(), 2.5);
  EXPECT_EQ(value("text").as_string(), "text");  // not converted to bool
  EXPECT_EQ(value(std::string("s")).as_string(), "s");
  EXPECT_EQ(value(std::string_view("a\0b", 3)).as_string(), std::string_view("a\0b", 3));
  EXPECT_EQ(value(javascript{"f()"}).as_javascript(), "f()");
  EXPECT_EQ(value(symbol{"sym"}).as_symbol(), "sym");
  EXPECT_EQ(value(undefined{}).type(), bson_type::undefined);
  EXPECT_EQ(value(min_key{}).type(), bson_type::min_key);
  EXPECT_EQ(value(max_key{}).type(), bson_type::max_key);
  EXPECT_EQ(value(timestamp{1, 2}).as_timestamp(), (timestamp{1, 2}));
  const datetime when(std::chrono::milliseconds(-5));
  EXPECT_EQ(value(when).as_datetime(), when);
}

TEST(value, binary_regex_db_pointer_and_code_with_scope) {
  const value b = binary{{0xde, 0xad}, binary_subtype::uuid};
  EXPECT_EQ(b.as_binary().subtype, binary_subtype::uuid);
  EXPECT_EQ(b.as_binary().bytes.size(), 2u);
  const value r = regex{"a+", "mi"};
  EXPECT_EQ(r.as_regex().pattern, "a+");
  EXPECT_EQ(r.as_regex().options, "mi");
  EXPECT_THROW((void)value(regex{std::string("a\0", 2), ""}), exception);
  const object_id id = object_id::from_bytes(reinterpret_cast<const std::uint8_t*>("0123456789ab"));
  const value p = db_pointer{"db.c", id};
  EXPECT_EQ(p.as_db_pointer().ns, "db.c");
  EXPECT_EQ(p.as_db_pointer().id, id);
  const value c = javascript_with_scope{"h()", to_raw_document(document{{"k", "v"}})};
  EXPECT_EQ(c.as_javascript_with_scope_code(), "h()");
  EXPECT_EQ(c.as_javascript_with_scope_scope()["k"].as_string(), "v");
}

TEST(value, documents_and_arrays_move_in_and_nest) {
  value d = document{{"a", array{1, array{2, 3}}}};
  EXPECT_TRUE(d.is_document());
  EXPECT_EQ(d["a"][1][0].as_int32(), 2);
  EXPECT_FALSE(d["a"][5]);
  EXPECT_FALSE(d["missing"]["deeper"]);
  value a = array{"x"};
  EXPECT_TRUE(a.is_array());
  EXPECT_EQ(a.as_array().size(), 1u);
}

TEST(value, copies_are_deep_and_equal) {
  value original = document{{"s", "text"}, {"list", array{1, 2}}};
  value copy = original;
  EXPECT_EQ(copy.ref(), original.ref());
  EXPECT_NE(copy["s"].as_string().data(), original["s"].as_string().data());
  value other = document{{"s", "text"}, {"list", array{1, 3}}};
  EXPECT_FALSE(copy.ref() == other.ref());
  copy = other;
  EXPECT_EQ(copy.ref(), other.ref());
}

TEST(value, equality_follows_the_encoding) {
  EXPECT_EQ(value(1).ref(), value(1).ref());
  EXPECT_FALSE(value(1).ref() == value(std::int64_t{1}).ref());  // different types
  EXPECT_FALSE(value(0.0).ref() == value(-0.0).ref());           // different bits
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(value(nan).ref(), value(nan).ref());  // same bits
  EXPECT_EQ(value(regex{"p", "mi"}).ref(),
            value(regex{"p", "im"}).ref());  // same canonical encoding
  // Array keys do not matter; document keys do.
  EXPECT_EQ(value(array{1, 2}).ref(), value(array{1, 2}).ref());
  EXPECT_FALSE(value(document{{"a", 1}}).ref() == value(document{{"b", 1}}).ref());
}

TEST(value, accessors_reject_the_wrong_type) {
  const value v = 5;
  EXPECT_THROW((void)v.as_string(), exception);
  EXPECT_THROW((void)v.as_document(), exception);
  EXPECT_FALSE(v.is_string());
  EXPECT_TRUE(v.is(bson_type::int32));
  const value_ref missing;
  EXPECT_FALSE(missing);
  EXPECT_THROW((void)missing.type(), exception);
}

// ---- sizes beyond int32 (issue 11.7) ----

// A read-only view of `size` bytes that are never touched: an anonymous MAP_NORESERVE mapping
// costs address space only, so a 4 GiB + 16 byte "string" needs no memory. The checks under test
// must refuse it before reading or copying a byte (reading would fault in zero pages, copying
// would allocate 4 GiB: either would show as a slow or killed test, not a pass).
class huge_view {
 public:
  explicit huge_view(std::size_t size) : size_(size) {
    void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p != MAP_FAILED) data_ = static_cast<const char*>(p);
  }
  huge_view(const huge_view&) = delete;
  huge_view& operator=(const huge_view&) = delete;
  ~huge_view() {
    if (data_ != nullptr) ::munmap(const_cast<char*>(data_), size_);
  }
  [[nodiscard]] bool mapped() const noexcept { return data_ != nullptr; }
  [[nodiscard]] std::string_view view() const noexcept { return {data_, size_}; }

 private:
  const char* data_ = nullptr;
  std::size_t size_;
};

error_code thrown_code(auto&& build) {
  try {
    build();
  } catch (const exception& e) {
    return e.error().code;
  }
  return error_code::ok;
}

TEST(value_hostile, parts_longer_than_bson_sizes_are_refused_when_built) {
  constexpr std::size_t four_gib_and_16 = (std::size_t{1} << 32) + 16;
  huge_view huge(four_gib_and_16);
  if (!huge.mapped()) GTEST_SKIP() << "no 4 GiB of address space for the mapping";
  const std::string_view text = huge.view();
  // Stored as uint32, this string used to become a 16-byte one and encode without error.
  EXPECT_EQ(thrown_code([&] { value v(text); }), error_code::too_large);
  document d;
  EXPECT_EQ(thrown_code([&] { d.append(text, 1); }), error_code::too_large);  // a key
  EXPECT_EQ(thrown_code([&] { d.set(text, 1); }), error_code::too_large);
  EXPECT_TRUE(d.empty());
  // Just past the bound, and at it (which only a 2 GiB copy could show accepted: not tried).
  const std::string_view over = text.substr(0, max_part_size + 1);
  EXPECT_EQ(thrown_code([&] { value v(over); }), error_code::too_large);
  EXPECT_EQ(thrown_code([&] { document{{over, 1}}; }), error_code::too_large);
}

}  // namespace
}  // namespace bsongen
