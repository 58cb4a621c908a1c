#include "gridfuzz/reports/bench_diff.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <ostream>

#include "gridfuzz/reports/number_format.hpp"
#include "gridfuzz/reports/text_escape.hpp"

namespace gridfuzz::reports {

bool BenchDiff::any_slower() const {
  return std::any_of(compared.begin(), compared.end(),
                     [](const BenchChange& c) { return c.comparison.change == TimingChange::slower; });
}

BenchDiff diff_benchmarks(const std::vector<BenchmarkRuns>& baseline, const std::vector<BenchmarkRuns>& current,
                          const TimingOptions& options) {
  std::map<std::string, const BenchmarkRuns*> before;
  for (const BenchmarkRuns& b : baseline) before.emplace(b.name, &b);
  BenchDiff diff;
  for (const BenchmarkRuns& now : current) {
    const auto it = before.find(now.name);
    if (it == before.end()) {
      diff.only_current.push_back(now.name);
      continue;
    }
    const auto old_timing = timing_of_samples(it->second->real_ms), new_timing = timing_of_samples(now.real_ms);
    if (!old_timing || !new_timing) continue;  // parse_benchmark_json never yields a benchmark without runs
    diff.compared.push_back({now.name, *old_timing, *new_timing, compare_timing(*old_timing, *new_timing, options)});
    before.erase(it);
  }
  for (const BenchmarkRuns& b : baseline)
    if (before.contains(b.name)) diff.only_baseline.push_back(b.name);
  return diff;
}

void print_bench_diff(std::ostream& out, const BenchDiff& diff) {
  std::size_t width = std::string_view("benchmark").size();
  for (const BenchChange& c : diff.compared) width = std::max(width, terminal_text(c.name).size());
  auto pad = [](std::string text, std::size_t n) {
    if (text.size() < n) text.append(n - text.size(), ' ');
    return text;
  };
  auto times = [](const TimingSamples& t) { return significant(t.median_ms) + " ms (" + std::to_string(t.samples) + ")"; };
  out << pad("benchmark", width) << "  " << pad("baseline", 18) << "  " << pad("current", 18) << "  "
      << pad("change", 8) << "  " << pad("class", 6) << "  reason\n";
  std::array<std::size_t, 4> counts{};
  for (const BenchChange& c : diff.compared) {
    char change[32];
    std::snprintf(change, sizeof change, "%+.1f%%", c.comparison.relative * 100);
    out << pad(terminal_text(c.name), width) << "  " << pad(times(c.before), 18) << "  " << pad(times(c.after), 18)
        << "  " << pad(change, 8) << "  " << pad(std::string(to_string(c.comparison.change)), 6) << "  "
        << c.comparison.reason << "\n";
    ++counts[static_cast<std::size_t>(c.comparison.change)];
  }
  for (const std::string& name : diff.only_baseline) out << "only in the baseline: " << terminal_text(name) << "\n";
  for (const std::string& name : diff.only_current) out << "only in the current run: " << terminal_text(name) << "\n";
  out << "benchmarks: SAME " << counts[0] << ", FASTER " << counts[1] << ", SLOWER " << counts[2] << ", UNSURE "
      << counts[3] << "; " << diff.only_baseline.size() << " only in the baseline, " << diff.only_current.size()
      << " only in the current run\n";
}

}  // namespace gridfuzz::reports
