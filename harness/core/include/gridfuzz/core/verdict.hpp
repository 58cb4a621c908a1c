#pragma once
// From prediction, observation and oracle to the case's verdict (reports/SCHEMA.md vocabulary):
//   model-mismatch   predicted and observed launch outcomes disagree (the model or the kernel is
//                    wrong; both matter), whatever else happened
//   expected-fail    the case failed and the ledger expects it to
//   unexpected-pass  the ledger expects a failure and the case passed
//   fail:<kind>      any other failure (kind: refused, host-error, fault, timeout, oom, mismatch,
//                    unwritten, out-of-bounds-write, reference)
//   pass, skipped, static
#include <optional>
#include <string>
#include <string_view>

#include "gridfuzz/predictor.hpp"

namespace gridfuzz {

// What the device did with the production call, as a value: `accept` (every launch went in),
// `refuse` (a launch was refused; reason = the CUDA error), `fault` (a sticky device error, or the
// worker died; reason says which), `timeout`, `host_error` (the production host code failed before
// launching; reason = what), `oom`, `skipped` (reason = why), `static_only` (nothing ran).
struct Observed {
  enum class Kind { accept, refuse, fault, timeout, host_error, oom, skipped, static_only };
  Kind kind = Kind::static_only;
  std::string reason;

  std::string to_string() const;  // the CSV's `observed` text: accept, refuse:<err>, fault:<err>, ...
  static std::optional<Observed> parse(std::string_view text);
  bool operator==(const Observed&) const = default;
};

struct Observation {
  Observed observed;
  std::string failure_kind;  // empty when the oracle found nothing (see above for kinds)
};

// True when the launch outcomes agree: accept/accept, refuse/refuse, host-error/host-error.
// A fault or timeout agrees with an `accept` prediction (the launch was accepted; what went wrong
// happened inside it), and with any prediction that has a wrapping index: a wrapped offset in an
// earlier launch of the plan can fault before a later, refused launch is reached.
bool prediction_agrees(const Prediction& prediction, const Observed& observed);

// The verdict as a value: its kind, and for `fail` what failed. Strings only at the edges (the
// CSV's `verdict` column, the console), through to_string and parse.
struct Verdict {
  enum class Kind { pass, expected_fail, unexpected_pass, model_mismatch, fail, skipped, static_only };
  Kind kind = Kind::pass;
  std::string failure_kind;  // kind == fail: refused, host-error, fault, timeout, oom, mismatch, ...

  std::string to_string() const;  // "pass", "fail:fault", ...
  // The text of a verdict column, or nullopt when it is none (an empty `fail:` included).
  static std::optional<Verdict> parse(std::string_view text);
  // Whether a case with this verdict fails the run (and the nightly gate): a failure nobody
  // expected, a model that was wrong, or a ledger entry that no longer holds.
  bool fails_run() const { return kind == Kind::fail || kind == Kind::model_mismatch || kind == Kind::unexpected_pass; }
  bool operator==(const Verdict&) const = default;
};

// fails_run() of a verdict column's text. Text that is no verdict (the empty verdict of a case a
// time budget never started) does not fail the run: the CSV reader refuses such rows in files.
bool verdict_fails_run(std::string_view text);

Verdict decide_verdict(const Prediction& prediction, const Observation& obs, bool ledger_expects_failure);

}  // namespace gridfuzz
