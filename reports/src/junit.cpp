#include "gridfuzz/reports/junit.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <tuple>
#include <vector>

#include "gridfuzz/core/vocabulary.hpp"
#include "gridfuzz/reports/case_outcome.hpp"
#include "gridfuzz/reports/run_summary.hpp"
#include "gridfuzz/reports/text_escape.hpp"

namespace gridfuzz::reports {
namespace {

enum class CaseResult { passed, failed, skipped };

CaseResult result_of(const CsvRow& row) {
  const RowOutcome o = row.outcome();
  if (o.fails_run()) return CaseResult::failed;
  if (o.verdict_is(Verdict::Kind::skipped) || o.verdict_is(Verdict::Kind::static_only)) return CaseResult::skipped;
  return CaseResult::passed;
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

void JunitTotals::add(std::uint32_t group, const CsvRow& row) {
  if (group >= suites_.size()) suites_.resize(group + 1);
  Suite& suite = suites_[group];
  const CaseResult result = result_of(row);
  const double seconds = seconds_of(row);
  for (Suite* s : {&suite, &all_}) {
    ++s->tests;
    s->failures += result == CaseResult::failed;
    s->skipped += result == CaseResult::skipped;
    s->seconds += seconds;
  }
}

void write_junit(const RowFacts& facts, const RowSource& rows, const JunitTotals& totals,
                 const std::function<void(std::string_view)>& out) {
  // The suites by kernel, variant and device; each suite's rows in their order.
  std::vector<std::uint32_t> suites(facts.groups());
  for (std::uint32_t g = 0; g < suites.size(); ++g) suites[g] = g;
  const auto key = [&](std::uint32_t g) {
    const RowFacts::Group& group = facts.group(g);
    return std::tuple(facts.text(group.kernel), facts.text(group.variant), facts.text(group.device));
  };
  std::sort(suites.begin(), suites.end(), [&](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); });
  std::vector<std::size_t> first(facts.groups() + 1, 0);  // where each group's rows start in `order`
  for (std::size_t p = 0; p < facts.size(); ++p) ++first[facts.row(p).group + 1];
  for (std::size_t g = 1; g < first.size(); ++g) first[g] += first[g - 1];
  std::vector<std::uint32_t> order(facts.size());
  {
    std::vector<std::size_t> next(first.begin(), first.end() - 1);
    for (std::size_t p = 0; p < facts.size(); ++p) order[next[facts.row(p).group]++] = static_cast<std::uint32_t>(p);
  }

  const JunitTotals::Suite& all = totals.all();
  out("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  out("<testsuites name=\"gridfuzz\" tests=\"" + std::to_string(all.tests) + "\" failures=\"" +
      std::to_string(all.failures) + "\" errors=\"0\" skipped=\"" + std::to_string(all.skipped) + "\" time=\"" +
      seconds_text(all.seconds) + "\">\n");
  for (const std::uint32_t g : suites) {
    const auto [kernel, variant, device] = key(g);
    const JunitTotals::Suite& suite = totals.suite(g);
    const std::string classname = std::string(kernel) + "." + std::string(variant);
    out("  <testsuite name=\"" + xml_escape(classname + " on " + std::string(device)) + "\" tests=\"" +
        std::to_string(suite.tests) + "\" failures=\"" + std::to_string(suite.failures) +
        "\" errors=\"0\" skipped=\"" + std::to_string(suite.skipped) + "\" time=\"" + seconds_text(suite.seconds) +
        "\">\n");
    for (std::size_t i = first[g]; i < first[g + 1]; ++i) {
      const CsvRow row = rows.at(order[i]);
      const std::string replay = row.get("replay");
      std::string text = "    <testcase classname=\"" + xml_escape(classname) + "\" name=\"" + xml_escape(replay) +
                         "\" time=\"" + seconds_text(seconds_of(row)) + "\"";
      switch (result_of(row)) {
        case CaseResult::passed:
          out(text + "/>\n");
          continue;
        case CaseResult::skipped: {
          const std::string why = row.outcome().verdict_is(Verdict::Kind::static_only)
                                      ? "static analysis only (predicted " + row.get("predicted") + ")"
                                      : row.get("observed");
          out(text + ">\n      <skipped message=\"" + xml_escape(why) + "\"/>\n    </testcase>\n");
          continue;
        }
        case CaseResult::failed: break;
      }
      const std::string verdict = row.get("verdict");
      const std::string message = verdict + ": observed " + row.get("observed") + ", oracle " + row.get("oracle") +
                                  ", predicted " + row.get("predicted") + "; replay: gridfuzz replay '" + replay + "'";
      std::string body = "replay:    gridfuzz replay '" + replay + "'\nverdict:   " + verdict +
                         "\npredicted: " + predicted_rule_text(row) + "\nobserved:  " + row.get("observed") +
                         "\noracle:    " + row.get("oracle") + "\ndevice:    " + std::string(device) + "\ncase_id:   " +
                         row.get("case_id") + "\n";
      if (!row.is_empty("mismatches")) body += "mismatches: " + row.get("mismatches") + "\n";
      if (!row.is_empty("max_abs_err")) body += "max_abs_err: " + row.get("max_abs_err") + "\n";
      out(text + ">\n      <failure message=\"" + xml_escape(message) + "\" type=\"" + xml_escape(verdict) + "\">" +
          xml_escape(body) + "</failure>\n    </testcase>\n");
    }
    out("  </testsuite>\n");
  }
  out("</testsuites>\n");
}

std::string render_junit(const std::vector<CsvRow>& rows) {
  const RowVector source(rows);
  const RowFacts facts = RowFacts::of(source);
  JunitTotals totals;
  for (std::size_t p = 0; p < rows.size(); ++p) totals.add(facts.row(p).group, rows[p]);
  std::string xml;
  write_junit(facts, source, totals, [&](std::string_view piece) { xml += piece; });
  return xml;
}

}  // namespace gridfuzz::reports
