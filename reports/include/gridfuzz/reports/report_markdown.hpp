#pragma once
// report.md: what a run found, per kernel x variant x device. Sections: sources and notes,
// verdict counts, failing cases with their replay strings, the boundary table, the slowest cases
// and links to the plots. docs/REPORTS.md explains how to read it.
#include <cstddef>
#include <string>
#include <vector>

#include "gridfuzz/reports/csv_row.hpp"
#include "gridfuzz/reports/plots.hpp"
#include "gridfuzz/reports/report_data.hpp"
#include "gridfuzz/reports/row_source.hpp"

namespace gridfuzz::reports {

struct ReportInput {
  std::vector<CsvRow> rows;          // rows in memory (the first render_markdown)
  std::vector<std::string> sources;  // "path (N rows)"
  std::vector<std::string> notes;
  std::vector<Plot> plots;           // links, relative to report.md's folder
  std::size_t slowest = 10;
  std::size_t max_failures_listed = 100;
};

std::string render_markdown(const ReportInput& input);
// The same from `data` gathered from `rows` (gather_report with input's slowest and
// max_failures_listed); input.rows is not read.
std::string render_markdown(const ReportInput& input, const ReportData& data, const RowSource& rows);

// Text safe inside a Markdown table cell, list item or heading: markdown_text (text_escape.hpp).
std::string markdown_cell(const std::string& text);

}  // namespace gridfuzz::reports
