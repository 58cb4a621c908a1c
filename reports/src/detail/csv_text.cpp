#include "detail/csv_text.hpp"

#include <algorithm>
#include <cstring>

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

RecordScanner::RecordScanner(ReadBytes read, std::string_view source) : read_(std::move(read)), source_(source) {}

RecordScanner::RecordScanner(std::string_view text, std::string_view source)
    : RecordScanner(
          [text](char* buffer, std::size_t size) mutable {
            const std::size_t n = std::min(size, text.size());
            std::memcpy(buffer, text.data(), n);
            text.remove_prefix(n);
            return n;
          },
          source) {}

void RecordScanner::fail(std::size_t line, const std::string& what) const {
  throw CsvError(source_ + ":" + std::to_string(line) + ": " + what, line);
}

bool RecordScanner::available(std::size_t ahead) {
  constexpr std::size_t kChunk = std::size_t{1} << 16;
  while (pos_ + ahead >= buffer_.size() && !end_) {
    if (pos_ >= kChunk) {  // what is consumed is never looked at again
      buffer_.erase(0, pos_);
      dropped_ += pos_;
      pos_ = 0;
    }
    const std::size_t old = buffer_.size();
    buffer_.resize(old + kChunk);
    const std::size_t n = read_(buffer_.data() + old, kChunk);
    buffer_.resize(old + n);
    if (n == 0)
      end_ = true;
    else
      last_byte_ = buffer_.back();
  }
  return pos_ + ahead < buffer_.size();
}

bool RecordScanner::next(RawRecord& record) {
  if (finished_) return false;
  if (!started_) {
    started_ = true;
    constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";  // spreadsheet exports start with it
    if (available(2) && std::string_view(buffer_).substr(pos_, 3) == kUtf8Bom) pos_ += kUtf8Bom.size();
    complete_bytes_ = offset();
  }
  while (!at_end()) {
    if (skip_blank_line()) {
      complete_bytes_ = offset();
      continue;
    }
    record.fields.clear();
    record.line = record_line_ = line_;
    record_start_ = offset();
    if (read_record(record.fields)) {
      complete_bytes_ = offset();
      return true;
    }
    partial_line_ = record.line;
    partial_fields_ = record.fields.size();
    break;
  }
  finished_ = true;
  return false;
}

void RecordScanner::seek(std::uint64_t offset, std::size_t line,
                         const std::function<void(std::uint64_t)>& reposition) {
  if (offset >= dropped_ && offset <= dropped_ + buffer_.size()) {
    pos_ = static_cast<std::size_t>(offset - dropped_);
  } else {
    reposition(offset);
    buffer_.clear();
    pos_ = 0;
    dropped_ = offset;
    end_ = false;
  }
  line_ = line;
  started_ = true;
  finished_ = false;
  partial_line_.reset();
  partial_fields_ = 0;
}

bool RecordScanner::take_line_end() {
  const std::size_t length = peek() == '\n' ? 1 : crlf_here() ? 2 : 0;
  if (length == 0) return false;
  pos_ += length;
  ++line_;
  return true;
}

// Blank lines carry no record (pandas skips them too).
bool RecordScanner::skip_blank_line() { return take_line_end(); }

void RecordScanner::check_record_size(std::size_t fields) {
  if (offset() - record_start_ > kMaxRecordBytes)
    fail(record_line_, "row longer than " + std::to_string(kMaxRecordBytes) +
                           " bytes, the most a gridfuzz CSV row may be (not a gridfuzz CSV?)");
  if (fields > kMaxRecordFields)
    fail(record_line_, "row of more than " + std::to_string(kMaxRecordFields) +
                           " fields, the most a gridfuzz CSV row may have (not a gridfuzz CSV?)");
}

// Reads fields up to and including the record terminator. False when the text ends first
// (the record is partial); `fields` then holds what was read.
bool RecordScanner::read_record(std::vector<std::string>& fields) {
  for (;;) {
    std::string field;
    const bool field_complete = peek() == '"' ? read_quoted(field) : read_unquoted(field);
    fields.push_back(std::move(field));
    check_record_size(fields.size());
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
    if (take_line_end()) return true;
    if (c == '\r' && !available(1)) return false;  // cut between CR and LF
    if (c == '\r') fail(line_, "carriage return outside quotes without a line feed");
    fail(line_, std::string("unexpected character '") + c + "' after the closing quote of field " +
                    std::to_string(fields.size()));
  }
}

// Stops at ',', CR, LF or the end. Always complete: the caller sees the end of text.
bool RecordScanner::read_unquoted(std::string& field) {
  while (available(0)) {
    // The run of plain bytes in the buffer at once: a byte at a time was most of the reading.
    const std::string_view rest = std::string_view(buffer_).substr(pos_);
    const std::size_t stop = std::min(rest.find_first_of(",\n\r\""), rest.size());
    field.append(rest.substr(0, stop));
    pos_ += stop;
    check_record_size(0);
    if (stop == rest.size()) continue;
    if (peek() == '"') fail(line_, "quote inside an unquoted field (RFC 4180 wants it quoted)");
    break;
  }
  return true;
}

// From the opening quote to just past the closing one. False when the text ends inside it.
bool RecordScanner::read_quoted(std::string& field) {
  const std::size_t opened_on = line_;
  ++pos_;
  while (available(0)) {
    const std::string_view rest = std::string_view(buffer_).substr(pos_);
    const std::size_t stop = std::min(rest.find('"'), rest.size());
    const std::string_view run = rest.substr(0, stop);
    for (const char c : run)
      if (c == '\n') ++line_;
    field.append(run);
    pos_ += stop;
    check_record_size(0);
    if (stop == rest.size()) continue;
    if (available(1) && peek(1) == '"') {
      field += '"';
      pos_ += 2;
      continue;
    }
    ++pos_;
    return true;
  }
  // A writer cut mid-row leaves text that ends anywhere; every finished row ends with LF.
  // Text that ends with LF while a quote is open is an unterminated quote, not a cut row:
  // dropping it as "partial" would silently drop every row after it.
  if (last_byte_ == '\n')
    fail(opened_on, "unterminated quoted field (opened here, still open at end of file)");
  return false;
}

}  // namespace gridfuzz::reports::detail
