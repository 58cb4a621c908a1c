#pragma once
// Several gridfuzz CSVs read as one run: shards of one sweep, or sweeps on several devices.
// Rows are keyed by (device, case_id); a case present in more than one file keeps the row of
// the last file given (a re-run shard replaces the old one) and the merge says so.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "gridfuzz/reports/csv_error.hpp"
#include "gridfuzz/reports/csv_row.hpp"

namespace gridfuzz::reports {

struct RowSet {
  std::vector<CsvRow> rows;          // merged, in first-seen order
  std::vector<std::string> notes;    // things a reader of the report should know (partial rows...)
  std::vector<std::string> sources;  // "path (N rows)"
};

// The key rows are matched by across files and runs.
std::string row_key(const CsvRow& row);

// Reads and merges the files (RowFiles) and holds every row. Throws CsvError for a file that is
// missing, corrupt, of another schema major version or missing a column (the reader's checks, with
// path:line). report and diff read RowFiles instead: they never hold the rows.
RowSet load_row_set(const std::vector<std::filesystem::path>& paths);

// Merges rows already in memory (the same rule as load_row_set), moving them; `notes` receives
// duplicates.
std::vector<CsvRow> merge_rows(std::vector<std::vector<CsvRow>> files,
                               std::vector<std::string>* notes = nullptr);

}  // namespace gridfuzz::reports
