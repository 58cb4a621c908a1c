#pragma once
// A whole gridfuzz CSV as text, for commands that write a file at once (baseline accept, merge)
// rather than append row by row (CsvWriter): the header of this schema and every row in it.
#include <string>
#include <string_view>
#include <vector>

#include "gridfuzz/reports/csv_error.hpp"
#include "gridfuzz/reports/csv_row.hpp"

namespace gridfuzz::reports {

// The header and the rows, each in the current schema (kSchemaVersion): a row read from a file of
// an older minor gets this version, the columns its minor lacked staying empty (every minor since
// 1.0 only appended columns). Throws CsvError for a row of another major or of a newer minor (its
// columns this build does not know would be lost) and for a row check_row refuses.
std::string csv_document(const std::vector<CsvRow>& rows);

// Whether a file's first bytes are those of a gridfuzz CSV (its first column is `schema`): what
// an output that writes a CSV whole may replace.
bool starts_like_gridfuzz_csv(std::string_view head);

}  // namespace gridfuzz::reports
