#pragma once
// Reads a gridfuzz CSV back into rows: RFC 4180 text, the header checked against the schema,
// every row's `schema` major version checked, and (by default) every value checked against the
// vocabulary. Problems throw CsvError with "path:line: what".
//
// CsvRowStream reads a row at a time and holds one row (and a 64 KiB buffer), never the file: a
// command over a large CSV keeps only what it needs of each row. A record over 1 MiB or 1024
// fields is refused with its line (no gridfuzz row is near that). read_csv keeps every row.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gridfuzz/reports/csv_error.hpp"
#include "gridfuzz/reports/csv_row.hpp"

namespace gridfuzz::reports {

struct CsvReadOptions {
  // Check vocabulary and numeric syntax (check_row) for rows of this minor version or older;
  // rows of a newer minor may use values this reader does not know yet.
  bool check_values = true;
};

struct CsvReadResult {
  std::vector<CsvRow> rows;
  std::vector<std::size_t> row_lines;  // 1-based line each row starts on, for messages
  // Columns in the header that this schema does not know (a newer minor version): ignored.
  std::vector<std::string> ignored_columns;
  // A killed writer's unterminated last row, dropped: the line it started on. Callers should
  // say so; the case it belonged to did not finish and is run again on resume.
  std::optional<std::size_t> dropped_partial_line;
  // Bytes up to the end of the last complete row: where a resuming writer appends.
  std::uint64_t complete_bytes = 0;
};

namespace detail {
class RecordScanner;
class RowChecker;
}  // namespace detail

class CsvRowStream {
 public:
  // A file: read_text_file's checks (a regular file of at most kMaxInputFileBytes); CsvError
  // when it cannot be used, CsvIoError for a read error. Reads the header.
  explicit CsvRowStream(const std::filesystem::path& path, const CsvReadOptions& options = {});
  // Text in memory, which must outlive the stream; `source` names it in messages.
  CsvRowStream(std::string_view text, std::string_view source, const CsvReadOptions& options = {});
  ~CsvRowStream();
  CsvRowStream(CsvRowStream&&) noexcept;
  CsvRowStream& operator=(CsvRowStream&&) noexcept;

  // The next row and the line it starts on; false at the end of the file.
  bool next(CsvRow& row, std::size_t& line);

  // Where the row `next` returned last starts in the file (a byte offset), to come back to it.
  std::uint64_t row_offset() const;
  // Reads on at a row read before: `offset` its row_offset, `line` the line next gave it. The next
  // row is that one again. Rows are checked again as they are read.
  void seek(std::uint64_t offset, std::size_t line);

  const std::vector<std::string>& ignored_columns() const;
  // Once next returned false: see CsvReadResult.
  std::optional<std::size_t> dropped_partial_line() const;
  std::uint64_t complete_bytes() const;
  std::size_t rows_read() const noexcept { return rows_read_; }

 private:
  struct Source;
  void start(const CsvReadOptions& options);

  std::unique_ptr<Source> source_;
  std::unique_ptr<detail::RecordScanner> scanner_;
  std::unique_ptr<detail::RowChecker> checker_;
  std::size_t rows_read_ = 0;
};

// Parses CSV text; `source` names it in error messages (a path, "<stdin>").
CsvReadResult parse_csv(std::string_view text, std::string_view source,
                        const CsvReadOptions& options = {});

// Reads a whole file and keeps every row (CsvError when it cannot be opened).
CsvReadResult read_csv(const std::filesystem::path& path, const CsvReadOptions& options = {});

// Just the rows of read_csv.
std::vector<CsvRow> read_rows(const std::filesystem::path& path,
                              const CsvReadOptions& options = {});

}  // namespace gridfuzz::reports
