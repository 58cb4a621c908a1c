#include "gridfuzz/reports/baseline_accept.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <map>
#include <set>

#include "gridfuzz/reports/row_set.hpp"

namespace gridfuzz::reports {
namespace {

// "kernel variant (replay)": how a refusal names an example row.
std::string named(const CsvRow& row) {
  return row.get("kernel") + " " + row.get("variant") + " (" + row.get("replay") + ")";
}

std::string device_of(const CsvRow& row) { return row.get("device") + " (cc " + row.get("cc") + ")"; }

// A count of rows and the first of them, for a refusal: "3 row(s), e.g. kernel variant (replay)".
std::string rows_text(const std::vector<const CsvRow*>& rows) {
  return std::to_string(rows.size()) + " row(s), e.g. " + named(*rows.front());
}

std::string joined(const std::set<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

// What a run must be for any of its rows to stand in a baseline: a clean build's, run on a device.
std::optional<std::string> run_refusal(const std::vector<const CsvRow*>& taken) {
  std::vector<const CsvRow*> dirty, static_rows;
  for (const CsvRow* row : taken) {
    const std::string& commit = row->get("commit");
    if (commit.empty() || commit == "unknown" || commit.ends_with("+dirty")) dirty.push_back(row);
    if (row->outcome().verdict_is(Verdict::Kind::static_only) || row->outcome().observed_is(Observed::Kind::static_only))
      static_rows.push_back(row);
  }
  if (!dirty.empty())
    return "RUN was made by a modified or unknown build (commit '" + dirty.front()->get("commit") + "': " +
           rows_text(dirty) + "): a baseline vouches only for a committed build; commit the change, rebuild and run again";
  if (!static_rows.empty())
    return "RUN is static (verdict or observed 'static': " + rows_text(static_rows) +
           "): nothing ran on a device, and only a run on the GPU makes a baseline";
  return std::nullopt;
}

}  // namespace

bool accept_selects(const std::vector<std::string>& only, const CsvRow& row) {
  if (only.empty()) return true;
  const std::string kernel = row.get("kernel");
  const std::string target = kernel + "/" + row.get("variant");
  return std::any_of(only.begin(), only.end(), [&](const std::string& pattern) {
    return fnmatch(pattern.c_str(), kernel.c_str(), 0) == 0 || fnmatch(pattern.c_str(), target.c_str(), 0) == 0;
  });
}

AcceptResult accept_run(const std::vector<CsvRow>& baseline, const std::vector<CsvRow>& run,
                        const AcceptOptions& options) {
  AcceptResult result;
  std::vector<const CsvRow*> taken;
  for (const CsvRow& row : run)
    if (accept_selects(options.only, row)) taken.push_back(&row);
  result.taken = taken.size();
  if (taken.empty()) {
    result.refused = run.empty() ? "RUN has no rows" : "--only selects none of RUN's " + std::to_string(run.size()) + " row(s)";
    return result;
  }
  if (auto why = run_refusal(taken)) {
    result.refused = std::move(why);
    return result;
  }

  // The devices: those of the baseline, or for a first baseline exactly one.
  std::set<std::string> baseline_devices, run_devices;
  for (const CsvRow& row : baseline) baseline_devices.insert(device_of(row));
  for (const CsvRow* row : taken) run_devices.insert(device_of(*row));
  if (baseline.empty() && run_devices.size() != 1) {
    result.refused = "RUN holds rows of " + std::to_string(run_devices.size()) + " devices (" + joined(run_devices) +
                     "): a baseline is of one device; give --only or split the run";
    return result;
  }
  for (const std::string& device : run_devices)
    if (!baseline.empty() && !baseline_devices.contains(device)) {
      result.refused = "RUN ran on " + device + ", the baseline is of " + joined(baseline_devices) +
                       ": accept a run into its own device's baseline (baselines/<device>.csv)";
      return result;
    }

  // Coverage: the run holds every baseline case of the kernels x variants it is accepted for.
  std::set<std::string> run_keys;
  for (const CsvRow& row : run) run_keys.insert(row_key(row));
  if (!options.partial) {
    std::vector<const CsvRow*> missing;
    std::size_t selected = 0;
    for (const CsvRow& row : baseline)
      if (accept_selects(options.only, row)) {
        ++selected;
        if (!run_keys.contains(row_key(row))) missing.push_back(&row);
      }
    if (!missing.empty()) {
      result.refused = "RUN lacks " + std::to_string(missing.size()) + " of the baseline's " + std::to_string(selected) +
                       " case(s) of the kernels accepted (e.g. " + named(*missing.front()) +
                       "): a shorter or other run; give --only for what it ran, or --partial to keep the baseline's "
                       "rows of the cases it did not reach";
      return result;
    }
  }

  std::map<std::string, const CsvRow*> by_key;
  for (const CsvRow* row : taken) {
    by_key.emplace(row_key(*row), row);
    const std::string& commit = row->get("commit");
    if (std::find(result.commits.begin(), result.commits.end(), commit) == result.commits.end())
      result.commits.push_back(commit);
  }
  std::set<std::string> in_baseline;
  for (const CsvRow& row : baseline) {
    const std::string key = row_key(row);
    in_baseline.insert(key);
    const auto it = by_key.find(key);
    if (it == by_key.end()) {
      result.merged.push_back(row);
      ++result.kept;
      continue;
    }
    const CsvRow& now = *it->second;
    if (row.get("verdict") == now.get("verdict")) {
      ++result.replaced_same_verdict;
    } else {
      ++result.replaced_other_verdict;
      result.verdict_changes.push_back({now.get("device"), now.get("kernel"), now.get("variant"), now.get("case_id"),
                                        row.get("verdict"), now.get("verdict"), now.get("replay")});
    }
    result.merged.push_back(now);
  }
  for (const CsvRow* row : taken)
    if (!in_baseline.contains(row_key(*row))) {
      result.merged.push_back(*row);
      ++result.added;
    }
  return result;
}

}  // namespace gridfuzz::reports
