#include "gridfuzz/reports/phase_table.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include "gridfuzz/reports/report_markdown.hpp"

namespace gridfuzz::reports {
namespace {

// The columns of the phases that are measured directly, in kPhaseNames' order.
constexpr std::array<std::string_view, 8> kMeasured{"plan_ms",    "alloc_ms",   "fill_ms", "call_ms",
                                                    "reference_ms", "compare_ms", "cpu_ms",  "timing_ms"};

std::string seconds(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", ms / 1000);
  return buf;
}

std::string share(double part, double whole) {
  if (whole <= 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f%%", 100 * part / whole);
  return buf;
}

}  // namespace

double PhaseTotals::total_ms() const {
  double sum = 0;
  for (const double v : ms) sum += v;
  return sum;
}

std::vector<PhaseTotals> phase_totals(const std::vector<CsvRow>& rows) {
  std::map<std::string, PhaseTotals> by_kernel;
  PhaseTotals all{"all"};
  for (const CsvRow& row : rows) {
    const auto case_ms = row.get_double("case_ms");
    if (!case_ms) continue;
    std::array<double, kPhaseNames.size()> ms{};
    double measured = 0;
    for (std::size_t i = 0; i < kMeasured.size(); ++i) {
      ms[i] = row.get_double(kMeasured[i]).value_or(0);
      measured += ms[i];
    }
    ms[8] = std::max(0.0, *case_ms - measured);
    ms[9] = row.get_double("worker_ms").value_or(0);
    PhaseTotals& k = by_kernel[row.get("kernel")];
    k.kernel = row.get("kernel");
    for (PhaseTotals* t : {&k, &all}) {
      ++t->cases;
      for (std::size_t i = 0; i < ms.size(); ++i) t->ms[i] += ms[i];
    }
  }
  std::vector<PhaseTotals> out;
  for (auto& [name, t] : by_kernel) out.push_back(std::move(t));
  if (all.cases > 0) out.push_back(all);
  return out;
}

std::string phase_section(const std::vector<CsvRow>& rows) {
  std::ostringstream out;
  out << "\n## Where the time went\n\n";
  const auto totals = phase_totals(rows);
  if (totals.empty()) {
    out << "No row has the phase columns (schema 1.4: rows of cases that ran).\n";
    return out.str();
  }
  out << "Seconds over the run's cases, and each phase's share (docs/REPORTS.md, \"Where the time went\").\n\n"
      << "| kernel | cases | seconds | per case ms |";
  for (const std::string_view name : kPhaseNames) out << " " << name << " |";
  out << "\n|---|---:|---:|---:|";
  for (std::size_t i = 0; i < kPhaseNames.size(); ++i) out << "---:|";
  out << "\n";
  for (const PhaseTotals& t : totals) {
    const double total = t.total_ms();
    char per_case[32];
    std::snprintf(per_case, sizeof per_case, "%.1f", total / static_cast<double>(t.cases));
    const bool all = &t == &totals.back();
    const std::string kernel = all ? "**all**" : markdown_cell(t.kernel);
    out << "| " << kernel << " | " << t.cases << " | " << seconds(total) << " | " << per_case << " |";
    for (const double ms : t.ms) out << " " << share(ms, total) << " |";
    out << "\n";
  }
  return out.str();
}

}  // namespace gridfuzz::reports
