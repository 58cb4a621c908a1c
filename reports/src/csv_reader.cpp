#include "gridfuzz/reports/csv_reader.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include "detail/csv_text.hpp"
#include "detail/records_to_rows.hpp"
#include "gridfuzz/reports/text_escape.hpp"
#include "gridfuzz/core/text_file.hpp"
#include "gridfuzz/reports/vocabulary.hpp"

namespace gridfuzz::reports {
namespace {

constexpr std::size_t kAbsent = std::numeric_limits<std::size_t>::max();

[[noreturn]] void fail(std::string_view source, std::size_t line, const std::string& what) {
  if (line == 0) throw CsvError(std::string(source) + ": " + what);
  throw CsvError(std::string(source) + ":" + std::to_string(line) + ": " + what, line);
}

std::string quoted_list(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "'" : ", '") + name + "'";
  return out;
}

}  // namespace

namespace detail {

CsvReadResult records_to_rows(const RawText& raw, std::string_view source,
                              const CsvReadOptions& options) {
  if (raw.records.empty()) {
    if (raw.partial_line) fail(source, *raw.partial_line, "no complete header line");
    fail(source, 0, "empty file: no header line");
  }

  const RawRecord& header = raw.records.front();
  std::array<std::size_t, kColumnCount> file_position{};
  file_position.fill(kAbsent);
  CsvReadResult result;
  std::set<std::string_view> seen;
  for (std::size_t i = 0; i < header.fields.size(); ++i) {
    const std::string& name = header.fields[i];
    if (options.check_values && !is_printable_utf8(name))
      fail(source, header.line,
           "column name holds a control character or invalid UTF-8: " + terminal_text(name.substr(0, 80)));
    if (!seen.insert(name).second) fail(source, header.line, "duplicate column '" + name + "'");
    if (const auto index = column_index(name))
      file_position[*index] = i;
    else
      result.ignored_columns.push_back(name);
  }
  const std::size_t schema_position = file_position[0];
  if (schema_position == kAbsent)
    fail(source, header.line, "missing column 'schema' (not a gridfuzz CSV?)");

  // Field counts and versions before missing columns: a file of another major version most
  // likely has other columns too, and its version is the error worth reporting.
  std::vector<SchemaVersion> versions;
  versions.reserve(raw.records.size() - 1);
  for (std::size_t r = 1; r < raw.records.size(); ++r) {
    const RawRecord& record = raw.records[r];
    if (record.fields.size() != header.fields.size())
      fail(source, record.line,
           "expected " + std::to_string(header.fields.size()) + " fields, found " +
               std::to_string(record.fields.size()));
    const std::string& version_text = record.fields[schema_position];
    const auto version = parse_schema_version(version_text);
    if (!version)
      fail(source, record.line, "schema '" + version_text + "' is not a <major>.<minor> version");
    if (version->major != kSchemaMajor)
      fail(source, record.line,
           "schema version " + version_text + " has another major version than this reader (" +
               std::string(kSchemaVersion) + "); use a gridfuzz that reads major " +
               std::to_string(version->major));
    versions.push_back(*version);
  }
  if (raw.partial_line && raw.partial_fields > header.fields.size())
    fail(source, *raw.partial_line,
         "unterminated last row has " + std::to_string(raw.partial_fields) +
             " fields, more than the header's " + std::to_string(header.fields.size()));

  // A column appended by a later minor version is absent from files of older minors: it reads as
  // empty there. In a file with rows of its minor or newer, it must be present.
  int newest_minor = 0;
  for (const SchemaVersion& v : versions) newest_minor = std::max(newest_minor, v.minor);
  std::vector<std::string> missing;
  for (std::size_t c = 0; c < kColumnCount; ++c)
    if (file_position[c] == kAbsent && kColumns[c].since_minor <= newest_minor)
      missing.emplace_back(kColumns[c].name);
  if (!missing.empty())
    fail(source, header.line,
         std::string(missing.size() == 1 ? "missing column " : "missing columns ") +
             quoted_list(missing) + " (schema " + std::string(kSchemaVersion) + ")");

  result.rows.reserve(versions.size());
  result.row_lines.reserve(versions.size());
  for (std::size_t r = 1; r < raw.records.size(); ++r) {
    const RawRecord& record = raw.records[r];
    // Whatever the row's minor version: no field may carry a control character or invalid
    // UTF-8 into a report, a plot script, XML or a terminal.
    for (std::size_t i = 0; options.check_values && i < record.fields.size(); ++i)
      if (!is_printable_utf8(record.fields[i]))
        fail(source, record.line,
             "column '" + terminal_text(header.fields[i]) +
                 "' holds a control character or invalid UTF-8: " +
                 terminal_text(std::string_view(record.fields[i]).substr(0, 80)));
    CsvRow row;
    for (std::size_t c = 0; c < kColumnCount; ++c)
      if (file_position[c] != kAbsent) row.set_at(c, record.fields[file_position[c]]);
    // A newer minor may add vocabulary, never change what a known column's number means: its
    // numbers are checked all the same.
    if (options.check_values)
      if (const auto problem = check_row(row, versions[r - 1].minor <= kSchemaMinor))
        fail(source, record.line, *problem);
    result.rows.push_back(std::move(row));
    result.row_lines.push_back(record.line);
  }
  result.dropped_partial_line = raw.partial_line;
  result.complete_bytes = raw.complete_bytes;
  return result;
}

}  // namespace detail

CsvReadResult parse_csv(std::string_view text, std::string_view source,
                        const CsvReadOptions& options) {
  return detail::records_to_rows(detail::split_records(text, source), source, options);
}

CsvReadResult read_csv(const std::filesystem::path& path, const CsvReadOptions& options) {
  std::string text;
  try {
    text = read_text_file(path.string(), "CSV");
  } catch (const InputFileError& e) {
    throw CsvError(e.what());
  } catch (const FileReadError& e) {
    throw CsvIoError(e.what());
  }
  return parse_csv(text, path.string(), options);
}

std::vector<CsvRow> read_rows(const std::filesystem::path& path, const CsvReadOptions& options) {
  return read_csv(path, options).rows;
}

}  // namespace gridfuzz::reports
