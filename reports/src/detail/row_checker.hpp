#pragma once
// The schema half of the reader (header, versions, values), a record at a time: shared by the
// reader (CsvRowStream) and the writer, which checks a file it is about to append to.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "detail/csv_text.hpp"
#include "gridfuzz/reports/csv_reader.hpp"

namespace gridfuzz::reports::detail {

class RowChecker {
 public:
  // Checks the header: every name printable UTF-8 (with check_values), none twice, `schema`
  // among them. Throws CsvError.
  RowChecker(const RawRecord& header, std::string_view source, const CsvReadOptions& options);

  // A data record as a row of this schema: its field count, its major version, the columns its
  // minor has (a column appended by a later minor is absent from files of older minors and reads
  // as empty there; a row of its minor or newer needs it), then (with check_values) its text and
  // values. Throws CsvError with the record's line (the header's for a missing column).
  CsvRow row(const RawRecord& record);

  // At the end of the text: an unterminated last record (partial_line) that had begun more
  // fields than the header has is no cut row but a corrupt one; a file of no rows must still
  // have the columns of minor 0. Throws CsvError.
  void finish(std::optional<std::size_t> partial_line, std::size_t partial_fields);

  const std::vector<std::string>& header() const noexcept { return header_; }
  // Columns of the header that this schema does not know (a newer minor version): ignored.
  const std::vector<std::string>& ignored_columns() const noexcept { return ignored_; }

 private:
  void check_columns(int minor);  // the columns of minors up to `minor` are present
  [[noreturn]] void fail(std::size_t line, const std::string& what) const;

  std::string source_;
  CsvReadOptions options_;
  std::vector<std::string> header_;
  std::size_t header_line_ = 0;
  std::array<std::size_t, kColumnCount> file_position_{};
  std::vector<std::string> ignored_;
  int checked_minor_ = -1;  // the columns of minors up to this one are known present
};

}  // namespace gridfuzz::reports::detail
