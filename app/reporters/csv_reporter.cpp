#include "gridfuzz/reporters/csv_reporter.hpp"

#include "gridfuzz/reporters/record_row.hpp"

namespace gridfuzz::reporters {

void CsvReporter::report(const CaseRecord& record) { writer_.write(to_row(record)); }

}  // namespace gridfuzz::reporters
