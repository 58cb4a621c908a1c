#pragma once
// From prediction, observation and oracle to the case's verdict (reports/SCHEMA.md vocabulary):
//   model-mismatch   predicted and observed launch outcomes disagree (the model or the kernel is
//                    wrong; both matter), whatever else happened
//   expected-fail    the case failed and the ledger expects it to
//   unexpected-pass  the ledger expects a failure and the case passed
//   fail:<kind>      any other failure (kind: refused, host-error, fault, timeout, oom, mismatch,
//                    unwritten, out-of-bounds-write, reference)
//   pass, skipped, static
#include <string>

#include "gridfuzz/predictor.hpp"

namespace gridfuzz {

struct Observation {
  std::string observed;      // accept | refuse:<err> | fault:<err> | timeout | host-error:<what> | oom | skipped:<r> | static
  std::string failure_kind;  // empty when the oracle found nothing (see above for kinds)
};

// True when the launch outcomes agree: accept/accept, refuse:*/refuse:*, host-error/host-error.
// A fault or timeout agrees with an `accept` prediction (the launch was accepted; what went wrong
// happened inside it), and with any prediction that has a wrapping index: a wrapped offset in an
// earlier launch of the plan can fault before a later, refused launch is reached.
bool prediction_agrees(const Prediction& prediction, const std::string& observed);

std::string decide_verdict(const Prediction& prediction, const Observation& obs, bool ledger_expects_failure);

}  // namespace gridfuzz
