#pragma once
// JUnit XML for CI test-report viewers: one <testcase> per row (classname kernel.variant, name
// the replay string), one <testsuite> per kernel x variant x device. Failing verdicts (fail:*,
// model-mismatch, unexpected-pass) become <failure> whose message holds the replay command and
// the observed/oracle text; skipped and static rows become <skipped/> (nothing was judged on a
// device); pass and expected-fail pass.
//
// render_gate_junit: the gate's findings (`gridfuzz diff --junit FILE`) as one <testsuite>
// "gridfuzz gate": one failing <testcase> per finding (new failure, new model-mismatch, new
// unexpected-pass, moved boundary, slow-down, a kernel x variant with no matched case, a missing
// kernel family, coverage under --min-coverage), named so that the same finding has the same name
// in every run (no times, no run ids), or one passing testcase when the gate passes. Runs that
// cannot be compared give one <error> testcase with the reason. The testsuite's <properties> name
// both runs' commits and the coverage per kernel x variant. docs/REPORTS.md, "junit.xml".
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "gridfuzz/reports/baseline_diff.hpp"
#include "gridfuzz/reports/csv_row.hpp"
#include "gridfuzz/reports/row_facts.hpp"
#include "gridfuzz/reports/row_source.hpp"
#include "gridfuzz/reports/text_escape.hpp"  // xml_escape

namespace gridfuzz::reports {

// What the file says before its testcases, summed as the rows are visited: per kernel x variant x
// device (a RowFacts group) and for the run, the tests, failures, skipped and seconds.
class JunitTotals {
 public:
  struct Suite {
    std::size_t tests = 0, failures = 0, skipped = 0;
    double seconds = 0;
  };
  void add(std::uint32_t group, const CsvRow& row);
  const Suite& suite(std::uint32_t group) const { return suites_.at(group); }
  const Suite& all() const { return all_; }

 private:
  std::vector<Suite> suites_;
  Suite all_;
};

// The rows' JUnit XML, piece by piece to `out` (a report of a large CSV never holds it whole):
// `facts` and `totals` of `rows`, whose rows are read again a suite at a time.
void write_junit(const RowFacts& facts, const RowSource& rows, const JunitTotals& totals,
                 const std::function<void(std::string_view)>& out);
std::string render_junit(const std::vector<CsvRow>& rows);

std::string render_gate_junit(const BaselineDiff& diff);

// Whether a file's first bytes are those of a JUnit file gridfuzz wrote (either of the above):
// what `diff --junit FILE` may replace.
bool is_gridfuzz_junit(std::string_view head);

}  // namespace gridfuzz::reports
