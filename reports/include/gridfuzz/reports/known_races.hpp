#pragma once
// The races a run's rows show, as the known-failure ledger names them: a finding the ledger
// expects as `fail:nondeterministic` (two identical production calls that differ, e.g. MLX's
// qmm_sm80 epilogue race, mlx.md finding 6). A race need not show in every run, so the diff does
// not take a boundary that only such rows move for a move (docs/REPORTS.md, "The gate").
#include <optional>
#include <set>
#include <string>

#include "gridfuzz/core/ledger.hpp"
#include "gridfuzz/reports/csv_row.hpp"

namespace gridfuzz::reports {

class KnownRaces {
 public:
  KnownRaces() = default;  // no finding: only fail:nondeterministic rows are races
  // The findings of the ledger's entries that name fail:nondeterministic among their kinds.
  explicit KnownRaces(const Ledger& ledger);

  // The race a row shows, or nullopt: its finding for an expected-fail naming a race finding,
  // "fail:nondeterministic" for that verdict (a race the ledger does not expect).
  std::optional<std::string> race_of(const CsvRow& row) const;

  const std::set<std::string>& findings() const { return findings_; }

 private:
  std::set<std::string> findings_;
};

}  // namespace gridfuzz::reports
