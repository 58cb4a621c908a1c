#include "gridfuzz/reports/csv_row.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <ostream>
#include <stdexcept>
#include <system_error>
#include <vector>

namespace gridfuzz::reports {
namespace {

bool all_digits(std::string_view text) {
  if (text.empty()) return false;
  for (const char c : text)
    if (c < '0' || c > '9') return false;
  return true;
}

[[noreturn]] void throw_not_a(std::string_view what, std::string_view column,
                              const std::string& value) {
  throw std::invalid_argument("CSV column '" + std::string(column) + "': '" + value +
                              "' is not " + std::string(what));
}

}  // namespace

std::string format_double(double value) {
  // One spelling for the non-finite values, the one pandas and from_chars both read.
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  std::array<char, 64> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return std::string(buffer.data(), result.ptr);
}

std::string format_float(float value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  std::array<char, 64> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return std::string(buffer.data(), result.ptr);
}

std::optional<std::int64_t> parse_int(std::string_view text) {
  // from_chars takes a leading '-' but no '+' and no spaces, which is the form we want.
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty())
    return std::nullopt;
  return value;
}

std::optional<std::uint64_t> parse_uint(std::string_view text) {
  if (!all_digits(text)) return std::nullopt;
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<u128> parse_u128(std::string_view text) {
  if (!all_digits(text)) return std::nullopt;
  constexpr u128 kMax = ~static_cast<u128>(0);
  u128 value = 0;
  for (const char c : text) {
    const auto digit = static_cast<unsigned>(c - '0');
    if (value > (kMax - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  return value;
}

std::optional<double> parse_double(std::string_view text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty())
    return std::nullopt;
  return value;
}

std::optional<std::vector<double>> parse_reals(std::string_view text) {
  std::vector<double> values;
  if (text.empty()) return values;
  for (std::size_t from = 0;;) {
    const std::size_t space = text.find(' ', from);
    const auto value = parse_double(text.substr(from, space == std::string_view::npos ? space : space - from));
    if (!value) return std::nullopt;  // also an empty item: a doubled, leading or trailing space
    values.push_back(*value);
    if (space == std::string_view::npos) return values;
    from = space + 1;
  }
}

namespace {

void put_value(std::string& packed, std::string_view value) {
  for (std::size_t n = value.size();; n >>= 7) {
    packed += static_cast<char>((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
    if (n < 0x80) break;
  }
  packed += value;
}

// The value at `p` and where the next one starts.
std::string_view take_value(const char*& p) {
  std::size_t n = 0;
  for (int shift = 0;; shift += 7) {
    const auto byte = static_cast<unsigned char>(*p++);
    n |= static_cast<std::size_t>(byte & 0x7f) << shift;
    if (!(byte & 0x80)) break;
  }
  const std::string_view value(p, n);
  p += n;
  return value;
}

std::string packed_values(std::span<const std::string_view, kColumnCount> values) {
  std::size_t bytes = 0;
  for (const std::string_view v : values) bytes += v.size() + 1;
  std::string packed;
  packed.reserve(bytes + 8);
  for (const std::string_view v : values) put_value(packed, v);
  return packed;
}

}  // namespace

CsvRow::CsvRow() {
  std::array<std::string_view, kColumnCount> values{};
  values[0] = kSchemaVersion;
  packed_ = packed_values(values);
}

CsvRow::CsvRow(std::span<const std::string_view, kColumnCount> values) : packed_(packed_values(values)) {}

std::string_view CsvRow::view_at(std::size_t index) const {
  if (index >= kColumnCount) throw std::out_of_range("CSV column index " + std::to_string(index));
  const char* p = packed_.data();
  for (std::size_t i = 0; i < index; ++i) (void)take_value(p);
  return take_value(p);
}

std::array<std::string_view, kColumnCount> CsvRow::views() const {
  std::array<std::string_view, kColumnCount> out;
  const char* p = packed_.data();
  for (std::string_view& v : out) v = take_value(p);
  return out;
}

std::array<std::string, kColumnCount> CsvRow::values() const {
  std::array<std::string, kColumnCount> out;
  const char* p = packed_.data();
  for (std::string& v : out) v = std::string(take_value(p));
  return out;
}

void CsvRow::set(std::string_view column, std::string value) { set_at(require_column_index(column), std::move(value)); }

void CsvRow::set_at(std::size_t index, std::string value) {
  if (index >= kColumnCount) throw std::out_of_range("CSV column index " + std::to_string(index));
  std::array<std::string_view, kColumnCount> values{};
  const char* p = packed_.data();
  for (std::string_view& v : values) v = take_value(p);
  values[index] = value;
  packed_ = packed_values(values);
}

RowOutcome CsvRow::outcome() const {
  static constexpr std::size_t predicted = *column_index("predicted"), index_wrap = *column_index("index_wrap"),
                               observed = *column_index("observed"), verdict = *column_index("verdict");
  static constexpr std::size_t last = std::max({predicted, index_wrap, observed, verdict});
  RowOutcome out;
  const char* p = packed_.data();
  for (std::size_t i = 0; i <= last; ++i) {
    const std::string_view text = take_value(p);
    if (i == predicted) out.predicted = PredictedOutcome::parse(text);
    else if (i == index_wrap) out.index_wrap = IndexWrap::parse(text);
    else if (i == observed) out.observed = Observed::parse(text);
    else if (i == verdict) out.verdict = Verdict::parse(text);
  }
  return out;
}

std::optional<CaseTier> CsvRow::tier() const {
  static constexpr std::size_t tier = *column_index("tier");
  return parse_case_tier(view_at(tier));
}

void CsvRow::set_int(std::string_view column, std::int64_t value) {
  set(column, std::to_string(value));
}

void CsvRow::set_uint(std::string_view column, std::uint64_t value) {
  set(column, std::to_string(value));
}

void CsvRow::set_u128(std::string_view column, u128 value) {
  set(column, gridfuzz::to_string_u128(value));
}

void CsvRow::set_double(std::string_view column, double value) {
  set(column, format_double(value));
}

void CsvRow::set_float(std::string_view column, float value) { set(column, format_float(value)); }

std::optional<std::int64_t> CsvRow::get_int(std::string_view column) const {
  const std::string text = get(column);
  if (text.empty()) return std::nullopt;
  if (const auto value = parse_int(text)) return value;
  throw_not_a("a 64-bit signed integer", column, text);
}

std::optional<std::uint64_t> CsvRow::get_uint(std::string_view column) const {
  const std::string text = get(column);
  if (text.empty()) return std::nullopt;
  if (const auto value = parse_uint(text)) return value;
  throw_not_a("a 64-bit unsigned integer", column, text);
}

std::optional<u128> CsvRow::get_u128(std::string_view column) const {
  const std::string text = get(column);
  if (text.empty()) return std::nullopt;
  if (const auto value = parse_u128(text)) return value;
  throw_not_a("a 128-bit unsigned integer", column, text);
}

std::optional<double> CsvRow::get_double(std::string_view column) const {
  const std::string text = get(column);
  if (text.empty()) return std::nullopt;
  if (const auto value = parse_double(text)) return value;
  throw_not_a("a floating-point number", column, text);
}

std::optional<std::vector<double>> CsvRow::get_reals(std::string_view column) const {
  const std::string text = get(column);
  if (text.empty()) return std::nullopt;
  if (auto values = parse_reals(text)) return values;
  throw_not_a("a list of numbers separated by single spaces", column, text);
}

std::ostream& operator<<(std::ostream& out, const CsvRow& row) {
  out << '{';
  bool first = true;
  for (std::size_t i = 0; i < kColumnCount; ++i) {
    if (row.view_at(i).empty()) continue;
    out << (first ? "" : ", ") << kColumns[i].name << '=' << row.view_at(i);
    first = false;
  }
  return out << '}';
}

}  // namespace gridfuzz::reports
