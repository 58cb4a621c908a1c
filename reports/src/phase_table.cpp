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

// Where a tier's rows stand: in the order a sweep makes them, rows without a tier after them.
std::size_t tier_rank(const std::optional<CaseTier>& tier) {
  if (!tier) return std::size(kCaseTiers);
  return static_cast<std::size_t>(std::find(std::begin(kCaseTiers), std::end(kCaseTiers), *tier) -
                                  std::begin(kCaseTiers));
}

}  // namespace

double PhaseTotals::total_ms() const {
  double sum = 0;
  for (const double v : ms) sum += v;
  return sum;
}

PhaseSums::PhaseSums() { run_.sum.every_tier = true; }

void PhaseSums::add(const CsvRow& row) {
  const auto case_ms = row.get_double("case_ms");
  if (!case_ms) return;
  std::array<double, kPhaseNames.size()> ms{};
  double measured = 0;
  for (std::size_t i = 0; i < kMeasured.size(); ++i) {
    ms[i] = row.get_double(kMeasured[i]).value_or(0);
    measured += ms[i];
  }
  ms[8] = std::max(0.0, *case_ms - measured);
  ms[9] = row.get_double("worker_ms").value_or(0);
  const std::string& name = row.get("kernel");
  const std::optional<CaseTier> tier = row.tier();
  Group& kernel = by_kernel_[name];
  kernel.sum.kernel = name;
  kernel.sum.every_tier = true;
  PhaseTotals& kernel_tier = kernel.by_tier[tier_rank(tier)];
  kernel_tier.kernel = name;
  kernel_tier.tier = tier;
  PhaseTotals& run_tier = run_.by_tier[tier_rank(tier)];
  run_tier.tier = tier;
  for (PhaseTotals* t : {&kernel_tier, &kernel.sum, &run_tier, &run_.sum}) {
    ++t->cases;
    for (std::size_t i = 0; i < ms.size(); ++i) t->ms[i] += ms[i];
  }
}

std::vector<PhaseTotals> PhaseSums::totals() const {
  std::vector<PhaseTotals> out;
  if (run_.sum.cases == 0) return out;
  for (const auto& [name, kernel] : by_kernel_) {
    for (const auto& [rank, t] : kernel.by_tier) out.push_back(t);
    if (kernel.by_tier.size() > 1) out.push_back(kernel.sum);
  }
  // With one kernel the run's tiers would repeat its rows; with one tier, the run's sum.
  if (by_kernel_.size() > 1 && run_.by_tier.size() > 1)
    for (const auto& [rank, t] : run_.by_tier) out.push_back(t);
  out.push_back(run_.sum);
  return out;
}

std::vector<PhaseTotals> phase_totals(const std::vector<CsvRow>& rows) {
  PhaseSums sums;
  for (const CsvRow& row : rows) sums.add(row);
  return sums.totals();
}

std::string phase_section(const std::vector<CsvRow>& rows) { return phase_section(phase_totals(rows)); }

std::string phase_section(const std::vector<PhaseTotals>& totals) {
  std::ostringstream out;
  out << "\n## Where the time went\n\n";
  if (totals.empty()) {
    out << "No row has the phase columns (schema 1.4: rows of cases that ran).\n";
    return out.str();
  }
  out << "Seconds over the run's cases, per kernel and the tier of the sweep that made them (`-`: none, a case "
         "no sweep made or a file before schema 1.5), and each phase's share (docs/REPORTS.md, \"Where the time "
         "went\").\n\n"
      << "| kernel | tier | cases | seconds | per case ms |";
  for (const std::string_view name : kPhaseNames) out << " " << name << " |";
  out << "\n|---|---|---:|---:|---:|";
  for (std::size_t i = 0; i < kPhaseNames.size(); ++i) out << "---:|";
  out << "\n";
  for (const PhaseTotals& t : totals) {
    const double total = t.total_ms();
    char per_case[32];
    std::snprintf(per_case, sizeof per_case, "%.1f", total / static_cast<double>(t.cases));
    const std::string kernel = t.kernel ? markdown_cell(*t.kernel) : "**all**";
    const std::string tier = t.every_tier ? "**all**" : t.tier ? std::string(to_string(*t.tier)) : "-";
    out << "| " << kernel << " | " << tier << " | " << t.cases << " | " << seconds(total) << " | " << per_case
        << " |";
    for (const double ms : t.ms) out << " " << share(ms, total) << " |";
    out << "\n";
  }
  return out.str();
}

}  // namespace gridfuzz::reports
