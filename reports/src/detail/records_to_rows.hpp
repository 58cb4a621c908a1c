#pragma once
// The schema half of the reader (header, versions, values), shared with the writer, which
// checks a file it is about to append to without splitting its text twice.
#include <string_view>

#include "detail/csv_text.hpp"
#include "gridfuzz/reports/csv_reader.hpp"

namespace gridfuzz::reports::detail {

CsvReadResult records_to_rows(const RawText& raw, std::string_view source,
                              const CsvReadOptions& options);

}  // namespace gridfuzz::reports::detail
