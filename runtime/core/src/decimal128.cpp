#include "bsongen/decimal128.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>

// The coefficient of a decimal128 is up to 113 bits. unsigned __int128 (a g++/clang extension,
// hence __extension__ to keep -Wpedantic quiet) holds it in one value: multiply-by-10-and-add
// compiles to a mul/adc pair and the single split in to_chars to one library division, with no
// carry bookkeeping of our own. A hand-rolled pair of uint64 would be slower and easier to get
// wrong; an arbitrary-precision type would allocate.
namespace bsongen {
namespace {

__extension__ typedef unsigned __int128 u128;

constexpr int exponent_bias = 6176;
constexpr int min_exponent = -6176;  // of the coefficient, not the adjusted exponent
constexpr int max_exponent = 6111;
constexpr int max_digits = 34;

constexpr std::uint64_t sign_bit = 0x8000000000000000ULL;
constexpr std::uint64_t combination_11 = 0x6000000000000000ULL;
constexpr std::uint64_t infinity_bits = 0x7800000000000000ULL;
constexpr std::uint64_t nan_bits = 0x7C00000000000000ULL;
constexpr std::uint64_t coefficient_high_mask = 0x0001FFFFFFFFFFFFULL;  // 49 bits

constexpr std::uint64_t pow10_u64(int n) noexcept {
  std::uint64_t v = 1;
  for (int i = 0; i < n; ++i) v *= 10;
  return v;
}

constexpr std::array<u128, max_digits + 1> make_pow10_table() noexcept {
  std::array<u128, max_digits + 1> table{};
  u128 v = 1;
  for (auto& entry : table) {
    entry = v;
    v *= 10;
  }
  return table;
}
constexpr std::array<u128, max_digits + 1> pow10 = make_pow10_table();
constexpr u128 max_coefficient = pow10[max_digits] - 1;

// The value as sign, coefficient and unbiased exponent; specials never reach this form.
struct finite_parts {
  bool negative = false;
  u128 coefficient = 0;
  int exponent = 0;
};

// Decodes finite bits. A coefficient beyond 10^34 - 1, and every finite encoding whose
// combination field starts with 11 (its implied coefficient is at least 2^113 > 10^34), is
// non-canonical: IEEE 754-2008 reads it as zero, keeping the exponent.
finite_parts decode_finite(std::uint64_t high, std::uint64_t low) noexcept {
  finite_parts parts;
  parts.negative = (high & sign_bit) != 0;
  if ((high & combination_11) == combination_11) {
    parts.exponent = static_cast<int>((high >> 47) & 0x3FFF) - exponent_bias;
    return parts;
  }
  parts.exponent = static_cast<int>((high >> 49) & 0x3FFF) - exponent_bias;
  const u128 coefficient = (static_cast<u128>(high & coefficient_high_mask) << 64) | low;
  parts.coefficient = coefficient > max_coefficient ? 0 : coefficient;
  return parts;
}

// Precondition: coefficient <= max_coefficient, exponent in [min_exponent, max_exponent].
decimal128 encode_finite(bool negative, u128 coefficient, int exponent) noexcept {
  const auto biased = static_cast<std::uint64_t>(exponent + exponent_bias);
  const std::uint64_t high =
      (negative ? sign_bit : 0) | (biased << 49) | static_cast<std::uint64_t>(coefficient >> 64);
  return {high, static_cast<std::uint64_t>(coefficient)};
}

constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

// ASCII case-insensitive comparison against a lower-case word.
bool equals_lower(std::string_view text, std::string_view lower_word) noexcept {
  if (text.size() != lower_word.size()) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != lower_word[i]) return false;
  }
  return true;
}

// Quotes at most the first 64 characters of the input, so an error about a huge string stays a
// one-line message.
std::string quoted(std::string_view text) {
  constexpr std::size_t shown = 64;
  std::string out = "\"";
  out.append(text.substr(0, shown));
  if (text.size() > shown) out.append("...");
  out.push_back('"');
  return out;
}

error syntax_error(std::string_view text, std::size_t at, std::string_view what) {
  std::string message = "invalid decimal128 string ";
  message += quoted(text);
  message += ": ";
  message += what;
  return {error_code::invalid_value, std::move(message), at};
}

error inexact_error(std::string_view text, std::string_view what) {
  std::string message = "decimal128 cannot hold ";
  message += quoted(text);
  message += " exactly: ";
  message += what;
  return {error_code::inexact, std::move(message), 0};
}

constexpr std::array<char, 200> make_digit_pairs() noexcept {
  std::array<char, 200> pairs{};
  for (int i = 0; i < 100; ++i) {
    pairs[static_cast<std::size_t>(2 * i)] = static_cast<char>('0' + i / 10);
    pairs[static_cast<std::size_t>(2 * i + 1)] = static_cast<char>('0' + i % 10);
  }
  return pairs;
}
// "00".."99": two digits per division halves the divisions of a digit-at-a-time loop.
constexpr std::array<char, 200> digit_pairs = make_digit_pairs();

void write_pair(char* out, std::uint64_t two_digits) noexcept {
  std::memcpy(out, digit_pairs.data() + 2 * two_digits, 2);
}

// Writes the digits of `v` so that they end just before `end`; returns where they start.
char* write_u64_backwards(char* end, std::uint64_t v) noexcept {
  while (v >= 100) {
    end -= 2;
    write_pair(end, v % 100);
    v /= 100;
  }
  if (v >= 10) {
    end -= 2;
    write_pair(end, v);
  } else {
    *--end = static_cast<char>('0' + v);
  }
  return end;
}

// Writes `v` (< 10^17) as exactly 17 digits, zero-padded, ending just before `end`.
char* write_17_digits_backwards(char* end, std::uint64_t v) noexcept {
  for (int i = 0; i < 8; ++i) {
    end -= 2;
    write_pair(end, v % 100);
    v /= 100;
  }
  *--end = static_cast<char>('0' + v);
  return end;
}

// Writes the decimal digits of a coefficient (<= max_coefficient) so that they end just before
// `end`; returns where they start.
char* write_coefficient_backwards(char* end, u128 coefficient) noexcept {
  const auto low_word = static_cast<std::uint64_t>(coefficient);
  if ((coefficient >> 64) == 0) return write_u64_backwards(end, low_word);
  // 10^34 = (10^17)^2, so a canonical coefficient splits into two 17-digit halves with one
  // 128-bit division; the remainder fits 64 bits, so it is computed modulo 2^64.
  constexpr std::uint64_t half = pow10_u64(17);
  const auto upper = static_cast<std::uint64_t>(coefficient / half);
  end = write_17_digits_backwards(end, low_word - upper * half);
  return write_u64_backwards(end, upper);
}

char* write_exponent(char* out, int exponent) noexcept {
  *out++ = 'E';
  *out++ = exponent < 0 ? '-' : '+';
  unsigned magnitude = static_cast<unsigned>(exponent < 0 ? -exponent : exponent);
  char digits[5];
  int count = 0;
  do {
    digits[count++] = static_cast<char>('0' + magnitude % 10);
    magnitude /= 10;
  } while (magnitude != 0);
  while (count > 0) *out++ = digits[--count];
  return out;
}

}  // namespace

decimal128 decimal128::from_int64(std::int64_t v) noexcept {
  const bool negative = v < 0;
  // Negating in unsigned arithmetic keeps INT64_MIN exact.
  const std::uint64_t magnitude =
      negative ? std::uint64_t{0} - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
  return encode_finite(negative, magnitude, 0);
}

result<std::int64_t> decimal128::to_int64() const {
  if (is_nan() || is_infinite()) {
    return error(error_code::invalid_value,
                 "decimal128 " + to_string() + " is not a finite number, so not an int64");
  }
  const finite_parts parts = decode_finite(high_, low_);
  if (parts.coefficient == 0) return std::int64_t{0};
  u128 magnitude = parts.coefficient;
  if (parts.exponent < 0) {
    // A nonzero coefficient below 10^34 is never a multiple of 10^35 or more.
    if (-parts.exponent > max_digits ||
        magnitude % pow10[static_cast<std::size_t>(-parts.exponent)] != 0) {
      return error(error_code::inexact,
                   "decimal128 " + to_string() + " has a fractional part, so is not an int64");
    }
    magnitude /= pow10[static_cast<std::size_t>(-parts.exponent)];
  } else if (parts.exponent > 0) {
    // 10^19 > 2^63, so a larger scale always overflows; below it the product fits in 128 bits.
    if (parts.exponent > 19)
      magnitude = std::numeric_limits<u128>::max();
    else
      magnitude *= pow10[static_cast<std::size_t>(parts.exponent)];
  }
  const u128 limit =
      static_cast<u128>(std::numeric_limits<std::int64_t>::max()) + (parts.negative ? 1 : 0);
  if (magnitude > limit) {
    return error(error_code::inexact, "decimal128 " + to_string() + " is outside the int64 range");
  }
  const auto bits = static_cast<std::uint64_t>(magnitude);
  return parts.negative ? static_cast<std::int64_t>(std::uint64_t{0} - bits)
                        : static_cast<std::int64_t>(bits);
}

char* decimal128::to_chars(char* out) const noexcept {
  if (is_nan()) {
    std::memcpy(out, "NaN", 3);
    return out + 3;
  }
  if (is_negative()) *out++ = '-';
  if (is_infinite()) {
    std::memcpy(out, "Infinity", 8);
    return out + 8;
  }
  const finite_parts parts = decode_finite(high_, low_);
  char digit_buffer[max_digits];
  const char* digits = write_coefficient_backwards(digit_buffer + max_digits, parts.coefficient);
  const int count = static_cast<int>(digit_buffer + max_digits - digits);
  const int adjusted = parts.exponent + count - 1;

  // The BSON Decimal128 spec (after the General Decimal Arithmetic to-scientific-string rule):
  // plain notation only when the exponent is not positive and the adjusted exponent is >= -6.
  if (parts.exponent > 0 || adjusted < -6) {
    *out++ = digits[0];
    if (count > 1) {
      *out++ = '.';
      std::memcpy(out, digits + 1, static_cast<std::size_t>(count - 1));
      out += count - 1;
    }
    return write_exponent(out, adjusted);
  }
  if (parts.exponent == 0) {
    std::memcpy(out, digits, static_cast<std::size_t>(count));
    return out + count;
  }
  const int fraction_digits = -parts.exponent;
  const int integer_digits = count - fraction_digits;
  if (integer_digits > 0) {
    std::memcpy(out, digits, static_cast<std::size_t>(integer_digits));
    out += integer_digits;
    *out++ = '.';
    std::memcpy(out, digits + integer_digits, static_cast<std::size_t>(fraction_digits));
    return out + fraction_digits;
  }
  *out++ = '0';
  *out++ = '.';
  // At most 5 leading zeros here, since adjusted >= -6.
  for (int i = integer_digits; i < 0; ++i) *out++ = '0';
  std::memcpy(out, digits, static_cast<std::size_t>(count));
  return out + count;
}

std::string decimal128::to_string() const {
  char buffer[max_string_length];
  const char* end = to_chars(buffer);
  return std::string(buffer, static_cast<std::size_t>(end - buffer));
}

result<decimal128> decimal128::from_string(std::string_view text) {
  const std::size_t size = text.size();
  std::size_t pos = 0;
  bool negative = false;
  if (pos < size && (text[pos] == '+' || text[pos] == '-')) {
    negative = text[pos] == '-';
    ++pos;
  }
  if (pos == size) {
    return syntax_error(text, pos, size == 0 ? "empty string" : "sign without digits");
  }

  if (!is_digit(text[pos]) && text[pos] != '.') {
    const std::string_view word = text.substr(pos);
    if (equals_lower(word, "inf") || equals_lower(word, "infinity")) {
      return decimal128(infinity_bits | (negative ? sign_bit : 0), 0);
    }
    if (equals_lower(word, "nan")) return decimal128(nan_bits, 0);
    return syntax_error(text, pos, "expected a digit, '.', Infinity or NaN");
  }

  // Pass 1: validate the syntax [digits][.digits][(e|E)[sign]digits] and locate the parts.
  const std::size_t mantissa_begin = pos;
  std::size_t dot = std::string_view::npos;
  std::size_t digit_count = 0;
  for (; pos < size; ++pos) {
    const char c = text[pos];
    if (is_digit(c)) {
      ++digit_count;
    } else if (c == '.') {
      if (dot != std::string_view::npos) return syntax_error(text, pos, "a second decimal point");
      dot = pos;
    } else {
      break;
    }
  }
  const std::size_t mantissa_end = pos;
  if (digit_count == 0) return syntax_error(text, mantissa_begin, "no digits");

  // Exponents saturate far beyond any representable range; the string length (digits after the
  // point) is what a saturated exponent is compared against, and no real string reaches 10^17.
  constexpr std::int64_t exponent_saturation = 100'000'000'000'000'000;  // 10^17
  std::int64_t written_exponent = 0;
  if (pos < size) {
    if (text[pos] != 'e' && text[pos] != 'E') {
      return syntax_error(text, pos, "unexpected character");
    }
    ++pos;
    bool exponent_negative = false;
    if (pos < size && (text[pos] == '+' || text[pos] == '-')) {
      exponent_negative = text[pos] == '-';
      ++pos;
    }
    if (pos == size) return syntax_error(text, pos, "exponent without digits");
    for (; pos < size; ++pos) {
      const char c = text[pos];
      if (!is_digit(c)) return syntax_error(text, pos, "unexpected character in the exponent");
      if (written_exponent < exponent_saturation)
        written_exponent = written_exponent * 10 + (c - '0');
    }
    if (exponent_negative) written_exponent = -written_exponent;
  }

  // Pass 2: find the significant digits (first nonzero to the end) and the trailing zeros.
  const std::size_t fraction_digits = dot == std::string_view::npos ? 0 : mantissa_end - dot - 1;
  std::int64_t exponent = written_exponent - static_cast<std::int64_t>(fraction_digits);

  std::size_t first_nonzero = mantissa_begin;
  while (first_nonzero < mantissa_end &&
         (text[first_nonzero] == '0' || text[first_nonzero] == '.')) {
    ++first_nonzero;
  }
  if (first_nonzero == mantissa_end) {
    // Zero: any exponent is exact once clamped into range ("0E+9999" is 0E+6111).
    exponent = std::clamp<std::int64_t>(exponent, min_exponent, max_exponent);
    return encode_finite(negative, 0, static_cast<int>(exponent));
  }
  std::size_t last_nonzero = mantissa_end - 1;
  while (text[last_nonzero] == '0' || text[last_nonzero] == '.') --last_nonzero;

  const bool dot_inside =
      dot != std::string_view::npos && dot > first_nonzero && dot < mantissa_end;
  std::int64_t significant =
      static_cast<std::int64_t>(mantissa_end - first_nonzero) - (dot_inside ? 1 : 0);
  const bool dot_in_zeros =
      dot != std::string_view::npos && dot > last_nonzero && dot < mantissa_end;
  std::int64_t trailing_zeros =
      static_cast<std::int64_t>(mantissa_end - last_nonzero - 1) - (dot_in_zeros ? 1 : 0);

  // Trailing zeros may be dropped (raising the exponent) and zeros appended (lowering it) without
  // changing the value; any other adjustment would round, which the spec forbids.
  if (significant > max_digits) {
    const std::int64_t excess = significant - max_digits;
    if (excess > trailing_zeros) {
      return inexact_error(text, "more than 34 significant digits");
    }
    significant -= excess;
    trailing_zeros -= excess;
    exponent += excess;
  }
  int padding = 0;  // zeros appended to the coefficient
  if (exponent > max_exponent) {
    const std::int64_t needed = exponent - max_exponent;
    if (significant + needed > max_digits) {
      return inexact_error(text,
                           "the exponent is above the largest decimal128 exponent (overflow)");
    }
    padding = static_cast<int>(needed);
    exponent = max_exponent;
  } else if (exponent < min_exponent) {
    const std::int64_t needed = min_exponent - exponent;
    if (needed > trailing_zeros) {
      return inexact_error(text,
                           "the exponent is below the smallest decimal128 exponent (underflow)");
    }
    significant -= needed;
    exponent = min_exponent;
  }

  // Accumulate `significant` digits from first_nonzero, 18 at a time in 64-bit arithmetic.
  u128 coefficient = 0;
  std::uint64_t chunk = 0;
  int chunk_digits = 0;
  std::int64_t remaining = significant;
  for (std::size_t i = first_nonzero; remaining > 0; ++i) {
    const char c = text[i];
    if (c == '.') continue;
    chunk = chunk * 10 + static_cast<std::uint64_t>(c - '0');
    --remaining;
    if (++chunk_digits == 18) {
      coefficient = coefficient * pow10[18] + chunk;
      chunk = 0;
      chunk_digits = 0;
    }
  }
  coefficient = coefficient * pow10[static_cast<std::size_t>(chunk_digits)] + chunk;
  coefficient *= pow10[static_cast<std::size_t>(padding)];
  return encode_finite(negative, coefficient, static_cast<int>(exponent));
}

}  // namespace bsongen
