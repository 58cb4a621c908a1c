#include "gridfuzz/reports/timing_compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "gridfuzz/reports/mann_whitney.hpp"
#include "gridfuzz/reports/number_format.hpp"

namespace gridfuzz::reports {
namespace {

std::string percent(double relative) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", relative * 100);
  return buf;
}

// p-values as people read them: two significant digits, small ones in exponent form.
std::string p_text(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, p < 0.001 ? "%.1e" : "%.2g", p);
  return buf;
}

}  // namespace

std::string_view to_string(TimingChange change) {
  switch (change) {
    case TimingChange::same: return "SAME";
    case TimingChange::faster: return "FASTER";
    case TimingChange::slower: return "SLOWER";
    case TimingChange::unsure: return "UNSURE";
  }
  return "?";
}

std::optional<TimingSamples> timing_of(const CsvRow& row) {
  const auto median = row.get_double("time_ms_median");
  if (!median || !std::isfinite(*median) || *median <= 0) return std::nullopt;
  TimingSamples t;
  t.median_ms = *median;
  // A row without min/max (another writer) gets the degenerate range: the median alone.
  t.min_ms = row.get_double("time_ms_min").value_or(*median);
  t.max_ms = row.get_double("time_ms_max").value_or(*median);
  t.samples = row.get_int("samples").value_or(1);
  if (auto raw = row.get_reals("time_samples_ms")) t.raw_ms = std::move(*raw);
  return t;
}

std::optional<TimingSamples> timing_of_samples(std::vector<double> raw_ms) {
  if (raw_ms.empty()) return std::nullopt;
  std::vector<double> sorted = raw_ms;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  TimingSamples t;
  t.median_ms = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  t.min_ms = sorted.front();
  t.max_ms = sorted.back();
  t.samples = static_cast<std::int64_t>(n);
  t.raw_ms = std::move(raw_ms);
  return t;
}

TimingComparison compare_timing(const TimingSamples& baseline, const TimingSamples& current,
                                const TimingOptions& options) {
  TimingComparison c;
  c.relative = current.median_ms / baseline.median_ms - 1.0;
  const std::string median = "median " + percent(c.relative);
  if (std::fabs(c.relative) <= options.threshold) {
    c.change = TimingChange::same;
    c.reason = median + ", within the threshold";
    return c;
  }
  if (std::fabs(current.median_ms - baseline.median_ms) < options.min_delta_ms) {
    c.change = TimingChange::same;
    c.reason = median + " but under the absolute floor of " + significant(options.min_delta_ms) + " ms";
    return c;
  }
  const bool slower = c.relative > 0;
  const auto min_samples = static_cast<std::size_t>(std::max<std::int64_t>(options.min_samples, 0));
  if (baseline.raw_ms.size() >= min_samples && current.raw_ms.size() >= min_samples &&
      !baseline.raw_ms.empty() && !current.raw_ms.empty()) {
    // Both runs kept their samples: whether they differ is a question for a rank test, which a
    // single slow outlier (a range that overlaps) does not fool and a tight but small sample
    // (ranges that happen to be disjoint) does not convince.
    const MannWhitney mw = mann_whitney_u(current.raw_ms, baseline.raw_ms);
    c.test = NoiseTest::mann_whitney;
    c.p_value = mw.p;
    const std::string test = "Mann-Whitney U p=" + p_text(mw.p) + " (n=" + std::to_string(baseline.raw_ms.size()) +
                             "/" + std::to_string(current.raw_ms.size()) + ")";
    if (mw.p < options.alpha) {
      c.change = slower ? TimingChange::slower : TimingChange::faster;
      c.reason = median + ", " + test + " < " + significant(options.alpha);
    } else {
      c.change = TimingChange::unsure;
      c.reason = median + " but " + test + " >= " + significant(options.alpha) + ": not told apart from noise";
    }
    return c;
  }
  if (baseline.samples < options.min_samples || current.samples < options.min_samples) {
    c.change = TimingChange::unsure;
    c.reason = median + " but only " + std::to_string(std::min(baseline.samples, current.samples)) +
               " sample(s): too few to separate from noise";
    return c;
  }
  // A run without its samples (schema 1.6 or older): only the ranges are known.
  c.test = NoiseTest::interval;
  const bool separated = slower ? current.min_ms > baseline.max_ms : current.max_ms < baseline.min_ms;
  if (!separated) {
    c.change = TimingChange::unsure;
    c.reason = median + " but the [min, max] ranges overlap (interval test: no raw samples)";
    return c;
  }
  c.change = slower ? TimingChange::slower : TimingChange::faster;
  c.reason = median + ", ranges disjoint (interval test: no raw samples)";
  return c;
}

}  // namespace gridfuzz::reports
