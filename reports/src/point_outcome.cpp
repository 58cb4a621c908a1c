#include "gridfuzz/reports/point_outcome.hpp"

namespace gridfuzz::reports {

PointOutcome point_outcome(const CsvRow& row) {
  using Seen = Observed::Kind;
  using V = Verdict::Kind;
  const RowOutcome& o = row.outcome();
  if (o.verdict_is(V::static_only) || o.observed_is(Seen::static_only)) {
    if (o.predicted_refusal()) return {Outcome::refused, true};
    return {o.wrap_predicted() ? Outcome::wrapped : Outcome::pass, true};
  }
  if (o.verdict_is(V::skipped) || o.observed_is(Seen::skipped) || o.observed_is(Seen::oom))
    return {Outcome::skipped, false};
  if (o.verdict_is(V::model_mismatch) || o.verdict_is(V::unexpected_pass)) return {Outcome::disagrees, false};
  if (o.verdict_is(V::fail)) return {Outcome::failed, false};
  if (o.verdict_is(V::expected_fail)) {
    if (o.observed_is(Seen::refuse) || o.observed_is(Seen::host_error)) return {Outcome::refused, false};
    return {o.wrap_predicted() ? Outcome::wrapped : Outcome::known, false};
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
