#include "gridfuzz/reports/csv_document.hpp"

#include <span>

#include "detail/csv_text.hpp"
#include "gridfuzz/reports/schema.hpp"
#include "gridfuzz/reports/vocabulary.hpp"

namespace gridfuzz::reports {

std::string csv_document(const std::vector<CsvRow>& rows) {
  std::string text = detail::header_line();
  for (const CsvRow& row : rows) {
    const std::string& version_text = row.get("schema");
    const auto version = parse_schema_version(version_text);
    const std::string which = "the row of case '" + row.get("case_id") + "' (" + row.get("kernel") + " " +
                              row.get("variant") + ")";
    if (!version || version->major != kSchemaMajor)
      throw CsvError(which + " is of schema '" + version_text + "', not " + std::to_string(kSchemaMajor) + ".x");
    if (version->minor > kSchemaMinor)
      throw CsvError(which + " is of schema " + version_text + ", newer than this build's " +
                     std::string(kSchemaVersion) + ": rewriting it would drop the columns this build does not know");
    CsvRow current = row;
    current.set("schema", std::string(kSchemaVersion));
    if (const auto problem = check_row(current)) throw CsvError(which + " cannot be written: " + *problem);
    detail::append_record(text, std::span<const std::string>(current.values()));
  }
  return text;
}

bool starts_like_gridfuzz_csv(std::string_view head) {
  return head.starts_with(std::string(kColumns[0].name) + ",");
}

}  // namespace gridfuzz::reports
