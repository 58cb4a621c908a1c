#include "gridfuzz/reports/point_outcome.hpp"

#include <string>

namespace gridfuzz::reports {
namespace {

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

bool wrap_predicted(const CsvRow& row) {
  const std::string& wrap = row.get("index_wrap");
  return !wrap.empty() && wrap != "safe";
}

}  // namespace

PointOutcome point_outcome(const CsvRow& row) {
  const std::string& verdict = row.get("verdict");
  const std::string& observed = row.get("observed");
  if (verdict == "static" || observed == "static") {
    const std::string& predicted = row.get("predicted");
    if (starts_with(predicted, "refuse:") || starts_with(predicted, "host-error:")) return {Outcome::refused, true};
    return {wrap_predicted(row) ? Outcome::wrapped : Outcome::pass, true};
  }
  if (verdict == "skipped" || starts_with(observed, "skipped:") || observed == "oom") return {Outcome::skipped, false};
  if (verdict == "model-mismatch" || verdict == "unexpected-pass") return {Outcome::disagrees, false};
  if (starts_with(verdict, "fail:")) return {Outcome::failed, false};
  if (verdict == "expected-fail") {
    if (starts_with(observed, "refuse:") || starts_with(observed, "host-error:")) return {Outcome::refused, false};
    return {wrap_predicted(row) ? Outcome::wrapped : Outcome::known, false};
  }
  return {Outcome::pass, false};
}

std::string_view to_string(Outcome outcome) {
  switch (outcome) {
    case Outcome::pass: return "pass";
    case Outcome::refused: return "refused";
    case Outcome::wrapped: return "wrapped";
    case Outcome::known: return "known failure";
    case Outcome::failed: return "FAIL";
    case Outcome::disagrees: return "model disagrees";
    case Outcome::skipped: return "skipped";
  }
  return "?";
}

}  // namespace gridfuzz::reports
