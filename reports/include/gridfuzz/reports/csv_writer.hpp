#pragma once
// Appends rows to a gridfuzz CSV, one row per write, each handed to the kernel before write()
// returns, so a sweep killed at any point keeps every finished row and can resume from the file.
//
// Opening an existing file checks it first: its header must be exactly this schema's column
// list, or that of an older minor from kOldestAppendedMinor (schema.hpp), whose rows this writer
// then writes in that minor; and its rows of this major version (else CsvError, never a silent
// mix of schemas). An unterminated last row left by a killed writer is cut off, so the next row
// starts on a fresh line and the file reads back with no partial record. An advisory lock (flock)
// keeps a second writer off the same file while this one is open.
#include <cstddef>
#include <filesystem>
#include <optional>

#include "gridfuzz/reports/csv_error.hpp"
#include "gridfuzz/reports/csv_row.hpp"

namespace gridfuzz::reports {

// What to do with a gridfuzz CSV that is already at the path.
enum class ExistingCsv {
  append,     // keep its rows and append (run, bisect, a resumed sweep)
  set_aside,  // copy it to <path>.<its mtime, UTC>.bak, then start the file again (a new sweep)
};

struct CsvWriterOptions {
  // Reject rows whose values fail check_row (vocabulary, numeric syntax).
  bool check_values = true;
  ExistingCsv existing = ExistingCsv::append;
};

class CsvWriter {
 public:
  // Creates the file (with its header) or opens it for append (or sets it aside: options).
  // Throws CsvError (bad path or content: nothing changed) or CsvIoError.
  explicit CsvWriter(std::filesystem::path path, const CsvWriterOptions& options = {});
  ~CsvWriter();
  CsvWriter(CsvWriter&& other) noexcept;
  CsvWriter& operator=(CsvWriter&& other) noexcept;
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;

  // Appends one row. Throws CsvError for a row of another major version, a row that fails the
  // value checks (nothing is written then), or an I/O error.
  void write(const CsvRow& row);

  const std::filesystem::path& path() const noexcept { return path_; }
  // Rows already in the file when it was opened (what a resumed sweep can skip).
  std::size_t rows_at_open() const noexcept { return rows_at_open_; }
  std::size_t rows_written() const noexcept { return rows_written_; }
  // The schema minor of the rows written: kSchemaMinor, or an older file's (a resumed 1.4 sweep's
  // rows stay 1.4, without `tier`).
  int minor() const noexcept { return minor_; }
  // Where a set-aside CSV was copied to, if one was.
  const std::optional<std::filesystem::path>& set_aside_to() const noexcept { return set_aside_to_; }
  // The line of an unterminated last row that opening cut off, if there was one.
  std::optional<std::size_t> truncated_partial_line() const noexcept {
    return truncated_partial_line_;
  }

 private:
  void write_all(std::string_view bytes);
  void close() noexcept;

  std::filesystem::path path_;
  CsvWriterOptions options_;
  int fd_ = -1;
  std::size_t rows_at_open_ = 0;
  std::size_t rows_written_ = 0;
  int minor_ = kSchemaMinor;
  std::optional<std::size_t> truncated_partial_line_;
  std::optional<std::filesystem::path> set_aside_to_;
};

}  // namespace gridfuzz::reports
