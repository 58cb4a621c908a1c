#pragma once
// RFC 4180 text, below the schema: quoting fields for the writer and splitting text into
// records for the reader (and for the writer when it resumes a file). Internal to the library.
#include <cstddef>
#include <cstdint>
#include <functional>
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

// Where the bytes come from: fills `buffer` with up to `size` bytes, 0 at the end.
using ReadBytes = std::function<std::size_t(char* buffer, std::size_t size)>;

// The most a record (a row, the header) may hold: a row gridfuzz writes is about 500 bytes of
// some 60 fields. A longer one is no gridfuzz row, and refusing it bounds what a reader holds.
inline constexpr std::size_t kMaxRecordBytes = std::size_t{1} << 20;
inline constexpr std::size_t kMaxRecordFields = 1024;

// Splits text into records as it reads it, holding one record and a small buffer, never the
// text. A record without its terminating LF at the very end of the text is a partial record (a
// writer killed mid-row), reported by partial_line/partial_fields and not returned. Throws
// CsvError ("<source>:<line>: ...") for text that no writer could have produced: a quote inside
// an unquoted field, a character after a closing quote, a bare CR, a quoted field still open at
// the end of text that ends with a line break (an unterminated quote, which would otherwise
// swallow every later row), a record over kMaxRecordBytes or kMaxRecordFields.
class RecordScanner {
 public:
  RecordScanner(ReadBytes read, std::string_view source);
  // Over text in memory (which must outlive the scanner).
  RecordScanner(std::string_view text, std::string_view source);

  // The next complete record (blank lines skipped); false at the end of the text.
  bool next(RawRecord& record);

  // Where the record `next` returned last starts: its byte offset in the text.
  std::uint64_t record_start() const noexcept { return record_start_; }
  // Reads on at `offset`, the start of a record read before (record_start), which begins line
  // `line`: the next record is that one. `reposition` moves the byte source there; it is not
  // called when the bytes are still in the buffer (rows of one file visited in order).
  void seek(std::uint64_t offset, std::size_t line, const std::function<void(std::uint64_t)>& reposition);

  // Once next returned false: bytes up to the end of the last complete record (or blank line),
  // where a resuming writer cuts; the first line of an unterminated trailing record, if any, and
  // how many fields it had begun.
  std::uint64_t complete_bytes() const noexcept { return complete_bytes_; }
  std::optional<std::size_t> partial_line() const noexcept { return partial_line_; }
  std::size_t partial_fields() const noexcept { return partial_fields_; }
  const std::string& source() const noexcept { return source_; }

 private:
  bool available(std::size_t ahead);  // whether the byte `ahead` past the cursor exists
  bool at_end() { return !available(0); }
  char peek(std::size_t ahead = 0) const { return buffer_[pos_ + ahead]; }
  bool crlf_here() { return available(1) && peek() == '\r' && peek(1) == '\n'; }
  std::uint64_t offset() const noexcept { return dropped_ + pos_; }
  bool skip_blank_line();
  bool take_line_end();  // an LF or CRLF here, consumed (and counted); false when there is none
  bool read_record(std::vector<std::string>& fields);
  bool read_unquoted(std::string& field);
  bool read_quoted(std::string& field);
  void check_record_size(std::size_t fields);
  [[noreturn]] void fail(std::size_t line, const std::string& what) const;

  ReadBytes read_;
  std::string source_;
  std::string buffer_;         // the bytes read and not yet consumed start at pos_
  std::size_t pos_ = 0;
  std::uint64_t dropped_ = 0;  // bytes dropped from the front of buffer_
  bool end_ = false;
  char last_byte_ = 0;         // of the whole text, once end_
  std::size_t line_ = 1;
  bool started_ = false;       // past the byte-order mark
  bool finished_ = false;
  std::uint64_t record_start_ = 0;
  std::size_t record_line_ = 0;
  std::uint64_t complete_bytes_ = 0;
  std::optional<std::size_t> partial_line_;
  std::size_t partial_fields_ = 0;
};

}  // namespace gridfuzz::reports::detail
