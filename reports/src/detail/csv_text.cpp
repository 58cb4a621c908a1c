#include "detail/csv_text.hpp"

#include "gridfuzz/reports/csv_error.hpp"
#include "gridfuzz/reports/schema.hpp"

namespace gridfuzz::reports::detail {
namespace {

bool needs_quoting(std::string_view field) {
  return field.find_first_of(",\"\r\n") != std::string_view::npos;
}

void append_field(std::string& out, std::string_view field) {
  if (!needs_quoting(field)) {
    out += field;
    return;
  }
  out += '"';
  for (const char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

template <typename Field>
void append_fields(std::string& out, std::span<const Field> fields) {
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i != 0) out += ',';
    append_field(out, fields[i]);
  }
  out += '\n';
}

[[noreturn]] void fail(std::string_view source, std::size_t line, const std::string& what) {
  throw CsvError(std::string(source) + ":" + std::to_string(line) + ": " + what, line);
}

// A cursor over the text that counts physical lines as it goes.
class Scanner {
 public:
  Scanner(std::string_view text, std::string_view source) : text_(text), source_(source) {}

  RawText run() {
    constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";  // spreadsheet exports start with it
    if (text_.substr(0, kUtf8Bom.size()) == kUtf8Bom) pos_ = kUtf8Bom.size();
    RawText result;
    result.complete_bytes = pos_;
    while (!at_end()) {
      if (skip_blank_line()) {
        result.complete_bytes = pos_;
        continue;
      }
      const std::size_t record_line = line_;
      RawRecord record;
      record.line = record_line;
      if (read_record(record.fields)) {
        result.records.push_back(std::move(record));
        result.complete_bytes = pos_;
      } else {
        result.partial_line = record_line;
        result.partial_fields = record.fields.size();
        break;
      }
    }
    return result;
  }

 private:
  bool at_end() const { return pos_ >= text_.size(); }
  char peek(std::size_t ahead = 0) const { return text_[pos_ + ahead]; }
  bool crlf_here() const { return pos_ + 1 < text_.size() && peek() == '\r' && peek(1) == '\n'; }

  // Blank lines carry no record (pandas skips them too).
  bool skip_blank_line() {
    if (peek() == '\n') {
      ++pos_;
      ++line_;
      return true;
    }
    if (crlf_here()) {
      pos_ += 2;
      ++line_;
      return true;
    }
    return false;
  }

  // Reads fields up to and including the record terminator. False when the text ends first
  // (the record is partial); `fields` then holds what was read.
  bool read_record(std::vector<std::string>& fields) {
    for (;;) {
      std::string field;
      const bool field_complete = peek() == '"' ? read_quoted(field) : read_unquoted(field);
      fields.push_back(std::move(field));
      if (!field_complete || at_end()) return false;
      const char c = peek();
      if (c == ',') {
        ++pos_;
        if (at_end()) {
          fields.emplace_back();  // the empty field a cut after ',' began
          return false;
        }
        continue;
      }
      if (c == '\n') {
        ++pos_;
        ++line_;
        return true;
      }
      if (crlf_here()) {
        pos_ += 2;
        ++line_;
        return true;
      }
      if (c == '\r' && pos_ + 1 == text_.size()) return false;  // cut between CR and LF
      if (c == '\r') fail(source_, line_, "carriage return outside quotes without a line feed");
      fail(source_, line_,
           std::string("unexpected character '") + c + "' after the closing quote of field " +
               std::to_string(fields.size()));
    }
  }

  // Stops at ',', CR, LF or the end. Always complete: the caller sees the end of text.
  bool read_unquoted(std::string& field) {
    while (!at_end()) {
      const char c = peek();
      if (c == ',' || c == '\n' || c == '\r') break;
      if (c == '"') fail(source_, line_, "quote inside an unquoted field (RFC 4180 wants it quoted)");
      field += c;
      ++pos_;
    }
    return true;
  }

  // From the opening quote to just past the closing one. False when the text ends inside it.
  bool read_quoted(std::string& field) {
    const std::size_t opened_on = line_;
    ++pos_;
    while (!at_end()) {
      const char c = peek();
      if (c == '"') {
        if (pos_ + 1 < text_.size() && peek(1) == '"') {
          field += '"';
          pos_ += 2;
          continue;
        }
        ++pos_;
        return true;
      }
      if (c == '\n') ++line_;
      field += c;
      ++pos_;
    }
    // A writer cut mid-row leaves text that ends anywhere; every finished row ends with LF.
    // Text that ends with LF while a quote is open is an unterminated quote, not a cut row:
    // dropping it as "partial" would silently drop every row after it.
    if (text_.back() == '\n')
      fail(source_, opened_on, "unterminated quoted field (opened here, still open at end of file)");
    return false;
  }

  std::string_view text_;
  std::string_view source_;
  std::size_t pos_ = 0;
  std::size_t line_ = 1;
};

}  // namespace

void append_record(std::string& out, std::span<const std::string> fields) {
  append_fields(out, fields);
}

void append_record(std::string& out, std::span<const std::string_view> fields) {
  append_fields(out, fields);
}

std::string header_line() {
  std::vector<std::string_view> names;
  names.reserve(kColumnCount);
  for (const Column& column : kColumns) names.push_back(column.name);
  std::string line;
  append_record(line, std::span<const std::string_view>(names));
  return line;
}

RawText split_records(std::string_view text, std::string_view source) {
  return Scanner(text, source).run();
}

}  // namespace gridfuzz::reports::detail
