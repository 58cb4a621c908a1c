#pragma once
// The CSV schema: its version and its columns, in file order. This is the one source of truth
// for the column list; reports/SCHEMA.md documents every column and must be kept in step.
#include <array>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gridfuzz::reports {

// major.minor. A reader accepts any file of the same major; a different major is an error.
// A minor bump may only append columns (an older reader ignores them) or relax a rule.
inline constexpr int kSchemaMajor = 1;
inline constexpr int kSchemaMinor = 7;
inline constexpr std::string_view kSchemaVersion = "1.7";

// What a column's non-empty values look like, so values can be checked without a per-column
// table elsewhere. Every column may be empty (an axis that does not apply) unless the
// vocabulary says otherwise.
enum class ColumnKind {
  text,         // free text
  integer,      // decimal integer, optional leading '-', e.g. "65536"
  big_integer,  // non-negative decimal integer of any size (may exceed 2^64), e.g. max_index
  real,         // floating point, shortest round-trip form, "nan"/"inf" allowed
  vocabulary,   // a value from the documented vocabulary (see vocabulary.hpp)
  real_list,    // reals as `real` writes them, separated by one space, e.g. "0.032688 0.031744"
};

struct Column {
  std::string_view name;
  ColumnKind kind;
  int since_minor = 0;  // the minor version that appended it: files of older minors lack it
};

inline constexpr std::array<Column, 67> kColumns{{
    {"schema", ColumnKind::text},
    {"run_id", ColumnKind::text},
    {"case_id", ColumnKind::text},
    {"device", ColumnKind::text},
    {"cc", ColumnKind::text},
    {"driver", ColumnKind::text},
    {"commit", ColumnKind::text},
    {"kernel", ColumnKind::text},
    {"variant", ColumnKind::text},
    {"quant", ColumnKind::text},
    {"bits", ColumnKind::integer},
    {"group_size", ColumnKind::integer},
    {"dtype", ColumnKind::text},
    {"tokens", ColumnKind::integer},
    {"top_k", ColumnKind::integer},
    {"experts", ColumnKind::integer},
    {"rows", ColumnKind::integer},
    {"cols", ColumnKind::integer},
    {"vocab", ColumnKind::integer},
    {"launches", ColumnKind::integer},
    {"grid_x", ColumnKind::integer},
    {"grid_y", ColumnKind::integer},
    {"grid_z", ColumnKind::integer},
    {"block_x", ColumnKind::integer},
    {"block_y", ColumnKind::integer},
    {"block_z", ColumnKind::integer},
    {"smem", ColumnKind::integer},
    {"regs", ColumnKind::integer},
    {"max_index", ColumnKind::big_integer},
    {"index_type", ColumnKind::vocabulary},
    {"index_wrap", ColumnKind::vocabulary},
    {"predicted", ColumnKind::vocabulary},
    {"observed", ColumnKind::vocabulary},
    {"oracle", ColumnKind::text},
    {"max_abs_err", ColumnKind::real},
    {"mismatches", ColumnKind::integer},
    {"verdict", ColumnKind::vocabulary},
    {"time_ms_median", ColumnKind::real},
    {"time_ms_min", ColumnKind::real},
    {"time_ms_max", ColumnKind::real},
    {"samples", ColumnKind::integer},
    {"gbps", ColumnKind::real},
    {"seed", ColumnKind::integer},
    {"replay", ColumnKind::text},
    // 1.1: the CUDA ordinal of the GPU that ran the case (a sweep over several GPUs merges rows).
    {"device_index", ColumnKind::integer, 1},
    // 1.2: kernel time (CUPTI activity records) beside the call time of time_ms_*.
    {"kernel_ms_median", ColumnKind::real, 2},
    {"kernel_ms_min", ColumnKind::real, 2},
    {"kernel_ms_max", ColumnKind::real, 2},
    {"kernels_per_call", ColumnKind::integer, 2},
    // 1.3: the oracle's counts as numbers (the `oracle` text says the same, for people).
    {"unwritten", ColumnKind::integer, 3},
    {"cpu_ok", ColumnKind::integer, 3},
    {"cpu_total", ColumnKind::integer, 3},
    {"plan_ms", ColumnKind::real, 4},
    {"alloc_ms", ColumnKind::real, 4},
    {"fill_ms", ColumnKind::real, 4},
    {"call_ms", ColumnKind::real, 4},
    {"reference_ms", ColumnKind::real, 4},
    {"compare_ms", ColumnKind::real, 4},
    {"cpu_ms", ColumnKind::real, 4},
    {"timing_ms", ColumnKind::real, 4},
    {"case_ms", ColumnKind::real, 4},
    {"worker_ms", ColumnKind::real, 4},
    // 1.5: which part of a sweep made the case (CaseTier's words; empty for a case no sweep made).
    {"tier", ColumnKind::vocabulary, 5},
    // 1.6: what the rows say is true: the driver's own version beside its CUDA version, when the
    // case started, and the ledger's finding behind an expected-fail.
    {"driver_release", ColumnKind::text, 6},
    {"started", ColumnKind::text, 6},
    {"finding", ColumnKind::text, 6},
    // 1.7: the call-time samples behind time_ms_*, in the order taken, so a comparison can test
    // the noise itself rather than the three numbers that summarise it.
    {"time_samples_ms", ColumnKind::real_list, 7},
}};

inline constexpr std::size_t kColumnCount = kColumns.size();

// The axes that have a column of their own (every axis of a case is in `replay`): the writer
// fills them from the case's parameters, a reader falls back on them when `replay` does not parse.
inline constexpr std::array<std::string_view, 10> kAxisColumns{
    "quant", "bits", "group_size", "dtype", "tokens", "top_k", "experts", "rows", "cols", "vocab"};

// The columns of a file of `minor` (this major): the first ones, since a minor only appends.
constexpr std::size_t column_count_of_minor(int minor) {
  std::size_t n = 0;
  while (n < kColumns.size() && kColumns[n].since_minor <= minor) ++n;
  return n;
}

// The oldest minor whose files a writer appends to, in that minor's own columns (CsvWriter): every
// minor since only appended columns, so a row of this schema less those columns is a row of it.
// Resuming a 1.4 sweep loses only the columns of 1.5 and 1.6; an older file would lose far more,
// and is refused. A
// minor that adds a word to an existing column must raise this to itself.
inline constexpr int kOldestAppendedMinor = 4;

// Index of a column by name, or nullopt for a name the schema does not have.
constexpr std::optional<std::size_t> column_index(std::string_view name) {
  for (std::size_t i = 0; i < kColumns.size(); ++i)
    if (kColumns[i].name == name) return i;
  return std::nullopt;
}

namespace detail {
constexpr bool column_names_unique() {
  for (std::size_t i = 0; i < kColumns.size(); ++i)
    for (std::size_t j = i + 1; j < kColumns.size(); ++j)
      if (kColumns[i].name == kColumns[j].name) return false;
  return true;
}
constexpr bool axis_columns_are_columns() {
  for (const std::string_view axis : kAxisColumns)
    if (!column_index(axis)) return false;
  return true;
}
}  // namespace detail
static_assert(detail::column_names_unique(), "duplicate column name in kColumns");
static_assert(kColumns[0].name == "schema", "the version column comes first");
static_assert(detail::axis_columns_are_columns(), "kAxisColumns names a column the schema lacks");

// A column name the schema does not have: a typo in a writer or a reader is a bug, not data.
class UnknownColumnError : public std::out_of_range {
 public:
  explicit UnknownColumnError(std::string_view name);
  const std::string& column() const noexcept { return column_; }

 private:
  std::string column_;
};

// column_index, but an unknown name throws UnknownColumnError naming it.
std::size_t require_column_index(std::string_view name);

struct SchemaVersion {
  int major = 0;
  int minor = 0;
  friend bool operator==(const SchemaVersion&, const SchemaVersion&) = default;
};

// "1.0" -> {1, 0}; nullopt for anything that is not <digits>.<digits>.
std::optional<SchemaVersion> parse_schema_version(std::string_view text);

}  // namespace gridfuzz::reports
