#pragma once
// A record as one CSV row of reports/SCHEMA.md.
#include "gridfuzz/engine/case_record.hpp"
#include "gridfuzz/reports/csv_row.hpp"

namespace gridfuzz::reporters {

reports::CsvRow to_row(const CaseRecord& record);

}  // namespace gridfuzz::reporters
