#pragma once
// Reads a gridfuzz CSV back into rows: RFC 4180 text, the header checked against the schema,
// every row's `schema` major version checked, and (by default) every value checked against the
// vocabulary. Problems throw CsvError with "path:line: what".
#include <cstddef>
#include <filesystem>
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
  std::size_t complete_bytes = 0;
};

// Parses CSV text; `source` names it in error messages (a path, "<stdin>").
CsvReadResult parse_csv(std::string_view text, std::string_view source,
                        const CsvReadOptions& options = {});

// Reads a whole file (CsvError when it cannot be opened).
CsvReadResult read_csv(const std::filesystem::path& path, const CsvReadOptions& options = {});

// Just the rows of read_csv.
std::vector<CsvRow> read_rows(const std::filesystem::path& path,
                              const CsvReadOptions& options = {});

}  // namespace gridfuzz::reports
