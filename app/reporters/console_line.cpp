#include "gridfuzz/reporters/console_line.hpp"

#include <cstdio>

#include "gridfuzz/reports/csv_row.hpp"
#include "gridfuzz/reports/text_escape.hpp"

namespace gridfuzz::reporters {

std::string console_line(const CaseRecord& r) {
  // Fields may hold a plugin's or a driver's text: escaped before formatting (no ESC reaches the
  // terminal, a NUL does not cut the line).
  const auto text = [](const std::string& s) { return reports::terminal_text(s); };
  char buf[512];
  std::snprintf(buf, sizeof(buf), "%-18s %-7s %-22s %-26s %-18s", text(r.the_case.kernel).c_str(),
                text(r.the_case.variant).c_str(), text(r.plan.predicted.to_string()).c_str(), text(r.observed.to_string()).c_str(),
                text(r.verdict.to_string()).c_str());
  std::string line = buf;
  if (r.timing.samples > 0) line += " " + reports::format_float(static_cast<float>(r.timing.median_ms)) + " ms";
  // The self-check, where it was made: whether a second identical call gave the same outputs.
  if (r.oracle.self_differ) {
    line += ' ';  // appended piecewise: `" " + std::string` trips GCC 12's -Wrestrict false positive
    line += r.oracle.self_check_text();
  }
  line += "  " + text(r.the_case.replay());
  if (!r.finding.empty()) line += "  (known: " + text(r.finding) + ")";
  return line;
}

void ConsoleReporter::report(const CaseRecord& record) { out_ << console_line(record) << std::endl; }

}  // namespace gridfuzz::reporters
