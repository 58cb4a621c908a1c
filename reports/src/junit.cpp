#include "gridfuzz/reports/junit.hpp"

#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <vector>

#include "gridfuzz/core/vocabulary.hpp"
#include "gridfuzz/reports/case_outcome.hpp"
#include "gridfuzz/reports/run_summary.hpp"
#include "gridfuzz/reports/text_escape.hpp"

namespace gridfuzz::reports {
namespace {

enum class Outcome { passed, failed, skipped };

Outcome outcome_of(const CsvRow& row) {
  const RowOutcome& o = row.outcome();
  if (o.fails_run()) return Outcome::failed;
  if (o.verdict_is(Verdict::Kind::skipped) || o.verdict_is(Verdict::Kind::static_only)) return Outcome::skipped;
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

// One finding of the gate: a stable test name (classname + name) and its failure text.
struct GateFinding {
  std::string classname, name, type, message, body;
};

std::string case_name(const std::string& device, const std::string& replay) { return replay + " on " + device; }

GateFinding case_finding(const char* kind, const CaseChange& c) {
  const std::string replay = "gridfuzz replay '" + c.replay + "'";
  return {std::string("gate.") + kind, case_name(c.device, c.replay), kind,
          std::string(kind) + ": " + c.before + " -> " + c.after + " (" + c.detail + "); " + replay,
          "case:      " + c.kernel + " " + c.variant + " on " + c.device + "\nbaseline:  " + c.before +
              "\ncurrent:   " + c.after + "\ndetail:    " + c.detail + "\nreplay:    " + replay + "\n"};
}

std::string ms_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

std::string samples_text(const TimingSamples& t) {
  return "median " + ms_text(t.median_ms) + " ms [" + ms_text(t.min_ms) + ", " + ms_text(t.max_ms) +
         "] n=" + std::to_string(t.samples);
}

std::vector<GateFinding> gate_findings(const BaselineDiff& diff) {
  std::vector<GateFinding> out;
  for (const auto& c : diff.new_failures) out.push_back(case_finding("new-failure", c));
  for (const auto& c : diff.new_model_mismatches) out.push_back(case_finding("new-model-mismatch", c));
  for (const auto& c : diff.new_unexpected_passes) out.push_back(case_finding("new-unexpected-pass", c));
  for (const auto& m : diff.moved_boundaries) {
    const BoundaryLine& b = m.after;
    const std::string line = b.kernel + " " + b.variant + " " + b.axis + " (along " + b.along + ") on " + b.device;
    out.push_back({"gate.moved-boundary", line, "moved-boundary", "moved boundary: " + m.what,
                   "line:      " + line + "\nchange:    " + m.what + "\n"});
  }
  for (const auto& t : diff.slower) {
    const std::string replay = "gridfuzz replay --timing '" + t.replay + "'";  // the replay shows the times
    const std::string change = samples_text(t.before) + " -> " + samples_text(t.after);
    out.push_back({"gate.slower", case_name(t.device, t.replay), "slower",
                   "slower: " + change + ": " + t.comparison.reason + "; " + replay,
                   "case:      " + t.kernel + " " + t.variant + " on " + t.device + "\nbaseline:  " +
                       samples_text(t.before) + "\ncurrent:   " + samples_text(t.after) + "\nwhy:       " +
                       t.comparison.reason + "\nreplay:    " + replay + "\n"});
  }
  for (const auto& t : diff.unmatched_targets()) {
    const std::string target = t.kernel + " " + t.variant;
    out.push_back({"gate.unmatched-target", target, "unmatched-target",
                   "no case matched: " + target + " has " + std::to_string(t.total) +
                       " baseline case(s), the run matched none",
                   "target:    " + target + "\nbaseline:  " + std::to_string(t.total) + " case(s)\nmatched:   0\n"});
  }
  for (const auto& f : diff.missing_families_failing())
    out.push_back({"gate.missing-family", f.family, "missing-family",
                   "kernel family " + f.family + " has no row in the run (missing from the build?): " +
                       std::to_string(f.cases) + " baseline case(s) in " + std::to_string(f.targets) +
                       " kernel x variant(s); --allow-missing " + f.family + " if it is left out on purpose",
                   "family:    " + f.family + "\nbaseline:  " + std::to_string(f.cases) + " case(s) in " +
                       std::to_string(f.targets) + " kernel x variant(s)\nrun:       no row\n"});
  if (diff.coverage_below_minimum()) {
    const std::string share = std::to_string(diff.covered_cases) + " of " + std::to_string(diff.coverage_total);
    out.push_back({"gate.coverage", "matched share of the baseline", "coverage",
                   "coverage: " + share + " baseline case(s) matched, under --min-coverage " +
                       ms_text(diff.min_coverage) + "%",
                   "matched:   " + share + "\nminimum:   " + ms_text(diff.min_coverage) + "%\n"});
  }
  return out;
}

// The testsuite's properties: both runs' commits, and the coverage per kernel x variant
// ("matched/total"), so a CI view shows what the gate compared even when it passes.
void write_properties(std::ostringstream& out, const BaselineDiff& diff) {
  const auto property = [&](const std::string& name, const std::string& value) {
    out << "      <property name=\"" << xml_escape(name) << "\" value=\"" << xml_escape(value) << "\"/>\n";
  };
  out << "    <properties>\n";
  property("baseline.commits", commits_text(diff.baseline_commits));
  property("current.commits", commits_text(diff.current_commits));
  property("coverage", std::to_string(diff.covered_cases) + "/" + std::to_string(diff.coverage_total));
  property("min_coverage", ms_text(diff.min_coverage) + "%");
  for (const TargetCoverage& t : diff.coverage)
    property("coverage." + t.kernel + "." + t.variant,
             std::to_string(t.matched) + "/" + std::to_string(t.total) + (t.out_of_scope ? " (not counted)" : ""));
  out << "    </properties>\n";
}

}  // namespace

bool is_gridfuzz_junit(std::string_view head) {
  return head.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"gridfuzz");
}

std::string render_gate_junit(const BaselineDiff& diff) {
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  const auto why = diff.incomparable();
  const std::vector<GateFinding> findings = why ? std::vector<GateFinding>{} : gate_findings(diff);
  const std::size_t tests = findings.empty() ? 1 : findings.size();
  const std::size_t failures = findings.size(), errors = why ? 1 : 0;
  out << "<testsuites name=\"gridfuzz gate\" tests=\"" << tests << "\" failures=\"" << failures
      << "\" errors=\"" << errors << "\" skipped=\"0\" time=\"0\">\n";
  out << "  <testsuite name=\"gridfuzz gate\" tests=\"" << tests << "\" failures=\"" << failures
      << "\" errors=\"" << errors << "\" skipped=\"0\" time=\"0\">\n";
  write_properties(out, diff);
  if (why) {
    out << "    <testcase classname=\"gate\" name=\"baseline comparison\" time=\"0\">\n"
        << "      <error message=\"" << xml_escape("cannot compare: " + *why) << "\" type=\"incomparable\">"
        << xml_escape(*why) << "</error>\n    </testcase>\n";
  } else if (findings.empty()) {
    out << "    <testcase classname=\"gate\" name=\"baseline comparison\" time=\"0\"/>\n";
  }
  for (const GateFinding& f : findings)
    out << "    <testcase classname=\"" << xml_escape(f.classname) << "\" name=\"" << xml_escape(f.name)
        << "\" time=\"0\">\n      <failure message=\"" << xml_escape(f.message) << "\" type=\"" << xml_escape(f.type)
        << "\">" << xml_escape(f.body) << "</failure>\n    </testcase>\n";
  out << "  </testsuite>\n</testsuites>\n";
  return out.str();
}

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
          const std::string why = row->outcome().verdict_is(Verdict::Kind::static_only)
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
