#include "gridfuzz/reports/junit.hpp"

#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "gridfuzz/reports/case_outcome.hpp"
#include "gridfuzz/reports/run_summary.hpp"
#include "gridfuzz/reports/text_escape.hpp"

namespace gridfuzz::reports {
namespace {

enum class Outcome { passed, failed, skipped };

Outcome outcome_of(const CsvRow& row) {
  const std::string& verdict = row.get("verdict");
  if (is_failing_verdict(verdict)) return Outcome::failed;
  if (verdict == "skipped" || verdict == "static") return Outcome::skipped;
  return Outcome::passed;
}

// JUnit times are seconds; a row's time is its median over the samples (0 when untimed or not a
// finite positive number: JUnit readers reject time="inf").
double seconds_of(const CsvRow& row) {
  const auto ms = row.get_double("time_ms_median");
  return ms && std::isfinite(*ms) && *ms > 0 ? *ms / 1000.0 : 0.0;
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", s);
  return buf;
}

}  // namespace

std::string render_junit(const std::vector<CsvRow>& rows) {
  std::map<GroupKey, std::vector<const CsvRow*>> suites;
  for (const CsvRow& row : rows) suites[group_of(row)].push_back(&row);

  std::size_t failures = 0, skipped = 0;
  double total_time = 0;
  for (const CsvRow& row : rows) {
    failures += outcome_of(row) == Outcome::failed;
    skipped += outcome_of(row) == Outcome::skipped;
    total_time += seconds_of(row);
  }
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"gridfuzz\" tests=\"" << rows.size() << "\" failures=\"" << failures
      << "\" errors=\"0\" skipped=\"" << skipped << "\" time=\"" << seconds_text(total_time) << "\">\n";
  for (const auto& [group, members] : suites) {
    const auto& [kernel, variant, device] = group;
    std::size_t suite_failures = 0, suite_skipped = 0;
    double suite_time = 0;
    for (const CsvRow* row : members) {
      suite_failures += outcome_of(*row) == Outcome::failed;
      suite_skipped += outcome_of(*row) == Outcome::skipped;
      suite_time += seconds_of(*row);
    }
    const std::string classname = kernel + "." + variant;
    out << "  <testsuite name=\"" << xml_escape(classname + " on " + device) << "\" tests=\"" << members.size()
        << "\" failures=\"" << suite_failures << "\" errors=\"0\" skipped=\"" << suite_skipped << "\" time=\""
        << seconds_text(suite_time) << "\">\n";
    for (const CsvRow* row : members) {
      const std::string& replay = row->get("replay");
      out << "    <testcase classname=\"" << xml_escape(classname) << "\" name=\"" << xml_escape(replay)
          << "\" time=\"" << seconds_text(seconds_of(*row)) << "\"";
      switch (outcome_of(*row)) {
        case Outcome::passed: out << "/>\n"; continue;
        case Outcome::skipped: {
          const std::string why = row->get("verdict") == "static"
                                      ? "static analysis only (predicted " + row->get("predicted") + ")"
                                      : row->get("observed");
          out << ">\n      <skipped message=\"" << xml_escape(why) << "\"/>\n    </testcase>\n";
          continue;
        }
        case Outcome::failed: break;
      }
      const std::string& verdict = row->get("verdict");
      const std::string message = verdict + ": observed " + row->get("observed") + ", oracle " + row->get("oracle") +
                                  ", predicted " + row->get("predicted") + "; replay: gridfuzz replay '" + replay + "'";
      std::string body = "replay:    gridfuzz replay '" + replay + "'\nverdict:   " + verdict +
                         "\npredicted: " + predicted_rule_text(*row) + "\nobserved:  " + row->get("observed") +
                         "\noracle:    " + row->get("oracle") + "\ndevice:    " + device + "\ncase_id:   " +
                         row->get("case_id") + "\n";
      if (!row->is_empty("mismatches")) body += "mismatches: " + row->get("mismatches") + "\n";
      if (!row->is_empty("max_abs_err")) body += "max_abs_err: " + row->get("max_abs_err") + "\n";
      out << ">\n      <failure message=\"" << xml_escape(message) << "\" type=\"" << xml_escape(verdict) << "\">"
          << xml_escape(body) << "</failure>\n    </testcase>\n";
    }
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
  return out.str();
}

}  // namespace gridfuzz::reports
