#pragma once
// The known-failure ledger: which failures are expected. A checked-in text file, one entry per
// line: `KERNEL VARIANT WHEN` with WHEN one of
//   refused   the case is expected to fail wherever the Predictor says the launch is refused or
//             the host code fails (legacy geometry)
//   wrap      ... wherever an index is predicted to wrap
//   always    every case of this variant is expected to fail
// '#' starts a comment. An expected failure that passes is `unexpected-pass`, which fails the run,
// so the ledger cannot rot.
//
// A known upstream bug the model cannot predict is expected by rule, with its finding:
//   KERNEL VARIANT KIND[|KIND...] FINDING SOURCE [if CONDITION]
// KIND a failure verdict (fail:fault, fail:unwritten, ...: vocabulary.hpp), FINDING the finding's
// anchor in docs/upstream (llama-cpp.md#finding-3), SOURCE upstream's file:line (mmq.cuh:919 or
// mmq.cuh:919-924), CONDITION where on the shape it fails (ledger_condition.hpp; none: wherever
// the kernel fails so). A failure of that kind where the condition holds is `expected-fail` and
// its row names the finding; a pass there stays a pass (a finding's condition says where the bug
// can show, not that every case there fails). An entry no failure matched in a run that reached
// its condition is reported by `report` and `diff` (ledger_matches in gridfuzz/reports), so such
// entries cannot rot either. One entry per kernel, variant and finding.
#include <optional>
#include <string>
#include <vector>

#include "gridfuzz/core/ledger_condition.hpp"
#include "gridfuzz/core/vocabulary.hpp"
#include "gridfuzz/predictor.hpp"

namespace gridfuzz {

struct LedgerEntry {
  std::string kernel, variant;
  std::string when;                       // refused | wrap | always; empty for a finding
  std::vector<FailureKind> kinds;         // a finding's failure kinds
  std::string finding;                    // a finding's anchor, e.g. llama-cpp.md#finding-3
  std::string source;                     // upstream's file:line
  std::optional<LedgerCondition> condition;  // none: wherever the kernel fails so
  int line = 0;  // in the ledger's text, 1-based
  bool is_finding() const { return !finding.empty(); }
  // Whether the condition holds for the case `lookup` describes (always without a condition).
  bool reached(const ConditionLookup& lookup) const { return !condition || condition->holds(lookup); }
  // The entry as a line of the ledger, which Ledger::parse reads back as this entry.
  std::string text() const;
};

class Ledger {
 public:
  Ledger() = default;
  static Ledger parse(const std::string& text, const std::string& source = "ledger");  // throws std::invalid_argument (with line)
  static Ledger load(const std::string& path);                                         // throws std::runtime_error

  // The refused/wrap/always entries: the model predicts the failure before the case runs.
  bool expects_failure(const std::string& kernel, const std::string& variant, const Prediction& prediction) const;
  // The first finding that expects a failure of `kind` of this kernel and variant where the case
  // `lookup` describes is; null when none does.
  const LedgerEntry* known_failure(const std::string& kernel, const std::string& variant, FailureKind kind,
                                   const ConditionLookup& lookup) const;
  const std::vector<LedgerEntry>& entries() const { return entries_; }

 private:
  std::vector<LedgerEntry> entries_;
};

}  // namespace gridfuzz
