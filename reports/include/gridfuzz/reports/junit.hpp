#pragma once
// JUnit XML for CI test-report viewers: one <testcase> per row (classname kernel.variant, name
// the replay string), one <testsuite> per kernel x variant x device. Failing verdicts (fail:*,
// model-mismatch, unexpected-pass) become <failure> whose message holds the replay command and
// the observed/oracle text; skipped and static rows become <skipped/> (nothing was judged on a
// device); pass and expected-fail pass.
#include <string>
#include <string_view>
#include <vector>

#include "gridfuzz/reports/csv_row.hpp"
#include "gridfuzz/reports/text_escape.hpp"  // xml_escape

namespace gridfuzz::reports {

std::string render_junit(const std::vector<CsvRow>& rows);

}  // namespace gridfuzz::reports
