#include "gridfuzz/reports/timing_compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "gridfuzz/reports/number_format.hpp"

namespace gridfuzz::reports {
namespace {

std::string percent(double relative) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", relative * 100);
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
  return t;
}

TimingComparison compare_timing(const TimingSamples& baseline, const TimingSamples& current,
                                const TimingOptions& options) {
  TimingComparison c;
  c.relative = current.median_ms / baseline.median_ms - 1.0;
  if (std::fabs(c.relative) <= options.threshold) {
    c.change = TimingChange::same;
    c.reason = "median " + percent(c.relative) + ", within the threshold";
    return c;
  }
  if (std::fabs(current.median_ms - baseline.median_ms) < options.min_delta_ms) {
    c.change = TimingChange::same;
    c.reason = "median " + percent(c.relative) + " but under the absolute floor of " +
               significant(options.min_delta_ms) + " ms";
    return c;
  }
  if (baseline.samples < options.min_samples || current.samples < options.min_samples) {
    c.change = TimingChange::unsure;
    c.reason = "median " + percent(c.relative) + " but only " + std::to_string(std::min(baseline.samples, current.samples)) +
               " sample(s): too few to separate from noise";
    return c;
  }
  const bool slower = c.relative > 0;
  const bool separated = slower ? current.min_ms > baseline.max_ms : current.max_ms < baseline.min_ms;
  if (!separated) {
    c.change = TimingChange::unsure;
    c.reason = "median " + percent(c.relative) + " but the [min, max] ranges overlap";
    return c;
  }
  c.change = slower ? TimingChange::slower : TimingChange::faster;
  c.reason = "median " + percent(c.relative) + ", ranges disjoint";
  return c;
}

}  // namespace gridfuzz::reports
