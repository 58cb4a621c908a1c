#include "gridfuzz/reports/schema.hpp"

#include <charconv>

namespace gridfuzz::reports {

UnknownColumnError::UnknownColumnError(std::string_view name)
    : std::out_of_range("unknown CSV column '" + std::string(name) + "' (schema " +
                        std::string(kSchemaVersion) + ")"),
      column_(name) {}

std::size_t require_column_index(std::string_view name) {
  if (const auto index = column_index(name)) return *index;
  throw UnknownColumnError(name);
}

namespace {
// Digits only: from_chars alone would also take a leading '-'.
std::optional<int> parse_version_part(std::string_view digits) {
  if (digits.empty() || digits.size() > 6) return std::nullopt;
  for (const char c : digits)
    if (c < '0' || c > '9') return std::nullopt;
  int value = 0;
  std::from_chars(digits.data(), digits.data() + digits.size(), value);
  return value;
}
}  // namespace

std::optional<SchemaVersion> parse_schema_version(std::string_view text) {
  const auto dot = text.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  const auto major = parse_version_part(text.substr(0, dot));
  const auto minor = parse_version_part(text.substr(dot + 1));
  if (!major || !minor) return std::nullopt;
  return SchemaVersion{*major, *minor};
}

}  // namespace gridfuzz::reports
