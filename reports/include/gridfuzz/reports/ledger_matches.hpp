#pragma once
// The ledger's findings against a run's rows (ledger.hpp): which entry a run reached and which it
// matched, so an entry that no longer matches anything is said (`report`, `diff`) and the ledger
// cannot rot. An entry counts only where the run reached it: a row of its kernel and variant that
// ran (not static, not skipped) and where its condition holds; a partial run, or one whose shapes
// never meet the condition, flags nothing.
#include <cstddef>
#include <string>
#include <vector>

#include "gridfuzz/core/ledger.hpp"
#include "gridfuzz/reports/csv_row.hpp"

namespace gridfuzz::reports {

struct LedgerMatch {
  LedgerEntry entry;
  std::size_t reached = 0;  // rows that ran where the entry's condition holds
  std::size_t matched = 0;  // of those, rows that are expected-fail naming its finding
  bool unmatched() const { return reached > 0 && matched == 0; }
};

// One per finding of the ledger, in the ledger's order, counted as the rows are visited. The
// condition reads the row's axes (from its replay string, else its axis columns) and its
// predicted, observed and index_wrap columns: the values the run judged it by.
class LedgerMatcher {
 public:
  explicit LedgerMatcher(const Ledger& ledger);
  void add(const CsvRow& row);
  const std::vector<LedgerMatch>& matches() const { return matches_; }

 private:
  std::vector<LedgerMatch> matches_;
};
std::vector<LedgerMatch> match_ledger(const Ledger& ledger, const std::vector<CsvRow>& rows);

// One text per unmatched entry: "SOURCE:LINE KERNEL VARIANT FINDING (N case(s) reached it, none
// failed so)".
std::vector<std::string> unmatched_entries(const std::vector<LedgerMatch>& matches, const std::string& source);
// "ledger entries unmatched: ENTRY; ENTRY", or "" when every reached entry matched.
std::string unmatched_line(const std::vector<LedgerMatch>& matches, const std::string& source);

}  // namespace gridfuzz::reports
