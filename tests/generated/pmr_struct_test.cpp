// Structs of an `allocator: pmr` schema (tests/generated/schemas/arena_structs.yaml): every
// string, vector, map, binary and regex they hold, down nested structs, vectors and maps of structs
// and optionals, allocates from the resource the outermost struct was built on, whether decode
// makes the struct or decodes into one. This executable links bsongen_test_heap_counter, which
// counts the global heap's allocations.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "arena_structs.bsongen.hpp"
#include "bsongen/codec.hpp"
#include "bsongen/document.hpp"
#include "bsongen/extjson.hpp"
#include "bsongen/pmr_types.hpp"
#include "bsongen/pmr_value.hpp"
#include "bsongen/writer.hpp"
#include "counting_resource.hpp"
#include "default_resource_refuses.hpp"
#include "heap_counter.hpp"

namespace {

namespace heap = bsongen::test::heap;
using bsongen::test::counting_resource;
using bsongen::test::default_resource_refuses;
using allocator = std::pmr::polymorphic_allocator<>;

static_assert(std::uses_allocator_v<arena::person, allocator>);
static_assert(std::uses_allocator_v<arena::address, allocator>);
static_assert(std::uses_allocator_v<arena::shelf, allocator>);  // through its fixed arrays
static_assert(std::uses_allocator_v<bsongen::nullable<std::pmr::string>, allocator>);
static_assert(std::uses_allocator_v<arena::tally, allocator>);  // through its capture member
static_assert(!std::uses_allocator_v<arena::point, allocator>);
static_assert(std::is_same_v<decltype(arena::person::extra), bsongen::pmr::raw_document>);
static_assert(std::is_same_v<decltype(arena::person::shape), bsongen::pmr::raw_document>);
static_assert(std::is_same_v<decltype(arena::person::filter), bsongen::pmr::regex>);
static_assert(std::uses_allocator_v<bsongen::pmr::binary, allocator>);
static_assert(std::uses_allocator_v<bsongen::pmr::regex, allocator>);
static_assert(std::is_same_v<decltype(arena::person::plain), std::string>);  // `cpp:` wins
// `any` follows the struct's allocator as the other members do (red team: a plain bsongen::value
// stayed on the resource it was decoded on when its struct moved onto another).
static_assert(std::is_same_v<decltype(arena::person::attributes), bsongen::pmr::value>);
static_assert(std::uses_allocator_v<bsongen::pmr::value, allocator>);

// Longer than any std::string keeps inline, so each one allocates.
std::pmr::string text(std::string_view stem, int n) {
  return std::pmr::string(std::string(stem) + " number " + std::to_string(n) +
                          " with room to spare");
}

arena::address address(int n, bool with_floor) {
  arena::address a;
  a.street = text("street", n);
  if (with_floor) a.floor = n;
  return a;
}

// A document of n + 1 elements whose keys no struct here declares, with texts long enough to
// need memory of their own.
bsongen::byte_buffer unknown_elements(int n) {
  bsongen::document d;
  d.append("unknown", "an unknown text that needs memory of its own");
  for (int i = 0; i < n; ++i) d.append("unknown_" + std::to_string(i), std::int64_t{i});
  return bsongen::encode_document(d);
}

arena::person person(int friends) {
  arena::person p;
  p.name = text("name", 0);
  p.memory = text("memory", 0);
  p.other = 5;
  p.home = address(1, true);
  p.previous = address(2, false);
  for (int i = 0; i < friends; ++i) {
    p.nicknames.push_back(text("nickname", i));
    p.friends.push_back(address(10 + i, i % 2 == 0));
    p.by_city.emplace(text("city", i), address(20 + i, true));
    p.scores.emplace(text("game", i), std::pmr::vector<std::int64_t>{i, i * 1000000000000LL});
    p.matrix.push_back({text("row", i), text("cell", i)});
  }
  p.code = text("function () {}", 0);
  const std::pmr::string payload = text("payload", 0);  // each binary's bytes allocate
  const auto payload_bytes =
      std::span(reinterpret_cast<const std::uint8_t*>(payload.data()), payload.size());
  p.photo = bsongen::pmr::binary(payload_bytes, bsongen::binary_subtype::generic);
  for (int i = 0; i < friends; ++i) {
    p.blobs.emplace_back(
        payload_bytes.first(8 + static_cast<std::size_t>(i)),
        i % 2 == 0 ? bsongen::binary_subtype::user_defined : bsongen::binary_subtype::binary_old);
    p.filters.emplace(text("filter", i), bsongen::pmr::regex(text("^pattern", i), "im"));
  }
  p.filter = bsongen::pmr::regex(text("^[a-z]+ pattern", 0), "ix");
  const auto scope = unknown_elements(friends);
  p.shape.assign(scope.span());
  p.legacy.emplace(text("function (x) { return x; }", 0), scope.span());
  // Elements the schema does not declare: encode writes them, decode captures them again.
  p.extra.assign(scope.span());
  // An `any` holding a document with an array and texts past any inline buffer: decode gives its
  // parts memory from the decode's resource.
  bsongen::array tags;
  tags.push_back("a tag long enough to need memory of its own").push_back(std::int32_t{friends});
  p.attributes = bsongen::value(bsongen::document{
      {"service", "a service name long enough to need memory of its own"}, {"tags", tags}});
  p.plain = "short";  // std::string: within its inline buffer, so the heap counter sees nothing
  p.age = 42;
  return p;
}

// Every allocating member of p, and of what it holds, reports `expected` as its resource.
void expect_on(const arena::address& a, std::pmr::memory_resource* expected,
               const std::string& where) {
  EXPECT_EQ(a.get_allocator().resource(), expected) << where;
  EXPECT_EQ(a.street.get_allocator().resource(), expected) << where << ".street";
  EXPECT_EQ(a.country.get_allocator().resource(), expected) << where << ".country";
}

void expect_on(const arena::person& p, std::pmr::memory_resource* expected) {
  EXPECT_EQ(p.get_allocator().resource(), expected);
  EXPECT_EQ(p.name.get_allocator().resource(), expected) << "name";
  if (p.memory) {
    EXPECT_EQ(p.memory->get_allocator().resource(), expected) << "memory";
  }
  if (p.code) {
    EXPECT_EQ(p.code->get_allocator().resource(), expected) << "code";
  }
  expect_on(p.home, expected, "home");
  if (p.previous) expect_on(*p.previous, expected, "previous");
  EXPECT_EQ(p.nicknames.get_allocator().resource(), expected) << "nicknames";
  for (const auto& n : p.nicknames) EXPECT_EQ(n.get_allocator().resource(), expected) << "nickname";
  for (std::size_t i = 0; i < p.friends.size(); ++i) {
    expect_on(p.friends[i], expected, "friends." + std::to_string(i));
  }
  for (const auto& [city, a] : p.by_city) {
    EXPECT_EQ(city.get_allocator().resource(), expected) << "by_city key";
    expect_on(a, expected, "by_city." + std::string(city));
  }
  for (const auto& [game, scores] : p.scores) {
    EXPECT_EQ(game.get_allocator().resource(), expected) << "scores key";
    EXPECT_EQ(scores.get_allocator().resource(), expected) << "scores." << game;
  }
  if (p.photo) {
    EXPECT_EQ(p.photo->get_allocator().resource(), expected) << "photo";
  }
  EXPECT_EQ(p.blobs.get_allocator().resource(), expected) << "blobs";
  for (const auto& b : p.blobs) EXPECT_EQ(b.get_allocator().resource(), expected) << "blob";
  EXPECT_EQ(p.filter.pattern.get_allocator().resource(), expected) << "filter.pattern";
  EXPECT_EQ(p.filter.options.get_allocator().resource(), expected) << "filter.options";
  for (const auto& [name, f] : p.filters) {
    EXPECT_EQ(name.get_allocator().resource(), expected) << "filters key";
    EXPECT_EQ(f.pattern.get_allocator().resource(), expected) << "filters." << name;
  }
  EXPECT_EQ(p.shape.get_allocator().resource(), expected) << "shape";
  if (p.legacy) {
    EXPECT_EQ(p.legacy->code.get_allocator().resource(), expected) << "legacy.code";
    EXPECT_EQ(p.legacy->scope.get_allocator().resource(), expected) << "legacy.scope";
  }
  EXPECT_EQ(p.extra.get_allocator().resource(), expected) << "extra";
  EXPECT_EQ(p.attributes.get_allocator().resource(), expected) << "attributes";
  for (const auto& row : p.matrix) {
    EXPECT_EQ(row.get_allocator().resource(), expected) << "matrix row";
    for (const auto& cell : row)
      EXPECT_EQ(cell.get_allocator().resource(), expected) << "matrix cell";
  }
}

void expect_on(const arena::tally& t, std::pmr::memory_resource* expected) {
  EXPECT_EQ(t.get_allocator().resource(), expected);
  EXPECT_EQ(t.rest.get_allocator().resource(), expected) << "rest";
}

// A resource that takes its blocks from the heap and can tell whether an address lies in one of
// them, so a test can check that nothing of a value points into it.
class tracking_resource final : public std::pmr::memory_resource {
 public:
  [[nodiscard]] bool owns(const void* p) const noexcept {
    const auto* byte = static_cast<const std::byte*>(p);
    for (const auto& [start, size] : blocks_) {
      if (byte >= start && byte < start + size) return true;
    }
    return false;
  }

 private:
  void* do_allocate(std::size_t size, std::size_t alignment) override {
    void* p = std::pmr::new_delete_resource()->allocate(size, alignment);
    blocks_.emplace_back(static_cast<std::byte*>(p), size);
    return p;
  }
  void do_deallocate(void* p, std::size_t size, std::size_t alignment) override {
    std::erase_if(blocks_, [&](const auto& b) { return b.first == p; });
    std::pmr::new_delete_resource()->deallocate(p, size, alignment);
  }
  [[nodiscard]] bool do_is_equal(const memory_resource& other) const noexcept override {
    return this == &other;
  }
  std::vector<std::pair<std::byte*, std::size_t>> blocks_;
};

// Every text an `any` value holds, down its documents and arrays.
void collect_texts(bsongen::value_ref v, std::vector<std::string_view>& out) {
  if (v.is_string()) out.push_back(v.as_string());
  if (v.is_document()) {
    for (const bsongen::element e : v.as_document()) {
      out.push_back(e.key());
      collect_texts(e.value(), out);
    }
  }
  if (v.is_array()) {
    for (const bsongen::value_ref e : v.as_array()) collect_texts(e, out);
  }
}

// The red team's use-after-free: a struct decoded onto arena A, moved into a vector on resource
// B, then A released. Every member must have followed B, the `any` member too.
TEST(pmr_struct_hostile, a_struct_moved_onto_another_resource_takes_its_any_member_along) {
  const arena::person source = person(2);
  const bsongen::byte_buffer bytes = bsongen::encode(source).value();
  counting_resource b;
  std::pmr::vector<arena::person> people{allocator(&b)};
  {
    tracking_resource a_blocks;
    std::pmr::monotonic_buffer_resource a(&a_blocks);
    auto decoded = bsongen::decode<arena::person>(bytes.span(), {.memory = &a});
    ASSERT_TRUE(decoded) << decoded.error().to_string();
    expect_on(*decoded, &a);
    std::vector<std::string_view> texts;
    collect_texts(decoded->attributes, texts);
    ASSERT_GE(texts.size(), 4U);
    for (const std::string_view t : texts) ASSERT_TRUE(a_blocks.owns(t.data())) << t;

    people.push_back(std::move(*decoded));
    expect_on(people[0], &b);
    texts.clear();
    collect_texts(people[0].attributes, texts);
    for (const std::string_view t : texts) EXPECT_FALSE(a_blocks.owns(t.data())) << t;
  }  // A is released and its blocks freed: reading below would be a use-after-free (ASan)
  EXPECT_EQ(people[0], source);
  EXPECT_EQ(bsongen::encode(people[0]).value(), bytes);
  people.clear();  // destroying it must not touch A either
}

TEST(pmr_struct, an_any_value_copies_onto_its_own_resource_and_moves_within_it) {
  counting_resource a;
  counting_resource b;
  const bsongen::value text("a text long enough to need memory of its own");
  bsongen::pmr::value on_a(text, allocator(&a));
  EXPECT_EQ(on_a.get_allocator().resource(), &a);
  EXPECT_GT(a.allocations, 0U);
  EXPECT_EQ(on_a, text);

  // Moved within a resource: no copy.
  const std::size_t before = a.allocations;
  bsongen::pmr::value moved(std::move(on_a), allocator(&a));
  EXPECT_EQ(a.allocations, before);
  EXPECT_EQ(moved, text);

  // Moved or assigned onto another resource: a copy there; the allocator does not propagate.
  bsongen::pmr::value on_b(std::move(moved), allocator(&b));
  EXPECT_EQ(on_b.get_allocator().resource(), &b);
  EXPECT_GT(b.allocations, 0U);
  EXPECT_EQ(on_b, text);
  bsongen::pmr::value target{allocator(&a)};
  const std::size_t b_before = b.allocations;
  target = std::move(on_b);
  EXPECT_EQ(target.get_allocator().resource(), &a);
  EXPECT_EQ(b.allocations, b_before);
  EXPECT_EQ(target, text);
  target = 42;  // a scalar needs no memory
  EXPECT_EQ(target.as_int32(), 42);
  EXPECT_EQ(target.get_allocator().resource(), &a);

  // A copy without an allocator is on the default resource, as a std::pmr::string's is.
  const bsongen::pmr::value copy(target);
  EXPECT_EQ(copy.get_allocator().resource(), std::pmr::get_default_resource());
}

// Every wrapper that holds allocator-aware values without being allocator-aware: fixed arrays
// (nested too), nullables, an optional array, and vectors and maps of them.
arena::shelf shelf(int n, bool with_containers_of_arrays) {
  arena::shelf s;
  s.labels = {text("label", n), text("label", n + 1)};
  s.bins = {address(n, true), address(n + 1, false)};
  s.grid = {{{text("grid", 0), text("grid", 1)}, {text("grid", 2), text("grid", 3)}}};
  s.note = text("note", n);
  s.boxed = address(n + 2, true);
  s.maybe_names.push_back(text("maybe", n));
  s.maybe_names.emplace_back(nullptr);
  s.spare.emplace();
  (*s.spare)[1] = text("spare", n);
  if (with_containers_of_arrays) {
    for (int i = 0; i < n; ++i) {
      s.pairs.push_back({text("pair", i), text("pair", i + 1)});
      s.keyed.emplace(text("key", i), std::array<std::pmr::string, 2>{text("value", i), {}});
    }
  }
  return s;
}

void expect_on(const arena::shelf& s, std::pmr::memory_resource* expected) {
  EXPECT_EQ(s.get_allocator().resource(), expected);
  for (const auto& label : s.labels)
    EXPECT_EQ(label.get_allocator().resource(), expected) << "labels";
  expect_on(s.bins[0], expected, "bins.0");
  expect_on(s.bins[1], expected, "bins.1");
  for (const auto& row : s.grid) {
    for (const auto& cell : row) EXPECT_EQ(cell.get_allocator().resource(), expected) << "grid";
  }
  if (s.note.has_value()) {
    EXPECT_EQ(s.note->get_allocator().resource(), expected) << "note";
  }
  if (s.boxed.has_value()) expect_on(*s.boxed, expected, "boxed");
  EXPECT_EQ(s.maybe_names.get_allocator().resource(), expected) << "maybe_names";
  for (const auto& name : s.maybe_names) {
    if (name.has_value()) {
      EXPECT_EQ(name->get_allocator().resource(), expected) << "maybe_names";
    }
  }
  if (s.spare) {
    for (const auto& x : *s.spare) EXPECT_EQ(x.get_allocator().resource(), expected) << "spare";
  }
  for (const auto& pair : s.pairs) {
    for (const auto& x : pair) EXPECT_EQ(x.get_allocator().resource(), expected) << "pairs";
  }
  for (const auto& [key, value] : s.keyed) {
    EXPECT_EQ(key.get_allocator().resource(), expected) << "keyed key";
    for (const auto& x : value)
      EXPECT_EQ(x.get_allocator().resource(), expected) << "keyed." << key;
  }
}

// Decodes source's bytes into a new T on a fixed buffer that cannot grow, while the default
// resource refuses every request: the result must equal source, lie on the buffer, and the global
// heap must not have been used.
template <class T>
void expect_decoded_on_a_bounded_buffer_alone(const T& source) {
  const auto bytes = bsongen::encode(source).value();
  std::vector<std::byte> buffer(64 * 1024);
  std::pmr::monotonic_buffer_resource bounded(buffer.data(), buffer.size(),
                                              std::pmr::null_memory_resource());
  // The generic decoder (which decodes `any` values) keeps a scratch stack per thread, allocated
  // on the thread's first decode and reused by every later one: not this decode's memory.
  ASSERT_TRUE(bsongen::decode_document(bytes.span()));
  bsongen::result<T> decoded = bsongen::error{};
  const auto use = heap::measure([&] {
    const default_resource_refuses guard;
    decoded = bsongen::decode<T>(bytes.span(), {.memory = &bounded});
  });
  ASSERT_TRUE(decoded) << decoded.error().to_string();
  EXPECT_EQ(*decoded, source);
  expect_on(*decoded, &bounded);
  EXPECT_EQ(use.allocations, 0U) << "the global heap was used";
}

TEST(pmr_struct, a_new_struct_decodes_onto_the_given_resource_and_nowhere_else) {
  expect_decoded_on_a_bounded_buffer_alone(person(3));
}

TEST(pmr_struct, decoding_into_a_struct_keeps_its_resource_as_members_come_and_go) {
  // Shapes in turn: more friends, fewer, none, and back; optionals set and absent.
  std::vector<std::pair<arena::person, bsongen::byte_buffer>> inputs;
  for (const int friends : {2, 5, 1, 0, 4}) {
    arena::person source = person(friends);
    if (friends % 2 == 1) {
      source.previous.reset();
      source.memory.reset();
    }
    auto bytes = bsongen::encode(source).value();
    inputs.emplace_back(std::move(source), std::move(bytes));
  }
  counting_resource resource;
  arena::person target{allocator(&resource)};
  const default_resource_refuses guard;
  for (const auto& [source, bytes] : inputs) {
    const std::size_t before = resource.allocations;
    ASSERT_TRUE(bsongen::decode(bytes.span(), target)) << source.friends.size() << " friends";
    EXPECT_EQ(target, source) << source.friends.size() << " friends";
    expect_on(target, &resource);
    if (source.friends.size() > 2) {
      EXPECT_GT(resource.allocations, before) << source.friends.size() << " friends";
    }
  }
  // Only the required name: every other member is reset to its default, on the same resource
  // (home's country default is too long to be inline, so resetting it allocates).
  static constexpr std::uint8_t only_name[] = {17, 0, 0, 0, 2, 'n', 'a', 'm', 'e',
                                               0,  2, 0, 0, 0, 'x', 0,   0};
  ASSERT_TRUE(bsongen::decode(std::span<const std::uint8_t>(only_name), target));
  arena::person expected{allocator(&resource)};
  expected.name.push_back('x');  // (assigning "x" trips a false -Wrestrict in g++ 12)
  EXPECT_EQ(target, expected);
  expect_on(target, &resource);
}

// {"name": "n", "by_city": {<city>: {"street": <city> street}, ...}} with the keys in the given
// order (std::map members always encode sorted; other writers keep insertion order).
bsongen::byte_buffer by_city_document(const std::vector<std::string>& cities) {
  std::string json = R"({"name": "n", "by_city": {)";
  for (std::size_t i = 0; i < cities.size(); ++i) {
    if (i != 0) json += ", ";
    json += "\"" + cities[i] + "\": {\"street\": \"" + cities[i] + " high street\"}";
  }
  json += "}}";
  return bsongen::extjson_to_bson(json).value();
}

TEST(pmr_struct, a_reused_map_keeps_its_resource_whatever_order_its_keys_come_in) {
  const std::string a = "Aachen, Nordrhein-Westfalen";
  const std::string b = "Bremerhaven, Freie Hansestadt Bremen";
  const std::string c = "Chemnitz, Freistaat Sachsen";
  const std::string d = "Dresden, Freistaat Sachsen";
  const std::string e = "Erfurt, Freistaat Thueringen";
  // Sorted; reversed (the map is looked up key by key); repeated keys; all new keys (the map's
  // nodes are recycled for them); a mix; none.
  const std::vector<std::vector<std::string>> orders = {{a, b, c}, {c, b, a},    {b, b, a, c, a},
                                                        {d, e},    {e, a, d, b}, {}};
  std::vector<bsongen::byte_buffer> inputs;
  for (const auto& cities : orders) inputs.push_back(by_city_document(cities));

  counting_resource resource;
  arena::person target{allocator(&resource)};
  counting_resource fresh_resource;
  const default_resource_refuses guard;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    ASSERT_TRUE(bsongen::decode(inputs[i].span(), target)) << "input " << i;
    const auto fresh =
        bsongen::decode<arena::person>(inputs[i].span(), {.memory = &fresh_resource});
    ASSERT_TRUE(fresh) << fresh.error().to_string();
    EXPECT_EQ(target, *fresh) << "input " << i;
    expect_on(target, &resource);
  }
}

TEST(pmr_struct, without_a_resource_decode_uses_the_default_one) {
  counting_resource resource;
  std::pmr::memory_resource* previous = std::pmr::set_default_resource(&resource);
  const auto bytes = bsongen::encode(person(2)).value();
  const auto decoded = bsongen::decode<arena::person>(bytes.span());
  std::pmr::set_default_resource(previous);
  ASSERT_TRUE(decoded) << decoded.error().to_string();
  expect_on(*decoded, &resource);
  EXPECT_GT(resource.allocations, 0U);
}

TEST(pmr_struct, allocator_extended_copies_and_moves_rebuild_every_member_on_the_new_resource) {
  const arena::person source = person(3);
  counting_resource first;
  counting_resource second;
  const default_resource_refuses guard;

  const arena::person copy(source, allocator(&first));
  EXPECT_EQ(copy, source);
  expect_on(copy, &first);

  arena::person moved(arena::person(copy, allocator(&first)), allocator(&second));
  EXPECT_EQ(moved, source);
  expect_on(moved, &second);

  // A container of them hands its resource to each element (uses-allocator construction).
  std::pmr::vector<arena::person> people(&second);
  people.push_back(copy);
  people.emplace_back();
  expect_on(people[0], &second);
  expect_on(people[1], &second);
  EXPECT_EQ(people[0], source);
}

// std::array, std::optional and bsongen::nullable take no allocator, but what they hold does:
// decode builds it on the struct's resource, wherever the wrapper sits (a member, a vector's or a
// map's element), and so do the struct's own constructors.
TEST(pmr_struct, values_inside_arrays_optionals_and_nullables_decode_onto_the_resource) {
  expect_decoded_on_a_bounded_buffer_alone(shelf(3, true));

  // Decoded into a struct built on another resource: one with more, then fewer elements.
  std::vector<arena::shelf> nexts;
  std::vector<bsongen::byte_buffer> encoded;
  for (const int n : {5, 1, 4}) {
    nexts.push_back(shelf(n, true));
    encoded.push_back(bsongen::encode(nexts.back()).value());
  }
  counting_resource resource;
  const default_resource_refuses guard;
  arena::shelf reused{allocator(&resource)};
  expect_on(reused, &resource);
  for (std::size_t i = 0; i < nexts.size(); ++i) {
    ASSERT_TRUE(bsongen::decode(encoded[i].span(), reused));
    EXPECT_EQ(reused, nexts[i]);
    expect_on(reused, &resource);
  }
}

TEST(pmr_struct, copies_rebuild_values_inside_arrays_optionals_and_nullables) {
  // Without `pairs` and `keyed`: a std::pmr container copies its std::array elements as they
  // are (std::array takes no allocator), so their strings would take the default resource
  // (docs/schema-format.md, "Allocators").
  const arena::shelf source = shelf(2, false);
  counting_resource first;
  counting_resource second;
  const default_resource_refuses guard;
  const arena::shelf copy(source, allocator(&first));
  EXPECT_EQ(copy, source);
  expect_on(copy, &first);
  const arena::shelf moved(arena::shelf(copy, allocator(&first)), allocator(&second));
  EXPECT_EQ(moved, source);
  expect_on(moved, &second);

  // A vector of nullables hands its resource to each value (nullable is uses-allocator).
  std::pmr::vector<bsongen::nullable<std::pmr::string>> names(&second);
  names.push_back(source.maybe_names[0]);
  names.emplace_back(nullptr);
  ASSERT_TRUE(names[0].has_value());
  EXPECT_EQ(names[0]->get_allocator().resource(), &second);
  EXPECT_TRUE(names[1].is_null());
}

TEST(pmr_struct, a_struct_built_on_a_resource_keeps_its_defaults) {
  counting_resource resource;
  const arena::address on_resource{allocator(&resource)};
  EXPECT_EQ(on_resource, arena::address{});
  EXPECT_EQ(on_resource.country, "a default too long for a string's inline buffer");
  EXPECT_EQ(on_resource.country.get_allocator().resource(), &resource);
}

TEST(pmr_struct, captured_unknown_elements_decode_onto_the_resource) {
  arena::tally source;
  source.count = 7;
  source.rest.assign(unknown_elements(3).span());
  expect_decoded_on_a_bounded_buffer_alone(source);

  // Decoding into a struct built on a resource captures onto that resource, and a second decode
  // replaces what the first captured.
  counting_resource resource;
  arena::tally target{allocator(&resource)};
  const default_resource_refuses guard;
  const auto bytes = bsongen::encode(source).value();
  ASSERT_TRUE(bsongen::decode(bytes.span(), target));
  ASSERT_TRUE(bsongen::decode(bytes.span(), target));
  EXPECT_EQ(target, source);
  expect_on(target, &resource);
  EXPECT_GT(resource.allocations, 0U);

  const arena::tally copy(target, allocator(&resource));
  EXPECT_EQ(copy, source);
  expect_on(copy, &resource);
}

TEST(pmr_struct, bytes_match_the_generic_path_both_ways) {
  arena::person source = person(4);
  const auto bytes = bsongen::encode(source).value();
  const auto document = bsongen::decode_document(bytes.span()).value();
  bsongen::writer w;
  ASSERT_TRUE(bsongen::encode_document(document, w));
  EXPECT_EQ(std::vector<std::uint8_t>(w.bytes().begin(), w.bytes().end()),
            std::vector<std::uint8_t>(bytes.span().begin(), bytes.span().end()));
}

}  // namespace
