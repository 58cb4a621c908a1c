#include "gridfuzz/reports/run_summary.hpp"

#include <algorithm>
#include <cmath>

namespace gridfuzz::reports {

GroupKey group_of(const CsvRow& row) { return {row.get("kernel"), row.get("variant"), row.get("device")}; }

std::map<GroupKey, std::map<std::string, std::size_t>> verdict_counts(const std::vector<CsvRow>& rows) {
  std::map<GroupKey, std::map<std::string, std::size_t>> counts;
  for (const CsvRow& row : rows) ++counts[group_of(row)][row.get("verdict")];
  return counts;
}

void VerdictCounts::add(std::uint32_t group, const RowOutcome& outcome) {
  if (group >= tallies_.size()) tallies_.resize(group + 1);
  Tally& tally = tallies_[group];
  ++tally.cases;
  if (const auto& verdict = outcome.verdict) {
    ++tally.by_kind[verdict->kind];
    if (verdict->kind == Verdict::Kind::fail) ++kinds_[verdict->to_string()];
  }
}

void FailureList::add(std::size_t position, const RowOutcome& outcome) {
  if (!outcome.fails_run()) return;
  ++count_;
  races_ += outcome.nondeterministic();
  if (first_.size() < listed_) first_.push_back(position);
}

void SlowestCases::add(std::size_t position, const CsvRow& row) {
  const auto median = row.get_double("time_ms_median");
  if (!median || !std::isfinite(*median) || count_ == 0) return;
  // After every kept row at least as slow: rows come in order, so ties keep it.
  const auto at = std::upper_bound(kept_.begin(), kept_.end(), *median,
                                   [](double m, const std::pair<double, std::size_t>& k) { return m > k.first; });
  if (at == kept_.end() && kept_.size() == count_) return;
  kept_.insert(at, {*median, position});
  if (kept_.size() > count_) kept_.pop_back();
}

std::vector<std::size_t> SlowestCases::positions() const {
  std::vector<std::size_t> out;
  for (const auto& [median, position] : kept_) out.push_back(position);
  return out;
}

std::vector<const CsvRow*> slowest_cases(const std::vector<CsvRow>& rows, std::size_t count) {
  SlowestCases slowest(count);
  for (std::size_t i = 0; i < rows.size(); ++i) slowest.add(i, rows[i]);
  std::vector<const CsvRow*> out;
  for (const std::size_t position : slowest.positions()) out.push_back(&rows[position]);
  return out;
}

}  // namespace gridfuzz::reports
