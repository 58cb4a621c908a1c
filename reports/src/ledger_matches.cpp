#include "gridfuzz/reports/ledger_matches.hpp"

#include <stdexcept>
#include <utility>

#include "gridfuzz/core/case.hpp"
#include "gridfuzz/reports/schema.hpp"

namespace gridfuzz::reports {
namespace {

// The axes of a row: its replay string's parameters (every axis), else its axis columns.
std::vector<std::pair<std::string, std::string>> row_axes(const CsvRow& row) {
  try {
    const Case c = Case::parse_replay(row.get("replay"));
    return {c.params.values().begin(), c.params.values().end()};
  } catch (const std::invalid_argument&) {
    std::vector<std::pair<std::string, std::string>> axes;
    for (const std::string_view column : kAxisColumns)
      if (!row.get(column).empty()) axes.emplace_back(std::string(column), row.get(column));
    return axes;
  }
}

bool ran(const CsvRow& row) {
  const std::string_view v = row.view("verdict");
  return !v.empty() && v != "static" && v != "skipped";
}

}  // namespace

LedgerMatcher::LedgerMatcher(const Ledger& ledger) {
  for (const LedgerEntry& e : ledger.entries())
    if (e.is_finding()) matches_.push_back({e});
}

void LedgerMatcher::add(const CsvRow& row) {
  if (matches_.empty() || !ran(row)) return;
  bool looked_up = false;
  ConditionLookup lookup;
  for (LedgerMatch& m : matches_) {
    if (m.entry.kernel != row.view("kernel") || m.entry.variant != row.view("variant")) continue;
    if (!looked_up) {
      lookup = case_condition_lookup(row_axes(row), row.get("predicted"), row.get("observed"), row.get("index_wrap"));
      looked_up = true;
    }
    if (!m.entry.reached(lookup)) continue;
    ++m.reached;
    if (row.view("verdict") == "expected-fail" && row.view("finding") == m.entry.finding) ++m.matched;
  }
}

std::vector<LedgerMatch> match_ledger(const Ledger& ledger, const std::vector<CsvRow>& rows) {
  LedgerMatcher matcher(ledger);
  for (const CsvRow& row : rows) matcher.add(row);
  return matcher.matches();
}

std::vector<std::string> unmatched_entries(const std::vector<LedgerMatch>& matches, const std::string& source) {
  std::vector<std::string> out;
  for (const LedgerMatch& m : matches)
    if (m.unmatched())
      out.push_back(source + ":" + std::to_string(m.entry.line) + " " + m.entry.kernel + " " + m.entry.variant + " " +
                    m.entry.finding + " (" + std::to_string(m.reached) + " case(s) reached it, none failed so)");
  return out;
}

std::string unmatched_line(const std::vector<LedgerMatch>& matches, const std::string& source) {
  std::string line;
  for (const std::string& entry : unmatched_entries(matches, source))
    line += (line.empty() ? "ledger entries unmatched: " : "; ") + entry;
  return line;
}

}  // namespace gridfuzz::reports
