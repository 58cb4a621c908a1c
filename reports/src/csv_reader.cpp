#include "gridfuzz/reports/csv_reader.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <set>

#include "detail/csv_text.hpp"
#include "detail/row_checker.hpp"
#include "gridfuzz/core/text_file.hpp"
#include "gridfuzz/reports/text_escape.hpp"
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

void RowChecker::fail(std::size_t line, const std::string& what) const { reports::fail(source_, line, what); }

RowChecker::RowChecker(const RawRecord& header, std::string_view source, const CsvReadOptions& options)
    : source_(source), options_(options), header_(header.fields), header_line_(header.line) {
  file_position_.fill(kAbsent);
  std::set<std::string_view> seen;
  for (std::size_t i = 0; i < header_.size(); ++i) {
    const std::string& name = header_[i];
    if (options_.check_values && !is_printable_utf8(name))
      fail(header_line_,
           "column name holds a control character or invalid UTF-8: " + terminal_text(name.substr(0, 80)));
    if (!seen.insert(name).second) fail(header_line_, "duplicate column '" + name + "'");
    if (const auto index = column_index(name))
      file_position_[*index] = i;
    else
      ignored_.push_back(name);
  }
  if (file_position_[0] == kAbsent) fail(header_line_, "missing column 'schema' (not a gridfuzz CSV?)");
}

CsvRow RowChecker::row(const RawRecord& record) {
  // Field count and version before missing columns: a file of another major version most likely
  // has other columns too, and its version is the error worth reporting.
  if (record.fields.size() != header_.size())
    fail(record.line, "expected " + std::to_string(header_.size()) + " fields, found " +
                          std::to_string(record.fields.size()));
  const std::string& version_text = record.fields[file_position_[0]];
  const auto version = parse_schema_version(version_text);
  if (!version) fail(record.line, "schema '" + version_text + "' is not a <major>.<minor> version");
  if (version->major != kSchemaMajor)
    fail(record.line, "schema version " + version_text + " has another major version than this reader (" +
                          std::string(kSchemaVersion) + "); use a gridfuzz that reads major " +
                          std::to_string(version->major));
  if (version->minor > checked_minor_) check_columns(version->minor);
  // Whatever the row's minor version: no field may carry a control character or invalid UTF-8
  // into a report, a plot script, XML or a terminal.
  for (std::size_t i = 0; options_.check_values && i < record.fields.size(); ++i)
    if (!is_printable_utf8(record.fields[i]))
      fail(record.line, "column '" + terminal_text(header_[i]) + "' holds a control character or invalid UTF-8: " +
                            terminal_text(std::string_view(record.fields[i]).substr(0, 80)));
  std::array<std::string_view, kColumnCount> values{};
  for (std::size_t c = 0; c < kColumnCount; ++c)
    if (file_position_[c] != kAbsent) values[c] = record.fields[file_position_[c]];
  const CsvRow row(values);
  // A newer minor may add vocabulary, never change what a known column's number means: its
  // numbers are checked all the same.
  if (options_.check_values)
    if (const auto problem = check_row(row, version->minor <= kSchemaMinor)) fail(record.line, *problem);
  return row;
}

void RowChecker::check_columns(int minor) {
  std::vector<std::string> missing;
  for (std::size_t c = 0; c < kColumnCount; ++c)
    if (file_position_[c] == kAbsent && kColumns[c].since_minor <= minor) missing.emplace_back(kColumns[c].name);
  if (!missing.empty())
    fail(header_line_, std::string(missing.size() == 1 ? "missing column " : "missing columns ") +
                           quoted_list(missing) + " (schema " + std::string(kSchemaVersion) + ")");
  checked_minor_ = minor;
}

void RowChecker::finish(std::optional<std::size_t> partial_line, std::size_t partial_fields) {
  if (partial_line && partial_fields > header_.size())
    fail(*partial_line, "unterminated last row has " + std::to_string(partial_fields) +
                            " fields, more than the header's " + std::to_string(header_.size()));
  if (checked_minor_ < 0) check_columns(0);  // a file of no rows still has the columns of 1.0
}

}  // namespace detail

// The file a stream reads, when it reads one.
struct CsvRowStream::Source {
  explicit Source(const std::filesystem::path& path) : file(path.string(), "CSV") {}
  InputFile file;
};

namespace {

// InputFile's errors as the CSV layer's: bad input, or the environment.
template <typename Call>
auto csv_errors(Call&& call) {
  try {
    return call();
  } catch (const InputFileError& e) {
    throw CsvError(e.what());
  } catch (const FileReadError& e) {
    throw CsvIoError(e.what());
  }
}

}  // namespace

CsvRowStream::CsvRowStream(const std::filesystem::path& path, const CsvReadOptions& options) {
  source_ = csv_errors([&] { return std::make_unique<Source>(path); });
  InputFile* file = &source_->file;
  scanner_ = std::make_unique<detail::RecordScanner>(
      [file](char* buffer, std::size_t size) { return csv_errors([&] { return file->read(buffer, size); }); },
      path.string());
  start(options);
}

CsvRowStream::CsvRowStream(std::string_view text, std::string_view source, const CsvReadOptions& options)
    : scanner_(std::make_unique<detail::RecordScanner>(text, source)) {
  start(options);
}

void CsvRowStream::start(const CsvReadOptions& options) {
  detail::RawRecord header;
  const std::string& source = scanner_->source();
  if (!scanner_->next(header)) {
    if (scanner_->partial_line()) fail(source, *scanner_->partial_line(), "no complete header line");
    fail(source, 0, "empty file: no header line");
  }
  checker_ = std::make_unique<detail::RowChecker>(header, source, options);
}

CsvRowStream::~CsvRowStream() = default;
CsvRowStream::CsvRowStream(CsvRowStream&&) noexcept = default;
CsvRowStream& CsvRowStream::operator=(CsvRowStream&&) noexcept = default;

bool CsvRowStream::next(CsvRow& row, std::size_t& line) {
  detail::RawRecord record;
  if (!scanner_->next(record)) {
    checker_->finish(scanner_->partial_line(), scanner_->partial_fields());
    return false;
  }
  row = checker_->row(record);
  line = record.line;
  ++rows_read_;
  return true;
}

std::uint64_t CsvRowStream::row_offset() const { return scanner_->record_start(); }

void CsvRowStream::seek(std::uint64_t offset, std::size_t line) {
  scanner_->seek(offset, line, [this](std::uint64_t at) {
    if (!source_) throw CsvError("cannot seek in text held in memory");
    csv_errors([&] {
      source_->file.seek(at);
      return 0;
    });
  });
}

const std::vector<std::string>& CsvRowStream::ignored_columns() const { return checker_->ignored_columns(); }
std::optional<std::size_t> CsvRowStream::dropped_partial_line() const { return scanner_->partial_line(); }
std::uint64_t CsvRowStream::complete_bytes() const { return scanner_->complete_bytes(); }

namespace {

CsvReadResult read_all(CsvRowStream& stream) {
  CsvReadResult result;
  CsvRow row;
  std::size_t line = 0;
  while (stream.next(row, line)) {
    result.rows.push_back(std::move(row));
    result.row_lines.push_back(line);
  }
  result.ignored_columns = stream.ignored_columns();
  result.dropped_partial_line = stream.dropped_partial_line();
  result.complete_bytes = stream.complete_bytes();
  return result;
}

}  // namespace

CsvReadResult parse_csv(std::string_view text, std::string_view source, const CsvReadOptions& options) {
  CsvRowStream stream(text, source, options);
  return read_all(stream);
}

CsvReadResult read_csv(const std::filesystem::path& path, const CsvReadOptions& options) {
  CsvRowStream stream(path, options);
  return read_all(stream);
}

std::vector<CsvRow> read_rows(const std::filesystem::path& path, const CsvReadOptions& options) {
  return read_csv(path, options).rows;
}

}  // namespace gridfuzz::reports
