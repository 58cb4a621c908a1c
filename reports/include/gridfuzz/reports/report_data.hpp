#pragma once
// What report.md, junit.xml and the plots show of a run, gathered in one visit of its rows
// (issue 34: a report of a 1 GB CSV must not hold its rows): the rows' facts (lines, tables,
// pictures), the verdict counts, where the time went, the failing and slowest cases (as positions:
// their text is read again when shown), the JUnit totals, the ledger's findings and the rows'
// devices, runs and commits. It grows with the rows by the facts' few tens of bytes a row.
#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "gridfuzz/core/ledger.hpp"
#include "gridfuzz/reports/junit.hpp"
#include "gridfuzz/reports/ledger_matches.hpp"
#include "gridfuzz/reports/phase_table.hpp"
#include "gridfuzz/reports/row_facts.hpp"
#include "gridfuzz/reports/row_source.hpp"
#include "gridfuzz/reports/run_summary.hpp"

namespace gridfuzz::reports {

struct ReportData {
  ReportData(std::size_t slowest, std::size_t failures_listed, const Ledger& ledger)
      : failures(failures_listed), slowest(slowest), ledger(ledger) {}

  RowFacts facts;
  VerdictCounts verdicts;
  PhaseSums phases;
  FailureList failures;
  SlowestCases slowest;
  JunitTotals junit;
  LedgerMatcher ledger;
  // "NVIDIA H200 (cc 9.0, driver 13.0)"; run ids; commits (empty ones left out).
  std::set<std::string> devices, runs, commits;
};

// Visits `rows` once. `slowest`: the slowest cases kept; `failures_listed`: the failing cases kept.
ReportData gather_report(const RowSource& rows, std::size_t slowest, std::size_t failures_listed,
                         const Ledger& ledger = {});

}  // namespace gridfuzz::reports
