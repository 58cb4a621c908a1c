#include "gridfuzz/reports/row_set.hpp"

#include <map>

#include "gridfuzz/reports/csv_reader.hpp"

namespace gridfuzz::reports {

std::string row_key(const CsvRow& row) {
  // The unit separator cannot occur in a checked CSV value, so the key is unambiguous.
  return row.get("device") + '\x1f' + row.get("case_id");
}

std::vector<CsvRow> merge_rows(const std::vector<std::vector<CsvRow>>& files,
                               std::vector<std::string>* notes) {
  std::vector<CsvRow> merged;
  std::map<std::string, std::size_t> position;
  std::size_t replaced = 0, replaced_with_other_verdict = 0;
  for (const auto& rows : files) {
    for (const auto& row : rows) {
      const auto [it, inserted] = position.emplace(row_key(row), merged.size());
      if (inserted) {
        merged.push_back(row);
        continue;
      }
      ++replaced;
      if (merged[it->second].outcome().verdict != row.outcome().verdict) ++replaced_with_other_verdict;
      merged[it->second] = row;
    }
  }
  if (notes && replaced > 0)
    notes->push_back(std::to_string(replaced) + " case(s) appear more than once (same device and case_id); the last "
                     "file's row is kept" +
                     (replaced_with_other_verdict ? " (" + std::to_string(replaced_with_other_verdict) +
                                                        " of them with a different verdict)"
                                                  : std::string()));
  return merged;
}

RowSet load_row_set(const std::vector<std::filesystem::path>& paths) {
  RowSet set;
  std::vector<std::vector<CsvRow>> files;
  for (const auto& path : paths) {
    CsvReadResult read = read_csv(path);
    set.sources.push_back(path.string() + " (" + std::to_string(read.rows.size()) + " rows)");
    if (read.dropped_partial_line)
      set.notes.push_back(path.string() + ": an unfinished last row (line " + std::to_string(*read.dropped_partial_line) +
                          ") was dropped: its case did not finish");
    if (!read.ignored_columns.empty()) {
      std::string names;
      for (const auto& n : read.ignored_columns) names += (names.empty() ? "" : ", ") + n;
      set.notes.push_back(path.string() + ": columns of a newer schema minor version ignored: " + names);
    }
    files.push_back(std::move(read.rows));
  }
  set.rows = merge_rows(files, &set.notes);
  return set;
}

}  // namespace gridfuzz::reports
