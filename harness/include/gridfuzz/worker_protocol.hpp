#pragma once
// The pipe protocol between gridfuzz and its worker process.
//   parent -> worker:  "CASE <replay>\n"
//   worker -> parent:  "ROW\n" (or "ROW EXIT\n" when the worker exits after this reply, e.g. after a
//                      sticky fault) then, for each CSV column in schema order, "<byte length>\n<bytes>"
// Length-prefixed fields carry any bytes (commas, quotes, newlines) without escaping.
#include <cstdio>
#include <optional>
#include <string>

#include "gridfuzz/reports/csv_row.hpp"

namespace gridfuzz {

// Writes one reply to `out` and flushes. Returns false when the pipe is gone.
bool write_row_reply(std::FILE* out, const reports::CsvRow& row, bool exiting_after = false);

// Reads one request line ("CASE <replay>"), without the prefix; nullopt at end of input.
std::optional<std::string> read_case_request(std::FILE* in);

// Incremental parser of the worker's reply (the parent reads with a timeout, in chunks).
class ReplyParser {
 public:
  // Appends bytes; returns true once a whole reply has been received.
  bool feed(const char* data, std::size_t n);
  const reports::CsvRow& row() const { return row_; }
  void reset();
  bool started() const { return !buffer_.empty() || column_ > 0; }
  bool worker_exits() const { return exits_; }

 private:
  std::string buffer_;
  std::size_t column_ = 0;
  bool header_seen_ = false;
  bool exits_ = false;
  reports::CsvRow row_;
};

}  // namespace gridfuzz
