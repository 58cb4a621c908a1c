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
  const std::string& v = row.get("verdict");
  return !v.empty() && v != "static" && v != "skipped";
}

}  // namespace

std::vector<LedgerMatch> match_ledger(const Ledger& ledger, const std::vector<CsvRow>& rows) {
  std::vector<LedgerMatch> out;
  for (const LedgerEntry& e : ledger.entries())
    if (e.is_finding()) out.push_back({e});
  if (out.empty()) return out;
  for (const CsvRow& row : rows) {
    if (!ran(row)) continue;
    bool looked_up = false;
    ConditionLookup lookup;
    for (LedgerMatch& m : out) {
      if (m.entry.kernel != row.get("kernel") || m.entry.variant != row.get("variant")) continue;
      if (!looked_up) {
        lookup = case_condition_lookup(row_axes(row), row.get("predicted"), row.get("observed"), row.get("index_wrap"));
        looked_up = true;
      }
      if (!m.entry.reached(lookup)) continue;
      ++m.reached;
      if (row.get("verdict") == "expected-fail" && row.get("finding") == m.entry.finding) ++m.matched;
    }
  }
  return out;
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
