#pragma once
// What a case looks like on a picture: one of a few outcomes a person tells apart at a glance
// (pass, launch refused, index wrapped, unexpected failure, ...), judged by the device when the
// case ran and by the model when it did not (a static row).
#include <string_view>

#include "gridfuzz/reports/csv_row.hpp"

namespace gridfuzz::reports {

enum class Outcome {
  pass,       // ran (or is predicted to run) correctly
  refused,    // a launch refused, or the host code's own check stopped it (expected)
  wrapped,    // an index wrapped: fault or wrong output where the model said so (expected)
  known,      // another expected failure (listed in the known-failure ledger)
  failed,     // fail:<kind>: a failure nobody expected
  disagrees,  // model-mismatch or unexpected-pass: the model and the device disagree
  skipped,    // not run (skipped:<reason>, oom)
};

struct PointOutcome {
  Outcome outcome = Outcome::pass;
  bool predicted_only = false;  // a static row: the outcome is the model's, nothing ran
  bool fails() const { return outcome != Outcome::pass && outcome != Outcome::skipped; }
  friend bool operator==(const PointOutcome&, const PointOutcome&) = default;
};

PointOutcome point_outcome(const CsvRow& row);

// "pass", "refused", "wrapped", "known failure", "FAIL", "model disagrees", "skipped".
std::string_view to_string(Outcome outcome);

}  // namespace gridfuzz::reports
