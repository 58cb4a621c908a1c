#pragma once
// A case's result as one CSV row of reports/SCHEMA.md, and back to a Case for replay.
#include <optional>
#include <string>

#include "gridfuzz/reports/csv_row.hpp"
#include "gridfuzz/runner.hpp"

namespace gridfuzz {

struct RunContext {
  std::string run_id;   // one per gridfuzz invocation
  std::string device;   // device name or preset
  std::string cc;
  std::string driver;
  std::string commit;   // gridfuzz's own git commit
  std::optional<int> device_index;  // CUDA ordinal of the GPU that runs the cases; none for static rows
};

reports::CsvRow to_row(const CaseResult& r, const RunContext& ctx);

// The launch the row describes: the first refused one, else the one with the most blocks.
const LaunchSpec* representative_launch(const LaunchPlan& plan, const Prediction& prediction);

// The commit gridfuzz was built from ("unknown" outside a git checkout).
std::string build_commit();

}  // namespace gridfuzz
