#include "gridfuzz/reports/report_markdown.hpp"

#include <map>
#include <set>
#include <sstream>

#include "gridfuzz/core/vocabulary.hpp"
#include "gridfuzz/reports/boundary_table.hpp"
#include "gridfuzz/reports/case_outcome.hpp"
#include "gridfuzz/reports/number_format.hpp"
#include "gridfuzz/reports/phase_table.hpp"
#include "gridfuzz/reports/report_data.hpp"
#include "gridfuzz/reports/run_summary.hpp"
#include "gridfuzz/reports/text_escape.hpp"
#include "gridfuzz/reports/two_axis_table.hpp"

namespace gridfuzz::reports {
namespace {

std::string value_text(const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : "-"; }

// A measured number of the CSV rounded for reading ("106.7"); the text itself when it is no number.
std::string rounded(const CsvRow& row, const char* column, int digits) {
  const auto v = row.get_double(column);
  return v ? significant(*v, digits) : markdown_cell(row.get(column));
}

std::string code(const std::string& text) { return markdown_code(text); }

// The verdict columns of the summary, in this order; fail:<kind> verdicts are summed under fail.
constexpr Verdict::Kind kVerdictColumns[] = {Verdict::Kind::pass,           Verdict::Kind::expected_fail,
                                             Verdict::Kind::fail,           Verdict::Kind::model_mismatch,
                                             Verdict::Kind::unexpected_pass, Verdict::Kind::skipped,
                                             Verdict::Kind::static_only};

void summary_section(std::ostringstream& out, const ReportData& data) {
  out << "## Verdicts\n\n| kernel | variant | device | cases |";
  for (const Verdict::Kind v : kVerdictColumns) out << " " << to_string(v) << " |";
  out << "\n|---|---|---|---:|";
  for (std::size_t i = 0; i < std::size(kVerdictColumns); ++i) out << "---:|";
  out << "\n";
  // The groups by kernel, variant and device.
  std::map<GroupKey, const VerdictCounts::Tally*> groups;
  const auto& tallies = data.verdicts.by_group();
  for (std::uint32_t g = 0; g < tallies.size(); ++g) {
    const RowFacts::Group& group = data.facts.group(g);
    groups[{std::string(data.facts.text(group.kernel)), std::string(data.facts.text(group.variant)),
            std::string(data.facts.text(group.device))}] = &tallies[g];
  }
  std::map<Verdict::Kind, std::size_t> totals;
  std::size_t all = 0;
  for (auto& [group, tally] : groups) {
    const auto& [kernel, variant, device] = group;
    out << "| " << markdown_cell(kernel) << " | " << markdown_cell(variant) << " | " << markdown_cell(device) << " | "
        << tally->cases << " |";
    for (const Verdict::Kind v : kVerdictColumns) {
      const auto it = tally->by_kind.find(v);
      const std::size_t n = it == tally->by_kind.end() ? 0 : it->second;
      out << " " << n << " |";
      totals[v] += n;
    }
    out << "\n";
    all += tally->cases;
  }
  out << "| **all** | | | **" << all << "** |";
  for (const Verdict::Kind v : kVerdictColumns) out << " **" << totals[v] << "** |";
  out << "\n";
  if (!data.verdicts.failure_kinds().empty()) {
    out << "\nFailure kinds:";
    for (const auto& [kind, count] : data.verdicts.failure_kinds()) out << " `" << kind << "` " << count << ";";
    out << "\n";
  }
}

void failures_section(std::ostringstream& out, const FailureList& failures, const RowSource& rows) {
  out << "\n## Failures\n\n";
  if (failures.count() == 0) {
    out << "None: no `fail:*`, `model-mismatch` or `unexpected-pass` row.\n";
    return;
  }
  out << failures.count() << " failing case(s). Re-run one with `gridfuzz replay '<replay>'`.\n\n"
      << "| verdict | kernel | variant | device | predicted | observed | oracle | replay |\n"
      << "|---|---|---|---|---|---|---|---|\n";
  for (const std::size_t position : failures.first()) {
    const CsvRow row = rows.at(position);
    out << "| " << code(row.get("verdict")) << " | " << markdown_cell(row.get("kernel")) << " | "
        << markdown_cell(row.get("variant")) << " | " << markdown_cell(row.get("device")) << " | "
        << markdown_cell(predicted_rule_text(row)) << " | " << markdown_cell(row.get("observed")) << " | "
        << markdown_cell(row.get("oracle")) << " | " << code(row.get("replay")) << " |\n";
  }
  if (failures.count() > failures.first().size())
    out << "\n... and " << failures.count() - failures.first().size() << " more (see junit.xml or the CSV).\n";
  if (failures.races())
    out << "\n" << failures.races() << " of them `fail:nondeterministic`: the production call made again on the same inputs "
        << "gave other outputs (`self:differ:N` in *oracle*: N elements differ between the two calls), a race "
        << "whose result depends on the blocks' scheduling. A replay may pass: run it a few times.\n";
}

void boundary_section(std::ostringstream& out, const ReportData& data, const RowSource& rows) {
  out << "\n## Boundaries\n\n"
      << "Per axis, along cases that differ only in that axis (the other axes as in *along*): the last value "
         "that passes and the first that fails, as the model predicted and as the device observed (`-` when "
         "none; no observed columns for static rows). *rule* is the predicted rule at the first predicted "
         "fail.\n";
  const auto table = boundary_table(data.facts, rows);
  if (table.empty()) {
    out << "\nNo axis varies with the others equal in these rows.\n";
    return;
  }
  std::string current_group;
  for (const BoundaryLine& b : table) {
    const std::string group = b.kernel + " " + b.variant + " on " + b.device;
    if (group != current_group) {
      current_group = group;
      out << "\n### " << markdown_cell(group) << "\n\n"
          << "| axis | range (points) | predicted last pass | predicted first fail | rule | observed last pass "
             "| observed first fail | observed at first fail | along |\n"
          << "|---|---|---:|---:|---|---:|---:|---|---|\n";
    }
    std::string note;
    if (b.predicted.passes_again_at) note += " (predicted passes again at " + std::to_string(*b.predicted.passes_again_at) + ")";
    if (b.observed && b.observed->passes_again_at)
      note += " (observed passes again at " + std::to_string(*b.observed->passes_again_at) + ")";
    out << "| " << markdown_cell(b.axis) << " | " << b.min_value << ".." << b.max_value << " (" << b.points.size() << ") | "
        << value_text(b.predicted.last_pass) << " | **" << value_text(b.predicted.first_fail) << "** | "
        << code(b.predicted.rule) << markdown_cell(note) << " | "
        << (b.observed ? value_text(b.observed->last_pass) : "n/a") << " | "
        << (b.observed ? "**" + value_text(b.observed->first_fail) + "**" : "n/a") << " | "
        << (b.observed ? code(b.observed->rule) : "") << " | " << markdown_cell(b.along) << " |\n";
  }
}

void two_axis_section(std::ostringstream& out, const ReportData& data, const RowSource& rows) {
  const auto tables = two_axis_tables(data.facts, rows);
  if (tables.empty()) return;
  out << "\n## Boundaries in two axes\n\n"
      << "For each value of the second axis, the first failing value of the first one, per variant (from the lines "
         "of cases that differ only in the first axis): the device's when the cases ran, else the model's "
         "(`(model)`). `no failure up to N`: nothing failed up to N, the largest value tested; `all fail from "
         "N`: the smallest value tested fails already, so an axis held fixed is the cause; `(model: M)`: the "
         "model predicted another first fail.\n";
  for (const TwoAxisTable& t : tables) {
    out << "\n### " << markdown_cell(t.kernel + " on " + t.device + ": first failing " + t.axis + " for each " +
                                      t.key_axis)
        << "\n\n| " << markdown_cell(t.key_axis) << " |";
    bool others = false;
    for (const TwoAxisEntry& e : t.entries) others = others || !e.others.empty();
    if (others) out << " other axes |";
    for (const std::string& v : t.variants) out << " " << markdown_cell(v) << " |";
    out << "\n|---:|" << (others ? "---|" : "");
    for (std::size_t i = 0; i < t.variants.size(); ++i) out << "---|";
    out << "\n";
    for (const TwoAxisEntry& e : t.entries) {
      out << "| " << e.key_value << " |";
      if (others) out << " " << markdown_cell(e.others) << " |";
      for (const std::string& v : t.variants) {
        const auto it = e.cells.find(v);
        out << " " << (it == e.cells.end() ? "-" : markdown_cell(cell_text(it->second))) << " |";
      }
      out << "\n";
    }
    if (!t.values_without_line.empty()) {
      out << "\n" << markdown_cell(t.key_axis) << " values in the rows with no line along " << markdown_cell(t.axis)
          << " (single cases, e.g. random ones):";
      std::size_t shown = 0;
      for (std::int64_t v : t.values_without_line) {
        if (shown++ == 20) {
          out << " ...";
          break;
        }
        out << " " << v;
      }
      out << "\n";
    }
  }
}

void slowest_section(std::ostringstream& out, const SlowestCases& slowest, const RowSource& rows) {
  const std::vector<std::size_t> positions = slowest.positions();
  out << "\n## Slowest cases\n\n";
  if (positions.empty()) {
    out << "No timed rows (run the sweep with `--timing`).\n";
    return;
  }
  out << "| # | kernel | variant | device | median ms | min ms | max ms | samples | GB/s | replay |\n"
      << "|---:|---|---|---|---:|---:|---:|---:|---:|---|\n";
  std::size_t rank = 0;
  for (const std::size_t position : positions) {
    const CsvRow row = rows.at(position);
    out << "| " << ++rank << " | " << markdown_cell(row.get("kernel")) << " | " << markdown_cell(row.get("variant"))
        << " | " << markdown_cell(row.get("device")) << " | " << rounded(row, "time_ms_median", 4) << " | "
        << rounded(row, "time_ms_min", 4) << " | " << rounded(row, "time_ms_max", 4) << " | "
        << markdown_cell(row.get("samples")) << " | " << rounded(row, "gbps", 3) << " | " << code(row.get("replay"))
        << " |\n";
  }
}

void plots_section(std::ostringstream& out, const std::vector<Plot>& plots) {
  if (plots.empty()) return;
  out << "\n## Plots\n";
  for (const Plot& p : plots) {
    out << "\n### " << markdown_cell(p.title) << "\n\n";
    if (p.drawn)
      out << "![" << markdown_cell(p.title) << "](" << p.png << ")\n\n[SVG](" << p.svg << ")\n";
    else
      out << "Not drawn (no gnuplot): script and data beside `" << p.png << "`.\n";
  }
}

}  // namespace

std::string markdown_cell(const std::string& text) { return markdown_text(text); }

std::string render_markdown(const ReportInput& input) {
  const RowVector rows(input.rows);
  const ReportData data = gather_report(rows, input.slowest, input.max_failures_listed);
  return render_markdown(input, data, rows);
}

std::string render_markdown(const ReportInput& input, const ReportData& data, const RowSource& rows) {
  std::ostringstream out;
  out << "# gridfuzz report\n\n";
  auto list = [](const auto& items) {
    std::string s;
    for (const auto& i : items) s += (s.empty() ? "" : ", ") + i;
    return s.empty() ? std::string("-") : s;
  };
  out << "- rows: " << rows.size() << " (merged by device and case_id)\n";
  out << "- sources: " << markdown_cell(list(input.sources)) << "\n";
  out << "- devices: " << markdown_cell(list(data.devices)) << "\n";
  out << "- runs: " << markdown_cell(list(data.runs)) << "\n";
  out << "- gridfuzz commits: " << markdown_cell(list(data.commits)) << "\n";
  for (const auto& note : input.notes) out << "- note: " << markdown_cell(note) << "\n";
  out << "\n";
  summary_section(out, data);
  out << phase_section(data.phases.totals());
  failures_section(out, data.failures, rows);
  boundary_section(out, data, rows);
  two_axis_section(out, data, rows);
  slowest_section(out, data.slowest, rows);
  plots_section(out, input.plots);
  return out.str();
}

}  // namespace gridfuzz::reports
