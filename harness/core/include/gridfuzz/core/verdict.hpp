#pragma once
// From prediction, observation and oracle to the case's verdict (the values: vocabulary.hpp):
//   model-mismatch   predicted and observed launch outcomes disagree (the model or the kernel is
//                    wrong; both matter), whatever else happened
//   expected-fail    the case failed and the ledger expects it to
//   unexpected-pass  the ledger expects a failure and the case passed
//   fail:<kind>      any other failure (kind: FailureKind)
//   pass, skipped, static
#include <optional>
#include <string_view>

#include "gridfuzz/core/vocabulary.hpp"
#include "gridfuzz/predictor.hpp"

namespace gridfuzz {

struct Observation {
  Observed observed;
  std::optional<FailureKind> failure_kind;  // what the oracle found wrong; nullopt when nothing
};

// True when the launch outcomes agree: accept/accept, refuse/refuse, host-error/host-error.
// A fault or timeout agrees with an `accept` prediction (the launch was accepted; what went wrong
// happened inside it), and with any prediction that has a wrapping index: a wrapped offset in an
// earlier launch of the plan can fault before a later, refused launch is reached.
bool prediction_agrees(const Prediction& prediction, const Observed& observed);
// The same rule on the values: `wrap` is the prediction's index wrap (safe for a lone launch).
bool outcome_agrees(const PredictedOutcome& predicted, const IndexWrap& wrap, const Observed& observed);

// fails_run() of a verdict column's text. Text that is no verdict (the empty verdict of a case a
// time budget never started) does not fail the run: the CSV reader refuses such rows in files.
bool verdict_fails_run(std::string_view text);

Verdict decide_verdict(const Prediction& prediction, const Observation& obs, bool ledger_expects_failure);

}  // namespace gridfuzz
