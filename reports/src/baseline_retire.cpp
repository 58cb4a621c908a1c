#include "gridfuzz/reports/baseline_retire.hpp"

#include <algorithm>
#include <unordered_set>

namespace gridfuzz::reports {

RetireResult retire_unplanned(const std::vector<CsvRow>& baseline, const std::vector<CsvRow>& plan) {
  RetireResult r;
  if (plan.empty()) {
    r.refused = "PLAN holds no case: make it with `gridfuzz sweep --static --device-preset <cc> --cases 0 --csv PLAN`";
    return r;
  }
  std::unordered_set<std::string> planned;
  for (const CsvRow& row : plan) {
    if (!row.outcome().observed_is(Observed::Kind::static_only)) {
      r.refused = "PLAN is not a static plan (" + row.get("kernel") + " " + row.get("variant") + " (" +
                  row.get("replay") + ") was observed '" + row.get("observed") +
                  "'): retire against what this build plans, `gridfuzz sweep --static ... --cases 0`";
      return r;
    }
    planned.insert(row.get("case_id"));
  }
  for (const CsvRow& row : baseline) {
    if (planned.contains(row.get("case_id"))) {
      r.kept.push_back(row);
      continue;
    }
    const std::string target = row.get("kernel") + " " + row.get("variant");
    const auto it = std::find_if(r.retired.begin(), r.retired.end(), [&](const auto& t) { return t.first == target; });
    if (it == r.retired.end()) r.retired.emplace_back(target, 1);
    else ++it->second;
    ++r.retired_total;
  }
  if (r.kept.empty() && !baseline.empty()) {
    r.refused = "PLAN holds none of the baseline's " + std::to_string(baseline.size()) +
                " cases (another seed, or another build's kernels?): retiring would leave it empty";
    r.retired.clear();
    r.retired_total = 0;
  }
  return r;
}

}  // namespace gridfuzz::reports
