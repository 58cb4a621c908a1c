#include "gridfuzz/reports/known_races.hpp"

#include <algorithm>

namespace gridfuzz::reports {

KnownRaces::KnownRaces(const Ledger& ledger) {
  for (const LedgerEntry& e : ledger.entries())
    if (e.is_finding() && std::find(e.kinds.begin(), e.kinds.end(), FailureKind::nondeterministic) != e.kinds.end())
      findings_.insert(e.finding);
}

std::optional<std::string> KnownRaces::race_of(const CsvRow& row) const {
  const RowOutcome o = row.outcome();
  if (o.nondeterministic()) return o.verdict->to_string();
  if (o.verdict_is(Verdict::Kind::expected_fail))
    if (std::string finding = row.get("finding"); findings_.count(finding)) return finding;
  return std::nullopt;
}

}  // namespace gridfuzz::reports
