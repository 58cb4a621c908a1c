#pragma once
// One CSV row: a record keyed by column name with string values, one slot per schema column.
// Typed helpers format numbers the one way the schema documents (decimal integers, shortest
// round-trip doubles), so every writer produces identical text for identical values. The outcome
// columns (predicted, index_wrap, observed, verdict) and the tier are read as values (outcome(),
// tier()): the typed record the reports read.
//
// The values are kept packed in one string (each a length, then its bytes): a report holds every
// row of its CSVs, and some 60 std::strings a row were five times the size of the text.
#include <array>
#include <span>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gridfuzz/checked_math.hpp"
#include "gridfuzz/reports/row_outcome.hpp"
#include "gridfuzz/reports/schema.hpp"

namespace gridfuzz::reports {

class CsvRow {
 public:
  // Every column empty except `schema`, which holds kSchemaVersion.
  CsvRow();

  // Every column's value, in schema order; absent columns empty.
  explicit CsvRow(std::span<const std::string_view, kColumnCount> values);

  // Unknown column names throw UnknownColumnError (naming the column). `view` refers into the
  // row: valid until it changes.
  std::string get(std::string_view column) const { return std::string(view(column)); }
  std::string_view view(std::string_view column) const { return view_at(require_column_index(column)); }
  void set(std::string_view column, std::string value);
  bool is_empty(std::string_view column) const { return view(column).empty(); }
  void clear(std::string_view column) { set(column, std::string()); }

  // Positional access, index < kColumnCount (schema order).
  std::string at(std::size_t index) const { return std::string(view_at(index)); }
  std::string_view view_at(std::size_t index) const;
  void set_at(std::size_t index, std::string value);
  std::array<std::string, kColumnCount> values() const;

  // The outcome columns as values, those of the text (nullopt: text not in the vocabulary). Read
  // from the text at each call: kept beside it, they were a third of a row's memory.
  RowOutcome outcome() const;
  // The `tier` column as a value: nullopt when it is empty (a case no sweep made; a file of schema
  // 1.4 or older, which has no such column) or not a tier's word (which check_row refuses).
  std::optional<CaseTier> tier() const;
  // Every value at once, in schema order (referring into the row, as view does).
  std::array<std::string_view, kColumnCount> views() const;

  void set_int(std::string_view column, std::int64_t value);
  void set_uint(std::string_view column, std::uint64_t value);
  void set_u128(std::string_view column, u128 value);  // e.g. max_index past 2^64
  // Shortest text that reads back to the same double ("nan", "inf", "-inf" for non-finite).
  void set_double(std::string_view column, double value);
  // A value measured in float32 (a CUDA event's elapsed time): the shortest text that reads back
  // to the same float, so 0.032688f is "0.032688", not the double's "0.03268800117075443".
  void set_float(std::string_view column, float value);

  // nullopt for an empty value; std::invalid_argument (naming column and value) when the text
  // is not a number of that type or does not fit it.
  std::optional<std::int64_t> get_int(std::string_view column) const;
  std::optional<std::uint64_t> get_uint(std::string_view column) const;
  std::optional<u128> get_u128(std::string_view column) const;
  std::optional<double> get_double(std::string_view column) const;
  // A real_list column (time_samples_ms): nullopt when empty.
  std::optional<std::vector<double>> get_reals(std::string_view column) const;

  friend bool operator==(const CsvRow&, const CsvRow&) = default;

 private:
  std::string packed_;  // per column: its length (7 bits a byte, low first), then its bytes
};

// For test and log output: "{schema=1.0, kernel=moe_vec, ...}", non-empty columns only.
std::ostream& operator<<(std::ostream& out, const CsvRow& row);

// Shared by CsvRow and the value checks: the text forms of the numeric column kinds.
std::string format_double(double value);
std::string format_float(float value);
std::optional<std::int64_t> parse_int(std::string_view text);
std::optional<std::uint64_t> parse_uint(std::string_view text);
std::optional<u128> parse_u128(std::string_view text);
std::optional<double> parse_double(std::string_view text);
// Reals as parse_double reads them, separated by one space; "" is no reals; nullopt otherwise.
std::optional<std::vector<double>> parse_reals(std::string_view text);

}  // namespace gridfuzz::reports
