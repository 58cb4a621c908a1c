#pragma once
// RFC 4180 text, below the schema: quoting fields for the writer and splitting text into
// records for the reader (and for the writer when it resumes a file). Internal to the library.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gridfuzz::reports::detail {

// Appends `fields` as one record: comma-separated, a field quoted when it holds ',', '"', CR
// or LF (quotes doubled), terminated by a single LF.
void append_record(std::string& out, std::span<const std::string> fields);
void append_record(std::string& out, std::span<const std::string_view> fields);

// The schema's header line, LF included.
std::string header_line();

struct RawRecord {
  std::vector<std::string> fields;
  std::size_t line = 0;  // 1-based physical line the record starts on
};

struct RawText {
  std::vector<RawRecord> records;  // complete (terminated) records, blank lines skipped
  // Byte offset just past the last complete record (or blank line): everything after it is
  // an unterminated trailing record, which a resuming writer truncates away.
  std::size_t complete_bytes = 0;
  std::optional<std::size_t> partial_line;  // first line of that unterminated record, if any
  std::size_t partial_fields = 0;           // how many fields it had begun
};

// Splits `text` into records. A record without its terminating LF at the very end of the text
// is a partial record (a writer killed mid-row), reported in partial_* and not in records.
// Throws CsvError ("<source>:<line>: ...") for text that no writer could have produced: a quote
// inside an unquoted field, a character after a closing quote, a bare CR, or a quoted field
// still open at the end of text that ends with a line break (an unterminated quote, which would
// otherwise swallow every later row).
RawText split_records(std::string_view text, std::string_view source);

}  // namespace gridfuzz::reports::detail
