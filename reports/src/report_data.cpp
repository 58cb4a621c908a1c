#include "gridfuzz/reports/report_data.hpp"

namespace gridfuzz::reports {

ReportData gather_report(const RowSource& rows, std::size_t slowest, std::size_t failures_listed,
                         const Ledger& ledger) {
  ReportData data(slowest, failures_listed, ledger);
  rows.visit([&](std::size_t position, const CsvRow& row) {
    data.facts.add(row);
    const std::uint32_t group = data.facts.row(position).group;
    const RowOutcome outcome = row.outcome();
    data.verdicts.add(group, outcome);
    data.phases.add(row);
    data.failures.add(position, outcome);
    data.slowest.add(position, row);
    data.junit.add(group, row);
    data.ledger.add(row);
    data.runs.insert(row.get("run_id"));
    data.devices.insert(row.get("device") +
                        (row.is_empty("driver") ? "" : " (cc " + row.get("cc") + ", driver " + row.get("driver") + ")"));
    if (!row.is_empty("commit")) data.commits.insert(row.get("commit"));
  });
  return data;
}

}  // namespace gridfuzz::reports
